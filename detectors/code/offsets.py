"""UTF-8 byte offsets (what tree-sitter reports) turned into character offsets.

ASCII text needs no table. Otherwise the table holds, for each non-ASCII character, the
byte offset just after it and how many bytes more than characters the text has up to
there; a byte offset minus the extra bytes before it is the character offset. The text
is encoded with `errors="replace"`, so a lone surrogate (which UTF-8 cannot encode)
becomes one `?` byte and every offset after it still lines up.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Callable

_BLOCK = 1 << 16


def encode_source(text: str) -> bytes:
    """The bytes tree-sitter parses: UTF-8, a lone surrogate as `?`."""
    return text.encode("utf-8", "replace")


class ByteToChar:
    """Character offset of a byte offset of `encode_source(text)` (`data`, where the
    caller has it already)."""

    __slots__ = ("_ends", "_extra")

    def __init__(self, text: str, data: bytes | None = None) -> None:
        ends: list[int] = []
        extra: list[int] = []
        if not text.isascii():
            _multibyte_characters(encode_source(text) if data is None else data, ends, extra)
        self._ends = ends
        self._extra = extra

    def __call__(self, byte_offset: int) -> int:
        if not self._ends:
            return byte_offset
        index = bisect_right(self._ends, byte_offset)
        return byte_offset - self._extra[index - 1] if index else byte_offset


def _multibyte_characters(data: bytes, ends: list[int], extra: list[int]) -> None:
    """Append to `ends` the offset just after each character of `data` (UTF-8) that takes
    more than one byte, and to `extra` the bytes more than characters up to there: the
    continuation bytes (`10xxxxxx`) so far. Found by numpy a block at a time: a regex over
    the text's non-ASCII runs and a Python step a character took 2 ms for the seven stdlib
    modules of the benchmarks that hold such characters (most of the code detector's set-up),
    this 0.1 ms."""
    import numpy as np  # (a detector's import loads no numpy: see tests/test_packaging.py)

    codes = np.frombuffer(data, np.uint8)
    surplus = 0
    for at in range(0, len(codes), _BLOCK):
        block = codes[at : at + _BLOCK + 1]  # with the next block's first byte
        high = np.flatnonzero(block[:_BLOCK] >= 0x80)
        if not len(high):
            continue
        counts = np.cumsum((block[high] & 0xC0) == 0x80) + surplus
        surplus = int(counts[-1])
        # a character's last byte is one that no continuation byte follows
        following = high + 1
        inside = following < len(block)
        last = np.ones(len(high), bool)
        last[inside] = (block[following[inside]] & 0xC0) != 0x80
        ends.extend((high[last] + (at + 1)).tolist())
        extra.extend(counts[last].tolist())


def char_offsets(text: str, data: bytes) -> Callable[[int], int]:
    """The character offset of a byte offset of `data`, `encode_source(text)`: a
    `ByteToChar`, or for an ASCII text, whose byte and character offsets are one,
    `operator.index` (the offset itself: a builtin's call where a method's cost three
    times as much)."""
    return operator.index if text.isascii() else ByteToChar(text, data)
