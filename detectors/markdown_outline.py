"""What both Markdown parsers' outlines are built with: the traits of each kind, the
sections that headings open (their slugs), the list item that defers its paragraph, a
block's meta and a table's header row. `detectors/markdown.py` maps markdown-it-py's
tokens onto them, `detectors/markdown_pulldown.py` pulldown-cmark's events: each parser's
reading is its own, its nodes made here the same way for both."""

from __future__ import annotations

import itertools
import re

from outline_splitter import kinds, nodes
from outline_splitter.nodes import SHARED_TRAITS, Label, Node, Trait, leads_in, with_lead_in

# How the packer treats each kind this detector makes.
TRAITS: dict[str, Trait] = dict(SHARED_TRAITS)
# Raw HTML is markup, as written: no overlap starts inside it, and one that fits is never
# cut to make a small chunk bigger (its lines are no places to cut, as code's are).
TRAITS[kinds.HTML_BLOCK] = Trait.VERBATIM

# Each node gets its kind's traits as it is made (no walk of the outline after it to
# apply them), and a paragraph that ends with a colon `LEADS` too (`with_lead_in`).
SECTION_TRAITS = TRAITS[kinds.SECTION]
HEADING_TRAITS = TRAITS[kinds.HEADING]
# (a paragraph is PROSE: `with_lead_in` of its traits, made once, not per paragraph)
PARAGRAPH_TRAITS = TRAITS[kinds.PARAGRAPH]
LEAD_IN_TRAITS = with_lead_in(PARAGRAPH_TRAITS, ":", 0, 1)

_SLUG_DROP = re.compile(r"[^\w\- ]")
# A fence's info string starts with its language: "rust", "cairo, noplayground", "js{1,3}".
_INFO_WORD = re.compile(r"[\s,{]")


class ListItem(Node):
    """A list item. One whose only content is a paragraph of its own span (each item of
    a tight list of one-line items) holds it deferred: the paragraph node is built when
    the packer breaks the item or the outline is asked for (`expanded_children`), as a
    node of its own it would double the nodes of a long list (two per item, some 150
    bytes each). Chunk metadata names the paragraph all the same (`unbuilt_kinds`)."""

    __slots__ = ()
    unbuilt_kinds = (kinds.PARAGRAPH,)

    def expanded_children(self) -> list[Node]:
        if self.expand is not None:
            self.expand = None
            self.children = [Node(kinds.PARAGRAPH, self.start, self.end, traits=PARAGRAPH_TRAITS)]
        return self.children


def paragraph_traits(text: str, start: int, end: int) -> Trait:
    """A paragraph's traits: PROSE, and LEADS where it introduces what follows."""
    return LEAD_IN_TRAITS if nodes.leads_in(text, start, end) else PARAGRAPH_TRAITS


def defer_paragraph(text: str, holder: Node, start: int, end: int) -> bool:
    """Whether `holder` is a list item that holds the paragraph `[start, end)`, its one
    child, deferred (see `ListItem`; then it is marked to build it): the paragraph has
    the item's span and is no lead-in (a lead-in's LEADS is a trait of its node). Tests
    patch this module's `leads_in` to see the outline with every paragraph built."""
    if (
        type(holder) is not ListItem
        or holder.children
        or start != holder.start
        or end != holder.end
        or leads_in(text, start, end)
    ):
        return False
    holder.expand = _own_paragraph
    return True


def add_child(holder: Node, node: Node) -> None:
    """`node` as the last child of `holder` (a list item that held its paragraph
    deferred builds it first: it is not all the item holds after all)."""
    if holder.expand is not None:
        holder.expanded_children()
    if holder.children:
        holder.children.append(node)
    else:  # its first child (it had NO_CHILDREN)
        holder.children = [node]


def _own_paragraph() -> list[Node]:
    """A `ListItem`'s `expand`: its paragraph is built by its `expanded_children`."""
    raise TypeError("a Markdown list item's paragraph is built by its expanded_children()")


class Sections:
    """The document's node and its open sections: a heading opens a section that runs to
    the next heading of the same or a higher level."""

    __slots__ = ("length", "open", "root", "slugs")

    def __init__(self, length: int) -> None:
        self.length = length
        self.root = Node(kinds.DOCUMENT, 0, length)
        self.open: list[tuple[int, Node]] = [(0, self.root)]  # (heading level, section)
        self.slugs: dict[str, int] = {}

    def heading(self, label: Label, start: int, end: int) -> Node:
        """Open the section of the heading `[start, end)` (closing those of its level and
        deeper) and return the heading's node, the section's first child."""
        level = label.level or 1
        sections = self.open
        while sections[-1][0] >= level:
            sections.pop()[1].end = start
        label.id = _unique_slug(label.title or "", self.slugs)
        heading = Node(kinds.HEADING, start, end, traits=HEADING_TRAITS, label=label)
        section = Node(kinds.SECTION, start, self.length, [heading], traits=SECTION_TRAITS, label=label)
        sections[-1][1].children.append(section)
        sections.append((level, section))
        return heading


def _unique_slug(title: str, seen: dict[str, int]) -> str:
    """The heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    to hyphens, and `-1`, `-2`... on repeats."""
    slug = _SLUG_DROP.sub("", title.lower()).replace(" ", "-") or "section"
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return f"{slug}-{count}" if count else slug


def list_meta(start: int | str | float | None) -> dict[str, object]:
    """A list's meta: a bullet list's (`start` None) or an ordered list's (its first number)."""
    if start is None:
        return {"ordered": False}
    return {"ordered": True, "list_start": int(start or 1)}


def code_meta(info: str | None) -> dict[str, object]:
    """A code block's meta: an indented block's (`info` None) or a fence's."""
    if info is None:
        return {"fenced": False}
    return {"language": _INFO_WORD.split(info.strip())[0], "fenced": True}


def finish_table(table: Node) -> None:
    """A GFM table's first row is its header row; its delimiter row belongs to no block:
    give it to the header row, so that a cut between rows never leaves it alone."""
    rows = table.children
    for row, following in itertools.pairwise(rows):
        if following.start > row.end:
            row.end = following.start
    if rows:
        rows[0].traits |= Trait.CONTEXT
