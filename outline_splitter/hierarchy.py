"""`hierarchy=True, parents="outline"`: parent chunks for the sections too large for one
chunk that name their parts (seed 002). (The default, parents that hold their section's
text, is `text_parents`; both find the broken sections and the leaves' owners here, and
`confine_overlaps` keeps the leaves' overlaps inside the parents of either.)

A section is *broken* when more than one leaf chunk holds part of it. Each broken
section yields a parent chunk whose text is the section's heading, then its opening leaf
chunks as they are while they fit, then one reference line per part that was broken out:
a child section that is broken too (`[Subsection available: title "..." at id: ...]`,
naming the child's first parent chunk) or a leaf chunk directly under it
(`[Part available: "first words..." at id: ...]`). A parent fits the budget; when its
references do not, it lists as many as fit and a last line names a continuation parent
(`[Continued at id: ...]`), which lists the next ones.

Every chunk gets `role` (`"parent"` or `"leaf"`) and `parent_id`, the id of the parent
chunk that lists it (None at the top). A parent has `subsections`: the section ids of the
broken child sections it lists, the chunk ids of the leaves it lists or holds, and the id
of its continuation; `section_chunks` follows them down. A parent's `start_pos`/`end_pos`
span its section's leaves; its text is not a slice of the source.

This reads the outline's traits and labels only (`SECTION`, `TITLE`, ids), as pass two does.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from outline_splitter.assembly import Assembly, Draft
from outline_splitter.models import TextChunk
from outline_splitter.nodes import Node, Trait
from outline_splitter.packing.metadata import chunk_id

# Under this many tokens a parent cannot hold its heading, one reference line and a
# continuation line: `hierarchy=True` asks for at least this `chunk_size`.
MIN_PARENT_BUDGET = 64
_TITLE_CHARS = 40  # a title or first words quoted in a reference line are cut to this
_SLUG_DROP = re.compile(r"[^\w\- ]+")
_SPACES = re.compile(r"\s+")

Count = Callable[[str], int]


class _Section:
    """A section of the outline and what the hierarchy knows of it."""

    __slots__ = ("children", "depth", "leaves", "node", "parent", "parents", "sid", "title")

    def __init__(self, node: Node, parent: _Section | None, sid: str, title: str, depth: int) -> None:
        self.node = node
        self.parent = parent  # the nearest broken section above (filled for broken ones)
        self.sid = sid
        self.title = title
        self.depth = depth
        self.children: list[_Section] = []  # broken child sections, in order
        self.leaves: list[int] = []  # indexes of the leaves directly under it
        self.parents: list[dict[str, Any]] = []  # its parent chunks: text, id, subsections


def _short(text: str) -> str:
    """`text` on one line, cut at a word to at most `_TITLE_CHARS` characters."""
    line = _SPACES.sub(" ", text).strip().replace('"', "'")
    if len(line) <= _TITLE_CHARS:
        return line
    cut = line.rfind(" ", 0, _TITLE_CHARS)
    return line[: cut if cut > 0 else _TITLE_CHARS] + "..."


def _walk_sections(root: Node) -> list[tuple[Node, int, str | None]]:
    """Each section node in document order, with the index of the section above it in
    this list (-1 at the top) and its id path as chunk metadata reads it (an `anchor` id
    starts it anew; a `part` name follows an id)."""
    out: list[tuple[Node, int, str | None]] = []
    stack: list[tuple[Node, int, tuple[str, ...]]] = [(root, -1, ())]
    while stack:
        node, above, ids = stack.pop()
        label = node.label
        if label is not None:
            if label.id is not None:
                ids = (label.id,) if label.anchor else (*ids, label.id)
            elif label.part is not None and ids:
                ids = (*ids, label.part)
        if Trait.SECTION in node.traits and node is not root:
            out.append((node, above, "/".join(ids) or None))
            above = len(out) - 1
        stack.extend((child, above, ids) for child in reversed(node.children))
    return out


def broken_sections(root: Node, leaves: Sequence[Draft]) -> list[_Section]:
    """The broken sections, in document order, linked to their broken parent."""
    starts = [leaf.start_pos for leaf in leaves]
    ends = [leaf.end_pos for leaf in leaves]
    found: list[_Section | None] = []
    broken: list[_Section] = []
    used: dict[str, int] = {}
    for node, above, path in _walk_sections(root):
        # the leaves that hold part of it: ends after its start, starts before its end
        first = bisect_right(ends, node.start)
        last = bisect_left(starts, node.end)
        parent = found[above] if above >= 0 else None
        if parent is not None and not parent.sid:  # not broken: it knows the broken one above
            parent = parent.parent
        if last - first < 2:
            found.append(_Section(node, parent, "", "", 0))  # fits one chunk: no parent
            continue
        title = node.label.title if node.label is not None and node.label.title else ""
        sid = path if path is not None and path not in used else None
        if sid is None:  # a section without an id of its own: its title under its parent's id
            base = (parent.sid + "/") if parent is not None else ""
            sid = base + (_SLUG_DROP.sub("", title.lower()).strip().replace(" ", "-") or "section")
        ordinal = used.get(sid, 0)
        used[sid] = ordinal + 1
        if ordinal:
            sid = f"{sid}-{ordinal}"
        section = _Section(node, parent, sid, title, 0 if parent is None else parent.depth + 1)
        found.append(section)
        broken.append(section)
        if parent is not None:
            parent.children.append(section)
    return broken


def assign_leaves(broken: list[_Section], leaves: Sequence[Draft]) -> list[_Section | None]:
    """Each leaf's owner: the innermost broken section holding its start, or the
    broken section that starts inside it. A broken section begins a chunk, which only
    headings before it may join (they lead into it), so such a leaf is that section's
    beginning with its parents' headings."""
    owners: list[_Section | None] = [None] * len(leaves)
    starts = [leaf.start_pos for leaf in leaves]
    for section in broken:  # outer sections come first, inner ones overwrite
        first = bisect_left(starts, section.node.start)
        last = bisect_left(starts, section.node.end)
        for i in range(first, last):
            owners[i] = section
    top = [section for section in broken if section.parent is None]
    kid_starts: dict[int, list[int]] = {}
    for i, leaf in enumerate(leaves):
        while True:
            owner = owners[i]
            kids = owner.children if owner is not None else top
            at = kid_starts.setdefault(id(kids), [kid.node.start for kid in kids])
            k = bisect_right(at, leaf.start_pos)
            if k == len(kids) or at[k] >= leaf.end_pos:
                break
            owners[i] = kids[k]
    for i, owner in enumerate(owners):
        if owner is not None:
            owner.leaves.append(i)
    return owners


