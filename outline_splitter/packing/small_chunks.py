"""Chunks that join a neighbour: a chunk that shows nothing (markup alone, such as the
tags between two blocks: the view's `blank_side`) joins the chunk on its side where the
budget allows, or else the one on the other side; and under `min_chunk_size`, a chunk
joins a neighbour in the same section if the joined span still fits the budget (the
previous neighbour first, so no tiny chunk is left at a section's end). No join crosses
omitted text; a blank chunk that borders it is left out with it."""

from __future__ import annotations

from outline_splitter.nodes import Node, Trait
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.view import ChunkView, fits


def _section_of(span: PackedSpan) -> Node | None:
    atom = span.atoms[0]
    if Trait.SECTION in atom.node.traits:
        return atom.node
    section = atom.ancestors.section if atom.ancestors is not None else None
    return section.node if section is not None else None


def _joined(view: ChunkView, first: PackedSpan, second: PackedSpan, chunk_size: int) -> PackedSpan | None:
    """`first` and `second` as one span if it fits the budget and no omitted text lies
    between them; markup that opens the second leads the joined span."""
    if second.after_cut or not fits(view, first.start, second.end, chunk_size):
        return None
    count = view.count(first.start, second.end, chunk_size)
    if count > chunk_size:
        return None
    lead = len(first.atoms) + second.lead if view.blank_side(first.start, first.end) > 0 else first.lead
    return PackedSpan(first.atoms + second.atoms, count, first.after_cut, lead)


def _join_back(spans: list[PackedSpan], view: ChunkView, chunk_size: int, sides: set[int]) -> list[PackedSpan]:
    """Each blank span whose side is in `sides` joined to the span before it, if it can."""
    out: list[PackedSpan] = []
    for span in spans:
        joined = None
        if out and view.blank_side(span.start, span.end) in sides:
            joined = _joined(view, out[-1], span, chunk_size)
        if joined is not None:
            out[-1] = joined
        else:
            out.append(span)
    return out


def join_blank_chunks(spans: list[PackedSpan], view: ChunkView, chunk_size: int) -> list[PackedSpan]:
    """Spans after joining each one that shows nothing to a neighbour: first to the
    chunk before those that close it, then to the chunk after those that open it (or
    could not go back), then back again for what could go nowhere else."""
    if len(spans) < 2:
        return spans
    spans = _join_back(spans, view, chunk_size, {-1})
    out: list[PackedSpan] = []
    for span in reversed(spans):
        joined = None
        if out and view.blank_side(span.start, span.end) != 0:
            joined = _joined(view, span, out[-1], chunk_size)
        if joined is not None:
            out[-1] = joined
        else:
            out.append(span)
    return _drop_framing(_join_back(out[::-1], view, chunk_size, {-1, 1}), view)


def _drop_framing(spans: list[PackedSpan], view: ChunkView) -> list[PackedSpan]:
    """Without the blank spans left next to omitted text: the markup around what a
    content option left out (its siblings' end tags, a rule between), which no join may
    carry across the omission."""
    out: list[PackedSpan] = []
    cut = False
    for i, span in enumerate(spans):
        borders_cut = span.after_cut or (i + 1 < len(spans) and spans[i + 1].after_cut)
        if borders_cut and view.blank_side(span.start, span.end) != 0:
            cut = True
            continue
        if cut:
            span.after_cut, cut = True, False
        out.append(span)
    return out


def merge_small_chunks(
    spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int, across_sections: bool = False
) -> list[PackedSpan]:
    """Spans after joining each one under `min_chunk_size` tokens with a neighbour where
    the joined span has at most `limit` tokens: in the same section first (the previous
    neighbour first, so no tiny chunk is left at a section's end); then, with
    `across_sections`, with the smaller neighbour whatever its section."""
    if min_chunk_size <= 0 or len(spans) < 2:
        return spans
    spans = _merge_pass(spans, view, limit, min_chunk_size, same_section=True)
    if not across_sections:
        return spans
    return _take_from_previous(
        _merge_pass(spans, view, limit, min_chunk_size, same_section=False), view, limit, min_chunk_size
    )


def _take_from_previous(spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int) -> list[PackedSpan]:
    """Each span still under `min_chunk_size` (no join fits) after taking the fewest
    last atoms of the span before it that bring it to `min_chunk_size`, where both
    stay within `limit` and the one before keeps `min_chunk_size` too."""
    for i in range(1, len(spans)):
        span, previous = spans[i], spans[i - 1]
        if span.token_count >= min_chunk_size or span.after_cut or len(previous.atoms) < 2:
            continue
        for k in range(1, len(previous.atoms)):
            moved = previous.atoms[-k:]
            grown = view.count(moved[0].start, span.end, limit)
            if grown > limit:
                break
            if grown < min_chunk_size:
                continue
            kept = previous.atoms[:-k]
            rest = view.count(kept[0].start, kept[-1].end, limit)
            # a shorter text may take more tokens ("><articl" 3, "><article" 2): recheck the cap
            if min_chunk_size <= rest <= limit and previous.lead < len(kept):
                spans[i - 1] = PackedSpan(kept, rest, previous.after_cut, previous.lead)
                spans[i] = PackedSpan(moved + span.atoms, grown)
            break
    return spans


def _merge_pass(
    spans: list[PackedSpan], view: ChunkView, limit: int, min_chunk_size: int, same_section: bool
) -> list[PackedSpan]:
    out: list[PackedSpan] = []
    for span in spans:
        if out:
            previous = out[-1]
            small = span.token_count < min_chunk_size or previous.token_count < min_chunk_size
            if small and not span.after_cut and (not same_section or _section_of(previous) is _section_of(span)):
                joined = view.count(previous.start, span.end, limit)
                if joined <= limit:
                    out[-1] = PackedSpan(previous.atoms + span.atoms, joined, previous.after_cut, previous.lead)
                    continue
        out.append(span)
    return out
