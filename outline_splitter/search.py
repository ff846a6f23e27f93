"""The one bounded search over a predicate: how far a span still fits.

Where the answer is the first index of a sorted sequence, `bisect` answers it (with
`key=` for a predicate over indexes: `bisect_left(range(n), True, key=fits)`).
`last_holding` serves the searches `bisect` cannot say as they are: the last index
that holds between two bounds that need not be probed, and a gallop from the lower
bound first where the answer is expected near it (a chunk of k atoms or words then
costs O(log k) counts, not O(log n)).
"""

from __future__ import annotations

from collections.abc import Callable


def last_holding(holds: Callable[[int], bool], low: int, high: int, gallop: bool = False) -> tuple[int, int]:
    """`(last, next)`: the last index that `holds` and the next one, which does not,
    between `low` (which holds, or a bound below the first index) and `high` (which does
    not, or a bound past the last), found by halving `(low, high)`; with `gallop`,
    first by probing `low + 1`, `low + 2`, `low + 4`, ... while they hold. `holds` is
    asked only of indexes strictly between the two."""
    if gallop:
        step = 1
        while low + step < high:
            if not holds(low + step):
                high = low + step
                break
            low += step
            step *= 2
    while high - low > 1:
        middle = (low + high) // 2
        if holds(middle):
            low = middle
        else:
            high = middle
    return low, high
