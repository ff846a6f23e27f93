"""Haystack front end (the `haystack` extra: `pip install 'outline-splitter[haystack]'`).

`OutlineDocumentSplitter` is a Haystack component (`run(documents)` ->
`{"documents": [...]}`) that splits each document with `OutlineTextSplitter`, as a
Haystack user expects (`outline_splitter.integrations.framework`): each chunk
`Document`'s id is its chunk id, which holds the input's identity (the file its `meta`
names, `file_path` as Haystack's converters write it, else its id), so a document store
keeps every chunk of every file (`DuplicatePolicy.FAIL` never fires on two files with
the same text); `chunk_overlap` is part of `content` within `chunk_size`;
`doc_type="auto"` reads each document's format off its file; `meta` is flat (Haystack's
stores filter on scalars), with `source_id` (the input's id), `split_id` (the chunk's
place), `split_idx_start` (the offset of `content` in the input) as Haystack's own
`DocumentSplitter` writes them. A document without content is passed over, as there.
"""

from __future__ import annotations

from typing import Any, Unpack

try:
    from haystack import Document, component, default_from_dict, default_to_dict
except ImportError as exc:
    raise ImportError(
        "outline_splitter.integrations.haystack needs Haystack: pip install 'outline-splitter[haystack]'"
    ) from exc

from outline_splitter.documents import file_name_of
from outline_splitter.integrations.framework import FrameworkSplitter, OnError
from outline_splitter.options import SplitterKwargs, with_option_parameters


@component
class OutlineDocumentSplitter:
    """Split Haystack `Document`s along their structure into token-budgeted chunks.

    Args:
        nested_metadata: keep the chunk metadata as `TextChunk` has it instead of flat.
        on_error: `"skip"` leaves out a document that cannot be split (an unknown file
            extension under `doc_type="auto"`), logs it and lists it in `failures`.
        **options: `OutlineTextSplitter`'s options (`outline_splitter.options.SplitterOptions`).
    """

    def __init__(
        self, nested_metadata: bool = False, on_error: OnError = "raise", **options: Unpack[SplitterKwargs]
    ) -> None:
        self._framework = FrameworkSplitter(options, nested_metadata, on_error)
        self._init_parameters: dict[str, Any] = {"nested_metadata": nested_metadata, "on_error": on_error, **options}

    @property
    def failures(self) -> list[tuple[str, str]]:
        """The documents skipped with `on_error="skip"`: (file or id, error message)."""
        return self._framework.failures

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document]) -> dict[str, list[Document]]:
        """One `Document` per chunk of each input document, in order."""
        out: list[Document] = []
        for document in documents:
            if not document.content:
                continue
            identity = None if file_name_of(document.meta) else document.id
            chunks = self._framework.chunks(document.content, document.meta, identity)
            for number, chunk in enumerate(chunks):
                meta = {
                    **document.meta,
                    **chunk.metadata,
                    "token_count": chunk.token_count,
                    "source_id": document.id,
                    "split_id": number,
                    "split_idx_start": chunk.start_pos,
                }
                out.append(Document(id=chunk.metadata["id"], content=chunk.text, meta=meta))
        return {"documents": out}

    def to_dict(self) -> dict[str, Any]:
        """The component as Haystack serialises a pipeline (a tokenizer given as an object
        is not serialisable: give its encoding name)."""
        return default_to_dict(self, **self._init_parameters)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OutlineDocumentSplitter:
        """The component `to_dict` describes."""
        built: OutlineDocumentSplitter = default_from_dict(cls, data)
        return built


with_option_parameters(OutlineDocumentSplitter.__init__)