@dataclass(frozen=True, slots=True)
class ParentBudget:
    """How many tokens a parent chunk's text may have: `chunk_size`, less the tokens of
    its context (the heading path above its section, and a line break) where
    `context_in_budget` counts that in (a top section's parent has no context); `count`
    counts tokens."""

    chunk_size: int
    context_in_budget: bool
    count: Count

    def of(self, heading_path: list[str]) -> int:
        """The budget of a parent whose section has `heading_path`."""
        if not self.context_in_budget or len(heading_path) < 2:
            return self.chunk_size
        return self.chunk_size - self.count(" > ".join(heading_path[:-1]) + "\n")


# A parent's lines before they are grouped: (start, kind, id for subsections, reference line)
_Item = tuple[int, str, str, str]


class _Builder:
    def __init__(self, leaves: list[Draft], assembly: Assembly, budget: ParentBudget) -> None:
        self.leaves = leaves
        self.assembly = assembly
        self.budget = budget
        self.count = budget.count
        self.seen_ids: set[str] = {leaf.metadata["id"] for leaf in leaves}

    def unique(self, section: _Section, text: str, taken: set[str]) -> str:
        """A parent's content-addressed id, with an ordinal where another chunk has it."""
        ordinal = 0
        assembly = self.assembly
        while True:
            path = (*self.path_of(section), "\x01parent")
            name = chunk_id(assembly.document_id, path, text, ordinal, assembly.id_prefix)
            if name not in self.seen_ids and name not in taken:
                taken.add(name)
                return name
            ordinal += 1

    @staticmethod
    def path_of(section: _Section) -> list[str]:
        titles: list[str] = []
        node: _Section | None = section
        while node is not None:
            titles.append(node.title)
            node = node.parent
        return titles[::-1]

    def build(self, section: _Section) -> None:
        """The parent chunks of `section` (its broken children's are built already), each
        within the budget: reference lines with titles and first words, else bare ones,
        else on a smaller budget (where the estimate of a continuation line fell short)."""
        budget = self.budget.of(self.path_of(section))
        room = budget
        for attempt in range(8):
            parents = self.attempt(section, room, compact=attempt > 0)
            over = max(self.count(parent["text"]) - budget for parent in parents)
            if over <= 0:
                break
            if attempt > 0:
                room -= over
        self.seen_ids.update(parent["id"] for parent in parents)
        section.parents = parents

    def attempt(self, section: _Section, budget: int, compact: bool) -> list[dict[str, Any]]:
        """The parents of `section` for `budget`: its heading, the opening leaves that fit
        whole, then a reference line per other part, over as many parents as need be
        (each naming the next); `compact`, bare lines (no titles, no first words)."""
        title = _short(section.title or section.sid)
        items = self.items(section, compact)
        heading = self.heading(section, title, budget, compact)
        head, inlined = self.opening(section, items, heading, budget) if not compact else ([heading], 0)
        continued = "[Section, continued]" if compact else f'[Section "{title}", continued]'
        groups = self.group(head, [item[3] for item in items[inlined:]], budget, continued)
        ids = self.chain(section, groups)
        return _listing(items, inlined, groups, ids)

    def heading(self, section: _Section, title: str, budget: int, compact: bool) -> str:
        """A parent's first line: its section's heading as the view gives it, or
        `[Section "title"]` where there is none, it takes over a quarter of `budget`, or
        (`[Section]`) `compact`."""
        if not compact:
            node = next((child for child in section.node.children if Trait.TITLE in child.traits), None)
            view = self.assembly.view
            heading = view.text(*view.trim(node.start, node.end)) if node is not None else None
            if heading is not None and self.count(heading) <= budget // 4:
                return heading
        return f'[Section "{title}"]' if not compact else "[Section]"

    def items(self, section: _Section, compact: bool) -> list[_Item]:
        """A reference line per leaf directly under `section` and per broken child
        section (naming its first parent), in document order."""
        items: list[_Item] = []
        for i in section.leaves:
            leaf = self.leaves[i]
            words = "" if compact else f': "{_short(leaf.text[:200])}"'
            line = f"[Part available{words} at id: {leaf.metadata['id']}]"
            items.append((leaf.start_pos, "leaf", leaf.metadata["id"], line))
        for child in section.children:
            first = child.parents[0]["id"]
            named = "" if compact else f': title "{_short(child.title or child.sid)}"'
            items.append((child.node.start, "section", child.sid, f"[Subsection available{named} at id: {first}]"))
        items.sort(key=lambda item: item[0])
        return items

    def opening(self, section: _Section, items: list[_Item], heading: str, budget: int) -> tuple[list[str], int]:
        """The head of the first parent: `heading`, then the opening leaves as they are
        while they fit with every reference after them (a leaf that starts the section
        holds its heading: it replaces it); and how many leaves it holds."""
        lines_left = sum(self.count("\n" + line) for _, _, _, line in items)
        head = [heading]
        inlined = 0
        for start, kind, _, line in items:
            if kind != "leaf":
                break
            text = self.leaves[section.leaves[inlined]].text
            candidate = [text] if inlined == 0 and start <= section.node.start else [*head, text]
            if self.count("\n\n".join(candidate)) + lines_left - self.count("\n" + line) > budget:
                break
            head = candidate
            lines_left -= self.count("\n" + line)
            inlined += 1
        return head, inlined

    def chain(self, section: _Section, groups: list[list[str]]) -> list[tuple[str, str]]:
        """Each group's parent text and id, made last to first: a parent's text ends by
        naming the next one's id."""
        named: list[tuple[str, str]] = []
        following: str | None = None
        taken: set[str] = set()
        for lines in reversed(groups):
            text = "\n".join(lines + ([f"[Continued at id: {following}]"] if following else []))
            following = self.unique(section, text, taken)
            named.append((text, following))
        return named[::-1]

    def group(self, head: list[str], lines: list[str], budget: int, continued: str) -> list[list[str]]:
        """`head` and the reference `lines`, as many parents' lines as need be: each within
        `budget` with room for the continuation line, if one follows."""
        prefix = self.assembly.id_prefix
        reserve = self.count(f"\n[Continued at id: {prefix}{'-' if prefix else ''}{'f0' * 8}-9]")
        groups: list[list[str]] = []
        current = ["\n\n".join(head)]
        total = self.count(current[0])
        for n, line in enumerate(lines):
            cost = self.count("\n" + line)
            more = n + 1 < len(lines)
            if total + cost + (reserve if more else 0) > budget and len(current) > 1:
                groups.append(current)
                current = [continued]
                total = self.count(current[0])
            current.append(line)
            total += cost
        groups.append(current)
        return groups

    def drafts(self, section: _Section, parent_of: dict[str, str | None]) -> list[tuple[tuple[int, ...], Draft]]:
        """The parent chunks of `section` as drafts, each with its sort key: they span
        its leaves, and share their kinds."""
        inside = list(_all_leaves(section))
        start = min((self.leaves[i].start_pos for i in inside), default=section.node.start)
        end = max((self.leaves[i].end_pos for i in inside), default=section.node.end)
        kinds = sorted({kind for i in inside for kind in self.leaves[i].metadata.get("kinds", ())})
        out: list[tuple[tuple[int, ...], Draft]] = []
        for n, parent in enumerate(section.parents):
            above = parent_of.get(parent["id"]) if n else parent_of.get(section.sid)
            metadata = {
                **self.assembly.shared(start, end),
                "heading_path": self.path_of(section),
                **({"context": " > ".join(self.path_of(section)[:-1])} if section.parent is not None else {}),
                "title": section.title,
                "kinds": kinds,
                "id": parent["id"],
                "section_id": section.sid,
                "parent_section_id": section.parent.sid if section.parent is not None else None,
                "role": "parent",
                "parent_id": above,
                "subsections": parent["subsections"],
            }
            text = parent["text"]
            out.append(((start, 0, section.depth, n), Draft(text, start, end, self.count(text), metadata)))
        return out


