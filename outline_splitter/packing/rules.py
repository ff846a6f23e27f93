"""Which side of a cut an atom belongs to: the one statement of "what introduces
something stays with it" and "markup never stands alone", which the planner
(`balance.py`, where no cut may fall) and the greedy pass (`greedy.py`, which carries
what leads into the next chunk and joins what trails to the chunk before) both read.

An atom *leads* (`side` 1) if it is a heading, a lead-in, a comment or a decorator
(`Trait.LEADS`, a whole node) or markup alone that opens what follows (`<div>`, `{`
in data); it *trails* (`side` -1) if it is markup alone that closes what is before it
(`</div>`): no planned cut falls after what leads or before what trails. The closer of
a broken node (`Trait.TRAILS`: `}`, `end`) is code, which may stand alone where it must,
so it binds no plan: it joins the chunk before where the two fit (`joins_back`). A chunk
that is markup alone, which neither rule could place, joins the chunk before it where
the two fit, and is left out with omitted text it borders (`greedy._GreedyPacker.close`).

A node that shows no text of its own (`Trait.BLANK`: a page marker) is markup alone by its
traits rather than by the view: it leads if it `LEADS` (a marker before the page it
opens), else it trails (a marker after the document's last text). No format mixes such
nodes with markup the view sees, so a span shows nothing if its atoms are all such
nodes, or if the view says so.
"""

from __future__ import annotations

from itertools import islice

from outline_splitter.nodes import TraitBit
from outline_splitter.packing.atoms import Atom
from outline_splitter.packing.view import ChunkView

LEADS = 1
TRAILS = -1


def side(atom: Atom, view: ChunkView) -> int:
    """`LEADS` if `atom` stays with the chunk after it, `TRAILS` if with the chunk before
    it, 0 if a cut may fall on either side of it."""
    if not atom.piece:
        bits = atom.node.traits._value_  # (`Atom.leading`, read here without a call)
        if bits & TraitBit.LEADS:
            return LEADS
        if bits & TraitBit.BLANK:
            return TRAILS
    blank = view.blank_side(atom.start, atom.end)
    return LEADS if blank > 0 else TRAILS if blank < 0 else 0


def sides(atoms: list[Atom], view: ChunkView) -> bytearray:
    """`side` of each of `atoms`, plus 1 (0 to 2: a byte each, as a run's plan keeps them)."""
    return bytearray(side(atom, view) + 1 for atom in atoms)


def may_cut_between(before: Atom, after: Atom, view: ChunkView) -> bool:
    """Whether a chunk may end after `before` and the next start with `after`: neither
    does `before` lead nor `after` trail (the plan's constraint, for the steps after it)."""
    return side(before, view) != LEADS and side(after, view) != TRAILS


def joins_back(atom: Atom, view: ChunkView) -> bool:
    """Whether `atom`, were it to open a chunk, joins the chunk before where the two fit:
    markup alone that closes what is before it, or the closer of a broken node."""
    return bool(atom.node.traits._value_ & TraitBit.TRAILS) or side(atom, view) == TRAILS


def leading_tail(atoms: list[Atom], view: ChunkView) -> int:
    """Where the atoms that lead at the end of `atoms` begin (`len(atoms)` if none do)."""
    i = len(atoms)
    while i > 0 and side(atoms[i - 1], view) == LEADS:
        i -= 1
    return i


def carried_on(atoms: list[Atom], view: ChunkView, carried_head: int = 0) -> int:
    """Where the atoms that a chunk closed before a broken node carries on into the next
    chunk begin: those that lead at its end, or all of it if the rest is markup alone.
    `carried_head`: how many first atoms were carried on whole when this was asked of
    them before the rest came (a chunk that grows by a chain of openers, `[[[[...`, is
    then not read again from its start at each of them)."""
    i = len(atoms)
    while i > carried_head and side(atoms[i - 1], view) == LEADS:
        i -= 1
    return 0 if i == carried_head or shows_nothing(atoms, view, i) else i


def shows_nothing(atoms: list[Atom], view: ChunkView, upto: int = 0) -> bool:
    """Whether the span of `atoms` (of its first `upto`, if given) is markup alone
    (white space and tags: no text)."""
    return blank_side_of(atoms, view, upto) != 0


def blank(atom: Atom) -> bool:
    """Whether `atom` is a whole node that shows no text of its own (`Trait.BLANK`)."""
    return not atom.piece and bool(atom.node.traits._value_ & TraitBit.BLANK)


def blank_side(atom: Atom, view: ChunkView) -> int:
    """0 if `atom` shows something; if it is markup alone, the side it belongs to
    (`ChunkView.blank_side`): `LEADS` the chunk after it, `TRAILS` the chunk before."""
    if blank(atom):
        return LEADS if atom.node.traits._value_ & TraitBit.LEADS else TRAILS
    return view.blank_side(atom.start, atom.end)


def blank_side_of(atoms: list[Atom], view: ChunkView, upto: int = 0) -> int:
    """`blank_side` of the span of `atoms` (of its first `upto`, if given): the side of
    its last atom where all are nodes that show no text of their own."""
    end = upto or len(atoms)
    if blank(atoms[0]):
        return blank_side(atoms[end - 1], view) if all(map(blank, islice(atoms, end))) else 0
    return view.blank_side(atoms[0].start, atoms[end - 1].end)
