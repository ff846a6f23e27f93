"""Chunk metadata, read off the outline nodes a chunk covers."""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from outline_splitter.nodes import Node, TraitBit
from outline_splitter.packing.ancestry import HEADER_ROWS_WITHIN, Ancestry
from outline_splitter.packing.atoms import Atom
from outline_splitter.packing.covered import covered
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.key_paths import EMPTY, KeyPath


class _Paths:
    """What a chain of nodes, outermost first, says of where a chunk is: the titles of
    its sections, its `id` path, its symbols, (with their starts) its definitions'
    header lines and the segments of its key path (structured data)."""

    __slots__ = ("contexts", "ids", "keys", "symbols", "titles")

    def __init__(self) -> None:
        self.titles: list[str] = []
        self.ids: list[str] = []
        self.symbols: list[str] = []
        self.keys: KeyPath = EMPTY
        self.contexts: list[tuple[int, str]] = []

    def copy(self) -> _Paths:
        paths = _Paths()
        paths.titles, paths.ids, paths.symbols = self.titles[:], self.ids[:], self.symbols[:]
        paths.keys = self.keys  # (persistent: shared, not copied)
        paths.contexts = self.contexts
        return paths

    def extend(self, nodes: tuple[Node, ...], broken: int) -> None:
        """Add `nodes`' labels. An `anchor` id starts the id path anew; below an id, the
        `part` names of the first `broken` of `nodes` (those a chunk was cut out of)
        follow it."""
        for depth, node in enumerate(nodes):
            label = node.label
            if label is None:
                continue
            if node.traits._value_ & TraitBit.SECTION and label.title is not None:
                self.titles.append(label.title)
            if label.id is not None:
                if label.anchor:
                    self.ids.clear()
                self.ids.append(label.id)
            elif label.part is not None and self.ids and depth < broken:
                self.ids.append(label.part)
            if label.symbol is not None:
                self.symbols.append(label.symbol)
            if label.key is not None:
                self.keys = self.keys.plus(label.key)

    def add_ancestor(self, node: Node) -> None:
        """Add `node`'s label, as an ancestor of a chunk (its `context` line too)."""
        label = node.label
        if label is not None:
            self.extend((node,), 1)
            if label.context is not None:
                self.contexts.append((node.start, label.context))


def chunk_id(document_id: str, section_path: tuple[str, ...], text: str, ordinal: int, prefix: str = "") -> str:
    """A content-addressed id: a hash of the document's id, the section path and the
    chunk's text, and `ordinal` (the how-many-th chunk with this text in this section)
    when it is not the first. No offset enters it, so an edit elsewhere in the document
    leaves it alone; `prefix` (the splitter's `id_prefix`) is put before it."""
    return _text_id(_section_digest(document_id, section_path), text, ordinal, prefix)


def _section_digest(document_id: str, section_path: tuple[str, ...]) -> hashlib.blake2b:
    """The hash of a chunk id (`chunk_id`) over its first parts, the document's id and
    the section path, which the chunks of a section share."""
    digest = hashlib.blake2b(digest_size=8)
    for part in (document_id, *section_path):
        _add_part(digest, part)
    return digest


def _text_id(section: hashlib.blake2b, text: str, ordinal: int, prefix: str) -> str:
    """`chunk_id` from the hash of its first parts (`_section_digest`, left as it is)."""
    digest = section.copy()
    _add_part(digest, text)
    name = digest.hexdigest() if ordinal == 0 else f"{digest.hexdigest()}-{ordinal}"
    return f"{prefix}-{name}" if prefix else name


def _add_part(digest: hashlib.blake2b, part: str) -> None:
    encoded = part.encode("utf-8", "surrogatepass")
    digest.update(len(encoded).to_bytes(8, "little"))  # length-framed: no two part lists collide
    digest.update(encoded)


def _add_path_fields(meta: dict[str, Any], paths: _Paths, keys: KeyPath) -> None:
    """`section_id`, `parent_section_id`, `symbol_path`, `symbol`, and `key_path` from
    `keys`, where there are any."""
    if paths.ids:
        meta["section_id"] = "/".join(paths.ids)
        meta["parent_section_id"] = "/".join(paths.ids[:-1]) or None
    if paths.symbols:
        meta["symbol_path"] = paths.symbols
        meta["symbol"] = paths.symbols[-1]  # the definition the chunk starts in
    if keys.length:
        meta["key_path"] = keys.spelled()


def _own_keys(above: _Paths, first: Atom) -> KeyPath:
    """The key path of a chunk of structured data: that of the member or item it starts
    with or is cut out of (the node of its first atom, below the nodes broken above it),
    not of a member deeper inside that atom, which the chunk holds whole."""
    label = first.node.label
    return above.keys.plus(label.key) if label is not None and label.key is not None else above.keys


def _within(above: _Paths, first: Atom) -> str:
    """The key path of the value a chunk is cut out of (structured data), when that is
    not the whole document: the keys of the nodes broken above its first atom, and of
    that atom's own node if it is a piece of it."""
    keys = _own_keys(above, first) if first.piece else above.keys
    return keys.spelled() if keys.length > 1 else ""


def _start_of(node: Node) -> int:
    return node.start


def _nodes_at(first_node: Node, position: int) -> tuple[Node, ...]:
    """`first_node` and its descendants that contain `position`, outermost first."""
    chain = [first_node]
    node = first_node
    while node.children:
        children = node.children
        i = bisect_right(children, position, key=_start_of) - 1
        while 0 <= i < len(children) - 1 and children[i].traits._value_ & TraitBit.BLANK:
            i += 1  # a page marker speaks for nothing: the node after it does
            position = children[i].start
        if i < 0 or children[i].end <= position or children[i].traits._value_ & TraitBit.TITLE:
            break
        node = children[i]
        chain.append(node)
    return tuple(chain)


