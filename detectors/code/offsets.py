"""UTF-8 byte offsets (what tree-sitter reports) turned into character offsets.

ASCII text needs no table. Otherwise the table holds, for each non-ASCII character, the
byte offset just after it and how many bytes more than characters the text has up to
there; a byte offset minus the extra bytes before it is the character offset. The text
is encoded with `errors="replace"`, so a lone surrogate (which UTF-8 cannot encode)
becomes one `?` byte and every offset after it still lines up.
"""

from __future__ import annotations

import mmap
import re
from bisect import bisect_right

from outline_splitter import pages

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


# The bytes of a source file: `bytes`, or for a long file an anonymous memory map.
Source = bytes | mmap.mmap

def encode_source(text: str) -> Source:
    """The bytes tree-sitter parses: UTF-8, a lone surrogate as `?`. A long text's are in
    pages of their own (`pages.py`), filled a block at a time: as one `bytes` object they
    stayed with the process under the outline and all packing made after it (16 MB more
    at the peak of a split of 16 MB of one-line functions)."""
    block = pages.OWN_PAGES  # (a text of that many characters is at least that many bytes)
    if len(text) < block:
        return text.encode("utf-8", "replace")
    blocks = range(0, len(text), block)
    size = len(text) if text.isascii() else sum(len(text[at : at + block].encode("utf-8", "replace")) for at in blocks)
    source = pages.own_pages(size)
    for at in blocks:
        source.write(text[at : at + block].encode("utf-8", "replace"))
    source.seek(0)  # (a map's `find` starts at its position unless told where)
    return source


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
