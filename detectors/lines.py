"""Line offsets, shared by the line-based detectors."""

from __future__ import annotations

import re
from itertools import accumulate

# CommonMark (and markdown-it) treat \r\n, a lone \r and \n each as one line end.
LINE_END = re.compile(r"\r\n?|\n")


def line_starts(text: str) -> list[int]:
    """Offset of the first character of each line, plus `len(text)` at the end, so that
    line `i` spans `[starts[i], starts[i + 1])` including its line end."""
    if "\r" in text:
        starts = [0]
        starts.extend(match.end() for match in LINE_END.finditer(text))
    else:  # a line ends after each "\n": lengths of `str.split` add up faster than matches
        starts = list(accumulate(map(len, text.split("\n")), lambda total, n: total + n + 1, initial=0))
        starts.pop()
    if starts[-1] != len(text):
        starts.append(len(text))
    return starts
