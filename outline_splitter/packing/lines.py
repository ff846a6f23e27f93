"""Line numbers of chunks: `start_line` / `end_line`, 1-based and inclusive, in the
source's lines (as editors and citations count them: `\\r\\n`, a lone `\\r` and `\\n`
each end one line).

Where the source has no carriage return, a line number is the line ends counted
(`str.count`) from the last position asked, since chunks come in order: the lines of a
page's chunks then cost a few scans of it in C instead of a list of its line starts.
Elsewhere the line starts are found once per document, and a line is a bisect.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import chain

from outline_splitter.detectors.lines import LINE_END


class LineIndex:
    """The lines of one document, for numbering the lines of its spans."""

    __slots__ = ("_line", "_position", "_source", "_starts")

    def __init__(self, source: str) -> None:
        self._source = source
        # (an array: as a list, each start is an int object of its own, 40 bytes a line, not 8)
        self._starts = (
            array("q", chain((0,), (match.end() for match in LINE_END.finditer(source)))) if "\r" in source else None
        )
        self._position, self._line = 0, 1  # the last position asked, and its line

    def line_of(self, position: int) -> int:
        """The 1-based number of the line that holds the character at `position`."""
        if self._starts is not None:
            return bisect_right(self._starts, position)
        last = self._position
        if position >= last:
            line = self._line + self._source.count("\n", last, position)
        else:
            line = self._line - self._source.count("\n", position, last)
        self._position, self._line = position, line
        return line

    def lines(self, start: int, end: int) -> tuple[int, int]:
        """`start_line` and `end_line` of the span `[start, end)`: the lines of its first
        and last characters (an empty span is on the line of `start`)."""
        return self.line_of(start), self.line_of(max(start, end - 1))
