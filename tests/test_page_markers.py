"""`page_markers`: every chunk's `metadata["pages"]` is the pages its non-space text
touches (marker text belongs to no page), no chunk starts or ends inside a marker, and
the chunks are what they would be anyway (exact slices, nothing lost, within budget)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.page_markers import AUTO, page_map
from outline_splitter.tokens import resolve_tokenizer
from tests.invariants import assert_source_chunks

TOKENIZER = resolve_tokenizer("cl100k_base")

_WORDS = st.text(st.characters(min_codepoint=0x61, max_codepoint=0x7A), min_size=1, max_size=9)
_SENTENCE = st.lists(_WORDS, min_size=2, max_size=14).map(lambda words: " ".join(words).capitalize() + ".")
_PARAGRAPH = st.lists(_SENTENCE, min_size=1, max_size=6).map(" ".join)
_BLOCK = st.one_of(
    _PARAGRAPH,
    _SENTENCE.map(lambda s: "## " + s.rstrip(".")),
    st.lists(_SENTENCE, min_size=1, max_size=5).map(lambda items: "\n".join("- " + item for item in items)),
    st.lists(_SENTENCE, min_size=1, max_size=4).map(lambda lines: "```\n" + "\n".join(lines) + "\n```"),
)
_PAGE = st.lists(_BLOCK, min_size=1, max_size=5).map("\n\n".join)

# (how a page break is written, the marker itself within it): pdftotext's form feed
# (after the page's last line, or before the next page's first), Docling's placeholder.
SEPARATORS = {"form feed": "\n\f", "form feed in line": "\f", "page_break": "\n\n<!-- page_break -->\n\n"}


def joined(pages: list[str], separator: str) -> tuple[str, list[tuple[int, int]]]:
    """The pages joined by `separator`, and each page's span in the text."""
    text, spans = "", []
    for i, page in enumerate(pages):
        if i:
            text += separator
        spans.append((len(text), len(text) + len(page)))
        text += page
    return text, spans


def touched(text: str, spans: list[tuple[int, int]], chunk: TextChunk) -> list[int]:
    """The 1-based pages whose text has a non-space character in the chunk's span."""
    pages = []
    for number, (a, b) in enumerate(spans, 1):
        a, b = max(a, chunk.start_pos), min(b, chunk.end_pos)
        if a < b and text[a:b].strip():
            pages.append(number)
    return pages


def assert_pages(text: str, spans: list[tuple[int, int]], chunks: list[TextChunk], chunk_size: int) -> None:
    assert_source_chunks(text, chunks, TOKENIZER, chunk_size)
    markers = [(m.start, m.end) for m in page_map(text, AUTO).markers]
    for i, chunk in enumerate(chunks):
        assert chunk.metadata["pages"] == touched(text, spans, chunk), f"chunk {i}: {chunk.text[:60]!r}"
        for a, b in markers:
            assert not a < chunk.start_pos < b and not a < chunk.end_pos < b, f"chunk {i} edges inside a marker"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    st.lists(_PAGE, min_size=30, max_size=30),
    st.sampled_from(sorted(SEPARATORS)),
    st.sampled_from(["markdown", "text"]),
    st.sampled_from([128, 512]),
)
def test_thirty_pages_every_chunk_names_the_pages_its_text_touches(
    pages: list[str], separator: str, doc_type: str, chunk_size: int
) -> None:
    text, spans = joined(pages, SEPARATORS[separator])
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size, page_markers=AUTO)
    chunks = splitter.split(text)
    assert_pages(text, spans, chunks, chunk_size)
    assert sorted({page for chunk in chunks for page in chunk.metadata["pages"]}) == list(range(1, 31))


@pytest.mark.parametrize("doc_type", ["markdown", "text"])
def test_numbers_the_converters_wrote(doc_type: str) -> None:
    pages = [f"Text of a page, with words. {i}" for i in range(5)]
    marker = "".join(f"{{{i}}}" + "-" * 48 + f"\n\n{page}\n\n" for i, page in enumerate(pages))
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=16, page_markers=AUTO).split(marker)
    assert [chunk.metadata["pages"] for chunk in chunks] == [[0], [1], [2], [3], [4]]  # marker counts from 0
    pymupdf = "".join(f"{page}\n\n--- end of page={i + 10} ---\n\n" for i, page in enumerate(pages))
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=16, page_markers=AUTO).split(pymupdf)
    assert sorted({p for chunk in chunks for p in chunk.metadata["pages"]}) == [10, 11, 12, 13, 14]


def test_a_regular_expression_with_a_page_number() -> None:
    text = "Intro.\n\n=== Page 7 ===\n\nSeven.\n\n=== Page 9 ===\n\nNine."
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=10, page_markers=r"(?m)^=== Page (\d+) ===$")
    # the text before a marker that names the page after it is the page before that one
    page_of = {"Intro": 6, "Seven": 7, "Nine": 9}
    chunks = splitter.split(text)
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.metadata["pages"] == [page for word, page in page_of.items() if word in chunk.text]


def test_a_marker_inside_a_paragraph_is_never_cut() -> None:
    text = " ".join(f"word{i} [[page]]" if i % 7 == 6 else f"word{i}" for i in range(300))
    for chunk_size in (4, 8, 16):
        chunks = OutlineTextSplitter(doc_type="text", chunk_size=chunk_size, page_markers=r"\[\[page\]\]").split(text)
        assert_source_chunks(text, chunks, TOKENIZER, chunk_size)
        for marker in re.finditer(r"\[\[page\]\]", text):
            for chunk in chunks:
                assert not marker.start() < chunk.start_pos < marker.end()
                assert not marker.start() < chunk.end_pos < marker.end()


def test_without_the_option_nothing_changes() -> None:
    text, _ = joined([f"Page {i}. " * 40 for i in range(30)], SEPARATORS["page_break"])
    plain = OutlineTextSplitter(doc_type="markdown", chunk_size=128).split(text)
    assert all("pages" not in chunk.metadata for chunk in plain)


def test_split_file_and_the_outline(tmp_path: Path) -> None:
    path = tmp_path / "converted.md"
    path.write_text("# One\n\nFirst page.\n\n<!-- page_break -->\n\nSecond page.\n", encoding="utf-8")
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=512, page_markers=AUTO)
    assert [chunk.metadata["pages"] for chunk in splitter.split_file(path)] == [[1, 2]]
    outline = OutlineTextSplitter(doc_type="text", page_markers=AUTO).outline("a\fb")
    assert [child.kind for child in outline.children] == ["paragraph"]
    assert [child.kind for child in outline.children[0].children] == ["page_marker"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"doc_type": "python", "page_markers": AUTO}, "page_markers is for doc_type 'markdown' and 'text'"),
        ({"page_markers": "("}, "page_markers: '(' is not a regular expression"),
        ({"page_markers": "x*"}, "matches the empty string"),
        ({"page_markers": 3}, "page_markers must be 'auto', a regular expression"),
    ],
)
def test_bad_values(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        OutlineTextSplitter(**options)  # type: ignore[arg-type]
