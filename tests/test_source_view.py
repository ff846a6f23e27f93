"""`SourceView.trim`: a span without the white space at its edges, found without copying
the span (one or two characters at its end one by one, more a window at a time)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter.packing.view import SourceView


class _NoCounter:
    """A span counter the trim never asks."""

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        raise AssertionError("trim counts nothing")


_PIECES = ["a", "é", " ", "\n", "\r", "\t", "\u3000", "\x0c", "\n\n", "x" * 70, " " * 70]


@settings(max_examples=500, deadline=None)
@given(
    text=st.lists(st.sampled_from(_PIECES)).map("".join),
    data=st.data(),
)
def test_trim_leaves_out_the_white_space_at_a_spans_edges(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    trimmed = SourceView(text, _NoCounter()).trim(start, end)
    span = text[start:end]
    if not span.strip():
        assert trimmed == (end, end)
    else:
        lead, trail = len(span) - len(span.lstrip()), len(span) - len(span.rstrip())
        assert trimmed == (start + lead, end - trail)


def test_a_block_that_ends_with_a_line_end_or_two_loses_them():
    text = "# Title\n\nA paragraph.\n\n"
    view = SourceView(text, _NoCounter())
    assert view.trim(0, 8) == (0, 7)
    assert view.trim(9, 22) == (9, 21)
    assert view.trim(9, 23) == (9, 21)
    assert view.trim(7, 9) == (9, 9)
