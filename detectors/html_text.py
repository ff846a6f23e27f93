"""The readable text of HTML, with a map back to source offsets.

The rules are the seed HTMLTextSplitter's: the text of every element in document order;
a block boundary (`BREAKS`: the start or end tag of a block, or `<br>`) becomes a line
break; inline boundaries add nothing; authored white space is kept but folded: a run of
white space and block boundaries becomes one line break if it holds a boundary, a blank
line if it holds two or more line ends, one line end if it holds one, else one space;
white space at the two ends goes (no-break spaces count as white space there: a
page's `&nbsp;` padding is no text). Inside `pre` and `listing` white space is kept as
written (indentation is meaning in code), but for the line end right after the start tag,
which the HTML parser drops, and the white space before the end tag, which folds with
what follows; a line end there (`\\r\\n` and a lone `\\r` too) reads as `\\n`, as
the HTML parser normalizes line ends. Entities are decoded. `script`, `style`, `template`,
`noscript`, `title`, `iframe` and `template` content is dropped, and so are MathML
annotations (a browser shows a formula's presentation only), comments and the
content of the other raw-text elements (`textarea`, `xmp`, `plaintext`: form defaults
and obsolete markup, whose text may look like tags: a slice starting inside one would
read differently from the whole).

Every rule but the preformatted one looks at one token or one run of white space, so the
text of a slice of a document, `extract_text(html[a:b])`, is the part of the whole
document's text that comes from `[a, b)` whenever `a` and `b` lie outside tags and
entities and outside the hidden elements; a slice that starts inside a `pre` reads the
same but for its white space, which it folds (it has not seen the start tag), and one
that starts inside a CDATA section in `svg` or `math` reads its `]]>` as text. The
splitter renders the whole document once (`rendered_text`) and gives each chunk the
part of that text its span covers (`ExtractedText.span`).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from functools import lru_cache
from html import unescape
from html.entities import html5
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

from outline_splitter.detectors.html_scan import CDATA, END, START, Token, scan, tokens
from outline_splitter.detectors.html_tags import BREAKS, HIDDEN, HIDDEN_INLINE, PREFORMATTED

_ENTITY = re.compile(r"&(?:#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)")
_BREAK = "\x00"  # a block boundary, before folding (NUL in the source becomes U+FFFD)
# (a group: `split` keeps the runs, between the text around them). A run is any white
# space but one space alone, which the lookbehinds turn down once the run is read: a
# space between words, mostly, costs one test of its character, not an attempt at
# two alternatives (the split in half the time).
_FOLD = re.compile(r"([ \t\n\r\f\x00][ \t\n\r\f\x00]*+(?<![^ \t\n\r\f\x00] )(?<!^ ))")
# The white space left after folding, and the kinds that folding keeps but that show
# nothing: no-break and other Unicode spaces, zero-width characters.
BLANK = " \n\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u202f\u205f\u3000\ufeff"
_LINE_BREAKS = frozenset(BREAKS - HIDDEN)
# The tags whose start and end tags the extraction does something for (CDATA's name is "").
_MARKED = _LINE_BREAKS | HIDDEN_INLINE | PREFORMATTED


def _decoded_length(entity: str) -> int:
    """How much of an `_ENTITY` match `html.unescape` decodes: all of a numeric or
    known entity, the legacy name of `&notit;` (`&not`, the rest stays as written), none
    of an unknown one such as `&bogus;`. What is not decoded is text like any other, with
    each character its own source offset, so a budget can cut it (and no prefix of an
    entity that decodes nothing decodes anything either: the cut halves read the same)."""
    decoded = unescape(entity)
    if decoded == entity:
        return 0
    if entity[1] == "#" or entity[1:] in html5:
        return len(entity)
    for length in range(3, len(entity)):
        head = unescape(entity[:length])
        if head != entity[:length] and head + entity[length:] == decoded:
            return length
    return len(entity)  # pragma: no cover - unescape decodes a name or a prefix of it


def is_character_reference(text: str) -> bool:
    """Whether `text` is one character reference that decodes whole (`&NotSubset;`,
    `&#x41;`): its characters are one unit of the readable text, which no chunk edge parts."""
    match = _ENTITY.fullmatch(text)
    return match is not None and _decoded_length(text) == len(text)


def _line_ends(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _fold(run: str) -> str:
    if _BREAK in run:
        return "\n"
    line_ends = _line_ends(run)
    return "\n\n" if line_ends >= 2 else "\n" if line_ends else " "


# The folds of runs seen before (a long blank segment goes in as five characters,
# `_short_blank`, so a page's runs are mostly few and short): looked up in C, with no
# Python call a run. Only short runs are kept, and so many: the cache stays small.
_FOLDS: dict[str, str] = {}
_FOLDS_KEPT = 4096
_FOLD_KEPT_UP_TO = 32


def _folds(runs: list[str]) -> list[str]:
    """The fold of each run (`_fold`), from `_FOLDS` where it is there."""
    folds: list[Any] = list(map(_FOLDS.get, runs))  # (None where a run is not kept)
    if None in folds:
        for index, run in enumerate(runs):
            if folds[index] is None:
                folds[index] = fold = _fold(run)
                if len(run) <= _FOLD_KEPT_UP_TO and len(_FOLDS) < _FOLDS_KEPT:
                    _FOLDS[run] = fold
    return folds


# Between the tags of a page lie long runs of indentation, which folding makes one
# character: a run longer than this goes in as five characters that fold the same.
_SHORT_BLANK = 8
_BLANKS = " \t\n\r\f"
_BLANK_RUN = re.compile(rf"[{_BLANKS}]+")
_CARRIAGE_RETURN = re.compile(r"\r\n?")


def _short_blank(run: str) -> str:
    """A run of foldable white space as five characters that fold as it does, alone or
    with what is around it: its first and last characters kept (they may pair as `\r\n`
    with their neighbours), between them its line ends up to two, padded with spaces."""
    first, last = run[0], run[-1]
    inner = _line_ends(run) - (first in "\r\n") - (last in "\r\n")
    return first + (" \n\n" if inner >= 2 else " \n " if inner else "   ") + last


# `_short_blank`'s two pieces (the first three characters, from the run's start, and the
# last two, from its last two) of the short runs seen before: indentation repeats.
_SHORTS: dict[str, tuple[str, str]] = {}


def _short_pieces(run: str) -> tuple[str, str]:
    pieces = _SHORTS.get(run)
    if pieces is None:
        short = _short_blank(run)
        pieces = short[:3], short[3:]
        if len(run) <= _FOLD_KEPT_UP_TO and len(_SHORTS) < _FOLDS_KEPT:
            _SHORTS[run] = pieces
    return pieces


class _Pieces:
    """Text built of pieces, and for each piece where its characters come from: the
    piece's base (an offset into the text it is made from), and either one offset after
    another from the base (as written) or the base for every character (`constant`: a
    decoded entity, a folded run). The map is made at the end, in one pass of numpy
    (`offsets`), not one Python int per character. (numpy is imported there: a detector
    loads no more than the node model, `tests/test_packaging.py`, and detection makes
    no map, only the text mode's view and `content="main"` do.)"""

    __slots__ = ("pieces", "bases", "constant", "_counted", "_length")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.bases: list[int] = []
        self.constant: list[int] = []  # the indexes of the pieces whose characters share their base
        self._counted = 0  # how many pieces `_length` sums
        self._length = 0

    def add(self, piece: str, base: int) -> None:
        self.pieces.append(piece)
        self.bases.append(base)

    def add_constant(self, piece: str, base: int) -> None:
        if len(piece) > 1:
            self.constant.append(len(self.pieces))
        self.pieces.append(piece)
        self.bases.append(base)

    def length(self) -> int:
        """The length of the text so far (summed from where the last call stopped)."""
        pieces = self.pieces
        self._length += sum(map(len, pieces[self._counted :]))
        self._counted = len(pieces)
        return self._length

    def offsets(self, dtype: type[np.signedinteger[Any]], through: np.ndarray | None = None) -> np.ndarray:
        """Each character's offset, as `dtype` (`through[offset]` where `through` is given)."""
        import numpy as np

        lengths = np.fromiter(map(len, self.pieces), dtype, len(self.pieces))
        steps = np.ones(len(lengths), dtype)
        steps[self.constant] = 0
        bases = np.array(self.bases, dtype)
        shown = lengths > 0
        lengths, steps, bases = lengths[shown], steps[shown], bases[shown]
        # one increment per character: the step inside a piece, and at a piece's first
        # character the jump from the previous piece's last offset to its base
        increments = np.repeat(steps, lengths)
        if len(increments):
            firsts = np.cumsum(lengths) - lengths
            lasts = bases + steps * (lengths - 1)
            increments[firsts[1:]] = bases[1:] - lasts[:-1]
            increments[0] = bases[0]
            np.cumsum(increments, out=increments)
        return increments if through is None else through[increments]


def _fold_into(folded: _Pieces, raw: str, cursor: int, stop: int) -> None:
    """Add `raw[cursor:stop]` folded to `folded`: text and runs in turn, cut by one
    `split` (each run's piece is its fold, whose characters share the run's start); no
    Python call a run."""
    from itertools import accumulate  # (here: the module's imports stay as they are)

    parts = _FOLD.split(raw[cursor:stop])
    folded.constant.extend(range(len(folded.pieces) + 1, len(folded.pieces) + len(parts), 2))
    folded.bases.extend(accumulate(map(len, parts[:-1]), initial=cursor))
    parts[1::2] = _folds(parts[1::2])
    folded.pieces.extend(parts)


def _keep_into(folded: _Pieces, raw: str, a: int, b: int) -> None:
    """Add `raw[a:b]` to `folded` as written, but a line end is one `\\n` (`\\r\\n` and a
    lone `\\r` too: the parser's input is normalized so), from the source of its first
    character; a block boundary is a line end too."""
    cursor = a
    for match in _CARRIAGE_RETURN.finditer(raw, a, b):
        folded.add(raw[cursor : match.start()].replace(_BREAK, "\n"), cursor)
        folded.add("\n", match.start())
        cursor = match.end()
    folded.add(raw[cursor:b].replace(_BREAK, "\n"), cursor)


def _fold_white_space(raw: str, verbatim: list[int], starts: np.ndarray | None) -> tuple[str, array[int] | None]:
    """`raw` with its white space folded (`_fold`) outside the `verbatim` ranges, and
    the source offset of each character of the result, given `starts` for `raw`'s (else
    None), in `starts`' type (C int or 64 bits: `_OFFSETS`). Inside a range block
    boundaries become line ends and all else stays; its trailing white space folds with
    what follows."""
    if starts is None and not verbatim:  # (a heading's title: the text alone, in one split)
        parts = _FOLD.split(raw)
        parts[1::2] = _folds(parts[1::2])
        return "".join(parts), None
    folded = _Pieces()
    cursor = 0
    for a, b in zip(verbatim[::2], verbatim[1::2], strict=True):
        kept = len(raw[a:b].rstrip(" \t\n\r\f" + _BREAK))
        _fold_into(folded, raw, cursor, a)
        _keep_into(folded, raw, a, a + kept)
        cursor = a + kept
    _fold_into(folded, raw, cursor, len(raw))
    if starts is None:
        return "".join(folded.pieces), None
    offsets = folded.offsets(starts.dtype.type, starts)
    del starts
    mapped = array("i" if offsets.itemsize == 4 else "q")  # (C int: 4 bytes)
    mapped.frombytes(offsets.data.cast("B"))
    return "".join(folded.pieces), mapped


def _add_segment(raw: _Pieces, segment: str, start: int, decode: bool, preformatted: int) -> None:
    """Add a `segment` of text that starts at `start` to `raw`: a long run of white space
    as its two short pieces (folded all the same: no need to map it all), a `_BREAK` in it
    (a NUL of the source) as U+FFFD, its entities decoded (where `decode`)."""
    if len(segment) > _SHORT_BLANK and not preformatted and _BLANK_RUN.fullmatch(segment):
        head, tail = _short_pieces(segment)
        raw.add(head, start)
        raw.add(tail, start + len(segment) - 2)
        return
    if _BREAK in segment:
        segment = segment.replace(_BREAK, "\ufffd")
    if not decode or "&" not in segment:
        raw.add(segment, start)
        return
    cursor = 0
    for match in _ENTITY.finditer(segment):
        a = match.start()
        length = _decoded_length(match.group())
        if not length:
            continue
        if a > cursor:
            raw.add(segment[cursor:a], start + cursor)
        raw.add_constant(unescape(segment[a : a + length]), start + a)
        cursor = a + length
    if cursor < len(segment):
        raw.add(segment[cursor:], start + cursor)


def _preformatted(raw: _Pieces, opens: bool, start: int, depth: int, verbatim: list[int]) -> int:
    """The depth of open `pre` elements after a `pre` (or `listing`) start tag (`opens`)
    or end tag at `start`, whose block boundary it adds to `raw`; the outermost's content
    opens or closes a range of `verbatim`."""
    if not opens and depth:
        depth -= 1
        if not depth:
            verbatim.append(raw.length())
    raw.add(_BREAK, start)
    if opens:
        depth += 1
        if depth == 1:
            verbatim.append(raw.length())
    return depth


def _raw_text(source: str, markup: Iterable[Token] | None) -> tuple[str, _Pieces, list[int]]:
    """The text of `source` before white space is folded (`_BREAK` at block boundaries),
    its pieces, and the `[start, end)` pairs of its offsets kept as written (`pre`)."""
    raw = _Pieces()
    hidden = 0  # depth of open elements whose content is not shown
    preformatted = 0  # depth of open `pre` elements
    verbatim: list[int] = []  # [start, end) pairs of raw offsets kept as written
    cursor = 0
    add_piece, add_base = raw.pieces.append, raw.bases.append
    for kind, start, end, name in scan(source) if markup is None else markup:
        if start > cursor and not hidden:
            if preformatted and verbatim[-1] == raw.length() and source[cursor] in "\r\n":
                cursor += 2 if source.startswith("\r\n", cursor) else 1  # not content
            segment = source[cursor:start]
            if "&" in segment or _BREAK in segment or (len(segment) > _SHORT_BLANK and segment[0] in _BLANKS):
                _add_segment(raw, segment, cursor, True, preformatted)
            else:  # (mostly: text as written, `raw.add` without a call)
                add_piece(segment)
                add_base(cursor)
        cursor = end
        if name not in _MARKED:  # (mostly: an inline tag, a comment, raw text: nothing more to do)
            if kind == CDATA and not hidden:  # CDATA in foreign content is text as written
                _add_segment(raw, source[start:end], start, False, preformatted)
        elif kind in (START, END):
            if name in HIDDEN_INLINE:
                hidden = hidden + 1 if kind == START else max(hidden - 1, 0)
            elif name in PREFORMATTED:  # (seldom: a call)
                preformatted = _preformatted(raw, kind == START, start, preformatted, verbatim)
            else:  # (_MARKED's other tags: the block boundaries, _LINE_BREAKS)
                add_piece(_BREAK)
                add_base(start)
    if cursor < len(source) and not hidden:
        _add_segment(raw, source[cursor:], cursor, True, preformatted)
    text = "".join(raw.pieces)
    if len(verbatim) % 2:
        verbatim.append(len(text))
    return text, raw, verbatim


class ExtractedText:
    """The readable text of a whole document (`text`) and, for each of its characters,
    the source offset it comes from (`starts`: the character itself, the `&` of its
    entity, or the first character of the white-space run it folds). `markup` is
    `source`'s markup tokens, if they were scanned already."""

    __slots__ = ("source", "starts", "text")

    def __init__(self, source: str, markup: Iterable[Token] | None = None) -> None:
        self.source = source
        import numpy as np

        raw, pieces, verbatim = _raw_text(source, markup)
        # 4 bytes an offset where they fit (any text under 2 G characters), not 8
        dtype = np.intc if len(source) < 2**31 else np.int64
        self.text, starts = _fold_white_space(raw, verbatim, pieces.offsets(dtype))
        assert starts is not None
        self.starts = starts

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The text offsets `[lo, hi)` of what the source span `[start, end)` reads as:
        its characters from the first visible one to the last (empty: `lo == hi`)."""
        text = self.text
        lo = bisect_left(self.starts, start)
        hi = bisect_left(self.starts, end, lo)
        while lo < hi and text[lo] in BLANK:
            lo += 1
        while hi > lo and text[hi - 1] in BLANK:
            hi -= 1
        return lo, hi

    def source_position(self, lo: int) -> int:
        """The furthest source offset `end` such that `span(start, end)` ends at or
        before `lo` for every `start`: where the first visible character from `lo` on
        comes from (blank characters at a span's end are not part of it)."""
        text = self.text
        while lo < len(text) and text[lo] in BLANK:
            lo += 1
        return self.starts[lo] if lo < len(self.starts) else len(self.source)

    def source_span(self, lo: int, hi: int) -> tuple[int, int]:
        """The source span of the text `[lo, hi)` (non-empty, visible at both ends): from
        the first character's source to the end of the last one's (the decoded part of
        an entity)."""
        first = self.starts[lo]
        last = self.starts[hi - 1]
        if self.source.startswith("&", last):
            match = _ENTITY.match(self.source, last)
            if match is not None:
                return first, last + max(_decoded_length(match.group()), 1)
        return first, last + 1


@lru_cache(maxsize=1)
def rendered_text(source: str) -> ExtractedText:
    """`ExtractedText(source)`, kept for the last document: the encode begun before
    detection (`format_hooks.html.counted_text`), content selection and the text view
    read the same rendering, from the markup tokens the detector read."""
    return ExtractedText(source, tokens(source))


def extract_text(html: str) -> str:
    """The readable text of `html` (see the module docstring): `ExtractedText(html)`'s
    text without its blank ends, made without the map to source offsets."""
    raw, _, verbatim = _raw_text(html, None)
    return _fold_white_space(raw, verbatim, None)[0].strip(BLANK)
