"""LangChain front ends (the `langchain` extra: `pip install 'outline-splitter[langchain]'`).

- `OutlineSplitter`: a real `langchain_text_splitters.TextSplitter` (so a
  `BaseDocumentTransformer`) that splits with `OutlineTextSplitter`, as a LangChain user
  expects (`outline_splitter.integrations.framework`): each `Document`'s `id` is its
  chunk id, which holds the input's identity (`metadata["source"]`, else `Document.id`),
  so a store keeps every chunk of every file; `chunk_overlap` is part of `page_content`
  within `chunk_size`; `doc_type="auto"` reads each document's format off its `source`;
  metadata is flat, as Chroma and `filter_complex_metadata` keep it. With
  `add_start_index=True`, `start_index` is the exact offset of `page_content` (LangChain's
  splitters find it with `str.find`, which picks the first copy of repeated text).
- `HTMLTextSplitter`: the seed `outline_splitter.HTMLTextSplitter`, also a LangChain
  `TextSplitter`, returning LangChain `Document`s.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any, Unpack

try:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter
except ImportError as exc:
    raise ImportError(
        "outline_splitter.integrations.langchain needs LangChain: pip install 'outline-splitter[langchain]'"
    ) from exc

from outline_splitter import html_text_splitter
from outline_splitter.documents import DocumentLike, file_name_of
from outline_splitter.integrations.framework import FrameworkSplitter, OnError
from outline_splitter.models import TextChunk
from outline_splitter.options import SplitterKwargs, with_option_parameters


class OutlineSplitter(TextSplitter):
    """`OutlineTextSplitter` as a LangChain `TextSplitter`.

    Args:
        add_start_index: put the exact character offset of each chunk's `page_content`
            in its metadata as `start_index` (`own_start` / `own_end` say where the chunk
            lies without its overlap).
        context_in_page_content: `page_content` starts with the chunk's context (heading
            path, a broken table's header row, a broken definition's signature) and a line
            break, counted in `chunk_size` (it sets `context_in_budget`); without it,
            `contextualize(document)` gives that text.
        nested_metadata: keep the chunk metadata as `TextChunk` has it (`heading_paths` a
            list of lists, `parent_id` None) instead of the flat form every store takes.
        on_error: `"skip"` leaves out a document that cannot be split (an unknown file
            extension under `doc_type="auto"`), logs it and lists it in `failures`;
            `"raise"` (the default) raises its `ValueError`.
        **options: `OutlineTextSplitter`'s options (`outline_splitter.options.SplitterOptions`:
            `doc_type`, `chunk_size` and `chunk_overlap` in tokens of `tokenizer`, ...),
            checked here with the same `ValueError`s.
    """

    def __init__(
        self,
        add_start_index: bool = False,
        context_in_page_content: bool = False,
        nested_metadata: bool = False,
        on_error: OnError = "raise",
        **options: Unpack[SplitterKwargs],
    ) -> None:
        if context_in_page_content:
            options["context_in_budget"] = True
        # built first so bad arguments get its ValueErrors, which name them
        self.framework = FrameworkSplitter(options, nested_metadata, on_error)
        self.splitter = self.framework.splitter
        self.context_in_page_content = context_in_page_content
        super().__init__(
            chunk_size=self.splitter.options.chunk_size,
            chunk_overlap=self.splitter.options.chunk_overlap,
            length_function=self.splitter.tokenizer.count,
            add_start_index=add_start_index,
            strip_whitespace=False,
        )

    @property
    def failures(self) -> list[tuple[str, str]]:
        """The documents skipped with `on_error="skip"`: (file or id, error message)."""
        return self.framework.failures

    def split_chunks(self, text: str) -> list[TextChunk]:
        """The `TextChunk`s of `text` (the core's: overlaps beside the text), with offsets and metadata."""
        return self.splitter.split(text)

    def split_text(self, text: str) -> list[str]:
        """The text of each chunk of `text`, in order, with its overlaps (as `page_content`)."""
        return [chunk.text for chunk in self.framework.chunks(text, {}, None)]

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """One `Document` per chunk of each document (see the class); the input's
        metadata is copied into each, the chunk's over it."""
        out: list[Document] = []
        for document in documents:
            identity = None if file_name_of(document.metadata) else document.id
            for chunk in self.framework.chunks(document.page_content, document.metadata, identity):
                out.append(self._document(chunk, document.metadata))
        return out

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        """`split_documents` of `Document`s made of `texts` and `metadatas` (a text whose
        metadata names no `source` is identified by its place in `texts`)."""
        metadata_list = metadatas if metadatas is not None else [{} for _ in texts]
        if len(metadata_list) != len(texts):
            raise ValueError(f"metadatas has {len(metadata_list)} entries for {len(texts)} texts")
        out: list[Document] = []
        for number, (text, metadata) in enumerate(zip(texts, metadata_list, strict=True)):
            for chunk in self.framework.chunks(text, metadata, None if "source" in metadata else f"#{number}"):
                out.append(self._document(chunk, metadata))
        return out

    def contextualize(self, document: Document | TextChunk) -> str:
        """The text to embed for a chunk's `Document` (or `TextChunk`): its context, a
        line break, then its text (`page_content` already is that with
        `context_in_page_content`)."""
        if isinstance(document, Document) and self.context_in_page_content:
            return document.page_content
        return self.splitter.contextualize(document)

    def _document(self, chunk: TextChunk, base: dict[Any, Any]) -> Document:
        metadata = {**copy.deepcopy(base), **chunk.metadata, "token_count": chunk.token_count}
        if self._add_start_index:
            metadata["start_index"] = chunk.start_pos
        text = self.splitter.contextualize(chunk) if self.context_in_page_content else chunk.text
        return Document(id=chunk.metadata["id"], page_content=text, metadata=metadata)


with_option_parameters(OutlineSplitter.__init__)


# the seed's create_documents takes a chunk_header besides LangChain's arguments
class HTMLTextSplitter(html_text_splitter.HTMLTextSplitter, TextSplitter):  # type: ignore[misc]
    """The seed `HTMLTextSplitter` (same arguments and chunks) as a LangChain
    `TextSplitter`: `split_documents`, and so `create_documents` and
    `transform_documents`, return LangChain `Document`s."""

    def _init_framework(self, length_function: Callable[[str], int]) -> None:
        TextSplitter.__init__(self, chunk_size=self.chunk_size, chunk_overlap=0, length_function=length_function)

    def split_documents(  # type: ignore[override]
        self, documents: Iterable[DocumentLike], chunk_header: str | None = None
    ) -> list[Document]:
        """As the seed's `split_documents` (`partindex`, `totalparts`, `chunk_header`),
        returning LangChain `Document`s."""
        return [
            Document(page_content=part.page_content, metadata=part.metadata)
            for part in html_text_splitter.HTMLTextSplitter.split_documents(self, documents, chunk_header)
        ]
