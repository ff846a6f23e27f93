"""What the framework front ends (LangChain, LlamaIndex, Haystack) do alike.

A framework's pipeline hands the splitter whole folders of documents and puts the chunks
into a vector store, so each front end:

- gives every chunk an id that holds its document's identity (equal texts in two files get
  two ids; the same document split twice, the same ids), as `split(document_id=...)` does;
- takes each document's format from the file its metadata names under `doc_type="auto"`;
- puts `chunk_overlap` into the chunk's text, as the framework's own splitters do, with
  `chunk_size` bounding the whole (`split(overlap_in_text=True)`);
- emits metadata every common store accepts (`flat_metadata`), the nested form on request;
- with `on_error="skip"`, skips a document that cannot be split (an unknown extension, a
  binary file), logs it and lists it in `failures`, instead of stopping the whole run; its
  error is in the words every entry point uses (`bad_input.WORDS`, checked in the same
  order: the extension, then the text);
- applies `output="text"` (and `content`) under `doc_type="auto"` to the documents whose
  format has it, as the Python API and the command line do (`SplitterOptions.for_format`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal

from outline_splitter.bad_input import BadInput, check_not_binary
from outline_splitter.documents import file_name_of
from outline_splitter.models import TextChunk
from outline_splitter.options import AUTO, SplitterKwargs
from outline_splitter.registry import doc_type_for_path
from outline_splitter.splitter import OutlineTextSplitter

LOG = logging.getLogger("outline_splitter")
OnError = Literal["raise", "skip"]
Scalar = str | int | float | bool


def flat_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """`metadata` as every common vector store takes it (Chroma is the strictest): str,
    int, float, bool, or a non-empty list of one of those; no None, no nested list or
    dict. `heading_path` stays a list of str and gains `heading`, the path joined by
    `" > "`; a list of lists (`heading_paths`) becomes a list of joined paths; an empty
    list or None is left out."""
    flat: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, list | tuple):
            items = [" > ".join(map(str, item)) if isinstance(item, list | tuple) else item for item in value]
            if items and all(isinstance(item, Scalar) for item in items) and len({type(i) for i in items}) == 1:
                flat[key] = items
        elif isinstance(value, Scalar):
            flat[key] = value
        elif value is not None:
            flat[key] = str(value)
    if "heading_path" in metadata:
        flat["heading"] = " > ".join(metadata["heading_path"])
    return flat


class FrameworkSplitter:
    """The splitter behind a framework front end (see the module docstring).

    `options` are `OutlineTextSplitter`'s; `chunk_overlap` is part of each chunk's text,
    so it must be below half of `chunk_size` (a `ValueError` naming it otherwise)."""

    def __init__(self, options: SplitterKwargs, nested_metadata: bool = False, on_error: OnError = "raise") -> None:
        self.splitter = OutlineTextSplitter(**options)
        overlap, size = self.splitter.options.chunk_overlap, self.splitter.options.chunk_size
        if 2 * overlap >= size:
            raise ValueError(
                f"chunk_overlap must be below chunk_size / 2 in a framework front end, where a chunk's text holds "
                f"its overlap on both sides within chunk_size, not {overlap} (chunk_size={size})"
            )
        if not isinstance(nested_metadata, bool):
            raise ValueError(f"nested_metadata must be True or False, not {nested_metadata!r}")
        if self.splitter.options.decode_errors != "strict":
            raise ValueError(
                "decode_errors applies where the splitter reads a file's bytes (split_file, split_many, the command "
                "line, Ray); a framework's documents are text its loader decoded: have the loader keep the bad bytes "
                "(docs/integrations.md shows how)"
            )
        if on_error not in ("raise", "skip"):
            raise ValueError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
        self.nested_metadata = nested_metadata
        self.on_error = on_error
        self.failures: list[tuple[str, str]] = []

    def chunks(self, text: str, metadata: Mapping[str, Any], identity: str | None) -> list[TextChunk]:
        """The chunks of one document (`[]` for one skipped with `on_error="skip"`):
        `identity` (else the file its metadata names) goes into the chunk ids, the file's
        extension gives the format under `"auto"`, the overlaps are in the text, and the
        metadata is flat unless `nested_metadata`."""
        file_name = file_name_of(metadata)
        document_id = identity or file_name or ""
        name = file_name or identity or "a document"
        try:
            if self.splitter.options.doc_type == AUTO and file_name is not None:
                doc_type_for_path(file_name)  # (a bad input's problems in their one order: the extension first)
            check_not_binary(text)
            chunks = self.splitter.split(text, document_id=document_id, file_name=file_name, overlap_in_text=True)
        except ValueError as exc:
            if self.on_error == "raise":
                if isinstance(exc, BadInput):
                    raise exc.named(name) from exc
                raise
            words = exc.words if isinstance(exc, BadInput) else str(exc)
            LOG.warning("skipped %s: %s", name, words)
            self.failures.append((name, words))
            return []
        if self.nested_metadata:
            return chunks
        return [chunk.model_copy(update={"metadata": flat_metadata(chunk.metadata)}) for chunk in chunks]
