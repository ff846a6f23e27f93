"""LangChain front ends (the `langchain` extra: `pip install 'outline-splitter[langchain]'`).

- `OutlineSplitter`: a real `langchain_text_splitters.TextSplitter` (so a
  `BaseDocumentTransformer`) that splits with `OutlineTextSplitter`. With
  `add_start_index=True`, `start_index` is the chunk's own offset (LangChain's splitters
  find it with `str.find`, which picks the first copy of repeated text); the chunk's
  metadata (heading path, section id, id, parent id, token count, ...) is merged into
  each `Document`'s metadata.
- `HTMLTextSplitter`: the seed `outline_splitter.HTMLTextSplitter`, also a LangChain
  `TextSplitter`, returning LangChain `Document`s.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Unpack

try:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter
except ImportError as exc:
    raise ImportError(
        "outline_splitter.integrations.langchain needs LangChain: pip install 'outline-splitter[langchain]'"
    ) from exc

from outline_splitter import html_text_splitter
from outline_splitter.documents import DocumentLike
from outline_splitter.models import TextChunk
from outline_splitter.options import SplitterKwargs, with_option_parameters
from outline_splitter.splitter import OutlineTextSplitter


class OutlineSplitter(TextSplitter):
    """`OutlineTextSplitter` as a LangChain `TextSplitter`.

    Args:
        add_start_index: put each chunk's exact character offset in its document's
            metadata as `start_index`.
        **options: `OutlineTextSplitter`'s options (`outline_splitter.options.SplitterOptions`:
            `doc_type`, `chunk_size` and `chunk_overlap` in tokens of `tokenizer`, ...),
            checked here with the same `ValueError`s.
    """

    def __init__(self, add_start_index: bool = False, **options: Unpack[SplitterKwargs]) -> None:
        # built first so bad arguments get its ValueErrors, which name them
        self.splitter = OutlineTextSplitter(**options)
        super().__init__(
            chunk_size=self.splitter.options.chunk_size,
            chunk_overlap=self.splitter.options.chunk_overlap,
            length_function=self.splitter.tokenizer.count,
            add_start_index=add_start_index,
            strip_whitespace=False,
        )

    def split_chunks(self, text: str) -> list[TextChunk]:
        """The `TextChunk`s of `text`, with their offsets and metadata."""
        return self.splitter.split(text)

    def split_text(self, text: str) -> list[str]:
        """The text of each chunk of `text`, in order."""
        return [chunk.text for chunk in self.splitter.split(text)]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        """One `Document` per chunk of each text: the text's metadata (copied), the
        chunk's metadata over it, `token_count`, and `start_index` with
        `add_start_index=True`."""
        metadata_list = metadatas if metadatas is not None else [{} for _ in texts]
        if len(metadata_list) != len(texts):
            raise ValueError(f"metadatas has {len(metadata_list)} entries for {len(texts)} texts")
        documents: list[Document] = []
        for text, metadata in zip(texts, metadata_list, strict=True):
            for chunk in self.splitter.split(text):
                documents.append(Document(page_content=chunk.text, metadata=self._metadata(metadata, chunk)))
        return documents

    def _metadata(self, base: dict[Any, Any], chunk: TextChunk) -> dict[Any, Any]:
        metadata = {**copy.deepcopy(base), **chunk.metadata, "token_count": chunk.token_count}
        if self._add_start_index:
            metadata["start_index"] = chunk.start_pos
        return metadata


with_option_parameters(OutlineSplitter.__init__)


# the seed's create_documents takes a chunk_header besides LangChain's arguments
class HTMLTextSplitter(html_text_splitter.HTMLTextSplitter, TextSplitter):  # type: ignore[misc]
    """The seed `HTMLTextSplitter` (same arguments and chunks) as a LangChain
    `TextSplitter`: `split_documents`, and so `create_documents` and
    `transform_documents`, return LangChain `Document`s."""

    def __init__(
        self,
        chunk_size: int = 1000,
        max_chunk_size: int | None = None,
        separators: Sequence[str] = (),
        never_break_within: Sequence[str] = (),
        chunk_overlap: int = 0,
        length_function: Callable[[str], int] = len,
        tokenizer: Any = None,
    ) -> None:
        html_text_splitter.HTMLTextSplitter.__init__(
            self,
            chunk_size=chunk_size,
            max_chunk_size=max_chunk_size,
            separators=separators,
            never_break_within=never_break_within,
            chunk_overlap=chunk_overlap,
            length_function=length_function,
            tokenizer=tokenizer,
        )
        TextSplitter.__init__(self, chunk_size=chunk_size, chunk_overlap=0, length_function=length_function)

    def split_documents(  # type: ignore[override]
        self, documents: Iterable[DocumentLike], chunk_header: str | None = None
    ) -> list[Document]:
        """As the seed's `split_documents` (`partindex`, `totalparts`, `chunk_header`),
        returning LangChain `Document`s."""
        return [
            Document(page_content=part.page_content, metadata=part.metadata)
            for part in html_text_splitter.HTMLTextSplitter.split_documents(self, documents, chunk_header)
        ]
