"""Walking the outline down to the pieces that fit: the atoms the greedy packer joins.

A node that fits the budget is one atom, whole. A node that does not is replaced by its
children (and by the text between them, if any); a leaf that does not fit is cut by
`leaf.split_leaf`. A node marked `never_break` may be one atom up to `max_chunk_size`.

Separators (meta `separator`) regroup the children of a node that must be broken: a
separator child starts a `group` node holding it and the siblings after it, up to the
next separator. A separator, and the group it starts, may be one atom up to
`max_chunk_size` too. Inside a `never_break` node separators are ignored.

Before the parts of a node that had to be broken comes a `BARRIER`: the greedy packer
starts a new chunk there, so a broken list or section begins its own chunk (headings
before it move along) instead of filling the previous chunk's tail with its first item.
A broken section (`SELF_CONTAINED_KINDS`) gets a `BARRIER` after its parts too.
"""

from __future__ import annotations

from outline_splitter.nodes import LEADING_KINDS, LINE_ORIENTED_KINDS, SELF_CONTAINED_KINDS, Node
from outline_splitter.packing.leaf import LINE_LEVELS, PROSE_LEVELS, split_leaf
from outline_splitter.packing.view import ChunkView, fits

TEXT = "text"
GROUP = "group"
BARRIER = None


class Atom:
    """A span the packer never cuts. `node` is the node it is (or, with `piece`, a part
    of); `ancestors` are the nodes above it, root first. `leading` atoms (headings,
    comments) are glued to what follows them."""

    __slots__ = ("start", "end", "node", "ancestors", "piece", "leading", "limit")

    def __init__(
        self,
        start: int,
        end: int,
        node: Node,
        ancestors: tuple[Node, ...],
        piece: bool = False,
        limit: int = 0,
    ) -> None:
        self.start = start
        self.end = end
        self.node = node
        self.ancestors = ancestors
        self.piece = piece
        self.leading = node.kind in LEADING_KINDS and not piece
        self.limit = limit  # the most tokens this atom may have: chunk_size, or more if never_break

    def __repr__(self) -> str:
        return f"Atom({self.node.kind!r}, {self.start}, {self.end}{', piece' if self.piece else ''})"


def collect_atoms(root: Node, view: ChunkView, chunk_size: int, max_chunk_size: int) -> list[Atom | None]:
    """The atoms of `root` in document order, with a `BARRIER` before each broken node;
    together the atoms cover every non-space character of the document."""
    atoms: list[Atom | None] = []

    def visit(node: Node, start: int, end: int, ancestors: tuple[Node, ...]) -> None:
        start, end = view.trim(start, end)
        if start >= end:
            return
        meta = node.meta
        limit = max_chunk_size if meta.get("never_break") or meta.get("separator") else chunk_size
        if fits(view, start, end, limit):
            atoms.append(Atom(start, end, node, ancestors, limit=limit))
            return
        if atoms and atoms[-1] is not BARRIER:
            atoms.append(BARRIER)
        children = node.expanded_children()
        if children:
            inner = (*ancestors, node)
            cursor = start
            if not meta.get("never_break") and not any(a.meta.get("never_break") for a in ancestors):
                children = group_separated(children)
            for child in children:
                if child.start > cursor:
                    visit_gap(node, cursor, child.start, inner)
                visit(child, max(child.start, start), min(child.end, end), inner)
                cursor = max(cursor, child.end)
            if end > cursor:
                visit_gap(node, cursor, end, inner)
            if node.kind in SELF_CONTAINED_KINDS and atoms[-1] is not BARRIER:
                atoms.append(BARRIER)
            return
        levels = LINE_LEVELS if node.kind in LINE_ORIENTED_KINDS or node.meta.get("split") == "lines" else PROSE_LEVELS
        for a, b in split_leaf(view, start, end, chunk_size, levels):
            atoms.append(Atom(a, b, node, ancestors, piece=True, limit=chunk_size))

    def visit_gap(parent: Node, start: int, end: int, ancestors: tuple[Node, ...]) -> None:
        # Text a detector left between children (HTML text beside elements, code between
        # definitions): a leaf of its own, cut at lines first if its parent's lines matter.
        start, end = view.trim(start, end)
        if start >= end:
            return  # mostly white space between tags or definitions: no node to make
        lines = parent.kind in LINE_ORIENTED_KINDS or parent.meta.get("split") == "lines"
        visit(Node(TEXT, start, end, meta={"split": "lines"} if lines else None), start, end, ancestors)

    visit(root, root.start, root.end, ())
    return atoms


def group_separated(children: list[Node]) -> list[Node]:
    """`children` with each separator and the siblings after it (up to the next
    separator) made one `group` node; `children` itself when none is a separator."""
    if not any(child.meta.get("separator") for child in children):
        return children
    out: list[Node] = []
    group: list[Node] | None = None
    for child in children:
        if child.meta.get("separator"):
            group = [child]
            out.append(Node(GROUP, child.start, child.end, group, {"separator": True}))
        elif group is not None:
            group.append(child)
            out[-1].end = child.end
        else:
            out.append(child)
    return [node.children[0] if node.kind == GROUP and len(node.children) == 1 else node for node in out]
