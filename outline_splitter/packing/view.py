"""What the packer sees of a document: how a span reads as chunk text and how many
tokens that text has.

In source mode (every format's default) a chunk's text is the slice of the source.
HTML's text mode supplies another view, whose text is the readable text of the span;
the packer works on source offsets either way.
"""

from __future__ import annotations

import re
from typing import Protocol

from outline_splitter.tokens.base import SpanCounter


class ChunkView(Protocol):
    """The packer's window on a document."""

    source: str

    def text(self, start: int, end: int) -> str:
        """The chunk text of the source span `[start, end)`."""
        ...

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        """Tokens of `text(start, end)`: exact, or any number above `limit` if surely over."""
        ...

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """The span without the edges that add nothing to its text (white space)."""
        ...

    def close_estimate(self, start: int, end: int) -> int | None:
        """A cheap count that is off by at most a few tokens, or None if there is none."""
        ...


_NON_SPACE = re.compile(r"\S")

# With a close estimate (whole-document token positions), a span this far under a limit
# needs no exact count; every chunk is counted exactly when it is closed.
ESTIMATE_SLACK = 16


def fits(view: ChunkView, start: int, end: int, limit: int) -> bool:
    """Whether `view.text(start, end)` has at most `limit` tokens (a close estimate far
    enough under the limit answers without an exact count)."""
    rough = view.close_estimate(start, end)
    if rough is not None and rough + ESTIMATE_SLACK <= limit:
        return True
    return view.count(start, end, limit) <= limit


class SourceView:
    """Chunks are slices of the source; white space at a chunk's edges is left out."""

    def __init__(self, source: str, counter: SpanCounter) -> None:
        self.source = source
        self.counter = counter
        self._estimate = getattr(counter, "estimate", None) if hasattr(counter, "total") else None

    def text(self, start: int, end: int) -> str:
        return self.source[start:end]

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        return self.counter.count(start, end, limit)

    def trim(self, start: int, end: int) -> tuple[int, int]:
        match = _NON_SPACE.search(self.source, start, end)
        if match is None:
            return end, end
        start = match.start()
        return start, start + len(self.source[start:end].rstrip())

    def close_estimate(self, start: int, end: int) -> int | None:
        return self._estimate(start, end) if self._estimate is not None else None
