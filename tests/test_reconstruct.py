"""`reconstruct`: the document rebuilt from its chunks (issue 10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from outline_splitter import OutlineTextSplitter, reconstruct
from outline_splitter.registry import doc_type_for_path
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.strategies import markdown_document, text_document

CODE = sorted((Path(__file__).parent / "fixtures" / "code").iterdir())


def _assert_rebuilt(splitter: OutlineTextSplitter, text: str) -> None:
    chunks = splitter.split(text)
    if not chunks:
        return
    assert reconstruct(chunks, text) == text
    if chunks[0].metadata.get("output") != "text":
        assert reconstruct(chunks).split() == text.split() or "".join(reconstruct(chunks).split()) == "".join(
            text.split()
        )


@settings(max_examples=60, deadline=None)
@given(markdown_document())
def test_markdown_is_rebuilt(text):
    _assert_rebuilt(OutlineTextSplitter(doc_type="markdown", chunk_size=24, chunk_overlap=4), text)


@settings(max_examples=40, deadline=None)
@given(text_document())
def test_text_is_rebuilt(text):
    _assert_rebuilt(OutlineTextSplitter(doc_type="text", chunk_size=16), text)


@settings(max_examples=40, deadline=None)
@given(html_documents())
def test_html_is_rebuilt_in_both_outputs(html):
    for output in ("html", "text"):
        _assert_rebuilt(OutlineTextSplitter(doc_type="html", chunk_size=24, output=output), html)


@pytest.mark.parametrize("path", CODE, ids=lambda p: p.name)
def test_code_is_rebuilt(path):
    _assert_rebuilt(OutlineTextSplitter(doc_type=doc_type_for_path(path), chunk_size=32), path.read_text("utf-8"))


@pytest.mark.parametrize("doc_type", ["rst", "latex"])
def test_rst_and_latex_are_rebuilt(doc_type):
    text = "Guide\n=====\n\nInstall\n-------\n\nRun::\n\n    pip install tool\n\n" * 5
    if doc_type == "latex":
        text = "\\section{Guide}\n\nSome text here.\n\n\\subsection{Install}\n\nMore text.\n\n" * 5
    _assert_rebuilt(OutlineTextSplitter(doc_type=doc_type, chunk_size=16), text)


@pytest.mark.parametrize("folder", ["markdown", "html-web"])
def test_corpus_files_are_rebuilt(folder):
    for path in corpus_files(folder):
        if path.suffix in (".md", ".html"):
            text = path.read_text(encoding="utf-8")
            chunks = OutlineTextSplitter(doc_type=doc_type_for_path(path), chunk_size=128).split(text)
            assert reconstruct(chunks, text) == text, path.name


def test_chunks_out_of_order_or_of_two_documents_are_refused():
    splitter = OutlineTextSplitter(chunk_size=8)
    one = splitter.split("# A\n\nOne two three.\n\n# B\n\nFour five six.\n")
    two = splitter.split("# C\n\nSeven.\n")
    with pytest.raises(ValueError, match="out of order"):
        reconstruct(list(reversed(one)))
    with pytest.raises(ValueError, match="more than one document"):
        reconstruct(one + two)


def test_a_wrong_source_is_refused():
    chunks = OutlineTextSplitter(chunk_size=8).split("# A\n\nOne two three.\n")
    with pytest.raises(ValueError, match="source"):
        reconstruct(chunks, "# B\n\nOther text here.\n")
