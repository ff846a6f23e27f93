"""`SortedOffsets`: the token offsets of a whole document in 2 bytes a token.

A `TokenIndex` holds an offset for every token boundary of the document and is alive
while the chunks are packed, often the memory peak of a split, so the offsets' size is
the index's: as 32-bit ints they took 4 bytes a token (31 MB for 16 MB of one-line
Python functions). Offsets are non-decreasing, so their high halves change rarely:
only the low 16 bits of each are stored, and where each 64 KiB segment begins (a
Python list, one int per segment). An offset's segment is a search of that short
list, and a search for an offset narrows to its segment first, whose low halves are
in order like the whole.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np

_SHIFT = 16
_MASK = (1 << _SHIFT) - 1


def _segment_starts(offsets: np.ndarray[Any, Any], first_segment: int, at: int) -> list[int]:
    """The index (counted from `at`) of the first of the sorted `offsets` at or past the
    start of each segment from `first_segment` to that of the last offset."""
    top = int(offsets[-1]) >> _SHIFT
    if top < first_segment:
        return []
    found = np.searchsorted(offsets, np.arange(first_segment, top + 1, dtype=np.int64) << _SHIFT)
    starts: list[int] = (found + at).tolist()
    return starts


def _searches(low: memoryview, segments: list[int]) -> tuple[Callable[[int], int], Callable[[int], int]]:
    """`find` and `item` of the offsets with the low halves `low` (a buffer: `bisect`
    reads one faster than an array) and the segment starts `segments`. Functions of
    their own, not methods: the packer calls them tens of thousands of times a second,
    and an instance holding its own bound methods would live on until a collection of
    cycles, not go when the index goes."""
    if len(segments) <= 2:
        # all in the first segment (a text under 64 KiB, as most are): the low halves are
        # the offsets, searched and read with no Python code between
        return partial(bisect_left, low), low.__getitem__

    def find(offset: int) -> int:
        segment = offset >> _SHIFT
        if segment + 1 < len(segments):
            return bisect_left(low, offset & _MASK, segments[segment], segments[segment + 1])
        return segments[-1]  # (past the last offset)

    def item(i: int) -> int:
        return (bisect_right(segments, i) - 1) << _SHIFT | low[i]

    return find, item


class SortedOffsets:
    """Non-decreasing non-negative ints (token offsets) in 2 bytes each, and the
    searches a `TokenIndex` makes of them: `item(i)`, the `i`-th offset (0 <= i < len),
    `find(offset)`, the `bisect_left` of `offset` in the offsets (the index of the first
    at or past it), and `find_all`."""

    __slots__ = ("_lows", "_segments", "find", "item")

    def __init__(self, lows: np.ndarray[Any, Any], segments: list[int]) -> None:
        """The offsets whose low 16 bits are `lows` (uint16): `segments[k]` is the index
        of the first of them at or past `k << 16`, for each segment up to the last
        one's, then their count."""
        self._lows = lows
        self._segments = segments
        self.find, self.item = _searches(lows.data, segments)

    @classmethod
    def from_array(cls, offsets: np.ndarray[Any, Any]) -> SortedOffsets:
        """The offsets of a non-decreasing array of non-negative ints."""
        segments = _segment_starts(offsets, 0, 0) if len(offsets) else []
        segments.append(len(offsets))
        lows = np.zeros(len(offsets), dtype=np.uint16)
        np.copyto(lows, offsets, casting="unsafe")  # (which keeps the low bits)
        return cls(lows, segments)

    @classmethod
    def from_lengths(cls, blocks: Iterable[np.ndarray[Any, Any]], capacity: int) -> SortedOffsets:
        """The offsets 0 and the running sums of non-negative lengths (tokens' lengths),
        given as non-empty blocks, at most `capacity` offsets in all: the sums of a block
        at a time, so no array as long as the tokens is made but the stored one. Where
        the count is not known before, a capacity over it costs little memory it does not
        fill: the zeros of a long array are fresh pages, memory once written."""
        lows = np.zeros(capacity, dtype=np.uint16)
        segments = [0]
        at, total = 1, 0
        for block in blocks:
            # (the ufunc itself: np.cumsum's Python wrapper cost as much again on a short text)
            sums = np.add.accumulate(block, dtype=np.int64)
            if total:
                sums += total
            lows[at : at + len(sums)] = sums.astype(np.uint16)
            segments += _segment_starts(sums, len(segments), at)
            at, total = at + len(sums), int(sums[-1])
        segments.append(at)
        return cls(lows[:at], segments)

    def window(self, first: int, stop: int) -> SortedOffsets:
        """The offsets `[first, stop)` of these, sharing their storage: tiktoken's token
        ends are its starts shifted by one (its tokens tile the bytes), so both are
        windows of one array of boundaries."""
        # (each segment's start counted from `first`, those outside the window at its ends)
        segments = [min(max(start - first, 0), stop - first) for start in self._segments]
        return SortedOffsets(self._lows[first:stop], segments)

    def __len__(self) -> int:
        return len(self._lows)

    def find_all(self, offsets: Sequence[int]) -> np.ndarray[Any, Any]:
        """`find` of each of the ascending `offsets` at once: one `np.searchsorted` in
        each segment they fall in."""
        found = np.array(offsets, dtype=np.int64)  # (a copy, which becomes the answer)
        if not len(found):
            return found
        segments, lows = self._segments, self._lows
        past = len(segments) - 1  # (the first segment past the stored offsets)
        first, top = min(int(found[0]) >> _SHIFT, past), min(int(found[-1]) >> _SHIFT, past)
        # where the offsets of each segment from the first's to the last's begin among them
        cuts = [0, len(found)]
        if top > first:  # (mostly not: the offsets of a run of atoms lie close together)
            cuts[1:1] = np.searchsorted(found, np.arange(first + 1, top + 1, dtype=np.int64) << _SHIFT).tolist()
        for segment, begin, stop in zip(range(first, top + 1), cuts, cuts[1:]):
            if segment == past:
                found[begin:] = segments[past]
            elif begin < stop:
                lo, hi = segments[segment], segments[segment + 1]
                # in place: each offset is read before its index replaces it
                found[begin:stop] = np.searchsorted(lows[lo:hi], found[begin:stop].astype(np.uint16))
                found[begin:stop] += lo
        return found
