"""Chunks under `min_chunk_size` that join a neighbour: in the same section if the joined
span still fits the budget (the previous neighbour first, so no tiny chunk is left at a
section's end). No join crosses omitted text. (Markup alone is placed by the packing
rules of `rules.py`, in the plan and the greedy pass, not here.)"""

from __future__ import annotations

from collections.abc import Sequence

from outline_splitter.nodes import Trait
from outline_splitter.packing.atoms import Atom, Piece
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.leaf import lines
from outline_splitter.packing.rules import blank, blank_side, blank_side_of, may_cut_between
from outline_splitter.packing.view import ChunkView


def merge_small_chunks(
    spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int, across_sections: bool = False
) -> list[PackedSpan]:
    """Spans after joining each one under `min_chunk_size` tokens with a neighbour where
    the joined span has at most `limit` tokens: in the same section first (the previous
    neighbour first, so no tiny chunk is left at a section's end); then, with
    `across_sections`, with the smaller neighbour whatever its section. A span that no
    join fits (a tag run or a leaf's last piece between two full chunks) then takes
    atoms from the span before it, or else from the one after it, or else the words of
    prose at its edge (see `_take_words`)."""
    if min_chunk_size <= 0 or len(spans) < 2:
        return spans
    spans = _merge_pass(spans, view, limit, min_chunk_size, same_section=True)
    if across_sections:
        spans = _merge_pass(spans, view, limit, min_chunk_size, same_section=False)
    spans = _take_atoms(spans, view, limit, min_chunk_size, before=True)
    spans = _take_atoms(spans, view, limit, min_chunk_size, before=False)
    return _take_words(spans, view, limit, min_chunk_size)


def join_blank_spans(spans: list[PackedSpan], view: ChunkView, limit: int) -> list[PackedSpan]:
    """Spans after the nodes that show no text of their own (page markers: `rules.blank`)
    that the greedy pass left at a span's end while they lead (before a page that did not
    fit with them), or that trail alone (after the last text), go with a neighbour: those
    that lead with the span after them, or the fewest atoms, or else words, at its head;
    those that trail with the span before them, or its last atoms or words. Every span
    stays within `limit` (a budget that holds a run of markers and no text leaves it
    alone)."""
    i = 0
    while i < len(spans):
        span = spans[i]
        lead = _blank_leading_tail(span.atoms, view)
        if lead and i + 1 < len(spans) and not spans[i + 1].after_cut:
            moved = _blank_tail_moved(span, spans[i + 1], lead, view, limit)
            if moved is not None:  # (the span that ends them now is looked at next)
                spans[i : i + 2] = moved
                i += len(moved) - 1
                continue
        if i and not span.after_cut and all(map(blank, span.atoms)) and blank_side_of(span.atoms, view) < 0:
            taken = _taken(span, spans[i - 1], True, view, limit)
            if taken is not None:
                spans[i - 1 : i + 1] = taken
                i += len(taken) - 1
                continue
        i += 1
    return spans


def _blank_tail_moved(
    span: PackedSpan, after: PackedSpan, lead: int, view: ChunkView, limit: int
) -> list[PackedSpan] | None:
    """`span` without its last `lead` atoms, those with the head of `after`, and the rest
    of `after` (two spans where `span` is those atoms alone), or None if no head fits."""
    atoms = span.atoms[-lead:]
    tail = PackedSpan(atoms, view.count(atoms[0].start, atoms[-1].end, limit))
    taken = _taken(tail, after, False, view, limit)
    if taken is None:
        return None
    if lead == len(span.atoms):
        return list(taken)
    kept = span.atoms[:-lead]
    return [PackedSpan(kept, view.count(kept[0].start, kept[-1].end), span.after_cut, span.opening), *taken]


def _blank_leading_tail(atoms: list[Atom], view: ChunkView) -> int:
    """How many atoms at the end of `atoms` show no text of their own and lead."""
    n = 0
    while n < len(atoms) and blank(atoms[-1 - n]) and blank_side(atoms[-1 - n], view) > 0:
        n += 1
    return n


