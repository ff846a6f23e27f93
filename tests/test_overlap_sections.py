"""Overlap never crosses a section boundary (unless `overlap_across_sections=True`): a
golden check on the Markdown corpus at 256 tokens with a 32-token overlap."""

from __future__ import annotations

from itertools import pairwise

from outline_splitter import OutlineNode, OutlineTextSplitter
from tests.conftest import corpus_files

TEXT = "# Intro\n\n<img src='logo.png'>\n\n# Features\n\n" + "It does one thing well. " * 30


def test_the_first_chunk_of_a_section_shares_nothing_of_the_one_before():
    chunks = OutlineTextSplitter(chunk_size=40, chunk_overlap=8).split(TEXT)
    assert chunks[0].text.startswith("# Intro") and chunks[1].text.startswith("# Features")
    assert chunks[1].start_overlap == "" and chunks[0].end_overlap == ""
    assert chunks[2].start_overlap and chunks[1].end_overlap  # inside "Features" chunks share text
    crossing = OutlineTextSplitter(chunk_size=40, chunk_overlap=8, overlap_across_sections=True).split(TEXT)
    assert crossing[1].start_overlap.endswith("<img src='logo.png'>")


def _innermost_section(root: OutlineNode, position: int) -> tuple[int, int]:
    found = (root.start, root.end)
    node: OutlineNode | None = root
    while node is not None:
        node = next((c for c in node.children if c.start <= position < c.end), None)
        if node is not None and node.kind == "section":
            found = (node.start, node.end)
    return found


def test_no_overlap_crosses_a_section_on_the_corpus():
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=256, chunk_overlap=32)
    shared = 0
    for path in corpus_files("markdown", "*.md"):
        text = path.read_text(encoding="utf-8")
        root = splitter.outline(text)
        chunks = splitter.split(text)
        for previous, chunk in pairwise(chunks):
            if chunk.start_overlap:
                shared += 1
                assert previous.text.endswith(chunk.start_overlap)
                start = previous.end_pos - len(chunk.start_overlap)
                assert _innermost_section(root, start) == _innermost_section(root, chunk.start_pos), path.name
            if previous.end_overlap:
                end = chunk.start_pos + len(previous.end_overlap) - 1
                assert _innermost_section(root, end) == _innermost_section(root, previous.end_pos - 1), path.name
    assert shared > 200
