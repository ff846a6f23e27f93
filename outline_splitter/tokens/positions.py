"""Positions of a document as offsets in the units a tokenizer reports token spans in.

tiktoken's tokens are spans of UTF-8 bytes, a Hugging Face tokenizer's are spans of
characters; either is a span of the string the tokenizer really encoded
(`sanitize.as_encoded`), in which a surrogate pair is one character. `offsets_for`
gives the cheapest map that is exact for the text: none at all for ASCII, UTF-8 lengths
of blocks for other text, and a per-character table where surrogates make the encoded
string differ from the text (rare, so the table's memory is spent only then).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Literal, Protocol

import numpy as np

Unit = Literal["utf8", "char"]
_BLOCK = 256


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
            return Utf8Offsets(text)
        except UnicodeEncodeError:
            return TableOffsets(text, unit)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return TableOffsets(text, unit)
    return SameOffsets(len(text))
