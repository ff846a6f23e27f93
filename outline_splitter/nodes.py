"""The outline node that detectors build and the packer walks.

`Node` is a plain slotted object, not a pydantic model: a long page yields tens of
thousands of them and a slotted object is built about six times faster. The public
`OutlineNode` (see `models.py`) is made from it once, when a user asks for the outline.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, cast

from outline_splitter.kinds import CODE, HEADING, PARAGRAPH, SECTION


class Trait(enum.Flag):
    """What the packer needs to know of a node: each format declares them per kind in
    its detector's `TRAITS` table (`apply_traits`), user options add some (`mark_nodes`).
    The packer reads these, never a node's kind."""

    NONE = 0
    LEADS = enum.auto()
    """Glued to the sibling that follows: a chunk never ends with it while what it
    introduces starts the next chunk (a heading, a comment before a definition)."""
    LINES = enum.auto()
    """A leaf whose line breaks mean something: cut at line ends before sentences."""
    SELF_CONTAINED = enum.auto()
    """When broken, its last chunk ends with it (the tail of a long section does not
    share a chunk with the next one); a leaf that fits is never cut so that what leads
    it takes its head."""
    VERBATIM = enum.auto()
    """No overlap starts inside it (a code block)."""
    NEVER_BREAK = enum.auto()
    """Kept whole up to `max_chunk_size`; separators inside it are ignored."""
    SEPARATOR = enum.auto()
    """When its parent must be broken, it starts a group with the siblings after it."""
    PROSE = enum.auto()
    """Running text that may be cut at sentences so that a leading node before it does
    not stand alone."""
    SECTION = enum.auto()
    """A titled part of the document: its title enters `heading_path`, and
    `min_chunk_size` merges stay inside it."""
    TITLE = enum.auto()
    """The heading of its parent section: a chunk's metadata names the section."""
    OMITTED = enum.auto()
    """Left out of the chunks (a content option dropped it): its own text, outside its
    children, is in no chunk, and no chunk spans across it; its children are visited
    (those not omitted are kept, as the main content inside an omitted page frame)."""
    HOLLOW = enum.auto()
    """Holds an omitted node: never one atom, always broken into its children."""
    BREAK_BEFORE = enum.auto()
    """A chunk starts with it, even where it would fit in the chunk before (a heading
    level of `header_levels`)."""
    CONTEXT = enum.auto()
    """Its text is context for the chunks cut out of its parent after it (a table's
    header row): `metadata["context"]` of such a chunk holds it."""
    PARAGRAPHS = enum.auto()
    """Its deferred children are the paragraphs between its blank lines (plain text):
    while they are not built, the packer cuts it as a leaf, at blank lines first (a
    paragraph that leads joined to the next), then as each paragraph would be cut."""
    TRAILS = enum.auto()
    """Glued to what comes before it where the two fit: a chunk never starts with it
    while the chunk before could have taken it (the packer gives it to the text after
    the last part of a broken node whose lines matter: a closing `}` or `end`)."""
    BLANK = enum.auto()
    """Shows no text of its own (a page marker): the packer takes it for markup alone
    (`packing/rules.py`), never a chunk of its own: it goes with the chunk after it if it
    `LEADS`, else with the chunk before."""


class TraitBit:
    """Each `Trait`'s bit as a plain int, the one namespace for the packer's hot loops,
    which test `node.traits._value_ & TraitBit.LEADS`: a Flag's `in` or `&` is a Python
    call (some 0.15 µs, 77,000 of them over the 44 html-web pages), an int's `&` is not."""

    LEADS: Final = Trait.LEADS.value
    LINES: Final = Trait.LINES.value
    SELF_CONTAINED: Final = Trait.SELF_CONTAINED.value
    VERBATIM: Final = Trait.VERBATIM.value
    NEVER_BREAK: Final = Trait.NEVER_BREAK.value
    SEPARATOR: Final = Trait.SEPARATOR.value
    PROSE: Final = Trait.PROSE.value
    SECTION: Final = Trait.SECTION.value
    TITLE: Final = Trait.TITLE.value
    OMITTED: Final = Trait.OMITTED.value
    HOLLOW: Final = Trait.HOLLOW.value
    BREAK_BEFORE: Final = Trait.BREAK_BEFORE.value
    CONTEXT: Final = Trait.CONTEXT.value
    PARAGRAPHS: Final = Trait.PARAGRAPHS.value
    TRAILS: Final = Trait.TRAILS.value
    BLANK: Final = Trait.BLANK.value


