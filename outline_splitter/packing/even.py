"""Balanced parts, the rule that a node which must be broken goes into the fewest
chunks that fit, of about equal size, rather than chunks filled greedily to a small tail
(a 7-step list as steps 1-6 and a lone step 7). It is stated here, twice over:

- `balanced_cuts`, over a sequence of sizes: the plan of a run of atoms (`balance.py`)
  and of each depth of it. From the end backwards, `need[j]` is the fewest chunks the
  items from `j` on take; then, from the start, each cut is the one nearest an equal
  share of what is left among those that keep `need` on course, and the last cut leaves
  no tail under a third of the largest chunk where another does not.
- `even_pair`, for the last two pieces of a leaf cut at one level (`leaf.split_leaf`):
  a level's parts come back already joined, one exact search a chunk rather than a count
  a line, so no plan sees the parts inside them; the two are cut again at the part end
  where the larger, counted trimmed and exact, is smallest. (`balanced_cuts` over those
  parts in its place made the pieces less even: a part's size, trimmed, is not its share
  of the trimmed count of the two joined; docs/design.md.)
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress

from outline_splitter.packing.sentences import Span
from outline_splitter.packing.view import ChunkView


def balanced_cuts(sizes: Sequence[int], allowed: Sequence[int], budget: int) -> list[int]:
    """The positions `i` (0 < i < len(sizes), `allowed[i]`) before which a chunk ends, for
    the fewest chunks of items whose sizes add up to at most `budget` (an item over it
    alone, or with the items it may not be cut from), each chunk as near an equal share
    of what remains as the fewest chunks allow, and the last not under a third of the
    largest where another last cut avoids it."""
    return cuts_of_prefix_sums(prefix_sums(sizes), bytearray(map(bool, allowed)), budget)


def cuts_of_prefix_sums(prefix: Sequence[int], allowed: bytearray, budget: int) -> list[int]:
    """`balanced_cuts` of the items whose sizes have the prefix sums `prefix`."""
    n = len(prefix) - 1
    ends: Sequence[int]
    if allowed.find(0, 1, n) < 0:  # every place allowed, as in a run of definitions: no array of them all
        ends = range(1, n + 1)
    else:
        ends = index_array(compress(range(1, n), allowed[1:n]))  # (picked in C, not a test a place)
        ends.append(n)
    need, far_of = _fewest(prefix, ends, budget)
    cuts: list[int] = []
    start = largest = 0
    while need[start] > 1:
        best = _next_cut(prefix, ends, need, far_of[start], start, largest, budget)
        cuts.append(best)
        largest = max(largest, prefix[best] - prefix[start])
        start = best
    return cuts


def _next_cut(
    prefix: Sequence[int], ends: Sequence[int], need: Sequence[int], far: int, start: int, largest: int, budget: int
) -> int:
    """The end of the chunk from `start`: among the ends up to `far` that leave the fewest
    chunks after it, the one nearest an equal share of what is left; at the last cut, one
    that leaves no tail under a third of the largest chunk first, if there is one."""
    n, left = len(prefix) - 1, need[start]
    target = prefix[start] + (prefix[n] - prefix[start]) / left

    def badness(end: int) -> tuple[bool, float]:
        part, tail = prefix[end] - prefix[start], prefix[n] - prefix[end]
        return left == 2 and 3 * tail < max(largest, part), abs(prefix[end] - target)

    best, least = far, badness(far)  # (the best end's badness kept, not worked out again at each end)
    k = bisect_left(ends, far) if prefix[far] - prefix[start] <= budget else -1
    while k > 0 and ends[k - 1] > start and need[ends[k - 1]] == left - 1:
        k -= 1
        bad = badness(ends[k])
        if bad < least:
            best, least = ends[k], bad
    return best


def _fewest(prefix: Sequence[int], ends: Sequence[int], budget: int) -> tuple[array[int], array[int]]:
    """For each start `j`: the fewest chunks from `j` to the end, and the furthest end
    in `ends` of a chunk from `j` within `budget` (the nearest end if none fits)."""
    n = len(prefix) - 1
    need = index_array((0,)) * (n + 1)
    far_of = index_array((n,)) * n
    # ends[k], the furthest end within budget, only moves back as j does (the prefix sums
    # do not fall): walked back once rather than searched for, which would want the
    # ends' prefix sums in an array of their own, alive at the peak of a long run's plan
    k = len(ends) - 1
    for j in range(n - 1, -1, -1):
        reach = prefix[j] + budget
        while k >= 0 and prefix[ends[k]] > reach:
            k -= 1
        far_of[j] = ends[k] if k >= 0 and ends[k] > j else ends[bisect_right(ends, j)]
        need[j] = 1 + need[far_of[j]]
    return need, far_of


def prefix_sums(sizes: Sequence[int]) -> array[int]:
    """The prefix sums of `sizes`, 0 first (see `sums_array`)."""
    return sums_array(accumulate(sizes, initial=0), sum(sizes))


def sums_array(values: Iterable[int], largest: int) -> array[int]:
    """`values`, sums of sizes up to `largest`, as an array of ints: a run's prefix sums
    are one per atom, and in a list each above 256 is an object of its own (40 bytes, not
    8; a list of 370,000 items held a dozen such lists at once); of 32-bit ints where
    `largest` fits them (4 bytes, not 8: sums of sizes capped at `chunk_size + 1` mostly do)."""
    return array("i" if largest < 2**31 else "q", values)


def index_array(values: Iterable[int]) -> array[int]:
    """`values`, positions in a run (or counts of its chunks, or depths), as an array of
    32-bit ints (4 bytes each: a run of 2**31 atoms would take some 200 GB)."""
    return array("i", values)


def even_pair(view: ChunkView, pair: list[Span], cuts: list[int], limit: int) -> list[Span]:
    """Two consecutive spans (which do not fit one chunk together) cut again at the place
    in `cuts` (ascending, inside them) where the larger of the two is smallest while both
    fit, so a broken leaf has no small last piece (the parts of a level come back greedy,
    the last one holding what is left); `pair` itself if no cut does better.

    Head and tail are weighed as the chunks they would be, trimmed: the white space at a
    cut is in neither, and a span that starts or ends in a run of white space has no sync
    point there (`tokens/sync.py`), so counting it untrimmed encoded the whole run again
    (a line indented 9,000 spaces deep, issue 39 item 12)."""
    start, end = pair[0][0], pair[1][1]

    def trimmed(a: int, b: int) -> int:
        return view.count(*view.trim(a, b))

    # the first cut whose head has at least the tokens of its tail
    low = bisect_left(range(len(cuts)), True, key=lambda i: trimmed(start, cuts[i]) >= trimmed(cuts[i], end))
    best, best_size = pair, max(view.count(*pair[0]), view.count(*pair[1]))
    for cut in cuts[max(0, low - 1) : low + 1]:
        head, tail = view.trim(start, cut), view.trim(cut, end)
        if head[0] < head[1] and tail[0] < tail[1]:
            size = max(view.count(*head, limit), view.count(*tail, limit))
            if size < best_size:
                best, best_size = [head, tail], size
    return best
