"""Page markers in text converted from PDF: which pages each chunk's span touches.

Converters mark page breaks in their Markdown or text: pdftotext a form feed, Docling a
`<!-- page_break -->` placeholder (its `page_break_placeholder`), marker a line
`{N}------...` before page N (with `paginate_output`), pymupdf4llm a line
`--- end of page=N ---` after page N (with `page_separators`). `AUTO` recognises all
four; a user's regular expression may say more, with a group named `page` (or its
first group) for the number of the page after the marker, or one named `end` for the
number of the page before it.

`PageMap` holds a text's markers and the pages between them: pages are counted from 1,
one more after each marker, but where a marker carries a number, the page it names is
that number, as the converter wrote it (marker counts from 0). `pages(start, end)` is the
pages whose text, outside the markers, has a non-space character in `[start, end)`.

`mark_page_markers` makes each marker a node of the outline (or marks the node that is
the marker, such as Docling's placeholder, an HTML block of its own): an atom the packer
never cuts, so no chunk starts or ends inside a marker; it `LEADS` (it goes with the page
after it, never a chunk of its own) and is a `SEPARATOR`, so where the structure allows
(a marker among the blocks of a section, between paragraphs) a page and what follows up
to the next marker are a group kept whole when it fits.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from outline_splitter.nodes import NO_CHILDREN, Node, Trait

AUTO = "auto"
PAGE_MARKER = "page_marker"
# The doc types whose text converters mark pages in.
PAGE_MARKER_FORMATS = ("markdown", "text")

# Each converter's marker; a line marker is a whole line (spaces around it allowed).
AUTO_PATTERN = (
    r"\f"
    r"|(?m:^[ \t]*<!--[ \t]*page[_ -]?break[ \t]*-->[ \t]*(?=\r?$))"
    r"|(?m:^[ \t]*\{(?P<page>\d+)\}-{3,}[ \t]*(?=\r?$))"
    r"|(?m:^[ \t]*-{3}[ \t]*end of page[ \t]*=[ \t]*(?P<end>\d+)[ \t]*-{3}[ \t]*(?=\r?$))"
)


@dataclass(frozen=True)
class Marker:
    """One page marker: its span and the page numbers it names (None where it names none):
    `after`, the page that follows it, or `before`, the page that ends at it."""

    start: int
    end: int
    after: int | None = None
    before: int | None = None


def compile_markers(page_markers: str) -> re.Pattern[str]:
    """The expression of a `page_markers` value (`AUTO`, or a regular expression);
    `ValueError` naming `page_markers` if it does not compile or matches the empty string."""
    try:
        pattern = re.compile(AUTO_PATTERN if page_markers == AUTO else page_markers)
    except re.error as exc:
        raise ValueError(f"page_markers: {page_markers!r} is not a regular expression ({exc})") from None
    if pattern.fullmatch(""):
        raise ValueError(f"page_markers: {page_markers!r} matches the empty string, so it cannot mark a page break")
    return pattern


def _number(match: re.Match[str], name: str) -> int | None:
    value = match.groupdict().get(name)
    return int(value) if value is not None and value.isdigit() else None


def find_markers(text: str, pattern: re.Pattern[str]) -> list[Marker]:
    """The markers `pattern` finds in `text`, in order (an empty match is none)."""
    markers: list[Marker] = []
    named = bool(pattern.groupindex)
    for match in pattern.finditer(text):
        if match.end() == match.start():
            continue
        after = _number(match, "page")
        if after is None and not named and pattern.groups:
            first = match.group(1)
            after = int(first) if first is not None and first.isdigit() else None
        markers.append(Marker(match.start(), match.end(), after, _number(match, "end")))
    return markers


class PageMap:
    """A text's markers and the page of the text between each two (see the module)."""

    def __init__(self, text: str, markers: list[Marker]) -> None:
        self.text = text
        self.markers = markers
        # the text between markers: [starts[i], ends[i]) is on page numbers[i]
        self.starts = [0, *(m.end for m in markers)]
        self.ends = [*(m.start for m in markers), len(text)]
        self.numbers: list[int] = []
        for i in range(len(markers) + 1):
            before = markers[i - 1] if i > 0 else None
            after = markers[i] if i < len(markers) else None
            if before is not None and before.after is not None:
                number = before.after
            elif after is not None and after.before is not None:
                number = after.before
            elif after is not None and after.after is not None:
                number = max(after.after - 1, 0)  # (marker counts its pages from 0)
            elif before is not None and before.before is not None:
                number = before.before + 1
            else:
                number = self.numbers[-1] + 1 if self.numbers else 1
            self.numbers.append(number)

    def pages(self, start: int, end: int) -> list[int]:
        """The pages whose text has a non-space character in `[start, end)`, in order,
        each once."""
        first = max(0, bisect_right(self.starts, start) - 1)
        last = bisect_left(self.ends, end)
        pages: list[int] = []
        for i in range(first, min(last, len(self.numbers) - 1) + 1):
            a, b = max(start, self.starts[i]), min(end, self.ends[i])
            if a < b and not self.text[a:b].isspace() and self.numbers[i] not in pages:
                pages.append(self.numbers[i])
        return pages


def page_map(text: str, page_markers: str) -> PageMap:
    """The `PageMap` of `text` for a `page_markers` value."""
    return PageMap(text, find_markers(text, compile_markers(page_markers)))


# A marker leads the page after it (no chunk is a marker alone) and starts a group of the
# blocks up to the next one.
_MARKER_TRAITS = Trait.LEADS | Trait.SEPARATOR


def _start_of(node: Node) -> int:
    return node.start


def mark_page_markers(root: Node, text: str, markers: list[Marker]) -> None:
    """Make each marker a `PAGE_MARKER` node (`LEADS`, `SEPARATOR`) in the deepest node that holds
    it, or mark the node whose span it is (white space aside); a marker that straddles
    nodes (a user's expression across blocks) is left as it is."""
    for marker in markers:
        node = root
        while True:
            children = node.expanded_children()
            i = bisect_right(children, marker.start, key=_start_of) - 1
            if i < 0 or children[i].end < marker.end or children[i].start > marker.start:
                break
            node = children[i]
        if not text[node.start : marker.start].strip() and not text[marker.end : node.end].strip() and node is not root:
            node.traits |= _MARKER_TRAITS
            continue
        children = node.children
        i = bisect_right(children, marker.start, key=_start_of)
        if (i > 0 and children[i - 1].end > marker.start) or (i < len(children) and children[i].start < marker.end):
            continue  # it straddles a node
        made = Node(PAGE_MARKER, marker.start, marker.end, traits=_MARKER_TRAITS)
        if children is NO_CHILDREN or not children:
            node.children = [made]
        else:
            children.insert(i, made)
