"""Line offsets and blank-line blocks, shared by the line-based detectors and the packer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate

# CommonMark (and markdown-it) treat \r\n, a lone \r and \n each as one line end.
LINE_END = re.compile(r"\r\n?|\n")
# One or more blank lines (only spaces or tabs between their line ends) and the white
# space after them: what separates two paragraphs of plain text. The first line end is
# a lone `\r` only where no `\n` follows: else `\r\n` would backtrack into two line ends,
# a blank line between every two lines of a Windows text.
BLANK_LINES = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t\f\v]*(?:\r\n?|\n)\s*")
# The same where the text holds no carriage return, as `re` searches it several times
# faster: a pattern that opens with one literal character is scanned for that character
# (1.8 MB of plain text: 9.8 -> 1.9 ms), one that opens with alternatives is tried at
# every position.
_LF_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n\s*")


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


def blank_lines(text: str, start: int, end: int) -> Iterator[re.Match[str]]:
    """The matches of `BLANK_LINES` in `text[start:end]`, in order."""
    pattern = BLANK_LINES if text.find("\r", start, end) >= 0 else _LF_BLANK_LINES
    return pattern.finditer(text, start, end)


def blocks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the blocks of non-blank lines in `text[start:end]`, in order: what
    lies between blank lines, with its own line breaks (a block of white space alone
    is no block)."""
    out: list[tuple[int, int]] = []
    cursor = start
    for match in blank_lines(text, start, end):
        if cursor < match.start():
            out.append((cursor, match.start()))
        cursor = match.end()
    if cursor < end:
        out.append((cursor, end))
    # a match takes the white space after it, so only the first block can be blank
    if out and out[0][0] == start and text[start : out[0][1]].isspace():
        del out[0]
    return out
