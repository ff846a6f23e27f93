"""UTF-8 byte offsets (what tree-sitter reports) turned into character offsets.

ASCII text needs no table. Otherwise the table holds, for each non-ASCII character, the
byte offset just after it and how many bytes more than characters the text has up to
there; a byte offset minus the extra bytes before it is the character offset. The text
is encoded with `errors="replace"`, so a lone surrogate (which UTF-8 cannot encode)
becomes one `?` byte and every offset after it still lines up.
"""

from __future__ import annotations

import re
from bisect import bisect_right

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def encode_source(text: str) -> bytes:
    """The bytes tree-sitter parses: UTF-8, a lone surrogate as `?`."""
    return text.encode("utf-8", "replace")


def _utf8_length(ch: str) -> int:
    code = ord(ch)
    if code < 0x800:
        return 2
    if code < 0x10000:
        return 1 if 0xD800 <= code <= 0xDFFF else 3
    return 4


class ByteToChar:
    """Character offset of a byte offset of `encode_source(text)`."""

    __slots__ = ("_ends", "_extra")

    def __init__(self, text: str) -> None:
        ends: list[int] = []
        extra: list[int] = []
        if not text.isascii():
            surplus = 0
            for run in _NON_ASCII_RUN.finditer(text):
                char_offset = run.start()
                for ch in run.group():
                    char_offset += 1
                    surplus += _utf8_length(ch) - 1
                    ends.append(char_offset + surplus)
                    extra.append(surplus)
        self._ends = ends
        self._extra = extra

    def __call__(self, byte_offset: int) -> int:
        if not self._ends:
            return byte_offset
        index = bisect_right(self._ends, byte_offset)
        return byte_offset - self._extra[index - 1] if index else byte_offset