def _taken(
    span: PackedSpan, other: PackedSpan, before: bool, view: ChunkView, limit: int
) -> tuple[PackedSpan, ...] | None:
    """`span` joined to the whole of `other`, else `_atoms_taken`, else `_words_taken`, of
    one atom or word at least; None if none fits."""
    first, last = (other, span) if before else (span, other)
    count = view.count(first.start, last.end, limit)
    if count <= limit:
        opening = len(first.atoms) + last.opening if blank_side_of(first.atoms, view) > 0 else first.opening
        return (PackedSpan(first.atoms + last.atoms, count, first.after_cut, opening),)
    return _atoms_taken(span, other, before, view, limit, 1) or _words_taken(span, other, before, view, limit, 1, True)


def _merge_pass(
    spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int, same_section: bool
) -> list[PackedSpan]:
    out: list[PackedSpan] = []
    for span in spans:
        if out:
            previous = out[-1]
            small = span.token_count < min_chunk_size or previous.token_count < min_chunk_size
            same = not same_section or previous.atoms[0].section is span.atoms[0].section
            if small and not span.after_cut and same:
                joined = view.count(previous.start, span.end, limit)
                if joined <= limit:
                    out[-1] = PackedSpan(previous.atoms + span.atoms, joined, previous.after_cut, previous.opening)
                    continue
        out.append(span)
    return out


def _take_atoms(
    spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int, before: bool
) -> list[PackedSpan]:
    """Each span still under `min_chunk_size` (no join fits) after taking the fewest
    atoms at the near edge of its neighbour (`before`: the last atoms of the span before
    it, else the first of the span after it, past the markup that opens that one) that
    bring it to `min_chunk_size`, where both stay within `limit`, the neighbour keeps
    `min_chunk_size` too and the cut between them is one the packing rules allow
    (`rules.may_cut_between`: not after what leads, not before what trails)."""
    for i in range(1, len(spans)) if before else range(len(spans) - 2, -1, -1):
        j = i - 1 if before else i + 1
        span, other = spans[i], spans[j]
        if span.token_count >= min_chunk_size or spans[max(i, j)].after_cut or len(other.atoms) < 2:
            continue
        taken = _atoms_taken(span, other, before, view, limit, min_chunk_size)
        if taken is not None:
            spans[min(i, j)], spans[max(i, j)] = taken
    return spans


def _atoms_taken(
    span: PackedSpan, other: PackedSpan, before: bool, view: ChunkView, limit: int, min_chunk_size: int
) -> tuple[PackedSpan, PackedSpan] | None:
    """`other` and `span` in document order after `span` takes the fewest atoms of
    `other` (the span before it if `before`, else the one after) that bring it to
    `min_chunk_size`, or None if no such take fits (see `_take_atoms`)."""
    atoms, n = other.atoms, len(other.atoms)
    for k in range(1, n) if before else range(other.opening + 1, n):
        cut = n - k if before else k  # (other.atoms[:cut] stays before the cut, the rest after it)
        moved, kept = (atoms[cut:], atoms[:cut]) if before else (atoms[:cut], atoms[cut:])
        grown = view.count(moved[0].start, span.end, limit) if before else view.count(span.start, moved[-1].end, limit)
        if grown > limit:
            return None
        if grown < min_chunk_size or not may_cut_between(atoms[cut - 1], atoms[cut], view):
            continue
        # a shorter text may take more tokens ("><articl" 3, "><article" 2): recheck the cap
        rest = view.count(kept[0].start, kept[-1].end, limit)
        if not min_chunk_size <= rest <= limit or (before and other.opening >= len(kept)):
            return None
        if before:
            return PackedSpan(kept, rest, other.after_cut, other.opening), PackedSpan(moved + span.atoms, grown)
        opening = len(span.atoms) + other.opening if blank_side_of(span.atoms, view) > 0 else span.opening
        return PackedSpan(span.atoms + moved, grown, span.after_cut, opening), PackedSpan(kept, rest)
    return None


