"""Walking the outline down to the pieces that fit: the atoms the greedy packer joins.

A node that fits the budget is one atom, whole. A node that does not is replaced by its
children (and by the text between them, if any); a leaf that does not fit is cut by
`leaf.split_leaf`. A `NEVER_BREAK` node may be one atom up to `max_chunk_size`.

Separators (`SEPARATOR` trait) regroup the children of a node that must be broken: a
separator child starts a `SeparatorGroup` holding it and the siblings after it, up to
the next separator. A separator, and the group it starts, may be one atom up to
`max_chunk_size` too. A group that does not fit is broken into its members, which are
not regrouped (so a group can never rebuild itself). Inside a `NEVER_BREAK` node
separators are ignored.

Before the parts of a node that had to be broken comes a `BARRIER`: the greedy packer
starts a new chunk there, so a broken list or section begins its own chunk (headings
before it move along) instead of filling the previous chunk's tail with its first item.
A broken `SELF_CONTAINED` node (a section) gets a `BARRIER` after its parts too.

An `OMITTED` node (content a user's option left out) makes no atom of its own text: a
`CUT` stands before and after it, where the packer closes the open chunk and no later
step joins the chunks on its two sides, so no chunk spans what was left out. Its
children are visited (a kept part inside an omitted frame is packed as usual). A
`HOLLOW` node (one holding an omitted node) is always broken into its children.

A `PARAGRAPHS` node whose paragraphs are not built (plain text) is broken as a leaf
would be, at its blank lines first (`paragraph_pieces`).

The walk keeps its own stack: the outline's depth is the input's to choose.
"""

from __future__ import annotations

import enum
import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import chain
from operator import attrgetter
from typing import ClassVar, Final

from outline_splitter.detectors.lines import blocks
from outline_splitter.kinds import GAP, GROUP
from outline_splitter.nodes import Node, Trait, TraitBit, leads_in
from outline_splitter.packing.ancestry import Ancestry
from outline_splitter.packing.leaf import LINE_LEVELS, PROSE_LEVELS, split_leaf
from outline_splitter.packing.sentences import Span
from outline_splitter.packing.view import ChunkView, Level, fits


class Barrier(enum.Enum):
    """Where the greedy packer closes the open chunk: at a `BARRIER` (see the module
    docstring) but for the atoms that lead at its end, which it carries on; at a
    `BEHIND` (which only the plan puts in, `balance.py`) whole, the markup it carried
    on too. An enum, so that `atom is BARRIER` narrows the type as `is None` did."""

    BARRIER = enum.auto()
    BEHIND = enum.auto()


BARRIER: Final = Barrier.BARRIER
BEHIND: Final = Barrier.BEHIND


class Cut:
    """The place of omitted text in the atom list (see the module docstring)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "CUT"


CUT = Cut()


class Atom:
    """A span the packer never cuts, of `node`: a `WholeNode` (the node's own span), a
    `TrimmedNode` (the node less the white space at its edges) or a `Piece` (a part of
    the node). `ancestors` is the chain of nodes above it (`None` for the root).
    `leading` atoms (headings, comments) are glued to what follows them.

    A file of one-line functions has an atom per line, all alive at the peak of its
    split: a `WholeNode` is two slots, 48 bytes, with its span read off the node, and a
    slot for `piece`, `leading` or the atom's token limit (all three read off the node
    and the class instead) would cost 16 (the allocator's sizes step by 16)."""

    __slots__ = ("node", "ancestors")

    piece: ClassVar[bool] = False

    def __init__(self, node: Node, ancestors: Ancestry | None) -> None:
        self.node = node
        self.ancestors = ancestors

    @property
    def start(self) -> int:
        raise NotImplementedError

    @property
    def end(self) -> int:
        raise NotImplementedError

    @property
    def leading(self) -> bool:
        return not self.piece and bool(self.node.traits._value_ & TraitBit.LEADS)

    @property
    def section(self) -> Node | None:
        """The innermost section the atom lies in (its node, if that is one)."""
        if self.node.traits._value_ & TraitBit.SECTION:
            return self.node
        link = self.ancestors.section if self.ancestors is not None else None
        return link.node if link is not None else None

    def limit(self, chunk_size: int, max_chunk_size: int) -> int:
        """The most tokens this atom may have: more than `chunk_size` for a whole
        `NEVER_BREAK` node or separator group, as `collect_atoms` allowed it."""
        return max_chunk_size if not self.piece and self.node.traits._value_ & _WHOLE else chunk_size

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.node.kind!r}, {self.start}, {self.end})"


