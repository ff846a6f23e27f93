"""A view whose chunk text is a rendering of the source (HTML's readable text), not a
slice of it.

The rendering of the whole document is built once, with a map from its characters back
to source offsets; a source span reads as the part of the rendering that comes from it,
and is counted with one span counter over the rendering, so text mode costs one
tokenizer pass over the rendered text, as source mode costs one over the source.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Protocol

from outline_splitter.packing.sentences import Span
from outline_splitter.packing.view import Level, word_bounds
from outline_splitter.tokens.base import SpanCounter


class RenderedText(Protocol):
    """A document's rendering and its map back to the source."""

    source: str
    text: str

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The rendering `[lo, hi)` of the source span `[start, end)`, without blank edges."""
        ...

    def source_span(self, lo: int, hi: int) -> tuple[int, int]:
        """The source span that the non-empty rendering `[lo, hi)` comes from."""
        ...

    def source_position(self, lo: int) -> int:
        """The furthest source offset `end` such that `span(start, end)` ends at or
        before `lo` for every `start`."""
        ...


class RenderedView:
    """Chunks read as the rendering of their span; spans are trimmed to the source of
    their first and last rendered characters, so a span that renders as nothing (markup
    alone, a script) is empty and drops out."""

    def __init__(self, rendered: RenderedText, counter: SpanCounter) -> None:
        self.source = rendered.source
        self.rendered = rendered
        self.counter = counter
        self._reach = getattr(counter, "reach", None)
        self._estimate = getattr(counter, "estimate", None)

    def text(self, start: int, end: int) -> str:
        lo, hi = self.rendered.span(start, end)
        return self.rendered.text[lo:hi]

    def drop_counter(self) -> None:
        del self.counter
        self._reach = self._estimate = None

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        lo, hi = self.rendered.span(start, end)
        return self.counter.count(lo, hi, limit)

    def estimates(self, bounds: Sequence[int]) -> list[int] | None:
        if self._estimate is None:
            return None
        span = self.rendered.span
        return [int(self._estimate(*span(a, b))) for a, b in pairwise(bounds)]

    def trim(self, start: int, end: int) -> tuple[int, int]:
        lo, hi = self.rendered.span(start, end)
        if lo >= hi:
            return start, start
        return self.rendered.source_span(lo, hi)

    def blank_side(self, start: int, end: int) -> int:
        return 0  # spans are trimmed to visible characters

    def words(self, start: int, end: int) -> tuple[Sequence[int], Sequence[int]]:
        return word_bounds(self.source, start, end)  # a cut inside a tag is trimmed to text

    def parts(self, level: Level, start: int, end: int, limit: int) -> list[Span]:
        return level(self.source, start, end)  # (as a word's, a cut inside a tag is trimmed to text)

    def reach(self, start: int, tokens: int) -> int | None:
        if self._reach is None:
            return None
        # the rendering of a span from `start` begins at its first visible character
        lo, _ = self.rendered.span(start, len(self.source))
        return self.rendered.source_position(self._reach(lo, tokens))
