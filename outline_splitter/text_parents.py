"""`hierarchy=True`, `parents="text"` (the default): parents that hold their section's text.

The leaf chunks are those of a split without `hierarchy`. A *broken* section is one that
more than one leaf holds part of (`hierarchy.broken_sections`); its span is that of its
leaves, from the first one's start to the last one's end, so it is an exact slice of
the source (in HTML text mode, the text of that span).

The broken sections, the document above them, and the leaves each owns make a small
outline of their own: a section is a node whose children are its broken subsections and
its other leaves, in order; a leaf is a node the packer never cuts. That outline is
packed by the packer itself, with `parent_chunk_size` as the budget, so a section whose
text fits is one atom (one parent, its own text) and a section that does not is broken
into parts along its subsections and leaves, the fewest that fit and about equal, each a
parent of its own: parents of parents, levels as deep as the document's sections. A
section or document node with a single child adds no level and is left out.

Every parent lists the chunks directly under it in `children` (chunk ids, in order) and
every chunk names the parent that lists it in `parent_id` (None at the top), so each
leaf lies inside its parent's text and each parent inside its own parent's. Every chunk's
`sections` are the ids of the broken sections it lies in, outermost first
(`section_chunks` reads them: a section too large for one parent has several, and a
leaf alone in a part has none). A part
shares its section's `section_id` and `heading_path`; a section's first parent is the
one whose span starts first.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from outline_splitter.assembly import Assembly, Draft
from outline_splitter.hierarchy import _Builder, _Section, assign_leaves, broken_sections, in_order
from outline_splitter.kinds import DOCUMENT, SECTION
from outline_splitter.nodes import Node, Trait
from outline_splitter.packing import ChunkView, pack_outline
from outline_splitter.packing.metadata import chunk_id

# The kind of a leaf chunk's node in the parents' outline.
_LEAF = "chunk"


class _Parent:
    """A parent chunk before it is made: its span, the section it is (part of), and the
    nodes of the parents' outline directly under it."""

    __slots__ = ("end", "id", "members", "section", "start", "token_count")

    def __init__(self, start: int, end: int, token_count: int, section: _Section | None, members: list[Node]) -> None:
        self.start = start
        self.end = end
        self.token_count = token_count
        self.section = section
        self.members = members
        self.id = ""


class _Outline:
    """The outline of broken sections and leaves (see the module docstring)."""

    def __init__(self, root: Node, leaves: Sequence[Draft], after_cut: Sequence[bool]) -> None:
        self.leaf_of: dict[int, int] = {}  # id(node) -> index of its leaf chunk
        leaf_nodes: list[Node] = []
        self.section_of: dict[int, _Section | None] = {}  # id(node) -> its section (None: the document)
        broken = broken_sections(root, leaves)
        owners = self.owners = assign_leaves(broken, leaves)
        nodes = {id(section): self._node(SECTION, section) for section in broken}
        top = self._node(DOCUMENT, None)
        for i, (leaf, owner) in enumerate(zip(leaves, owners, strict=True)):
            node = Node(_LEAF, leaf.start_pos, leaf.end_pos)
            self.leaf_of[id(node)] = i
            leaf_nodes.append(node)
            (nodes[id(owner)] if owner is not None else top).children.append(node)
        for section in broken:
            (nodes[id(section.parent)] if section.parent is not None else top).children.append(nodes[id(section)])
        for node in [*(nodes[id(section)] for section in reversed(broken)), top]:  # inner sections first
            node.children.sort(key=_start)
            node.children = [_single(child) for child in node.children if child.children or child.kind == _LEAF]
            if node.children:
                node.start, node.end = node.children[0].start, node.children[-1].end
        self.root = _single(top)
        self._omit([i for i, cut in enumerate(after_cut) if cut and i > 0], leaf_nodes)

    def _omit(self, cuts: list[int], leaf_nodes: list[Node]) -> None:
        """Where text was left out between leaf `i - 1` and leaf `i` (a content option),
        an `OMITTED` node between them in the innermost node holding both, which with
        every node above it is `HOLLOW`: no parent spans what no leaf holds."""
        if not cuts:
            return
        above: dict[int, Node] = {}
        stack = [self.root]
        while stack:
            node = stack.pop()
            for child in node.children:
                above[id(child)] = node
                stack.append(child)
        for i in cuts:
            before, after = leaf_nodes[i - 1], leaf_nodes[i]
            chain = {id(before)}
            node = before
            while id(node) in above:
                node = above[id(node)]
                chain.add(id(node))
            holder = after
            while id(holder) not in chain:
                holder = above[id(holder)]
            gap = Node(_LEAF, before.end, after.start, traits=Trait.OMITTED)
            holder.children.insert(bisect_left(holder.children, after.start, key=_start), gap)
            while True:
                holder.traits |= Trait.HOLLOW
                if id(holder) not in above:
                    break
                holder = above[id(holder)]

    def _node(self, kind: str, section: _Section | None) -> Node:
        node = Node(kind, 0, 0, traits=Trait.SECTION | Trait.SELF_CONTAINED)
        self.section_of[id(node)] = section
        return node


def _start(node: Node) -> int:
    return node.start


def _single(node: Node) -> Node:
    """`node`, or the one node below it where it has a single child: a section whose
    text is a subsection's, or one leaf's, is no level of its own."""
    while len(node.children) == 1:
        node = node.children[0]
    return node