class WholeNode(Atom):
    """An atom that is its node's own span."""

    __slots__ = ()

    # (a C getter: a property in Python would cost twice as much, read some ten times an atom)
    start = property(attrgetter("node.start"))
    end = property(attrgetter("node.end"))


class TrimmedNode(Atom):
    """An atom that is its node less the white space at its edges, `[start, end)`."""

    __slots__ = ("start", "end")
    start: int
    end: int

    def __init__(self, start: int, end: int, node: Node, ancestors: Ancestry | None) -> None:
        self.start = start
        self.end = end
        self.node = node
        self.ancestors = ancestors


class Piece(TrimmedNode):
    """An atom that is a part of its node, `[start, end)`: a piece of a leaf cut by
    `split_leaf`, a paragraph of plain text, a sentence."""

    __slots__ = ()

    piece = True


class SeparatorGroup(Node):
    """A separator and the siblings after it, made while packing (never by a detector)."""

    __slots__ = ()

    def __init__(self, members: list[Node]) -> None:
        traits = Trait.SEPARATOR
        if any(Trait.OMITTED in member.traits or Trait.HOLLOW in member.traits for member in members):
            traits |= Trait.HOLLOW
        super().__init__(GROUP, members[0].start, members[-1].end, members, traits=traits)


_WHOLE = TraitBit.NEVER_BREAK | TraitBit.SEPARATOR  # may pass chunk_size, up to max_chunk_size

# The text after the last part of a broken node whose lines matter that closes it and
# trails the part before (`}`, `});`, `end`, `</div>`): one line, one word at most.
_CLOSER = re.compile(r"[^\w\n]*\w*[^\w\n]*")

# Short paragraphs of plain text join into atoms of up to chunk_size // _GRAIN tokens.
_GRAIN = 16

# A visit: the node, its span (within its parent's), and the chain of its ancestors.
_Visit = tuple[Node, int, int, Ancestry | None]


