"""Line numbers of chunks: `start_line` / `end_line`, 1-based and inclusive, in the
source's lines (as editors and citations count them: `\\r\\n`, a lone `\\r` and `\\n`
each end one line).

The line starts are found once per document; a chunk's two lines are then two bisects.
"""

from __future__ import annotations

import re
from bisect import bisect_right

# the line ends of CommonMark, which the line-based detectors count by too
_LINE_END = re.compile(r"\r\n?|\n")


class LineIndex:
    """The line starts of one document, for numbering the lines of its spans."""

    __slots__ = ("_starts",)

    def __init__(self, source: str) -> None:
        if "\r" in source:
            self._starts = [0, *(match.end() for match in _LINE_END.finditer(source))]
        else:  # one `str.find` per line is several times faster than a match object per line
            starts = [0]
            find = source.find
            position = find("\n")
            while position >= 0:
                starts.append(position + 1)
                position = find("\n", position + 1)
            self._starts = starts

    def line_of(self, position: int) -> int:
        """The 1-based number of the line that holds the character at `position`."""
        return bisect_right(self._starts, position)

    def lines(self, start: int, end: int) -> dict[str, int]:
        """`start_line` and `end_line` of the span `[start, end)`: the lines of its first
        and last characters (an empty span is on the line of `start`)."""
        return {"start_line": self.line_of(start), "end_line": self.line_of(max(start, end - 1))}
