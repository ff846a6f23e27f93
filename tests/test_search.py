"""`outline_splitter.search.last_holding`, the one bounded search of the splitter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from outline_splitter.search import last_holding


@given(st.integers(0, 300), st.integers(0, 300), st.integers(-1, 20), st.booleans())
def test_last_holding_finds_the_edge_of_a_monotone_predicate_asking_only_inside_the_bounds(
    size: int, edge: int, low: int, gallop: bool
) -> None:
    high = low + size + 1
    edge = min(max(edge + low, low), high - 1)  # holds up to `edge`, not after it
    asked: list[int] = []

    def holds(i: int) -> bool:
        asked.append(i)
        return i <= edge

    assert last_holding(holds, low, high, gallop) == (edge, edge + 1)
    assert all(low < i < high for i in asked)
    assert len(asked) <= 2 * (size + 1).bit_length() + 1


@given(st.integers(0, 30), st.integers(1000, 10**9))
def test_a_gallop_costs_the_log_of_the_answer_not_of_the_range(edge: int, high: int) -> None:
    asked: list[int] = []

    def holds(i: int) -> bool:
        asked.append(i)
        return i <= edge

    assert last_holding(holds, 0, high, gallop=True) == (edge, edge + 1)
    assert len(asked) <= 2 * (edge + 1).bit_length() + 1
