"""What a chunk covers, beside where it starts: the kinds of the nodes it holds
(`metadata["kinds"]`) and every section path it runs over (`metadata["heading_paths"]`,
beside `heading_path`, which says only where the chunk starts). A chunk that runs over
the changelog sections 0.10.0, 0.9.0 and 0.8.1 names all three, so a retriever can tell
what it holds. Both come from one walk of the chunk's whole atoms."""

from __future__ import annotations

from collections.abc import Callable

from outline_splitter.kinds import PARAGRAPH
from outline_splitter.nodes import Node, TraitBit
from outline_splitter.packing.ancestry import Ancestry
from outline_splitter.packing.greedy import PackedSpan

_Path = tuple[str, ...]


def _title(node: Node) -> str | None:
    label = node.label
    return label.title if label is not None and node.traits._value_ & TraitBit.SECTION else None


def covered(span: PackedSpan) -> tuple[set[str], list[list[str]]]:
    """The kinds of the nodes that the chunk's atoms are, are part of or hold, and the
    title paths (outermost first) of the sections they lie in or hold, each once, in
    document order (none for text outside every section)."""
    kinds: set[str] = set()
    add_kind = kinds.add
    # (a dict's keys are a set in the order first added: the paths each once, in order)
    out: dict[_Path, None] = {}
    bases: dict[Ancestry, _Path] = {}  # by identity: atoms of one parent share their chain
    link: Ancestry | None = None
    base: _Path = ()
    for atom in span.atoms:
        node = atom.node
        if atom.ancestors is not link:  # (mostly a chunk's atoms are siblings: read once)
            link = atom.ancestors
            base = _chain_path(link, bases)
        if node.traits._value_ & TraitBit.PARAGRAPHS and node.expand is not None:
            add_kind(PARAGRAPH)  # paragraphs not built as nodes are paragraphs all the same
        elif atom.piece or not node.children:
            add_kind(node.kind)
            if node.unbuilt_kinds and node.expand is not None:
                kinds.update(node.unbuilt_kinds)
        title = None if atom.piece else _title(node)
        if title is None and base:  # a whole section says its own path, below
            out[base] = None
        if atom.piece or not node.children:
            if title is not None:
                out[(*base, title)] = None
        else:
            _walk_whole(node, base, kinds, out.setdefault)
    return kinds, list(map(list, out))


def _walk_whole(node: Node, base: _Path, kinds: set[str], add_path: Callable[[_Path], None]) -> None:
    """The kinds (added to `kinds`) and section paths of a whole atom's subtree (not
    built parts: deferred parts hold none, and their kinds are named only where a node
    knows them, its `unbuilt_kinds`), in document order."""
    add_kind, update_kinds = kinds.add, kinds.update
    stack: list[tuple[Node, _Path]] = [(node, base)]
    while stack:
        node, path = stack.pop()
        add_kind(node.kind)
        if node.expand is not None:
            update_kinds(node.unbuilt_kinds)
        title = _title(node)
        if title is not None:
            path = (*path, title)
            add_path(path)
        for child in reversed(node.children):
            # (a leaf without a label is no section and holds none: most nodes, not pushed)
            if child.children or child.label is not None:
                stack.append((child, path))
            else:
                add_kind(child.kind)
                if child.expand is not None:
                    update_kinds(child.unbuilt_kinds)


def _chain_path(link: Ancestry | None, bases: dict[Ancestry, _Path]) -> _Path:
    """The titles of the sections of a chain, outermost first. Only its section links
    are walked (10,000 nested `<div>`s hold none), each once per chunk (up to the
    nearest link already read), so a chunk pays for the sections above it, not for
    the depth of the chain."""
    link = link.section if link is not None else None
    unread: list[Ancestry] = []
    while link is not None and link not in bases:
        unread.append(link)
        link = link.parent.section if link.parent is not None else None
    path: _Path = bases[link] if link is not None else ()
    for each in reversed(unread):
        title = _title(each.node)
        if title is not None:
            path = (*path, title)
        bases[each] = path
    return path
