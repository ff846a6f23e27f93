"""Documents in and out: texts with metadata, shaped like LangChain's `Document`.

`split_documents` on `OutlineTextSplitter` and `HTMLTextSplitter` takes any object with
`page_content` and `metadata` and gives back objects of the same type, one per chunk,
with each input's metadata kept and `partindex` / `totalparts` counted per input.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast


@dataclass
class Document:
    """A text with metadata, shaped like LangChain's `Document`."""

    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)


class DocumentLike(Protocol):
    """Anything with `page_content` and `metadata` (LangChain's `Document` too)."""

    page_content: str
    metadata: dict[str, Any]


D = TypeVar("D", bound=DocumentLike)

# The metadata keys that name a document's file, as loaders write them (LangChain's
# `source`, LlamaIndex's `file_path` / `file_name`, a dataset's `path`), first found first.
FILE_KEYS = ("source", "file_path", "file_name", "path")

# Chunk keys that are the chunk's own even where an input's metadata has the same key:
# an input's `id` copied onto every part would make an upsert by id keep only one.
CHUNK_OWN_KEYS = ("id",)


def check_document(document: object) -> None:
    """`TypeError` unless `document` has a `str` `page_content` and a mapping `metadata`."""
    content = getattr(document, "page_content", None)
    metadata = getattr(document, "metadata", None)
    if not isinstance(content, str) or not isinstance(metadata, Mapping):
        raise TypeError(
            "a document must have `page_content` (a str) and `metadata` (a dict), as LangChain's Document has; "
            f"got {type(document).__name__}"
        )


def file_name_of(metadata: Mapping[str, Any]) -> str | None:
    """The file a document's metadata names (see `FILE_KEYS`), or None."""
    for key in FILE_KEYS:
        value = metadata.get(key)
        if isinstance(value, str | os.PathLike) and os.fspath(value):
            return str(os.fspath(value))
    return None


def check_chunk_header(chunk_header: object) -> str:
    """The header to put before each part (`""` for None); `ValueError` naming
    `chunk_header` unless it is a str or None."""
    if chunk_header is None:
        return ""
    if not isinstance(chunk_header, str):
        raise ValueError(f"chunk_header must be a str or None, not {chunk_header!r}")
    return chunk_header


def parts_of(document: D, parts: list[tuple[str, Mapping[str, Any]]]) -> list[D]:
    """One document of `document`'s type per `(text, chunk metadata)` part. Its metadata
    is the input's, kept as it is, plus the chunk's keys the input does not have (the
    chunk's `id` always), `partindex` (0-based) and `totalparts`."""
    make = cast("Callable[..., D]", type(document))  # a document type is built by keyword, as LangChain's is
    out: list[D] = []
    for index, (text, chunk_metadata) in enumerate(parts):
        metadata = {**chunk_metadata, **document.metadata}
        metadata.update({key: chunk_metadata[key] for key in CHUNK_OWN_KEYS if key in chunk_metadata})
        metadata.update(partindex=index, totalparts=len(parts))
        out.append(make(page_content=text, metadata=metadata))
    return out


def documents_of(texts: Iterable[str], metadatas: Iterable[Mapping[str, Any]] | None) -> list[Document]:
    """`Document`s of `texts`, each with a copy of its entry of `metadatas` (or `{}`)."""
    texts = list(texts)
    metadata_list = list(metadatas) if metadatas is not None else [{} for _ in texts]
    if len(metadata_list) != len(texts):
        raise ValueError(f"metadatas has {len(metadata_list)} entries for {len(texts)} texts")
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"texts must be str, not {type(text).__name__}")
    return [Document(text, dict(metadata)) for text, metadata in zip(texts, metadata_list, strict=True)]
