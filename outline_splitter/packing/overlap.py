"""`chunk_overlap`: the text each chunk shares with its neighbours, recorded beside the
chunk (`start_overlap`, `end_overlap`) and never part of its `text`.

`start_overlap` is the longest tail of the previous chunk within `chunk_overlap` tokens
that starts at a word and not inside a `VERBATIM` node (a code block); `end_overlap` is the longest head of
the next chunk within `chunk_overlap` tokens that ends at a word.
"""

from __future__ import annotations

import re

from outline_splitter.nodes import Trait
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.view import ChunkView

_WORD = re.compile(r"\S+")


def _code_spans(span: PackedSpan) -> list[tuple[int, int]]:
    blocks = []
    for atom in span.atoms:
        for node in (*atom.ancestors, atom.node):
            if Trait.VERBATIM in node.traits and node.end > span.start and node.start < span.end:
                # unclipped start: a block that began in an earlier chunk still contains
                # a tail that starts at this span's first character
                blocks.append((node.start, min(node.end, span.end)))
        blocks.extend(
            (n.start, n.end) for n in atom.node.walk()[1:] if Trait.VERBATIM in n.traits and n.start < span.end
        )
    return blocks


def tail_start(span: PackedSpan, view: ChunkView, overlap: int) -> int:
    """Where the previous chunk's shared tail starts (`span.end` if nothing is shared)."""
    starts = [m.start() for m in _WORD.finditer(view.source, span.start, span.end)]
    low, high = 0, len(starts)  # find the first word start whose tail fits
    while low < high:
        middle = (low + high) // 2
        if view.count(starts[middle], span.end, overlap) <= overlap:
            high = middle
        else:
            low = middle + 1
    start = starts[low] if low < len(starts) else span.end
    for block_start, block_end in _code_spans(span):
        if block_start < start < block_end:
            start = view.trim(block_end, span.end)[0] if block_end < span.end else span.end
    return start


def head_end(span: PackedSpan, view: ChunkView, overlap: int) -> int:
    """Where the next chunk's shared head ends (`span.start` if nothing is shared)."""
    ends = [m.end() for m in _WORD.finditer(view.source, span.start, span.end)]
    low, high = 0, len(ends)  # find how many word ends still fit
    while low < high:
        middle = (low + high + 1) // 2
        if view.count(span.start, ends[middle - 1], overlap) <= overlap:
            low = middle
        else:
            high = middle - 1
    return ends[low - 1] if low > 0 else span.start


def overlaps(spans: list[PackedSpan], view: ChunkView, overlap: int) -> list[tuple[str, str]]:
    """(start_overlap, end_overlap) text for each span."""
    result = [("", "")] * len(spans)
    if overlap <= 0:
        return result
    for i, _span in enumerate(spans):
        before = ""
        after = ""
        if i > 0:
            previous = spans[i - 1]
            before = view.text(tail_start(previous, view, overlap), previous.end)
        if i + 1 < len(spans):
            following = spans[i + 1]
            after = view.text(following.start, head_end(following, view, overlap))
        result[i] = (before, after)
    return result