# The traits of the shared kinds (`kinds.py`): the table a format's own starts from.
SHARED_TRAITS: dict[str, Trait] = {
    HEADING: Trait.LEADS | Trait.TITLE,
    SECTION: Trait.SECTION | Trait.SELF_CONTAINED,
    PARAGRAPH: Trait.PROSE,
    CODE: Trait.LINES | Trait.VERBATIM,
}


def apply_traits(root: Node, table: Mapping[str, Trait]) -> Node:
    """Add each node's traits from a format's kind -> traits table, for the subtree built
    so far (a deferred `expand` applies it to the children it builds); returns `root`."""
    get = table.get
    stack = [root]
    while stack:
        node = stack.pop()
        traits = get(node.kind)
        if traits is not None:  # (a Flag's `|` is a Python call: skip it where it adds nothing)
            node.traits = node.traits | traits if node.traits else traits
        stack.extend(node.children)
    return root


# A text that introduces what follows it: it ends with a colon, maybe inside emphasis,
# code ticks or closing tags (`**Optional parameters:**`, `...are taken:</p>`).
_LEAD_IN_END = re.compile(r":[\s*_`]*(?:</[A-Za-z][\w-]*>[\s*_`]*)*\Z")
_LEAD_IN_WINDOW = 64


def leads_in(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` introduces what follows it: it ends with a colon."""
    return _LEAD_IN_END.search(text, max(start, end - _LEAD_IN_WINDOW), end) is not None


def with_lead_in(traits: Trait, text: str, start: int, end: int) -> Trait:
    """`traits` of a leaf `[start, end)` of `text` with `LEADS` added where they hold
    `PROSE` and its text introduces what follows (what `mark_lead_ins` adds), for a
    detector that gives a node its traits as it makes it."""
    if traits & Trait.PROSE and leads_in(text, start, end):
        return traits | Trait.LEADS
    return traits


def mark_lead_ins(root: Node, text: str) -> Node:
    """Add `LEADS` to each `PROSE` leaf of the subtree built so far whose text ends with a
    colon ("...the following steps are taken:"), so it stays with what it introduces;
    returns `root`. Formats call it after `apply_traits`: it is a trait of one node, not
    of its kind."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(node.children)
        elif Trait.PROSE in node.traits and leads_in(text, node.start, node.end):
            node.traits |= Trait.LEADS
    return root


@dataclass(slots=True, eq=False)  # eq=False: a label is itself, as a node is
class Label:
    """What a node says of where a chunk is, read by the chunk metadata: `title` and
    `level` of a section or heading, `id` of an element or section (an `anchor` id
    starts the id path anew; `part` names an element without an id among its siblings),
    `symbol` of a code definition and `context`, its header line; `key`, the segment a
    member or item of structured data (JSON, YAML) adds to the JSONPath of what it holds
    (`.name`, `["a.b"]`, `[3]`; `$` on the document), for `metadata["key_path"]`."""

    title: str | None = None
    level: int | None = None
    id: str | None = None
    anchor: bool = False
    part: str | None = None
    symbol: str | None = None
    context: str | None = None
    key: str | None = None

    def as_meta(self) -> dict[str, Any]:
        """The label's set fields, as the public `OutlineNode.meta` shows them."""
        values = {name: getattr(self, name) for name in _LABEL_FIELDS}
        return {name: value for name, value in values.items() if value is not None and value is not False}

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> tuple[Label | None, dict[str, Any]]:
        """The label held in a public `meta` dict, and the rest of it."""
        given = {name: meta[name] for name in _LABEL_FIELDS if name in meta}
        rest = {name: value for name, value in meta.items() if name not in given}
        return (cls(**given) if given else None), rest

    def __repr__(self) -> str:
        return f"Label({self.as_meta()!r})"


# A label's fields in the order `OutlineNode.meta` shows them (alphabetical)
_LABEL_FIELDS = tuple(sorted(field.name for field in fields(Label)))


# The children of a leaf while it has none: one immutable empty tuple for all the leaves
# of a detector that makes many (a Markdown list's items, a file of one-line functions),
# not an empty list (56 bytes) each. A detector gives a node its first child by assigning
# a list, and `expanded_children` its deferred ones; an append would fail, not share.
NO_CHILDREN = cast("list[Node]", ())


class Node:
    """One element of a document's outline.

    `start`/`end` are half-open character offsets into the source string, so
    `source[node.start:node.end]` is the node's text. Children are ordered, do not
    overlap, and lie inside their parent. `traits` say how the packer treats the node,
    `label` what its chunks' metadata reads of it (title, ids, symbol); `meta` holds
    what is private to the format (an HTML tag, a code block's language). A node's
    `meta` dict is made when it is first read (most nodes have none: an empty dict
    each cost 64 bytes, as much as a third of a Markdown list item's node).

    A detector may defer a node's children: `expand`, a function returning them, is
    called only when the packer has to break the node (`expanded_children`). A source
    file's functions mostly fit, so their statements are never built. `walk` and
    `check_outline` see the children built so far.
    """

    __slots__ = ("kind", "start", "end", "children", "_meta", "expand", "traits", "label")

    unbuilt_kinds: tuple[str, ...] = ()
    """The kinds of the children a deferred `expand` builds, where a class of node knows
    them before they are built (a Markdown list item's one paragraph): chunk metadata
    names them as if they were built, and the packer takes such a node for one with
    children, never for a leaf. None for most nodes: a code definition's deferred
    statements are not named until they are built."""

    def __init__(
        self,
        kind: str,
        start: int,
        end: int,
        children: list[Node] | None = None,
        meta: dict[str, Any] | None = None,
        expand: Callable[[], list[Node]] | None = None,
        traits: Trait = Trait.NONE,
        label: Label | None = None,
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.children: list[Node] = children if children is not None else []
        self._meta = meta
        self.expand = expand
        self.traits = traits
        self.label = label

    @property
    def meta(self) -> dict[str, Any]:
        meta = self._meta
        if meta is None:
            meta = self._meta = {}
        return meta

    @meta.setter
    def meta(self, meta: dict[str, Any]) -> None:
        self._meta = meta

    def public_meta(self) -> dict[str, Any]:
        """`meta` and the label's fields in one dict, as `OutlineNode.meta` shows them."""
        meta = self._meta or {}
        return {**meta, **self.label.as_meta()} if self.label is not None else dict(meta)

    def expanded_children(self) -> list[Node]:
        """The children, built first if they were deferred (and then checked as
        `check_outline` checks a detector's outline)."""
        if self.expand is not None:
            expand, self.expand = self.expand, None
            self.children = expand()
            check_outline(self, self.end)
        return self.children

    def expand_all(self) -> Node:
        """Build every deferred part of the subtree; returns this node."""
        stack = [self]
        while stack:
            stack.extend(stack.pop().expanded_children())
        return self

    def __repr__(self) -> str:
        return f"Node({self.kind!r}, {self.start}, {self.end}, children={len(self.children)})"

    def walk(self) -> list[Node]:
        """All nodes of the subtree in document order, this one first."""
        out: list[Node] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out


def check_outline(root: Node, length: int) -> None:
    """Raise `ValueError` unless `root` is a well-formed outline of a text of `length`.

    Well-formed: every node has `0 <= start <= end <= length`, children are ordered and
    do not overlap, and every child lies inside its parent. Third-party detectors are
    checked with this before their outline is packed.
    """
    stack = [root]
    if not (0 <= root.start <= root.end <= length):
        raise ValueError(f"outline root spans [{root.start}, {root.end}) outside [0, {length})")
    while stack:
        node = stack.pop()
        cursor, end = node.start, node.end
        for child in node.children:
            child_start, child_end = child.start, child.end
            if child_start < cursor or child_end < child_start or child_end > end:
                raise ValueError(
                    f"outline node {child.kind!r} [{child_start}, {child_end}) is out of order "
                    f"or outside its parent {node.kind!r} [{node.start}, {node.end})"
                )
            cursor = child_end
            if child.children:  # (most nodes are leaves: none is stacked to find it has no children)
                stack.append(child)
