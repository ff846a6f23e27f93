"""Sync points: positions that are token boundaries of every span around them.

A tokenizer that splits text into pieces first (tiktoken's regular expression, a
Hugging Face pre-tokenizer) and encodes each piece on its own gives any span the tokens
of the whole document between two positions that are piece boundaries in every scan
that covers them, whatever the scan's start or end. A `SyncRule` names such positions
for one family of tokenizers, by the two characters around them, so `TokenIndex` can
count a span from one encode of the document and two short edges.

No sync point touches a surrogate: the string a tokenizer encodes joins a surrogate
pair into one character, or makes a lone surrogate U+FFFD, and a span that cuts a pair
sees another character there than the document does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_DIGITS = frozenset("0123456789")


class SyncRule(NamedTuple):
    """`is_sync(text, pos)` for `0 < pos < len(text)`, and a pattern whose (empty)
    matches are the same positions, for searching forwards."""

    is_sync: Callable[[str, int], bool]
    pattern: re.Pattern[str]


# cl100k_base's pre-tokenizer: right after a line break when the next character is not
# white space, right after a letter or digit when the next character is white space,
# right after an ASCII letter when the next character is no letter, and right after an
# ASCII digit when the next character is an ASCII non-digit (no piece of the pattern runs
# from a letter or digit into white space, nor from a line break into a non-space, nor
# from a letter into anything but letters: a run of letters is possessive; and a piece
# holding a digit holds digits only. The last two rules give markup, minified code and
# number lists, `class="a"`, `f(x);`, `[97980687,98151207]`, the sync points their few
# spaces do not); and right after any letter or number before punctuation or a symbol
# (`_PUNCTUATION`: a run of letters or of digits ends there, so CJK prose, a full stop
# or a full-width comma after ideographs, and words that end in a non-ASCII letter,
# `café,`, have sync points between their spaces: a CJK text with none but its line
# starts counted most of a chunk's span again with a plain encode).
CL100K_PATTERNS = frozenset(
    {
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",  # noqa: E501
    }
)


# Punctuation and symbols (general categories P and S in Python's Unicode database) of
# ASCII, Latin-1, general, CJK and full-width punctuation and the Arabic and Devanagari
# full stops: characters that are no letter, number or white space to cl100k's pattern in
# any Unicode version (a character not yet assigned in Python's database may be a letter
# to tiktoken's, so none is named here).
_PUNCTUATION_RANGES = (
    (0x21, 0x7E), (0xA1, 0xBF), (0xD7, 0xD7), (0xF7, 0xF7), (0x60C, 0x60C), (0x61B, 0x61B), (0x61F, 0x61F),
    (0x6D4, 0x6D4), (0x964, 0x965), (0x2010, 0x205E), (0x3001, 0x303F), (0xFF01, 0xFF65),
)  # fmt: skip
_PUNCTUATION = frozenset(
    chr(code)
    for first, last in _PUNCTUATION_RANGES
    for code in range(first, last + 1)
    if unicodedata.category(chr(code))[0] in "PS"
)
# the non-ASCII ones, as the inside of a character class
_OTHER_PUNCTUATION = "".join(map(re.escape, sorted(mark for mark in _PUNCTUATION if mark > "\x7f")))


def _cl100k_is_sync(text: str, pos: int) -> bool:
    before, after = text[pos - 1], text[pos]
    if after.isspace():
        return before.isalnum()
    if before in _ASCII_LETTERS:
        return not after.isalpha() and not "\ud800" <= after <= "\udfff"
    if before in _ASCII_DIGITS:
        return (after < "\x80" and after not in _ASCII_DIGITS) or after in _PUNCTUATION
    if before == "\n" or before == "\r":
        return not "\ud800" <= after <= "\udfff"
    # (asked first whether `before` is ASCII: code and markup ask at every character)
    return before > "\x7f" and after in _PUNCTUATION and before.isalnum()


# The first of cl100k's rules alone: right after a line break, before a character that
# is no white space (nor half a surrogate pair), where a long text may be cut to be
# encoded a block at a time (no piece of the pattern runs from a line break into a non-space).
CL100K_LINE_STARTS = re.compile(r"(?<=[\r\n])(?=[^\s\ud800-\udfff])")

CL100K = SyncRule(
    _cl100k_is_sync,
    re.compile(
        CL100K_LINE_STARTS.pattern + r"|(?<=[^\W_])(?=\s)"
        r"|(?<=[A-Za-z])(?=[\W\d_])(?![\ud800-\udfff])|(?<=[0-9])(?=[\x00-/:-\x7f" + _OTHER_PUNCTUATION + "])"
        r"|(?<=[^\x00-\x7f])(?<=[^\W_])(?=[" + _OTHER_PUNCTUATION + "])"
    ),
)


# White space by Python, by Rust (`char::is_whitespace`, which Hugging Face splits on) and
# by BERT's normalizer, which deletes control characters: the tab, line ends, the space and
# the Unicode space and separator characters, not the controls U+000B, U+000C, U+001C to
# U+001F (Python alone counts these four as white space) and U+0085.
_SPLIT_SPACES = frozenset(
    "\t\n\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_SPLIT_SPACE_CLASS = "[" + "".join(sorted(_SPLIT_SPACES)) + "]"


def _whitespace_is_sync(text: str, pos: int) -> bool:
    return text[pos - 1] in _SPLIT_SPACES or text[pos] in _SPLIT_SPACES


# Pre-tokenizers that drop white space and split at it (BERT's, `Whitespace`,
# `WhitespaceSplit`, with char-local normalizers, see `huggingface.py`): every position
# next to white space is a boundary, since a piece never holds white space.
WHITESPACE = SyncRule(_whitespace_is_sync, re.compile(f"(?<={_SPLIT_SPACE_CLASS})|(?={_SPLIT_SPACE_CLASS})"))


def _byte_level_is_sync(text: str, pos: int) -> bool:
    return text[pos] in _SPLIT_SPACES and not text[pos - 1].isspace()


# GPT-2's byte-level pre-tokenizer (`ByteLevel` with its regular expression): where white
# space follows a character that is no white space by any reckoning. No piece but a
# white-space run holds white space, and one only at its start (`" word"`), so the pieces
# before end there in every scan, and a scan from there sees what the document's does.
BYTE_LEVEL = SyncRule(_byte_level_is_sync, re.compile(f"(?<=\\S)(?={_SPLIT_SPACE_CLASS})"))


def _prefixed_byte_level_is_sync(text: str, pos: int) -> bool:
    return text[pos] == " " and not text[pos - 1].isspace()


# The same with `add_prefix_space`, which puts a space before a string that does not
# start with one (a line break or a tab is no space to it): only a space is a sync point.
PREFIXED_BYTE_LEVEL = SyncRule(_prefixed_byte_level_is_sync, re.compile(r"(?<=\S)(?= )"))
