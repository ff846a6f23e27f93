"""What the packer sees of a document: how a span reads as chunk text and how many
tokens that text has.

In source mode (every format's default) a chunk's text is the slice of the source.
HTML's text mode supplies another view, whose text is the readable text of the span;
the packer works on source offsets either way.
"""

from __future__ import annotations

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
        source = self.source
        while start < end and source[start].isspace():
            start += 1
        while end > start and source[end - 1].isspace():
            end -= 1
        return start, end

    def close_estimate(self, start: int, end: int) -> int | None:
        return self._estimate(start, end) if self._estimate is not None else None
