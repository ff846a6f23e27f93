"""`reconstruct`: a document rebuilt from its chunks.

Only leaf chunks carry the document's text: parent chunks (`hierarchy=True`) are
summaries, and overlaps are never part of a chunk's `text`, so both are left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from outline_splitter.models import TextChunk

# Between two chunks, without the source: the white space there is not known, a blank
# line keeps blocks apart.
GAP = "\n\n"


def reconstruct(chunks: Iterable[TextChunk], source: str | None = None) -> str:
    """The document the leaf chunks of one split came from.

    With `source` (the text that was split), the white space between, before and after
    the chunks is taken from it, so the result equals `source`; each source-mode chunk
    must be the slice of `source` at its offsets. Without it, the chunks' texts are
    joined with a blank line wherever the source had white space between them (the
    non-space text is exact). Chunks of two documents, or out of order, raise
    `ValueError`."""
    leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
    _check_one_document_in_order(leaves)
    if source is not None and not isinstance(source, str):
        raise ValueError(f"source must be a str or None, not {type(source).__name__}")
    if source is None:
        pieces: list[str] = []
        for i, chunk in enumerate(leaves):
            if i and chunk.start_pos > leaves[i - 1].end_pos:
                pieces.append(GAP)
            pieces.append(chunk.text)
        return "".join(pieces)
    return _with_source(leaves, source)


def _with_source(leaves: list[TextChunk], source: str) -> str:
    pieces: list[str] = []
    cursor = 0
    markup = bool(leaves) and leaves[0].metadata.get("doc_type") == "html"  # tags lie between HTML chunks
    for chunk in leaves:
        if chunk.end_pos > len(source):
            raise ValueError(f"source is not the text these chunks came from: a chunk ends at {chunk.end_pos}")
        piece = source[chunk.start_pos : chunk.end_pos]
        if chunk.metadata.get("output", "source") in ("source", "html") and piece != chunk.text:
            raise ValueError(f"source is not the text these chunks came from (at offset {chunk.start_pos})")
        gap = source[cursor : chunk.start_pos]
        if gap.strip() and not markup:
            raise ValueError(f"the chunks leave out text of source at offset {cursor}: {gap[:40]!r}")
        pieces += (gap, piece)
        cursor = chunk.end_pos
    if source[cursor:].strip() and not markup:
        raise ValueError(f"the chunks leave out text of source at offset {cursor}")
    pieces.append(source[cursor:])
    return "".join(pieces)


def _check_one_document_in_order(leaves: list[TextChunk]) -> None:
    """`ValueError` unless the leaves come from one document (one `source` and
    `doc_type`, indexes rising) in document order, without overlapping spans."""
    for key in ("source", "doc_type", "output"):
        values = {chunk.metadata.get(key) for chunk in leaves}
        if len(values) > 1:
            raise ValueError(f"chunks of more than one document: {key} is one of {sorted(map(str, values))}")
    for previous, chunk in pairwise(leaves):
        index, earlier = chunk.metadata.get("index"), previous.metadata.get("index")
        rising = index is None or earlier is None or index > earlier
        if chunk.start_pos < previous.end_pos or not rising:
            raise ValueError(
                f"chunks out of order or of more than one document: [{chunk.start_pos}, {chunk.end_pos}) "
                f"(index {index}) comes after [{previous.start_pos}, {previous.end_pos}) (index {earlier})"
            )
