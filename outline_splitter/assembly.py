"""Chunk assembly: one document's packed spans made into chunks, once, with their metadata.

`OutlineTextSplitter.split` packs a document into spans (`packing`) and finds their
overlaps; here each span becomes a leaf `Draft`: its text (from the view), the metadata
read off the outline (`packing.metadata.ChunkMetadata`: index, heading path, id, ...),
its lines, its `chunk_number`, and the keys every chunk of the document shares
(`doc_type`, `output`, `pages`: `Assembly.shared`, which the hierarchy's parents get
too). With `hierarchy=True`, `hierarchy` / `text_parents` add parent drafts and link
the leaves to them. `Assembly.chunks` then makes each draft a `TextChunk` (with the
`source` the caller named), whose metadata is read-only from then on (`models.Metadata`).
"""

from __future__ import annotations

from typing import Any

from outline_splitter.models import TextChunk
from outline_splitter.nodes import Node
from outline_splitter.packing import ChunkView
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.lines import LineIndex
from outline_splitter.packing.metadata import ChunkMetadata
from outline_splitter.page_markers import PageMap


class Draft:
    """A chunk while it is being made: its fields, and its metadata while the steps
    after packing (the hierarchy's links, the `index` renumbered, `source`) add to it.
    `after_cut`: whether text was left out between it and the leaf before it (content
    options; no text parent spans it)."""

    __slots__ = ("after_cut", "end_overlap", "end_pos", "metadata", "start_overlap", "start_pos", "text", "token_count")

    def __init__(
        self,
        text: str,
        start_pos: int,
        end_pos: int,
        token_count: int,
        metadata: dict[str, Any],
        overlaps: tuple[str, str] = ("", ""),
        after_cut: bool = False,
    ) -> None:
        self.text = text
        self.start_pos = start_pos
        self.end_pos = end_pos
        self.token_count = token_count
        self.metadata = metadata
        self.start_overlap, self.end_overlap = overlaps
        self.after_cut = after_cut


class Assembly:
    """What the chunks of one document share and are made of: its outline (`root`), the
    view their texts come from, the two parts of their ids (`ids`: `document_id`, the
    splitter's `id_prefix`, else the document's id; `id_prefix`), its format's name and
    output mode (`mode`), its lines and pages, and the `source` every chunk names (None: none)."""

    def __init__(
        self,
        text: str,
        root: Node,
        view: ChunkView,
        ids: tuple[str, str],
        mode: tuple[str, str | None],
        pages: PageMap | None = None,
        source: str | None = None,
    ) -> None:
        self.root = root
        self.view = view
        self.document_id, self.id_prefix = ids
        self.doc_type, self.output = mode  # (output: None where the format has one mode only)
        self.pages = pages
        self.source = source
        self._lines = LineIndex(text)

    def shared(
        self, start: int, end: int, number: int | None = None, keys: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The keys that a chunk spanning `[start, end)` has whatever its role: its lines,
        `doc_type`, `output` (formats with more than one mode), its `chunk_number` (leaves)
        and `pages` (with `page_markers`); added to `keys` where given (a leaf's metadata:
        no dict of their own made and merged a chunk)."""
        if keys is None:
            keys = {}
        keys["start_line"], keys["end_line"] = self._lines.lines(start, end)
        keys["doc_type"] = self.doc_type
        if self.output is not None:
            keys["output"] = self.output
        if number is not None:
            keys["chunk_number"] = number
        if self.pages is not None:
            keys["pages"] = self.pages.pages(start, end)
        return keys

    def leaves(self, spans: list[PackedSpan], overlaps: list[tuple[str, str]]) -> list[Draft]:
        """The leaf drafts of `spans` (emptied as they are made: a span's atoms go while its
        chunk comes) with their `overlaps`, in order; `chunk_number` counts the chunks
        of each title, from 1."""
        reader = ChunkMetadata(self.root, self.document_id, self.id_prefix, self.view.text)
        numbers: dict[str, int] = {}
        drafts: list[Draft] = []
        spans.reverse()
        for index, edges in enumerate(overlaps):
            span = spans.pop()
            text = self.view.text(span.start, span.end)
            metadata = reader.read(span, index, text)
            number = numbers[metadata["title"]] = numbers.get(metadata["title"], 0) + 1
            self.shared(span.start, span.end, number, metadata)
            drafts.append(Draft(text, span.start, span.end, span.token_count, metadata, edges, span.after_cut))
        return drafts

    def chunks(self, drafts: list[Draft]) -> list[TextChunk]:
        """Each draft made a `TextChunk`, with `source` last in its metadata where one was named."""
        chunks: list[TextChunk] = []
        drafts.reverse()  # (each draft goes as its chunk comes)
        while drafts:
            draft = drafts.pop()
            if self.source is not None:
                draft.metadata["source"] = self.source
            chunks.append(
                TextChunk(
                    text=draft.text,
                    start_pos=draft.start_pos,
                    end_pos=draft.end_pos,
                    token_count=draft.token_count,
                    start_overlap=draft.start_overlap,
                    end_overlap=draft.end_overlap,
                    metadata=draft.metadata,
                )
            )
        return chunks