class ChunkMetadata:
    """The metadata of one document's chunks. The chunks of a broken node share its
    chain of ancestors, so what each link of that chain says is read once."""

    def __init__(
        self, root: Node, document_id: str = "", id_prefix: str = "", text: Callable[[int, int], str] | None = None
    ) -> None:
        self._root_kind = root.kind
        self._by_link: dict[Ancestry, _Paths] = {}  # by identity: a link is its own key
        self._text = text  # a span's chunk text, for the `CONTEXT` nodes a chunk's context holds
        self._document_id = document_id
        self._id_prefix = id_prefix
        self._seen: dict[tuple[tuple[str, ...], str], int] = {}  # (section path, text) -> chunks so far
        # the last chunk's section path and its `_section_digest`
        self._last_section: tuple[tuple[str, ...] | None, hashlib.blake2b | None] = (None, None)

    def _ancestor_paths(self, ancestors: Ancestry | None) -> _Paths:
        """What the chain says, read on from its innermost link already read. Only the
        links chunks start below are kept, not every link between: a chain 20,000 keys
        deep (nested JSON) kept a copy of its paths at each link, 10 GB."""
        known = self._by_link
        unread: list[Ancestry] = []
        link = ancestors
        while link is not None and link not in known:
            unread.append(link)
            link = link.parent
        if not unread:
            return known[link] if link is not None else _Paths()
        paths = known[link].copy() if link is not None else _Paths()
        paths.contexts = paths.contexts[:]
        for link in reversed(unread):
            paths.add_ancestor(link.node)
        known[unread[0]] = paths
        return paths

    def _id(self, paths: _Paths, text: str) -> str:
        section_path = (*paths.titles, "\x00", *paths.symbols)  # chunks must be read in document order
        ordinal = self._seen.get((section_path, text), 0)
        self._seen[(section_path, text)] = ordinal + 1
        # the chunks of a section mostly come in a row (nine in ten of a web page's): the
        # hash of its path is kept from the last chunk, not worked out again for each
        last_path, section = self._last_section
        if section is None or section_path != last_path:
            section = _section_digest(self._document_id, section_path)
            self._last_section = (section_path, section)
        return _text_id(section, text, ordinal, self._id_prefix)

    def read(self, span: PackedSpan, index: int, text: str) -> dict[str, Any]:
        """`index`, `heading_path`, `heading_paths`, `title`, `kinds`, `id`, `parent_id`
        (None) for every chunk; `section_id`, `parent_section_id`, `symbol_path`, `symbol`,
        `key_path` and `context` where the outline has them (the context of a chunk of
        structured data cut out of a larger value starts with that value's key path).

        Paths are those of where the chunk starts: the sections (and elements with an id)
        that contain its first character, including one whose heading opens the chunk."""
        first = span.atoms[min(span.opening, len(span.atoms) - 1)]
        tail = _nodes_at(first.node, first.start)
        before_last = tail[-2] if len(tail) > 1 else (first.ancestors.node if first.ancestors is not None else None)
        above_bits = before_last.traits._value_ if before_last is not None else 0
        starts_titled = bool(tail[-1].traits._value_ & TraitBit.TITLE and above_bits & TraitBit.SECTION)
        if starts_titled:
            tail = tail[:-1]  # a heading speaks for its section
        above = self._ancestor_paths(first.ancestors)
        paths = above.copy()
        paths.extend(tail, int(first.piece))
        kinds, heading_paths = covered(span)
        kinds.discard(self._root_kind)  # the document's kind says nothing of the chunk
        meta: dict[str, Any] = {
            "index": index,
            "heading_path": paths.titles,
            "heading_paths": heading_paths,
            "title": paths.titles[-1] if paths.titles else "",
            "kinds": sorted(kinds),
            "id": self._id(paths, text),
            "parent_id": None,  # the parent chunk's id: only hierarchy=True makes parents
        }
        _add_path_fields(meta, paths, _own_keys(above, first))
        headed = first.ancestors.headed_nodes() if first.ancestors is not None else []
        context = self._context(paths, tail, (*headed, *tail), span.start, starts_titled)
        within = _within(above, first)
        if within:
            context = f"{within}\n{context}" if context else within
        if context:
            meta["context"] = context
        return meta

    def _context(
        self, paths: _Paths, tail: tuple[Node, ...], chain: tuple[Node, ...], start: int, starts_titled: bool
    ) -> str:
        """What to embed with a chunk's text: the heading path (but the heading the chunk
        starts with, which it holds), the header rows of the tables it is cut out of, and
        the header lines of the definitions it is inside (but not of one it starts with;
        a definition cut at lines, not into parts, is the chunk's own node: its tail)."""
        titles = paths.titles[:-1] if starts_titled else paths.titles
        context = [" > ".join(titles)] if titles else []
        if self._text is not None:
            context += self._header_rows(chain, start)
        own = [(n.start, n.label.context) for n in tail if n.label is not None and n.label.context is not None]
        context += [line for at, line in (*paths.contexts, *own) if at < start]
        return "\n".join(context)

    def _header_rows(self, chain: tuple[Node, ...], start: int) -> list[str]:
        """The text of each `CONTEXT` node (a header row: among a node's first children)
        of a node in `chain` that ends before `start`."""
        assert self._text is not None
        rows: list[str] = []
        for node in chain:
            for child in node.children[:HEADER_ROWS_WITHIN]:
                if child.traits._value_ & TraitBit.CONTEXT and child.end <= start:
                    rows.append(self._text(child.start, child.end).strip())
        return [row for row in rows if row]