def build_text_parents(assembly: Assembly, leaves: list[Draft], parent_chunk_size: int) -> list[Draft]:
    """`leaves` with their parent chunks among them (each before its first child), every
    chunk with `role`, `parent_id` and, for a parent, `children`; `index` renumbered.
    `assembly` gives the outline, the view (the parents' text and counts), the ids and the
    keys a parent shares with the leaves (lines, doc_type, ...); no parent has over
    `parent_chunk_size` tokens (a leaf must not have more either), nor spans text left
    out before a leaf (`after_cut`)."""
    outline = _Outline(assembly.root, leaves, [leaf.after_cut for leaf in leaves])
    parents = _parents(outline, assembly.view, parent_chunk_size)
    parent_of = _name(parents, outline, leaves, assembly)
    out: list[tuple[tuple[int, ...], Draft]] = [
        ((parent.start, 0, -parent.end), _draft(parent, outline, leaves, assembly, parent_of.get(parent.id)))
        for parent in parents
    ]
    for leaf, owner in zip(leaves, outline.owners, strict=True):
        leaf.metadata["sections"] = _sections(owner)
        leaf.metadata["role"] = "leaf"
        leaf.metadata["parent_id"] = parent_of.get(leaf.metadata["id"])
        out.append(((leaf.start_pos, 1, -leaf.end_pos), leaf))
    return in_order(out)


def _draft(parent: _Parent, outline: _Outline, leaves: list[Draft], assembly: Assembly, above: str | None) -> Draft:
    """The chunk of `parent` (listed by the parent `above`): its section's text, heading
    path and ids, and the kinds of the leaves inside it."""
    section = parent.section
    path = _Builder.path_of(section) if section is not None else []
    inside = [leaves[i] for i in _leaves_in(parent.members, outline)]
    metadata = {
        **assembly.shared(parent.start, parent.end),
        "heading_path": path,
        **({"context": " > ".join(path[:-1])} if len(path) > 1 else {}),
        "title": section.title if section is not None else "",
        "kinds": sorted({kind for leaf in inside for kind in leaf.metadata.get("kinds", ())}),
        "id": parent.id,
        "section_id": section.sid if section is not None else None,
        "parent_section_id": section.parent.sid if section is not None and section.parent is not None else None,
        "sections": _sections(section),
        "role": "parent",
        "parent_id": above,
    }
    text = assembly.view.text(parent.start, parent.end)
    return Draft(text, parent.start, parent.end, parent.token_count, metadata)


def _parents(outline: _Outline, view: ChunkView, budget: int) -> list[_Parent]:
    """The parents: the parts the packer made of the parents' outline with `budget`
    (a part that is one section's whole text is that section's parent; a part that is
    one leaf is none), and below each, the parent of every section inside it."""
    parents: list[_Parent] = []
    pending: list[Node] = []  # sections inside a parent, whose own parents are still to make
    for span in pack_outline(outline.root, view, budget, budget):
        members = [atom.node for atom in span.atoms if id(atom.node) in outline.leaf_of or atom.node.children]
        if not members or (len(members) == 1 and members[0].kind == _LEAF):
            continue
        if len(members) == 1:  # one section, whole
            section = outline.section_of[id(members[0])]
            members = members[0].children
        else:  # the parts of a section too large for one parent: they all have its parent
            above = span.atoms[0].ancestors
            section = outline.section_of[id(above.node if above is not None else outline.root)]
        parents.append(_Parent(span.start, span.end, span.token_count, section, members))
        pending.extend(member for member in members if member.children)
    while pending:
        node = pending.pop()
        count = view.count(node.start, node.end)
        parents.append(_Parent(node.start, node.end, count, outline.section_of[id(node)], node.children))
        pending.extend(member for member in node.children if member.children)
    return parents


def _sections(section: _Section | None) -> list[str]:
    """The ids of `section` and the broken sections around it, outermost first."""
    ids: list[str] = []
    while section is not None:
        ids.append(section.sid)
        section = section.parent
    return ids[::-1]


def _leaves_in(members: list[Node], outline: _Outline) -> list[int]:
    """The indexes of the leaves at or below `members`, in order."""
    found: list[int] = []
    stack = members[::-1]
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(reversed(node.children))
        elif id(node) in outline.leaf_of:  # (not a gap left out)
            found.append(outline.leaf_of[id(node)])
    return found


def _name(parents: list[_Parent], outline: _Outline, leaves: Sequence[Draft], assembly: Assembly) -> dict[str, str]:
    """Give each parent its content-addressed id; return chunk id -> its parent's id."""
    taken = {leaf.metadata["id"] for leaf in leaves}
    for parent in parents:
        path = _Builder.path_of(parent.section) if parent.section is not None else []
        text = assembly.view.text(parent.start, parent.end)
        ordinal = 0
        while True:
            name = chunk_id(assembly.document_id, (*path, "\x01parent"), text, ordinal, assembly.id_prefix)
            if name not in taken:
                break
            ordinal += 1
        taken.add(name)
        parent.id = name
    by_span = {(parent.start, parent.end): parent.id for parent in parents}
    parent_of: dict[str, str] = {}
    for parent in parents:
        for member in parent.members:
            if member.children:
                child = by_span[(member.start, member.end)]
            else:
                child = leaves[outline.leaf_of[id(member)]].metadata["id"]
            parent_of[child] = parent.id
    return parent_of
