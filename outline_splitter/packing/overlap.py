"""`chunk_overlap`: the text each chunk shares with its neighbours, recorded beside the
chunk (`start_overlap`, `end_overlap`) and never part of its `text`.

`start_overlap` is the longest tail of the previous chunk within `chunk_overlap` tokens
that starts at a word and not inside a `VERBATIM` node (a code block); `end_overlap` is
the longest head of the next chunk within `chunk_overlap` tokens that ends at a word.
Where no word break lies within reach (a base64 or URL-encoded run, a long YAML value),
the overlap is cut at a character inside the word, as a chunk is, within the same
budget; a word that shows nothing (a tag in a markup source) is never cut so.
Unless `across_sections`, an overlap never crosses a section boundary: it is empty where
the two chunks meet at one (the first chunk of a section shares nothing of the section
before), and otherwise stays inside the section where they meet, out of the sections
around or inside it, so an embedding of a chunk with its overlap is of one section.
With `hierarchy=True`, `hierarchy.confine_overlaps` then empties an overlap that would
cross a parent's boundary.
"""

from __future__ import annotations

from bisect import bisect_left

from outline_splitter.nodes import Trait
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.leaf import splits_pair
from outline_splitter.packing.view import ChunkView
from outline_splitter.search import last_holding


def _code_spans(span: PackedSpan) -> list[tuple[int, int]]:
    blocks = []
    for atom in span.atoms:
        above = list(atom.ancestors.verbatim_nodes()) if atom.ancestors is not None else []
        for node in (*reversed(above), atom.node):  # outermost first, as the text reads
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
    starts, ends = view.words(span.start, span.end)
    low = bisect_left(range(len(starts)), True, key=lambda i: view.count(starts[i], span.end, overlap) <= overlap)
    if low < len(starts):
        start = starts[low]
    elif starts and not view.blank_side(starts[-1], ends[-1]):  # no word start within reach
        start = _tail_in_word(view, starts[-1], span.end, overlap)
    else:
        start = span.end
    for block_start, block_end in _code_spans(span):
        if block_start < start < block_end:
            start = view.trim(block_end, span.end)[0] if block_end < span.end else span.end
    return start


def head_end(span: PackedSpan, view: ChunkView, overlap: int) -> int:
    """Where the next chunk's shared head ends (`span.start` if nothing is shared)."""
    starts, ends = view.words(span.start, span.end)
    low, _ = last_holding(lambda n: view.count(span.start, ends[n - 1], overlap) <= overlap, 0, len(ends) + 1)
    if low > 0:
        return ends[low - 1]
    if starts and not view.blank_side(starts[0], ends[0]):  # no word end within reach
        return _head_in_word(view, span.start, ends[0], overlap)
    return span.start


def _tail_in_word(view: ChunkView, word_start: int, end: int, overlap: int) -> int:
    """The start of the longest tail of `[word_start, end)` (a word too long for the
    overlap) within `overlap` tokens, cut at a character as a chunk is where no word
    break fits (`end` if not a character fits)."""
    inside = range(word_start + 1, end)
    at = bisect_left(inside, True, key=lambda p: view.count(p, end, overlap) <= overlap)
    if at == len(inside):
        return end
    return inside[at] + 1 if splits_pair(view.source, inside[at]) else inside[at]


def _head_in_word(view: ChunkView, start: int, word_end: int, overlap: int) -> int:
    """The end of the longest head of `[start, word_end)` (a word too long for the
    overlap) within `overlap` tokens, cut at a character (`start` if none fits)."""
    end, _ = last_holding(lambda p: view.count(start, p, overlap) <= overlap, start, word_end)
    return end - 1 if end > start and splits_pair(view.source, end) else end


def _shared_section(previous: PackedSpan, following: PackedSpan) -> tuple[int, int] | None:
    """Where an overlap between two neighbouring chunks may lie: from the end of the last
    atom of `previous` outside the section they meet in, to the start of the first such
    atom of `following`, and inside that section; None if they meet at a section boundary."""
    section = previous.atoms[-1].section
    if following.atoms[0].section is not section:
        return None
    low = next((a.end for a in reversed(previous.atoms) if a.section is not section), previous.start)
    high = next((a.start for a in following.atoms if a.section is not section), following.end)
    if section is not None:
        low, high = max(low, section.start), min(high, section.end)
    return low, high


def overlaps(
    spans: list[PackedSpan], view: ChunkView, overlap: int, across_sections: bool = False
) -> list[tuple[str, str]]:
    """(start_overlap, end_overlap) text for each span (see the module docstring)."""
    result = [("", "")] * len(spans)
    if overlap <= 0:
        return result
    shared = [(spans[i - 1].start, spans[i].end) if across_sections else _shared_section(spans[i - 1], spans[i])
              for i in range(1, len(spans))]  # fmt: skip
    for i in range(len(spans)):
        before = after = ""
        behind = shared[i - 1] if i > 0 else None
        if behind is not None:
            previous = spans[i - 1]
            start = max(tail_start(previous, view, overlap), view.trim(behind[0], previous.end)[0])
            before = view.text(start, previous.end) if start < previous.end else ""
        ahead = shared[i] if i + 1 < len(spans) else None
        if ahead is not None:
            following = spans[i + 1]
            end = min(head_end(following, view, overlap), view.trim(following.start, ahead[1])[1])
            after = view.text(following.start, end) if end > following.start else ""
        result[i] = (before, after)
    return result