def _take_words(spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int) -> list[PackedSpan]:
    """Each span still under `min_chunk_size` after taking the fewest words of the prose
    atom at the edge of a neighbour (or of its lines, in code) that bring it to `min_chunk_size` (the neighbour on
    the side its markup belongs to first), where both stay within `limit` and the
    neighbour keeps `min_chunk_size`. The neighbour is one whole atom too big to share
    (a paragraph of 250 tokens beside the 6 tokens of a `<div>` that opens the next
    block), so its edge atom becomes two pieces: a cut inside prose, at a word, is the
    price of no tiny chunk; in code and verbatim text it falls at a line end, and never in
    a node that must not be broken or in raw markup that fits (Markdown's HTML blocks)."""
    for i, span in enumerate(spans):
        if span.token_count >= min_chunk_size:
            continue
        sides = (i + 1, i - 1) if blank_side_of(span.atoms, view) > 0 else (i - 1, i + 1)
        for j in sides:
            if 0 <= j < len(spans) and not (spans[max(i, j)].after_cut):
                taken = _words_taken(span, spans[j], j < i, view, limit, min_chunk_size)
                if taken is not None:
                    spans[min(i, j)], spans[max(i, j)] = taken
                    break
    return spans


def _words_taken(
    span: PackedSpan,
    other: PackedSpan,
    other_first: bool,
    view: ChunkView,
    limit: int,
    min_chunk_size: int,
    lead_ins: bool = False,
) -> tuple[PackedSpan, PackedSpan] | None:
    """`other` and `span` in document order after `span` takes the fewest words of the
    edge atom of `other` next to it, or None if no such take fits."""
    edge = other.atoms[-1] if other_first else other.atoms[0]
    points = _cut_points(view, edge, limit, lead_ins)
    if points is None or (other_first and len(other.atoms) <= other.opening) or (not other_first and other.opening):
        return None
    starts, ends = points
    order = range(len(starts) - 1, 0, -1) if other_first else range(1, len(starts))
    for k in order:  # cut before word k
        grown = view.count(starts[k], span.end, limit) if other_first else view.count(span.start, ends[k - 1], limit)
        if grown > limit:
            return None
        if grown < min_chunk_size:
            continue
        first = Piece(edge.start, ends[k - 1], edge.node, edge.ancestors)
        second = Piece(starts[k], edge.end, edge.node, edge.ancestors)
        if other_first:
            kept = [*other.atoms[:-1], first]
            rest = view.count(kept[0].start, kept[-1].end, limit)
            if min_chunk_size <= rest <= limit:
                return PackedSpan(kept, rest, other.after_cut, other.opening), PackedSpan([second, *span.atoms], grown)
        else:
            kept = [second, *other.atoms[1:]]
            rest = view.count(kept[0].start, kept[-1].end, limit)
            if min_chunk_size <= rest <= limit:
                opening = len(span.atoms) if blank_side_of(span.atoms, view) > 0 else span.opening
                return PackedSpan([*span.atoms, first], grown, span.after_cut, opening), PackedSpan(kept, rest)
        return None
    return None


def _cut_points(
    view: ChunkView, atom: Atom, limit: int, lead_ins: bool = False
) -> tuple[Sequence[int], Sequence[int]] | None:
    """The starts and ends of the units `atom` may be cut between: its lines if it is
    code or verbatim text of more than one line, else its words; None if it is not a leaf (or a piece of one),
    leads what follows (but a lead-in, prose, where `lead_ins`), lies in a node that must not be broken, is
    raw markup, whole, or shows no text of its own."""
    node, above = atom.node, atom.ancestors
    if node.children or node.traits & (Trait.NEVER_BREAK | Trait.BLANK) or (above is not None and above.sealed):
        return None
    if Trait.LEADS in node.traits and not (lead_ins and node.traits & (Trait.PROSE | Trait.TITLE) == Trait.PROSE):
        return None
    if not atom.piece and node.traits & (Trait.VERBATIM | Trait.LINES) == Trait.VERBATIM:
        return None  # raw markup (verbatim, yet no lines to cut at) that fits: a cut would leave tags open
    if node.unbuilt_kinds and node.expand is not None:  # children not built yet: no leaf either
        return None
    if node.traits & (Trait.VERBATIM | Trait.LINES) or (above is not None and above.verbatim is not None):
        spans = [view.trim(a, b) for a, b in view.parts(lines, atom.start, atom.end, limit)]
        spans = [(a, b) for a, b in spans if a < b]
        if len(spans) > 1:  # (a piece of one line over the budget is cut at words)
            return [a for a, _ in spans], [b for _, b in spans]
    return view.words(atom.start, atom.end)
