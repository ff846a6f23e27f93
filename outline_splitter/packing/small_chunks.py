"""`min_chunk_size`: a chunk below it joins a neighbour in the same section if the
joined span still fits the budget (the previous neighbour first, so no tiny chunk is
left at a section's end), never across omitted text."""

from __future__ import annotations

from outline_splitter.nodes import Node, Trait
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.view import ChunkView


def _section_of(span: PackedSpan) -> Node | None:
    atom = span.atoms[0]
    for node in reversed((*atom.ancestors, atom.node)):
        if Trait.SECTION in node.traits:
            return node
    return None


def merge_small_chunks(
    spans: list[PackedSpan], view: ChunkView, chunk_size: int, min_chunk_size: int
) -> list[PackedSpan]:
    """Spans after joining each one under `min_chunk_size` tokens with a neighbour."""
    if min_chunk_size <= 0 or len(spans) < 2:
        return spans
    out: list[PackedSpan] = []
    for span in spans:
        if out:
            previous = out[-1]
            small = span.token_count < min_chunk_size or previous.token_count < min_chunk_size
            if small and not span.after_cut and _section_of(previous) is _section_of(span):
                joined = view.count(previous.start, span.end, chunk_size)
                if joined <= chunk_size:
                    out[-1] = PackedSpan(previous.atoms + span.atoms, joined)
                    continue
        out.append(span)
    return out