def _listing(
    items: list[_Item], inlined: int, groups: list[list[str]], named: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """The parents of a section (`text`, `id`, `subsections`): each lists the ids of
    the items its lines hold (the first, of its inlined leaves too) and of the next parent."""
    cursor = inlined + len(groups[0]) - 1  # a group's first line is its head
    listed = [items[:cursor]]
    for lines in groups[1:]:
        listed.append(items[cursor : cursor + len(lines) - 1])
        cursor += len(lines) - 1
    parents: list[dict[str, Any]] = []
    for n, ((text, name), members) in enumerate(zip(named, listed, strict=True)):
        subsections = [member[2] for member in members] + ([named[n + 1][1]] if n + 1 < len(named) else [])
        parents.append({"text": text, "id": name, "subsections": subsections})
    return parents


def build_hierarchy(assembly: Assembly, leaves: list[Draft], budget: ParentBudget) -> list[Draft]:
    """`leaves` with the parent chunks of their broken sections among them (each before
    its section's first leaf), every chunk with `role` and `parent_id` (a parent with
    `children` too), `index` renumbered. `assembly` gives the outline, the view the
    headings come from, the ids and the keys a parent shares with the leaves (lines,
    doc_type, ...); `budget`, the most tokens a parent's text may have."""
    builder = _Builder(leaves, assembly, budget)
    broken = broken_sections(assembly.root, leaves)
    owners = assign_leaves(broken, leaves)
    for section in reversed(broken):  # children before their parents
        builder.build(section)
    parent_of: dict[str, str | None] = {}  # chunk id or section id -> the parent chunk listing it
    for section in broken:
        for parent in section.parents:
            for member in parent["subsections"]:
                parent_of[member] = parent["id"]
    out = [keyed for section in broken for keyed in builder.drafts(section, parent_of)]
    for i, leaf in enumerate(leaves):
        leaf.metadata["role"] = "leaf"
        leaf.metadata["parent_id"] = parent_of.get(leaf.metadata["id"]) if owners[i] is not None else None
        out.append(((leaf.start_pos, 1, 0, i), leaf))
    return in_order(out)


def in_order(keyed: list[tuple[tuple[int, ...], Draft]]) -> list[Draft]:
    """The drafts by their keys, each parent's `children` set (the ids of the chunks
    whose `parent_id` names it, in order) and `index` renumbered."""
    keyed.sort(key=lambda pair: pair[0])
    chunks = [chunk for _, chunk in keyed]
    children: dict[str, list[str]] = {}
    for chunk in chunks:
        if chunk.metadata.get("role") == "parent":
            children[chunk.metadata["id"]] = chunk.metadata["children"] = []
    for chunk in chunks:
        above = chunk.metadata.get("parent_id")
        if above is not None and above in children:
            children[above].append(chunk.metadata["id"])
    for index, chunk in enumerate(chunks):
        chunk.metadata["index"] = index
    return chunks


def confine_overlaps(chunks: list[Draft]) -> list[Draft]:
    """`chunks` (leaves and parents, in order) with each leaf's overlaps kept inside its
    parent: a leaf shares text with a neighbouring leaf only where that neighbour lies in
    the leaf's parent, so the parent's text holds the leaf with its overlaps, and a
    merge into the parent loses none of them. (A parent spans whole leaves, so the
    overlap, part of the neighbour, is inside the parent exactly when the neighbour is.)"""
    spans = {c.metadata["id"]: (c.start_pos, c.end_pos) for c in chunks if c.metadata.get("role") == "parent"}
    leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
    for before, after in pairwise(leaves):
        if after.start_overlap and not _inside(before, spans.get(after.metadata.get("parent_id") or "")):
            after.start_overlap = ""
        if before.end_overlap and not _inside(after, spans.get(before.metadata.get("parent_id") or "")):
            before.end_overlap = ""
    return chunks


def _inside(leaf: Draft, span: tuple[int, int] | None) -> bool:
    """Whether `leaf` lies in `span` (None: no parent, no bound)."""
    return span is None or (span[0] <= leaf.start_pos and leaf.end_pos <= span[1])


def _all_leaves(section: _Section) -> Iterable[int]:
    """The leaves under `section`, its broken subsections' too (a stack: sections nest
    as deep as the input likes)."""
    stack = [section]
    while stack:
        current = stack.pop()
        yield from current.leaves
        stack.extend(current.children)


def section_chunks(chunks: Sequence[TextChunk], section_id: str) -> list[TextChunk]:
    """The chunks of the section `section_id` names, in the order given: its parent
    chunks (`hierarchy=True`) and every chunk below them, so a retriever can expand a hit
    to its whole section; the leaves among them cover exactly the section's span. With
    text parents, the chunks whose `sections` hold it (the parts of a section too large
    for one parent, and of its subsections, too). A section that fits one chunk has no
    parent: then the leaf chunks whose `section_id` is it or lies below it. `[]` if no
    chunk names it."""
    if not isinstance(section_id, str):
        raise ValueError(f"section_id must be a str, not {type(section_id).__name__}")
    inside = [chunk for chunk in chunks if section_id in chunk.metadata.get("sections", ())]
    if inside:
        return inside
    by_id = {chunk.metadata.get("id"): chunk for chunk in chunks}
    first_parent: dict[str, TextChunk] = {}
    for chunk in chunks:
        if chunk.metadata.get("role") == "parent":
            first_parent.setdefault(chunk.metadata.get("section_id", ""), chunk)
    top = first_parent.get(section_id)
    if top is None:
        below = section_id + "/"
        return [c for c in chunks if f"{c.metadata.get('section_id')}/".startswith(below)]
    found: dict[int, TextChunk] = {}
    pending = [top]
    while pending:
        chunk = pending.pop()
        if id(chunk) in found:
            continue
        found[id(chunk)] = chunk
        for name in chunk.metadata.get("subsections", ()):
            child = by_id.get(name) or first_parent.get(name)
            if child is not None:
                pending.append(child)
    return [chunk for chunk in chunks if id(chunk) in found]
