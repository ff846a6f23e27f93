"""`start_line` / `end_line`: the 1-based, inclusive lines of each chunk, for every
format, on small cases and over the corpora and the stdlib at 256 and 512 tokens."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
from outline_splitter.packing.lines import LineIndex
from tests.conftest import corpus_files
from tests.invariants import assert_line_numbers

BUDGETS = (256, 512)


def test_lines_of_a_markdown_document():
    text = "# Title\n\nFirst paragraph,\nover two lines.\n\n- one\n- two\n"
    chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=10).split(text)
    lines = [(c.text.splitlines()[0], c.metadata["start_line"], c.metadata["end_line"]) for c in chunks]
    assert lines == [("# Title", 1, 4), ("- one", 6, 7)]


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_every_line_end_counts_once(line_end):
    text = line_end.join(["alpha beta.", "", "gamma delta.", "", "", "epsilon."]) + line_end
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=4).split(text)
    assert [(c.metadata["start_line"], c.metadata["end_line"]) for c in chunks] == [(1, 1), (3, 3), (6, 6)]


@pytest.mark.parametrize(
    ("doc_type", "text"),
    [
        ("python", "import os\n\n\ndef f():\n    return 1\n\n\nclass A:\n    x = 1\n"),
        ("html", "<h1>T</h1>\n<p>one\ntwo</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"),
        ("rst", "Title\n=====\n\nSome text.\n\nMore text.\n"),
        ("latex", "\\section{A}\nText one.\n\n\\section{B}\nText two.\n"),
    ],
)
def test_every_format_numbers_its_chunks(doc_type, text):
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=8).split(text)
    assert len(chunks) > 1
    assert_line_numbers(text, chunks)
    assert chunks[-1].metadata["end_line"] == len(text.rstrip("\n").split("\n"))


def test_html_text_mode_numbers_the_source_lines():
    html = "<h1>T</h1>\n<p>one\ntwo three four five six seven</p>\n\n<p>eight nine ten eleven</p>\n"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=12, output="text").split(html)
    assert [(c.metadata["start_line"], c.metadata["end_line"]) for c in chunks] == [(1, 3), (5, 5)]


@given(st.text(alphabet="ab \r\n", max_size=60), st.integers(0, 60))
def test_line_of_counts_the_line_ends_before(text, position):
    position = min(position, len(text))
    before = text[:position]
    # a position inside "\r\n" is on the line that the pair ends
    ends = before.count("\n") + before.count("\r") - before.count("\r\n")
    if before.endswith("\r") and text[position : position + 1] == "\n":
        ends -= 1
    assert LineIndex(text).line_of(position) == ends + 1


def _cases() -> list[tuple[str, str, str | None]]:
    cases: list[tuple[str, str, str | None]] = [
        (p.read_text(encoding="utf-8"), "markdown", None) for p in corpus_files("markdown", "*.md")
    ]
    for path in corpus_files("html-spec", "*.html"):
        html = path.read_text(encoding="utf-8")
        cases += [(html, "html", "html"), (html, "html", "text")]
    cases += [(p.read_text(encoding="utf-8"), "python", None) for p in stdlib_module_paths()]
    return cases


@pytest.mark.parametrize("budget", BUDGETS)
def test_line_numbers_on_the_corpora_and_the_stdlib(budget):
    cases = _cases()
    assert len(cases) > 150
    for text, doc_type, output in cases:
        chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, output=output).split(text)
        assert_line_numbers(text, chunks)
