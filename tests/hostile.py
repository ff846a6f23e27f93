"""Shared by the hostile-input tests and the fuzzer: split, then assert every invariant
of DESIGN.md for the mode the splitter ran in (offsets exact, nothing lost, budget held
with exact counts, overlaps from the neighbours, same output twice)."""

from __future__ import annotations

from typing import Any

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.registry import FORMATS
from tests.invariants import assert_same_output, assert_source_chunks, assert_text_chunks

# Every format by its canonical name, and HTML's text mode as one more: (doc_type, output).
MODES: list[tuple[str, str | None]] = [(fmt.name, None) for fmt in FORMATS] + [("html", "text")]
MODE_IDS = [f"{doc_type}-{output}" if output else doc_type for doc_type, output in MODES]
CODE_TYPES = [fmt.name for fmt in FORMATS if fmt.argument is not None]


def split_checked(
    text: str, doc_type: str, output: str | None = None, *, twice: bool = True, **options: Any
) -> list[TextChunk]:
    """`OutlineTextSplitter(doc_type, output=output, **options).split(text)`, with the
    invariants asserted; `twice` also splits again and compares."""
    splitter = OutlineTextSplitter(doc_type=doc_type, output=output, **options)
    chunks = splitter.split(text)
    checked = chunks
    if splitter.hierarchy:  # the leaves are the split without hierarchy; the parents hold their own invariants
        flat = OutlineTextSplitter(doc_type=doc_type, output=output, **{**options, "hierarchy": False}).split(text)
        leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
        assert [(c.start_pos, c.end_pos, c.text) for c in leaves] == [(c.start_pos, c.end_pos, c.text) for c in flat]
        checked = flat
    if output == "text":
        assert_text_chunks(text, checked, splitter.tokenizer, splitter.max_chunk_size)
    else:
        assert_source_chunks(text, checked, splitter.tokenizer, splitter.max_chunk_size, splitter.chunk_overlap)
    if splitter.hierarchy and splitter.options.parents == "text":
        from tests.test_text_parents import assert_text_parents

        assert_text_parents(splitter, text)
    if twice:
        assert_same_output(chunks, splitter.split(text))
    return chunks
