"""`header_levels` for Markdown: headings of those levels start chunks (issue 10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineNode, OutlineTextSplitter
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks
from tests.strategies import markdown_document

TEXT = "# A\n\nintro.\n\n## B\n\nbee text.\n\n### C\n\nsee text.\n\n## D\n\ndee.\n"


def _nodes(node: OutlineNode, kind: str) -> list[OutlineNode]:
    found = [node] if node.kind == kind else []
    for child in node.children:
        found.extend(_nodes(child, kind))
    return found


def assert_headings_start_chunks(splitter: OutlineTextSplitter, text: str, cl100k: object) -> None:
    """Every section of `header_levels` starts a chunk, or follows only headings in it."""
    chunks = splitter.split(text)
    assert_source_chunks(text, chunks, cl100k, splitter.chunk_size)  # type: ignore[arg-type]
    outline = splitter.outline(text)
    headings = _nodes(outline, "heading")
    for section in _nodes(outline, "section"):
        if section.meta.get("level") not in (splitter.header_levels or ()):
            continue
        chunk = next(c for c in chunks if c.start_pos <= section.start < c.end_pos or c.start_pos >= section.start)
        before = text[chunk.start_pos : max(chunk.start_pos, section.start)]
        for heading in headings:  # what comes before it in its chunk is headings alone
            # (a chunk starts after the white space that may open a heading's block)
            if chunk.start_pos < heading.end <= section.start:
                offset = max(heading.start - chunk.start_pos, 0)
                end = heading.end - chunk.start_pos
                before = before[:offset] + " " * (end - offset) + before[end:]
        assert not before.strip(), (section.meta.get("title"), before[:80])


def test_headings_of_the_levels_start_chunks():
    texts = lambda levels: [c.text for c in OutlineTextSplitter(chunk_size=64, header_levels=levels).split(TEXT)]  # noqa: E731
    assert texts(None) == [TEXT.strip()]
    assert texts([1, 2]) == ["# A\n\nintro.", "## B\n\nbee text.\n\n### C\n\nsee text.", "## D\n\ndee."]
    assert texts((1,)) == [TEXT.strip()]


@settings(max_examples=60, deadline=None)
@given(markdown_document(), st.sampled_from([[1], [1, 2], [2, 3]]), st.sampled_from([32, 128]))
def test_generated_markdown_header_levels(cl100k, text, levels, chunk_size):
    assert_headings_start_chunks(OutlineTextSplitter(chunk_size=chunk_size, header_levels=levels), text, cl100k)


def test_markdown_corpus_header_levels(cl100k):
    splitter = OutlineTextSplitter(chunk_size=256, header_levels=[1, 2])
    for path in corpus_files("markdown", "*.md"):
        assert_headings_start_chunks(splitter, path.read_text(encoding="utf-8"), cl100k)


@pytest.mark.parametrize("levels", [[], [0], [7], ["1"], [True], "12", 2])
def test_bad_header_levels(levels):
    with pytest.raises(ValueError, match="header_levels"):
        OutlineTextSplitter(header_levels=levels)


@pytest.mark.parametrize("doc_type", ["text", "python", "html"])
def test_header_levels_for_a_format_without_markdown_headings(doc_type):
    with pytest.raises(ValueError, match="header_levels"):
        OutlineTextSplitter(doc_type=doc_type, header_levels=[1])


def test_header_levels_with_auto_apply_to_markdown_files_only(tmp_path):
    """Under "auto" a folder's Markdown files start chunks at the chosen levels, and its
    other files are split as they are without the option (SplitterOptions.for_format);
    a named format without Markdown headings refuses it (above)."""
    notes = tmp_path / "a.txt"
    notes.write_text("# not a heading in text\n\nwords " * 20, encoding="utf-8")
    readme = tmp_path / "b.md"
    readme.write_text("# One\n\nshort\n\n## Two\n\nshort\n", encoding="utf-8")
    levels = OutlineTextSplitter(doc_type="auto", chunk_size=16, header_levels=[1, 2])
    plain = OutlineTextSplitter(doc_type="auto", chunk_size=16)
    assert [c.text for c in levels.split_file(notes)] == [c.text for c in plain.split_file(notes)]
    assert [c.text for c in levels.split_file(readme)] == ["# One\n\nshort", "## Two\n\nshort"]
    assert [c.text for c in plain.split_file(readme)] == ["# One\n\nshort\n\n## Two\n\nshort"]
