"""Joining atoms into chunks: greedy, in document order, under the token budget.

An atom joins the open chunk while the chunk's span stays within the budget; otherwise
the chunk is closed and the atom opens the next one. Atoms that lead (`rules.side`: a
heading, a comment, markup that opens what follows) at the end of a closed chunk move to
the next one, so they stay with the content they introduce, as does a rest that is
markup alone; a trailing atom (the closing `}` of a broken definition, an end tag) that
would open a chunk joins the one before where the two fit. A `BARRIER` (before a node
that had to be broken) closes the open chunk in the same way. Where a heading and the paragraph after it fit the budget
only apart, the paragraph is cut at sentences so that the heading does not stand alone;
a list, table, code block or section that fits is never cut for that; a piece of a leaf
already broken, and a leaf cut at lines that is not verbatim (a docstring after its
signature), is cut at lines (sentences in prose) so that the leading atoms take its head. At a `CUT`
(omitted text) the open chunk is closed whole, leading atoms too, and the next span
records that it comes `after_cut`, so that no later step joins it to the one before; at
a `BEHIND` (the plan's: markup carried on that stays behind, `balance._plan_run`) it is
closed whole too.
"""

from __future__ import annotations

import sys

from outline_splitter.nodes import Trait
from outline_splitter.packing.atoms import BARRIER, Atom, Barrier, Cut, Piece
from outline_splitter.packing.leaf import LINE_LEVELS, PROSE_LEVELS, split_leaf
from outline_splitter.packing.rules import blank, blank_side, carried_on, joins_back, shows_nothing
from outline_splitter.packing.sentences import sentences
from outline_splitter.packing.view import ChunkView
from outline_splitter.packing.view import fits as fits_within
from outline_splitter.search import last_holding


def _recut(atom: Atom) -> bool:
    """Whether leading atoms may take the head of `atom`: a piece of a broken leaf, or a
    leaf cut at lines that is not verbatim (a docstring after its signature, not a code
    block after a heading)."""
    if atom.node.children or atom.node.expand is not None or Trait.SELF_CONTAINED in atom.node.traits:
        return False  # a node with parts, or a definition, that fits is never cut for that
    return atom.piece or (Trait.LINES in atom.node.traits and Trait.VERBATIM not in atom.node.traits)


class PackedSpan:
    """A chunk before it becomes a `TextChunk`: its span, its atoms and its exact count;
    `after_cut` if omitted text lies between it and the span before it; `opening`, how many
    of its first atoms are markup that opens what follows (metadata reads the atom after
    them)."""

    __slots__ = ("after_cut", "atoms", "end", "opening", "start", "token_count")

    def __init__(self, atoms: list[Atom], token_count: int, after_cut: bool = False, opening: int = 0) -> None:
        self.atoms = atoms
        self.start = atoms[0].start
        self.end = atoms[-1].end
        self.token_count = token_count
        self.after_cut = after_cut
        self.opening = opening


def pack_atoms(
    atoms: list[Atom | Cut | Barrier], view: ChunkView, chunk_size: int, max_chunk_size: int
) -> list[PackedSpan]:
    """Chunks of consecutive atoms, each within `chunk_size` tokens unless it is a single
    atom allowed more (a `NEVER_BREAK` node up to `max_chunk_size`). `atoms` is used up:
    the atoms are taken off it as they join chunks (a copy of a list as long as the
    document's atoms would be alive beside the chunks that hold them)."""
    return _GreedyPacker(view, chunk_size, max_chunk_size).pack(atoms)


