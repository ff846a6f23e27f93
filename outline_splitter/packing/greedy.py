"""Joining atoms into chunks: greedy, in document order, under the token budget.

An atom joins the open chunk while the chunk's span stays within the budget; otherwise
the chunk is closed and the atom opens the next one. Leading atoms (a heading, a
comment) at the end of a closed chunk move to the next one, so they stay with the
content they introduce. A `BARRIER` (before a node that had to be broken) closes the
open chunk in the same way. Where a heading and the paragraph after it fit the budget
only apart, the paragraph is cut at sentences so that the heading does not stand alone;
a list, table, code block or section that fits is never cut for that.
"""

from __future__ import annotations

from outline_splitter.nodes import PARAGRAPH
from outline_splitter.packing.atoms import BARRIER, Atom
from outline_splitter.packing.leaf import PROSE_LEVELS, split_leaf
from outline_splitter.packing.view import ChunkView

# With a close estimate (whole-document token positions), a join this far under the
# budget needs no exact count; every chunk is counted exactly when it is closed.
_ESTIMATE_SLACK = 16


class PackedSpan:
    """A chunk before it becomes a `TextChunk`: its span, its atoms and its exact count."""

    __slots__ = ("start", "end", "atoms", "token_count")

    def __init__(self, atoms: list[Atom], token_count: int) -> None:
        self.atoms = atoms
        self.start = atoms[0].start
        self.end = atoms[-1].end
        self.token_count = token_count


def pack_atoms(atoms: list[Atom | None], view: ChunkView, chunk_size: int) -> list[PackedSpan]:
    """Chunks of consecutive atoms, each within `chunk_size` tokens unless it is a single
    atom allowed more (a `never_break` node up to `max_chunk_size`)."""
    packed: list[PackedSpan] = []
    current: list[Atom] = []

    def fits(start: int, end: int) -> bool:
        rough = view.close_estimate(start, end)
        if rough is not None and rough + _ESTIMATE_SLACK <= chunk_size:
            return True
        return view.count(start, end, chunk_size) <= chunk_size

    def close(chunk: list[Atom]) -> None:
        while True:
            count = view.count(chunk[0].start, chunk[-1].end)
            if count <= max(chunk_size, chunk[0].limit) or len(chunk) == 1:
                packed.append(PackedSpan(chunk, count))
                return
            # an estimate let in a join that does not fit after all: give back the last atom
            close(chunk[:-1])
            chunk = chunk[-1:]

    def close_keeping_leading(chunk: list[Atom]) -> list[Atom]:
        """Close `chunk` but for the leading atoms at its end; return those."""
        cut = len(chunk)
        while cut > 0 and chunk[cut - 1].leading:
            cut -= 1
        if cut > 0:
            close(chunk[:cut])
        return chunk[cut:]

    def sentence_atoms(atom: Atom) -> list[Atom]:
        """The sentences of a whole paragraph atom (just the atom if it has one)."""
        if atom.piece or atom.node.kind != PARAGRAPH or atom.node.children:
            return [atom]
        parts = split_leaf(view, atom.start, atom.end, chunk_size, PROSE_LEVELS[:1])
        return [Atom(a, b, atom.node, atom.ancestors, piece=True, limit=chunk_size) for a, b in parts]

    pending = list(reversed(atoms))
    while pending:
        atom = pending.pop()
        if atom is BARRIER:
            current = close_keeping_leading(current)
            continue
        if current and fits(current[0].start, atom.end):
            current.append(atom)
            continue
        current = close_keeping_leading(current)
        if current and not fits(current[0].start, atom.end):
            sentences = sentence_atoms(atom)
            if len(sentences) > 1:  # let the heading take the paragraph's first sentences
                pending.extend(reversed(sentences))
                continue
            close(current)
            current = []
        current.append(atom)
    if current:
        close(current)
    return packed