class _AtomCollector:
    """One walk of an outline (see the module docstring)."""

    def __init__(self, view: ChunkView, chunk_size: int, max_chunk_size: int) -> None:
        self.view = view
        self.chunk_size = chunk_size
        self.max_chunk_size = max_chunk_size
        self.atoms: list[Atom | Cut | Barrier] = []

    def collect(self, root: Node) -> list[Atom | Cut | Barrier]:
        # a stack of the broken nodes' parts still to visit, each made as it is reached:
        # the visits of a file's 480,000 one-line functions, made at once, took more
        # memory than their atoms
        stack: list[Iterator[_Visit | Cut | Barrier]] = [iter(((root, root.start, root.end, None),))]
        while stack:
            try:
                visit = next(stack[-1])
            except StopIteration:
                stack.pop()
                continue
            if type(visit) is tuple:  # (mostly: one test a visit, not two)
                parts = self.visit(*visit)
                if parts is not None:
                    stack.append(parts)
            elif isinstance(visit, Barrier):  # (the walk makes BARRIERs alone)
                self.barrier()
            else:
                self.cut()
        return self.atoms

    def barrier(self) -> None:
        if self.atoms and self.atoms[-1] is not BARRIER and self.atoms[-1] is not CUT:
            self.atoms.append(BARRIER)

    def cut(self) -> None:
        if self.atoms and self.atoms[-1] is BARRIER:
            self.atoms[-1] = CUT
        elif self.atoms and self.atoms[-1] is not CUT:
            self.atoms.append(CUT)

    def visit(
        self, node: Node, start: int, end: int, ancestors: Ancestry | None
    ) -> Iterator[_Visit | Cut | Barrier] | None:
        """Make the atom of a node that fits, or the pieces of a leaf that does not;
        return the visits of a broken node's parts, in document order."""
        bits: int = node.traits._value_  # (see TraitBit: this runs once per node)
        if bits & TraitBit.OMITTED:
            self.cut()
            inner = Ancestry(node, ancestors)
            return chain(((child, child.start, child.end, inner) for child in node.expanded_children()), (CUT,))
        start, end = self.view.trim(start, end)
        if start >= end:
            return None
        limit = self.max_chunk_size if bits & _WHOLE else self.chunk_size
        if bits & TraitBit.BREAK_BEFORE:
            self.barrier()
        if not bits & TraitBit.HOLLOW and fits(self.view, start, end, limit) and self.fits_with_marks(bits, start, end):
            whole = start == node.start and end == node.end
            self.atoms.append(WholeNode(node, ancestors) if whole else TrimmedNode(start, end, node, ancestors))
            return None
        self.barrier()
        if bits & TraitBit.PARAGRAPHS and node.expand is not None:
            self.paragraph_pieces(node, start, end, ancestors)
            return None
        children = node.expanded_children()
        if not children:
            self.pieces(node, start, end, ancestors, LINE_LEVELS if bits & TraitBit.LINES else PROSE_LEVELS)
            return None
        sealed = bits & TraitBit.NEVER_BREAK or (ancestors is not None and ancestors.sealed)
        regroup = not sealed and not isinstance(node, SeparatorGroup)
        parts = self.parts(node, group_separated(children) if regroup else children, start, end, ancestors)
        return chain(parts, (BARRIER,)) if bits & TraitBit.SELF_CONTAINED else parts

    def fits_with_marks(self, bits: int, start: int, end: int) -> bool:
        """Whether a node that fits (with traits `bits`, trimmed to `[start, end)`) fits
        with the leading atoms before it too, where a node that shows no text (a page
        marker) is among them: else it is broken, down to a leaf whose head they take,
        as a marker goes with the page after it (a heading or a node that must not be
        broken stays whole)."""
        atoms, i, marked = self.atoms, len(self.atoms), False
        while i:
            atom = atoms[i - 1]
            if atom is BARRIER:  # (what leads is carried on across a BARRIER)
                i -= 1
                continue
            if not isinstance(atom, Atom) or not atom.leading:
                break
            marked = marked or bool(atom.node.traits._value_ & TraitBit.BLANK)
            i -= 1
        if not marked or bits & (TraitBit.LEADS | TraitBit.NEVER_BREAK):
            return True
        first = next(atom for atom in atoms[i:] if isinstance(atom, Atom))
        return fits(self.view, first.start, end, self.chunk_size)

    def pieces(self, node: Node, start: int, end: int, ancestors: Ancestry | None, levels: tuple[Level, ...]) -> None:
        """Make the atoms of a leaf cut by `split_leaf`."""
        for a, b in split_leaf(self.view, start, end, self.chunk_size, levels):
            self.atoms.append(Piece(a, b, node, ancestors))

    def paragraph_pieces(self, node: Node, start: int, end: int, ancestors: Ancestry | None) -> None:
        """Make the atoms of plain text whose paragraphs are not nodes (`Trait.PARAGRAPHS`):
        a paragraph that fits is an atom, as its node would be, and one that does not is
        cut as its node would be; but short paragraphs in a row are one atom of up to
        1/`_GRAIN` of `chunk_size` by the estimate, so a balanced split still has a fine
        grain while 100,000 one-line paragraphs make a few thousand atoms."""
        view, limit = self.view, self.chunk_size
        parts = paragraphs(view.source, start, end)
        ends = [b for _, b in parts]
        grain = max(1, limit // _GRAIN)
        i = 0
        while i < len(parts):
            reach = view.reach(parts[i][0], grain)
            last = bisect_right(ends, reach, i) - 1 if reach is not None else i
            a, b = view.trim(parts[i][0], ends[max(last, i)])
            if last > i and fits(view, a, b, limit):
                self.atoms.append(Piece(a, b, node, ancestors))
                i = last + 1
                continue
            a, b = view.trim(*parts[i])
            if fits(view, a, b, limit):
                self.atoms.append(Piece(a, b, node, ancestors))
            else:
                self.pieces(node, a, b, ancestors, PROSE_LEVELS)
            i += 1

    def parts(
        self, node: Node, children: list[Node], start: int, end: int, ancestors: Ancestry | None
    ) -> Iterator[_Visit | Cut | Barrier]:
        """The visits of a broken node's children and of the text a detector left
        between them (a leaf of its own, cut at lines first if its parent's lines matter)."""
        inner = Ancestry(node, ancestors)
        gap_traits = Trait.LINES if Trait.LINES in node.traits else Trait.NONE
        cursor = start
        for child in (*children, None):
            gap_end = end if child is None else child.start
            if gap_end > cursor:
                a, b = self.view.trim(cursor, gap_end)
                if a < b:  # mostly white space between tags or definitions: no node to make
                    traits = gap_traits
                    if child is None and gap_traits and _CLOSER.fullmatch(self.view.source, a, b):
                        traits |= Trait.TRAILS  # one line of a word at most after the last part: `}`, `end`
                    yield (Node(GAP, a, b, traits=traits), a, b, inner)
            if child is not None:  # (its span within the parent's; no call of min and max a child)
                child_start, child_end = child.start, child.end
                within = start if child_start < start else child_start
                yield (child, within, end if child_end > end else child_end, inner)
                cursor = child_end if child_end > cursor else cursor


def collect_atoms(root: Node, view: ChunkView, chunk_size: int, max_chunk_size: int) -> list[Atom | Cut | Barrier]:
    """The atoms of `root` in document order, with a `BARRIER` before each broken node
    and a `CUT` around omitted text; together the atoms cover every non-space character
    of the document that is not omitted."""
    return _AtomCollector(view, chunk_size, max_chunk_size).collect(root)


# The last characters a text that leads can end with (`nodes.leads_in`).
_LEAD_IN_TAIL = frozenset(":*_`>")


def paragraphs(source: str, start: int, end: int) -> list[Span]:
    """The paragraphs of `source[start:end]` (its blocks between blank lines), one that
    leads ("...as follows:") joined to the one after it, as a leading atom would be."""
    out: list[Span] = []
    joined = False
    for a, b in blocks(source, start, end):
        if joined:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
        last = source[b - 1]
        joined = (last in _LEAD_IN_TAIL or last.isspace()) and leads_in(source, a, b)
    return out


def group_separated(children: list[Node]) -> list[Node]:
    """`children` with each separator and the siblings after it (up to the next
    separator) made one `SeparatorGroup`; `children` itself when none is a separator."""
    if not any(child.traits._value_ & TraitBit.SEPARATOR for child in children):  # (per broken node: a bit test)
        return children
    out: list[Node] = []
    groups: list[list[Node]] = []
    for child in children:
        if Trait.SEPARATOR in child.traits:
            groups.append([child])
            out.append(child)  # replaced by its group below, if it has company
        elif groups and out[-1] is groups[-1][0]:
            groups[-1].append(child)
        else:
            out.append(child)
    heads = {id(members[0]): members for members in groups if len(members) > 1}
    return [SeparatorGroup(heads[id(node)]) if id(node) in heads else node for node in out]
