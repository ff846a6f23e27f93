"""Pass two: packing an outline into token-budgeted chunks.

`pack_outline` runs the steps in order: `atoms` (walk down to what fits), `balance`
(balanced cuts of the runs that need several chunks), `greedy` (join atoms under the
budget, confirming each chunk's exact count), `small_chunks` (min_chunk_size), then the
caller adds `overlap` and `metadata`. Which side of a cut an atom belongs to (what leads,
markup alone) is `rules`, read by both `balance` and `greedy`; what a balanced split is
(the fewest parts, of about equal size) is `even`, read by `balance` and by `leaf` for a
leaf's last two pieces.
"""

from __future__ import annotations

from outline_splitter.nodes import Node
from outline_splitter.packing.atoms import Atom, collect_atoms
from outline_splitter.packing.balance import balance_runs
from outline_splitter.packing.greedy import PackedSpan, pack_atoms
from outline_splitter.packing.small_chunks import join_blank_spans, merge_small_chunks
from outline_splitter.packing.view import ChunkView, SourceView

__all__ = ["Atom", "ChunkView", "PackedSpan", "SourceView", "pack_outline"]


def pack_outline(
    root: Node,
    view: ChunkView,
    chunk_size: int,
    max_chunk_size: int,
    min_chunk_size: int = 0,
    merge_across_sections: bool = False,
) -> list[PackedSpan]:
    """The packed spans of a document's outline, in document order. A chunk under
    `min_chunk_size` joins a neighbour where the join fits `chunk_size` (in its section
    first; with `merge_across_sections`, in any): only a `never_break_within` node or a
    separator group may pass `chunk_size`, up to `max_chunk_size`."""
    atoms = balance_runs(collect_atoms(root, view, chunk_size, max_chunk_size), view, chunk_size)
    spans = join_blank_spans(pack_atoms(atoms, view, chunk_size, max_chunk_size), view, chunk_size)
    return merge_small_chunks(spans, view, chunk_size, min_chunk_size, merge_across_sections)
