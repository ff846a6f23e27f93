"""What the packer sees of a document: how a span reads as chunk text and how many
tokens that text has.

In source mode (every format's default) a chunk's text is the slice of the source.
HTML's text mode supplies another view, whose text is the readable text of the span;
the packer works on source offsets either way.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Sequence
from itertools import chain, pairwise
from typing import Protocol

from outline_splitter.packing.sentences import Span
from outline_splitter.tokens.base import ESTIMATE_MARGIN, SpanCounter

# A way to cut a span into parts that cover it: sentences, lines.
Level = Callable[[str, int, int], list[Span]]


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

    def reach(self, start: int, tokens: int) -> int | None:
        """The furthest end up to which a cheap close estimate of `[start, end)` stays at
        most `tokens` (the count may pass it by the tokens of the two edge pieces), or
        None if the view has no such estimate."""
        ...

    def words(self, start: int, end: int) -> tuple[Sequence[int], Sequence[int]]:
        """The starts and the ends of the words of `[start, end)`, the finest cuts above
        tokens: runs of non-space characters, in a markup source never cut inside a tag."""
        ...

    def parts(self, level: Level, start: int, end: int, limit: int) -> list[Span]:
        """The parts `level` cuts `[start, end)` into (its sentences, its lines), joined
        across every cut the source rules out for a budget of `limit` tokens (in markup,
        one inside a tag that fits it): the only cuts of a level the packer chooses from."""
        ...

    def estimates(self, bounds: Sequence[int]) -> list[int] | None:
        """A cheap close estimate of `count(a, b)` for each two consecutive `bounds`
        (ascending), which adds up over consecutive spans (tokens starting inside the
        span), or None if the view has none."""
        ...

    def blank_side(self, start: int, end: int) -> int:
        """0 if the span shows something (a letter, digit or other visible character);
        for a span of markup alone, the side it belongs to: -1 the chunk before it (it
        closes what that chunk holds), 1 the chunk after it (it opens what follows)."""
        ...

    def drop_counter(self) -> None:
        """Let the span counter go once the chunks are packed and counted (its index of
        the text's tokens is 2 bytes a token, about the size of a file of one-line
        functions, and would stay alive beside the chunks' texts while they are made,
        the peak of such a split); `count`, `reach` and `estimates` are not asked after."""
        ...


_NON_SPACE = re.compile(r"\S")
_WORD = re.compile(r"\S+")
_TRIM_WINDOW = 64


def fits(view: ChunkView, start: int, end: int, limit: int) -> bool:
    """Whether `view.text(start, end)` has at most `limit` tokens (a close estimate far
    enough under the limit answers without an exact count)."""
    reach = view.reach(start, limit - ESTIMATE_MARGIN)
    if reach is not None and end <= reach:
        return True
    return view.count(start, end, limit) <= limit


def _no_reach(start: int, tokens: int) -> None:
    """`ChunkView.reach` of a view whose counter has no close estimate."""
    return None


class SourceView:
    """Chunks are slices of the source; white space at a chunk's edges is left out."""

    # `reach` is the counter's own (a `TokenIndex`'s), not a method that calls it: the
    # packer asks it some 15,000 times a megabyte of plain text
    reach: Callable[[int, int], int | None]

    def __init__(self, source: str, counter: SpanCounter) -> None:
        self.source = source
        self.counter = counter
        self.reach = getattr(counter, "reach", _no_reach)
        self._estimate = getattr(counter, "estimate", None)
        self._estimates = getattr(counter, "estimates", None)

    def text(self, start: int, end: int) -> str:
        return self.source[start:end]

    def drop_counter(self) -> None:
        del self.counter
        self.reach = _no_reach
        self._estimate = self._estimates = None

    def estimates(self, bounds: Sequence[int]) -> list[int] | None:
        if self._estimates is not None:  # one search per bound, not two per span
            found: list[int] = self._estimates(bounds)
            return found
        if self._estimate is None:
            return None
        return [self._estimate(a, b) for a, b in pairwise(bounds)]

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        return self.counter.count(start, end, limit)

    def trim(self, start: int, end: int) -> tuple[int, int]:
        source = self.source
        if start >= end or source[start].isspace():  # (else the span's own start is kept, not a new int)
            match = _NON_SPACE.search(source, start, end)
            if match is None:
                return end, end
            start = match.start()
        # strip the end a window at a time: rstrip on the whole span would copy it, and
        # the outline's root and sections span megabytes; most spans (a block's lines,
        # with the blank line after them or not) end with one or two white space
        # characters after what they show: those are taken off one by one, no window
        if source[end - 1].isspace():
            end -= 1
            if source[end - 1].isspace():
                end -= 1
                while source[end - 1].isspace():
                    window = source[max(start, end - _TRIM_WINDOW) : end]
                    end -= len(window) - len(window.rstrip())
        return start, end

    def words(self, start: int, end: int) -> tuple[Sequence[int], Sequence[int]]:
        return word_bounds(self.source, start, end)

    def parts(self, level: Level, start: int, end: int, limit: int) -> list[Span]:
        return level(self.source, start, end)

    def blank_side(self, start: int, end: int) -> int:
        return 0  # a trimmed slice of plain source always shows something


def word_bounds(source: str, start: int, end: int, pattern: re.Pattern[str] = _WORD) -> tuple[array[int], array[int]]:
    """The starts and the ends of the matches of `pattern` (runs of non-space characters)
    in `source[start:end]`, as two arrays: a leaf of a megabyte has some 200,000 words,
    which as a list of span tuples took 25 times the text's size. One pass of the
    expression fills one flat array of (start, end) pairs, split in two: a second pass
    cost 60% more."""
    bounds = array("q", chain.from_iterable(map(re.Match.span, pattern.finditer(source, start, end))))
    return bounds[0::2], bounds[1::2]
