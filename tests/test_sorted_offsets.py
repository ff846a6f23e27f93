"""`SortedOffsets` (16-bit low halves and a table of 64 KiB segment starts) against
plain `bisect` and `np.searchsorted` of the offsets as a list."""

from __future__ import annotations

from bisect import bisect_left

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter.tokens.sorted_offsets import SortedOffsets

SEGMENT = 1 << 16

# Offsets in the first few segments (some left empty), often right at a segment's start
# or end, where a wrong split of an offset into its halves would show.
_OFFSET = st.builds(
    lambda segment, low: max(0, segment * SEGMENT + low),
    st.integers(0, 5),
    st.one_of(st.sampled_from([-1, 0, 1, SEGMENT - 1]), st.integers(0, SEGMENT - 1)),
)
_OFFSETS = st.lists(_OFFSET, max_size=80).map(sorted)
# What is searched for: also past the last offset, and past the last segment.
_BOUNDS = st.lists(
    st.one_of(_OFFSET, st.integers(0, 8 * SEGMENT), st.sampled_from([k * SEGMENT for k in range(9)])), max_size=40
).map(sorted)


def _assert_same(stored: SortedOffsets, offsets: list[int], bounds: list[int]) -> None:
    assert len(stored) == len(offsets)
    assert [stored.item(i) for i in range(len(offsets))] == offsets
    assert [stored.find(x) for x in bounds] == [bisect_left(offsets, x) for x in bounds]
    expected = np.searchsorted(np.array(offsets, dtype=np.int64), np.array(bounds, dtype=np.int64))
    assert stored.find_all(bounds).tolist() == expected.tolist()


@settings(max_examples=300, deadline=None)
@given(offsets=_OFFSETS, bounds=_BOUNDS)
def test_offsets_of_an_array_search_as_the_list_does(offsets, bounds):
    _assert_same(SortedOffsets.from_array(np.array(offsets, dtype=np.int64)), offsets, bounds)


@settings(max_examples=300, deadline=None)
@given(offsets=_OFFSETS, bounds=_BOUNDS, block=st.integers(1, 9), data=st.data())
def test_windows_of_summed_lengths_search_as_the_list_does(offsets, bounds, block, data):
    # as tiktoken's boundaries: 0, then the running sums of lengths given a block at a
    # time, and windows of them (its tokens' starts and ends)
    boundaries = [0, *offsets]
    lengths = np.diff(np.array(boundaries, dtype=np.int64))
    blocks = (lengths[at : at + block] for at in range(0, len(lengths), block))
    stored = SortedOffsets.from_lengths(blocks, len(boundaries))
    first = data.draw(st.integers(0, len(boundaries)))
    stop = data.draw(st.integers(first, len(boundaries)))
    _assert_same(stored.window(first, stop), boundaries[first:stop], bounds)


def test_offsets_far_apart_leave_segments_empty():
    offsets = [0, 3 * SEGMENT, 3 * SEGMENT, 9 * SEGMENT - 1, 9 * SEGMENT, 40 * SEGMENT + 5]
    bounds = [0, 1, SEGMENT, 3 * SEGMENT, 3 * SEGMENT + 1, 9 * SEGMENT, 20 * SEGMENT, 40 * SEGMENT + 6, 99 * SEGMENT]
    _assert_same(SortedOffsets.from_array(np.array(offsets, dtype=np.int64)), offsets, bounds)
    _assert_same(SortedOffsets.from_array(np.array([], dtype=np.int64)), [], bounds)
    lengths = np.diff(np.array([0, *offsets], dtype=np.int64))
    boundaries = SortedOffsets.from_lengths([lengths[:2], lengths[2:]], len(offsets) + 1)
    _assert_same(boundaries.window(1, len(offsets) + 1), offsets, bounds)
