"""`HTMLTextSplitter`: the seed HTMLTextSplitter (ask262, TypeScript on cheerio and
LangChain) in Python, on top of `OutlineTextSplitter(doc_type="html", output="text")`.

Its rules, as the seed's tests define them:
- chunks are the readable text of the HTML (`outline_splitter.detectors.html_text`), sized by
  `length_function` (characters by default) or by a tokenizer;
- a node that fits `chunk_size` stays whole; one that does not is split by its children;
- `separators` (CSS selectors) are soft hints: when a node must be split, a child that
  matches starts a group with the siblings after it, and that group (or the separator
  alone) stays whole up to `max_chunk_size`;
- `never_break_within` (CSS selectors): a matching node stays whole up to
  `max_chunk_size`, and separators inside it are ignored;
- a leaf (no block children) over `chunk_size` stays whole up to `max_chunk_size`; only
  text past that cap is cut (by sentences, then words); with no `max_chunk_size`
  nothing is cut below the block level;
- `chunk_overlap` is not supported (the chunks are rendered text, not slices to share).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from outline_splitter.documents import D, Document, check_chunk_header, check_document, documents_of, parts_of
from outline_splitter.models import TextChunk
from outline_splitter.nodes import Node, Trait
from outline_splitter.registry import DocFormat
from outline_splitter.splitter import OutlineTextSplitter


class _SeedRules(OutlineTextSplitter):
    """`OutlineTextSplitter` with the seed's rule for leaves: a leaf stays whole up to
    `max_chunk_size`, so only text past the cap is ever cut."""

    def mark_nodes(self, text: str, root: Node, fmt: DocFormat) -> None:
        super().mark_nodes(text, root, fmt)
        for node in root.walk():
            if not node.children:
                node.traits |= Trait.NEVER_BREAK


class HTMLTextSplitter:
    """Split HTML into chunks of readable text (see the module docstring).

    Args:
        chunk_size: the target size of a chunk, in `length_function` units.
        max_chunk_size: the hard cap (default: none) for nodes kept whole by
            `never_break_within`, separator groups and leaves.
        separators: CSS selectors of preferred split points (soft hints).
        never_break_within: CSS selectors of nodes kept whole up to `max_chunk_size`.
        chunk_overlap: must be 0 (`ValueError` otherwise): overlap is not supported.
        length_function: the size of a text (default `len`: characters).
        tokenizer: instead of `length_function`, anything `OutlineTextSplitter` takes as
            `tokenizer` (e.g. `"cl100k_base"`): sizes are then in tokens.
    """

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
        if chunk_overlap != 0:
            raise ValueError(
                f"HTMLTextSplitter does not support chunk_overlap (got {chunk_overlap!r}): overlap is not "
                "supported, since chunks are rendered text; pass chunk_overlap=0"
            )
        self.chunk_size = chunk_size
        self.max_chunk_size = max_chunk_size
        self._splitter = _SeedRules(
            doc_type="html",
            output="text",
            chunk_size=chunk_size,
            max_chunk_size=sys.maxsize if max_chunk_size is None else max_chunk_size,
            separators=separators,
            never_break_within=never_break_within,
            tokenizer=length_function if tokenizer is None else tokenizer,
        )
        self._init_framework(length_function)

    def _init_framework(self, length_function: Callable[[str], int]) -> None:
        """Nothing here: a subclass that is also another framework's splitter (LangChain's
        `TextSplitter`) sets that base up here, once the seed's arguments are checked, so
        it takes the seed's signature as it is instead of repeating it."""

    def split_chunks(self, html: str) -> list[TextChunk]:
        """The chunks of `html` with their offsets and metadata (`TextChunk`s)."""
        return self._splitter.split(html)

    def split_text(self, html: str) -> list[str]:
        """The text of each chunk of `html`, in order (`[]` if it has no visible text)."""
        return [chunk.text for chunk in self._splitter.split(html)]

    def split_documents(self, documents: Iterable[D], chunk_header: str | None = None) -> list[D]:
        """One document (of the input's type) per chunk of each document's
        `page_content`, with the document's metadata plus `partindex` (0-based) and
        `totalparts`, counted per input document; `chunk_header` is put before each
        chunk's text (as in the seed, outside the budget)."""
        header = check_chunk_header(chunk_header)
        out: list[D] = []
        for document in documents:
            check_document(document)
            out.extend(parts_of(document, [(header + part, {}) for part in self.split_text(document.page_content)]))
        return out

    def create_documents(
        self, texts: Iterable[str], metadatas: Iterable[dict[str, Any]] | None = None, chunk_header: str | None = None
    ) -> list[Document]:
        """`split_documents` of `Document`s made from `texts` and `metadatas`."""
        return self.split_documents(documents_of(texts, metadatas), chunk_header=chunk_header)
