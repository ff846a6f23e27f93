"""Chunk metadata, read off the outline nodes a chunk covers."""

from __future__ import annotations

import hashlib
from typing import Any

from outline_splitter.nodes import DOCUMENT, HEADING, SECTION, Node
from outline_splitter.packing.greedy import PackedSpan


def _path(atom_nodes: tuple[Node, ...], key: str, kinds: frozenset[str] | None = None) -> list[str]:
    return [str(n.meta[key]) for n in atom_nodes if key in n.meta and (kinds is None or n.kind in kinds)]


def _id_path(nodes: tuple[Node, ...], broken: int) -> list[str]:
    """The `id`s of `nodes`, outermost first; an `anchor` id starts the path anew, and
    below an id the `part` names of the first `broken` nodes (those the chunk was cut
    out of) follow it."""
    ids: list[str] = []
    for depth, node in enumerate(nodes):
        meta = node.meta
        if "id" in meta:
            if meta.get("anchor"):
                ids = []
            ids.append(str(meta["id"]))
        elif "part" in meta and ids and depth < broken:
            ids.append(str(meta["part"]))
    return ids


def _chunk_id(source_text: str, start: int, end: int) -> str:
    digest = hashlib.blake2b(source_text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
    return f"{start}-{end}-{digest}"


def _nodes_at(first_node: Node, position: int) -> tuple[Node, ...]:
    """`first_node` and its descendants that contain `position`, outermost first."""
    chain = [first_node]
    node = first_node
    while True:
        inner = next((c for c in node.children if c.start <= position < c.end), None)
        if inner is None or inner.kind == HEADING:
            return tuple(chain)
        chain.append(inner)
        node = inner


def chunk_metadata(span: PackedSpan, index: int, text: str) -> dict[str, Any]:
    """`index`, `heading_path`, `title`, `kinds`, `id` for every chunk; `section_id`,
    `parent_id`, `symbol_path` and `context` where the outline has them.

    Paths are those of where the chunk starts: the sections (and elements with an id)
    that contain its first character, including one whose heading opens the chunk."""
    first = span.atoms[0]
    nodes = (*first.ancestors, *_nodes_at(first.node, first.start))
    if nodes[-1].kind == HEADING and len(nodes) > 1 and nodes[-2].kind == SECTION:
        nodes = nodes[:-1]  # a heading speaks for its section
    heading_path = _path(nodes, "title", frozenset({SECTION}))
    kinds: set[str] = set()
    for atom in span.atoms:
        if atom.piece:
            kinds.add(atom.node.kind)
        else:
            kinds.update(n.kind for n in atom.node.walk())
    kinds.discard(DOCUMENT)
    meta: dict[str, Any] = {
        "index": index,
        "heading_path": heading_path,
        "title": heading_path[-1] if heading_path else "",
        "kinds": sorted(kinds),
        "id": _chunk_id(text, span.start, span.end),
    }
    ids = _id_path(nodes, len(first.ancestors) + first.piece)
    if ids:
        meta["section_id"] = "/".join(ids)
        meta["parent_id"] = "/".join(ids[:-1]) or None
    symbols = _path(nodes, "symbol")
    if symbols:
        meta["symbol_path"] = symbols
    # the header lines of the definitions the chunk is inside, but not of one it starts
    # with: that chunk holds the header itself
    context = [str(n.meta["context"]) for n in first.ancestors if "context" in n.meta and n.start < span.start]
    if context:
        meta["context"] = "\n".join(context)
    return meta
