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


_NON_SPACE = re.compile(r"\S")


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
        return pages or [self._opened(start, end)]

    def _opened(self, start: int, end: int) -> int:
        """The page that a span of markers and white space alone belongs to: the page of
        the first text after it, else of the last text before it (a budget that holds a
        run of markers leaves no room for the text they open)."""
        after = max(0, bisect_right(self.starts, end) - 1)
        for i in range(after, len(self.numbers)):
            if _NON_SPACE.search(self.text, max(end, self.starts[i]), self.ends[i]):
                return self.numbers[i]
        for i in range(min(after, len(self.numbers) - 1), -1, -1):
            if _NON_SPACE.search(self.text, self.starts[i], min(start, self.ends[i])):
                return self.numbers[i]
        return self.numbers[after]


def page_map(text: str, page_markers: str) -> PageMap:
    """The `PageMap` of `text` for a `page_markers` value."""
    return PageMap(text, find_markers(text, compile_markers(page_markers)))


# A marker shows no text of its own: it leads the page after it (no chunk ends with it
# while text follows) and starts a group of the blocks up to the next one; after the last
# text it trails, and joins the chunk before.
_MARKER_TRAITS = Trait.BLANK | Trait.LEADS | Trait.SEPARATOR
_LAST_MARKER_TRAITS = Trait.BLANK


def _start_of(node: Node) -> int:
    return node.start


def mark_page_markers(root: Node, text: str, markers: list[Marker]) -> None:
    """Make each marker a `PAGE_MARKER` node in the outline, or mark the node whose span
    it is (white space aside), with the traits of a marker. A marker with text after it
    (`_MARKER_TRAITS`) goes in the deepest node that holds it with text after it: one
    that ends a node (a Docling break before a heading ends the section before it) is
    taken out of it, which then ends before the marker, as it belongs to the page after
    it. A marker after the last text (`_LAST_MARKER_TRAITS`, pymupdf4llm's last `end of
    page`) goes at the end of the deepest node before it, which then ends with it, so
    the node is broken, where the two do not fit together, rather than the marker left
    alone. A marker that straddles nodes (a user's expression across blocks) is left as
    it is. The markers with text after them are placed last first, so a run of them that
    ends a node leaves it one by one; those after the last text first first."""
    last = len(markers)  # the markers from `last` on have no text after them
    while last and _NON_SPACE.search(text, markers[last - 1].end, _start_after(markers, last, text)) is None:
        last -= 1
    for marker in reversed(markers[:last]):
        _place(root, text, marker, _MARKER_TRAITS)
    for marker in markers[last:]:
        _end_with(root, marker)
        _place(root, text, marker, _LAST_MARKER_TRAITS)


def _start_after(markers: list[Marker], i: int, text: str) -> int:
    """Where the marker after `markers[i - 1]` starts (the end of `text` after the last)."""
    return markers[i].start if i < len(markers) else len(text)


def _place(root: Node, text: str, marker: Marker, traits: Trait) -> None:
    """Put `marker` in the outline (see `mark_page_markers`) with `traits`."""
    node = root
    while True:
        children = node.expanded_children()
        i = bisect_right(children, marker.start, key=_start_of) - 1
        if i < 0 or children[i].end < marker.end or children[i].start > marker.start:
            break
        child = children[i]
        if traits & Trait.LEADS and _ends(text, child, marker):
            _end_before(child, marker.start)  # the marker ends `child`: it goes after it
            break
        node = child
    if not text[node.start : marker.start].strip() and not text[marker.end : node.end].strip() and node is not root:
        node.traits |= traits
        return
    children = node.children
    i = bisect_right(children, marker.start, key=_start_of)
    if (i > 0 and children[i - 1].end > marker.start) or (i < len(children) and children[i].start < marker.end):
        return  # it straddles a node
    made = Node(PAGE_MARKER, marker.start, marker.end, traits=traits)
    if children is NO_CHILDREN or not children:
        node.children = [made]
    else:
        children.insert(i, made)


def _ends(text: str, node: Node, marker: Marker) -> bool:
    """Whether `marker`, inside `node`, ends it: text before it, white space after it."""
    return (
        _NON_SPACE.search(text, marker.end, node.end) is None
        and _NON_SPACE.search(text, node.start, marker.start) is not None
    )


def _end_with(root: Node, marker: Marker) -> None:
    """Make the deepest nodes before `marker` (no text after it) end with it, those
    from it on (white space, the node that is the marker) dropped."""
    node = root
    while True:
        children = node.expanded_children()
        kept = bisect_left(children, marker.start, key=_start_of)
        if kept < len(children):
            node.children = children[:kept]
        if not kept:
            return
        child = children[kept - 1]
        if marker.start < child.end < marker.end:
            return  # it straddles `child`
        child.end = max(child.end, marker.end)
        node = child


def _end_before(node: Node, cut: int) -> None:
    """End `node` at `cut`, and the descendants that reach past it; the children from
    `cut` on (white space and the marker that starts there) are dropped."""
    while True:
        children = node.expanded_children()
        kept = bisect_left(children, cut, key=_start_of)
        if kept < len(children):
            node.children = children[:kept]
        node.end = cut
        if not kept or children[kept - 1].end <= cut:
            return
        node = children[kept - 1]
