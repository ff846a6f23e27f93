"""Positions of a document as offsets in the units a tokenizer reports token spans in.

tiktoken's tokens are spans of UTF-8 bytes, a Hugging Face tokenizer's are spans of
characters; either is a span of the string the tokenizer really encoded
(`sanitize.as_encoded`), in which a surrogate pair is one character. `offsets_for`
gives the cheapest map that is exact for the text: none at all for ASCII, two numpy
tables (each way) for other text from `UTF8_TABLES_FROM` to `UTF8_TABLE_LIMIT`
characters, UTF-8 lengths of blocks for shorter and longer text, and a per-character
table where surrogates make the encoded string differ from the text (rare, so the
table's memory is spent only then).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import Literal, Protocol

import numpy as np

Unit = Literal["utf8", "char"]
_BLOCK = 256
# From and up to these many characters a text's UTF-8 offsets are two tables (`Utf8Tables`,
# 4 bytes a character and 4 a byte: at most 5 MiB), else the byte lengths of its blocks:
# below, the tables' numpy calls cost more than the packer's few questions (a text of 400
# characters: 40 us, the block lengths 2 us).
UTF8_TABLES_FROM = 1 << 11
UTF8_TABLE_LIMIT = 1 << 18


class Offsets(Protocol):
    """A monotone map from positions of a text to offsets in its encoded string."""

    def offset(self, pos: int) -> int:
        """The offset of position `pos` (inside a surrogate pair: the pair's end)."""
        ...

    def position(self, offset: int) -> int:
        """The last position whose offset is at most `offset`."""
        ...


class SameOffsets:
    """Offsets equal to positions: ASCII text in bytes, or any text without surrogates
    in characters."""

    def __init__(self, length: int) -> None:
        self.length = length

    def offset(self, pos: int) -> int:
        return pos

    def position(self, offset: int) -> int:
        return min(offset, self.length)


class Utf8Offsets:
    """UTF-8 byte offsets of a text without surrogates: the byte length before each block
    of `_BLOCK` characters, so an offset is one short encode away (building it costs far
    less than finding every non-ASCII run with a regular expression)."""

    def __init__(self, text: str) -> None:
        self.text = text
        blocks = [text[i : i + _BLOCK] for i in range(0, len(text), _BLOCK)]
        self._block_ascii = [block.isascii() for block in blocks]
        # raises UnicodeEncodeError where the text holds a surrogate
        self._block_bytes = list(accumulate((len(block.encode("utf-8")) for block in blocks), initial=0))

    def offset(self, pos: int) -> int:
        block, inside = divmod(pos, _BLOCK)
        if not inside or self._block_ascii[block]:
            return self._block_bytes[block] + inside
        return self._block_bytes[block] + len(self.text[pos - inside : pos].encode("utf-8"))

    def position(self, offset: int) -> int:
        block = bisect_right(self._block_bytes, offset) - 1
        if block >= len(self._block_ascii):
            return len(self.text)
        inside = offset - self._block_bytes[block]
        base = block * _BLOCK
        if self._block_ascii[block]:
            return base + inside
        # a token may end inside a character: the partial character is not counted (and
        # `inside` bytes are at most `inside` characters: no more of the block is encoded)
        head = self.text[base : base + min(inside, _BLOCK)].encode("utf-8")
        return base + len(head[:inside].decode("utf-8", "ignore"))


class Utf8Tables:
    """UTF-8 byte offsets of a text without surrogates as two tables, each map one C call
    (the packer asks them tens of thousands of times a document, and `Utf8Offsets`' two
    methods cost a Python call and often a short encode each): the byte offset of each
    character and the text's length, and the character each byte belongs to and the
    text's length (so `position` knows the offsets up to that length, all a
    `TokenIndex` asks). Made from one UTF-8 encode in three numpy passes (about 1.6
    times what `Utf8Offsets` costs to make), so for texts of `UTF8_TABLES_FROM` to
    `UTF8_TABLE_LIMIT` characters."""

    __slots__ = ("offset", "position")

    def __init__(self, text: str) -> None:
        # raises UnicodeEncodeError where the text holds a surrogate
        encoded = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        starts = (encoded & 0xC0) != 0x80  # the first byte of each character
        offsets = np.empty(len(text) + 1, dtype=np.uint32)
        offsets[:-1] = np.flatnonzero(starts)
        offsets[-1] = len(encoded)
        positions = np.empty(len(encoded) + 1, dtype=np.uint32)
        np.cumsum(starts, out=positions[:-1])  # (characters begun up to each byte, its own too)
        positions[:-1] -= 1
        positions[-1] = len(text)
        # (memoryviews: their items are read as Python ints by a C call)
        self.offset: Callable[[int], int] = offsets.data.__getitem__
        self.position: Callable[[int], int] = positions.data.__getitem__


class TableOffsets:
    """Offsets of a text holding surrogates, one per position: each character weighs
    what it becomes in the encoded string (a pair's high half the astral character, its
    low half nothing, a lone surrogate U+FFFD)."""

    def __init__(self, text: str, unit: Unit) -> None:
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        high = (codes >= 0xD800) & (codes < 0xDC00)
        paired_high = np.zeros(len(codes), dtype=bool)
        paired_high[:-1] = high[:-1] & (codes[1:] >= 0xDC00) & (codes[1:] < 0xE000)
        paired_low = np.zeros(len(codes), dtype=bool)
        paired_low[1:] = paired_high[:-1]
        if unit == "utf8":  # a lone surrogate falls in the 3-byte range, as U+FFFD does
            weights = 1 + (codes >= 0x80).astype(np.int64) + (codes >= 0x800) + (codes >= 0x10000)
            weights[paired_high] = 4
        else:
            weights = np.ones(len(codes), dtype=np.int64)
        weights[paired_low] = 0
        table = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(weights, out=table[1:])
        self._table = table.data

    def offset(self, pos: int) -> int:
        return self._table[pos]

    def position(self, offset: int) -> int:
        return bisect_right(self._table, offset) - 1


def offsets_for(text: str, unit: Unit) -> Offsets:
    """The cheapest exact map of `text`'s positions to `unit` offsets of its encoded string."""
    if text.isascii():
        return SameOffsets(len(text))
    if unit == "utf8":
        try:
            return Utf8Tables(text) if UTF8_TABLES_FROM <= len(text) <= UTF8_TABLE_LIMIT else Utf8Offsets(text)
        except UnicodeEncodeError:
            return TableOffsets(text, unit)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return TableOffsets(text, unit)
    return SameOffsets(len(text))
