"""Where a long Markdown document's windows end: the rules markdown-it-py's detector
(`markdown.py`) reads a document by, a window of lines at a time, so that it holds one
window's tokens at once (pulldown-cmark's events come one at a time: its detector needs
no windows).

A window of about `WINDOW_CHARS` characters, or `WINDOW_LINES` lines if fewer, is parsed;
it ends before its last top-level block, which may be cut short, and the next one starts
there. Tokens come by lines more than by characters (a tight list's line of 45 characters
is five tokens of some 360 bytes each: a window of a megabyte of it held 40 MB of tokens;
of 1,024 lines it holds under 2 MB). A window that holds one top-level list alone ends
before its last item instead (the next window's list continues it). A window of another
single block (a fence longer than the window), or with the document's start `---` not
yet closed as front matter, grows until it holds two or reaches the end. A window never
starts at a `---` that underlines the paragraph before it (to markdown-it-py without its
Setext rule, a paragraph then a rule). The detector tells the rules only each top-level
block's kind and first line (`Top`); it keeps what comes before the cut (`Cut`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import NamedTuple, TypeVar

from outline_splitter.detectors.lines import BLANK_LINES
from outline_splitter.kinds import BLOCKQUOTE as BLOCKQUOTE
from outline_splitter.kinds import FRONT_MATTER as FRONT_MATTER
from outline_splitter.kinds import LIST as LIST
from outline_splitter.kinds import PARAGRAPH as PARAGRAPH
from outline_splitter.kinds import TABLE as TABLE
from outline_splitter.kinds import THEMATIC_BREAK

WINDOW_CHARS = 1 << 20
WINDOW_LINES = 1 << 10

# The kinds of top-level block the rules tell apart, the outline's own (any other is
# OTHER). A Setext heading is a PARAGRAPH to them (as markdown-it-py's tokens without its
# Setext rule have it), and a `---` underline after it a RULE.
RULE = THEMATIC_BREAK
OTHER = "other"

# Blocks that end at the first blank line after them, if not before.
_ENDED_BY_BLANK_LINE = frozenset({PARAGRAPH, TABLE, BLOCKQUOTE})


class Top(NamedTuple):
    """A top-level block of a window (or an item of the list that fills one): its kind,
    its first line in the document, and where it starts in the detector's stream."""

    kind: str
    line: int
    at: int


class Cut(NamedTuple):
    """Where a window ends: at the detector's stream position `at` (None: the window is kept
    whole, the document's last), the next window starting on line `line`; `in_list` if it
    ends before an item of the list that fills it."""

    at: int | None
    line: int
    in_list: bool


P = TypeVar("P")


def windows(
    text: str,
    starts: list[int],
    parse: Callable[[int, int, bool], P],
    tops: Callable[[P], list[Top]],
    items: Callable[[P], list[Top]],
) -> Iterator[tuple[P, Cut]]:
    """Each window of `text` (`starts`: its line starts) as the detector parsed it, with
    where it ends. `parse(first, end, last)` parses lines `first` to `end` (`last`: the
    document's last window); `tops` gives a parsed window's top-level blocks, `items` the
    items of the list that is its first (each asked only where the rules need them). No
    parse is held while the next window's is made."""
    last_line = len(starts) - 1
    first = 0
    size, lines = WINDOW_CHARS, WINDOW_LINES
    while first < last_line:
        end = min(bisect_left(starts, starts[first] + size, first + 1), first + lines)
        if end >= last_line:
            yield parse(first, last_line, True), Cut(None, last_line, False)
            return
        parsed = parse(first, end, False)
        blocks = tops(parsed)
        cut = _restart(blocks, first)
        if first == 0 and text.startswith("---") and not (blocks and blocks[0].kind == FRONT_MATTER):
            cut = None  # front matter may close further on: until then it reads as a rule
        item = None
        if cut is None and blocks and blocks[0].kind == LIST:
            item = _item_restart(items(parsed), first)
        if cut is None and item is None:
            if blocks and blocks[0].kind in _ENDED_BY_BLANK_LINE:
                size, lines = _past_blank_line(text, starts, first, end, size, lines)
            else:
                size, lines = 2 * size, 2 * lines
            continue
        at = cut if cut is not None else item
        assert at is not None
        yield parsed, Cut(at.at, at.line, item is not None)
        del parsed  # (only one window's parse is to be alive while the next is made)
        first, size, lines = at.line, WINDOW_CHARS, WINDOW_LINES


def _restart(blocks: list[Top], first: int) -> Top | None:
    """The last top-level block of a window (whose first line is `first`) before which
    the window may end: not one starting on its first line, not a rule right after a
    paragraph (it may be the paragraph's Setext underline); None if there is none."""
    for k in range(len(blocks) - 1, 0, -1):
        block = blocks[k]
        if block.line > first and not (block.kind == RULE and blocks[k - 1].kind == PARAGRAPH):
            return block
    return None


def _item_restart(items: list[Top], first: int) -> Top | None:
    """Where a window that holds one top-level list alone may end: before its last item
    (which may be cut short), if that is not its first; else None."""
    later = [item for item in items if item.line > first]
    return later[-1] if later else None


def _past_blank_line(text: str, starts: list[int], first: int, end: int, size: int, lines: int) -> tuple[int, int]:
    """The size and line count of a window (lines `first` to `end`) that one block of
    `_ENDED_BY_BLANK_LINE` fills: a window past the first blank line after it, where that
    block has ended, so it is parsed once more, not again at each doubling (a 16 MB table
    was parsed at 1, 2, 4, 8 and 16 MB: twice its time); at least twice as large, so many
    blank lines in a row cost no more than doubling."""
    blank = BLANK_LINES.search(text, starts[end] - 1)
    if blank is None:
        return len(text), len(starts)
    blank_line = bisect_left(starts, blank.start() + 1)
    return (
        max(2 * size, starts[blank_line] - starts[first] + WINDOW_CHARS),
        max(2 * lines, blank_line - first + WINDOW_LINES),
    )