class _GreedyPacker:
    """One greedy pass over a document's atoms (see the module docstring)."""

    def __init__(self, view: ChunkView, chunk_size: int, max_chunk_size: int) -> None:
        self.view = view
        self.chunk_size = chunk_size
        self.max_chunk_size = max_chunk_size
        self.packed: list[PackedSpan] = []
        self.cut = False  # omitted text since the last span closed
        self.carried: Atom | None = None  # the first atom a closed chunk carried on
        self.pending: list[Atom | Cut | Barrier] = []
        # without a close estimate, asking for each atom whether the open chunk still
        # fits would count the growing chunk again and again (quadratic in the chunk
        # size): the furthest end that fits from a start is found once, by galloping
        self.estimates = view.reach(0, 0) is not None
        self.known = (-1, -1, -1)  # (start, an end that fits, an end that does not)
        self.carried_whole: tuple[list[Atom] | None, int] = (None, 0)  # a chunk carried on whole, its length then

    def fits(self, start: int, end: int) -> bool:
        if self.estimates:
            return fits_within(self.view, start, end, self.chunk_size)
        known_start, fitting, over = self.known
        if start != known_start or not (end <= fitting or end >= over >= 0):
            self.known = (start, *self.furthest_fit(start, end))
        return end <= self.known[1]

    def furthest_fit(self, start: int, end: int) -> tuple[int, int]:
        """From `start`, over `end` and the ends of the atoms pending after it (up to a
        cut or a barrier), the furthest end that fits (-1 if `end` does not) and the
        next one, which does not (-1 if none is known): by galloping, then bisecting,
        so a chunk of k atoms costs O(log k) counts, not k."""
        pending = self.pending

        def end_at(i: int) -> int | None:  # the end of the i-th atom from `end` on
            if i == 0:
                return end
            atom = pending[-i] if i <= len(pending) else BARRIER
            return atom.end if isinstance(atom, Atom) else None

        def fits_to(i: int) -> bool:
            at = end_at(i)
            return at is not None and fits_within(self.view, start, at, self.chunk_size)

        if not fits_to(0):
            return -1, end
        low, high = last_holding(fits_to, 0, sys.maxsize, gallop=True)  # (past the pending atoms none fits)
        fitting, over = end_at(low), end_at(high)
        return end if fitting is None else fitting, -1 if over is None else over

    def pack(self, atoms: list[Atom | Cut | Barrier]) -> list[PackedSpan]:
        current: list[Atom] = []
        atoms.reverse()
        pending = self.pending = atoms
        while pending:
            atom = pending.pop()
            if not isinstance(atom, Atom):  # (one test an atom: most are atoms)
                current = self.close_keeping_leading(current) if atom is BARRIER else self.close_whole(current, atom)
                continue
            if current and self.fits(current[0].start, atom.end):
                current.append(atom)
                continue
            if not current and joins_back(atom, self.view) and self.join_back([atom]):
                continue
            current = self.shed_markup(self.close_keeping_leading(current), atom.end)
            if current and not self.fits(current[0].start, atom.end):
                sentences = self.head_atoms(current[0].start, atom) if _recut(atom) else self.sentence_atoms(atom)
                if len(sentences) > 1:  # let the heading take the paragraph's first sentences
                    pending.extend(reversed(sentences))
                    continue
                if len(current) > 1 and _recut(atom) and not shows_nothing(current[:-1], self.view):
                    # the nearest leading atom may take a head alone (not leaving markup alone)
                    self.close(current[:-1])
                    current = current[-1:]
                    pending.append(atom)
                    continue
                self.close(current)
                current = []
            current.append(atom)
        if current:
            self.close(current)
        return self.packed

    def close(self, chunk: list[Atom], before_cut: bool = False) -> None:
        """Close `chunk` as one span. Where an estimate let in joins that do not fit after
        all, the longest head that fits is the span and each atom after it one of its own.
        Markup alone joins the span before it where the two fit, and is left out where it
        borders omitted text (a content option's frame)."""
        view = self.view
        if shows_nothing(chunk, view) and (self.join_back(chunk) or before_cut or self.cut):
            return
        cut = len(chunk)
        count = view.count(chunk[0].start, chunk[-1].end)
        limit = max(self.chunk_size, chunk[0].limit(self.chunk_size, self.max_chunk_size))
        while cut > 1 and count > limit:
            cut -= 1
            count = view.count(chunk[0].start, chunk[cut - 1].end)
        opening = (
            _opening(chunk, view) if chunk[0] is self.carried or blank(chunk[0]) else 0
        )  # (a page marker speaks for nothing)
        self.packed.append(PackedSpan(chunk[:cut], count, self.cut, opening))
        self.cut = False
        self.packed.extend(PackedSpan([atom], view.count(atom.start, atom.end)) for atom in chunk[cut:])

    def close_whole(self, chunk: list[Atom], at: Cut | Barrier) -> list[Atom]:
        """Close `chunk` whole, what leads at its end too: at omitted text (a `CUT`,
        across which nothing joins) or where the plan leaves markup behind (a `BEHIND`)."""
        if chunk:
            self.close(chunk, before_cut=isinstance(at, Cut))
        if isinstance(at, Cut):
            self.cut = bool(self.packed)
        return []

    def join_back(self, atoms: list[Atom]) -> bool:
        """Join `atoms`, which would start a chunk but belong to the one before (a closing
        `}` or end tag, markup alone), to the chunk before, where the two fit and nothing
        was omitted between them."""
        packed = self.packed
        if self.cut or not packed:
            return False
        last, end = packed[-1], atoms[-1].end
        if not fits_within(self.view, last.start, end, self.chunk_size):
            return False
        count = self.view.count(last.start, end, self.chunk_size)
        if count > self.chunk_size:
            return False
        packed[-1] = PackedSpan([*last.atoms, *atoms], count, last.after_cut, last.opening)
        return True

    def close_keeping_leading(self, chunk: list[Atom]) -> list[Atom]:
        """Close `chunk` but for the atoms that lead at its end (and all of it if the rest
        is markup alone, which goes with what follows); return those."""
        whole, length = self.carried_whole
        cut = carried_on(chunk, self.view, length if chunk is whole else 0)
        if cut == 0:  # all of it carries on: the same list, which the next atoms extend
            self.carried_whole = (chunk, len(chunk))
        else:
            self.close(chunk[:cut])
        self.carried = chunk[cut] if cut < len(chunk) else None
        return chunk[cut:] if cut else chunk

    def shed_markup(self, chunk: list[Atom], end: int) -> list[Atom]:
        """`chunk`, the atoms carried on, without the markup alone at its start where that
        joins the chunk before and lets the rest fit with the atom that ends at `end`: a
        heading kept with its paragraph matters more than a start tag kept with its block."""
        k = 0  # (a node that shows no text, a page marker, goes with the page after it)
        while k < len(chunk) - 1 and blank_side(chunk[k], self.view) != 0 and not blank(chunk[k]):
            k += 1
        if k == 0 or self.fits(chunk[0].start, end) or not self.fits(chunk[k].start, end):
            return chunk
        return chunk[k:] if self.join_back(chunk[:k]) else chunk

    def sentence_atoms(self, atom: Atom) -> list[Atom]:
        """The sentences of a whole `PROSE` leaf atom (just the atom if it has one)."""
        if atom.piece or Trait.PROSE not in atom.node.traits or atom.node.children:
            return [atom]
        if len(self.view.parts(sentences, atom.start, atom.end, self.chunk_size)) < 2:
            return [atom]  # one sentence: cut at words it would be cut inside a sentence
        parts = split_leaf(self.view, atom.start, atom.end, self.chunk_size, PROSE_LEVELS[:1])
        return [Piece(a, b, atom.node, atom.ancestors) for a, b in parts]

    def head_atoms(self, lead_start: int, atom: Atom) -> list[Atom]:
        """A piece of a broken leaf cut again so that leading atoms from `lead_start` take
        its head: the most lines (sentences in prose) that fit with them, then the rest in
        pieces that fit; just the piece if not even its first line fits with them (a
        definition's signature keeps the first lines of its long docstring)."""
        levels = LINE_LEVELS if Trait.LINES in atom.node.traits else PROSE_LEVELS
        ends = [b for _, b in self.view.parts(levels[0], atom.start, atom.end, self.chunk_size)][:-1]
        low, _ = last_holding(lambda i: self.fits(lead_start, ends[i]), -1, len(ends))  # ends[low] fits with them
        head = self.view.trim(atom.start, ends[low]) if low >= 0 else (atom.start, atom.start)
        if head[0] >= head[1]:
            return [atom]
        rest = split_leaf(self.view, ends[low], atom.end, self.chunk_size, levels)
        pieces = [head, *rest]
        return [Piece(a, b, atom.node, atom.ancestors) for a, b in pieces]


def _opening(chunk: list[Atom], view: ChunkView) -> int:
    """How many of the first atoms of `chunk`, carried on from the chunk before, are
    markup alone that opens what follows (`PackedSpan.opening`: metadata reads the atom
    after them; markup that simply opens a chunk, as `{` a document, speaks for it)."""
    i = 0
    while i < len(chunk) - 1 and blank_side(chunk[i], view) > 0:
        i += 1
    return i
