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
from tests.conftest import corpus_files
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


# Page markers never stand alone, never end a chunk while text follows, and `pages` is
# never empty (issue 56): the minimal cases, then pages of real documents joined with
# each converter's marker.

DOCLING = "<!-- page_break -->"
PARAGRAPH = "The findings of this part are summarised here, with the figures that back them."


def _splits(text: str, chunk_size: int, **options: object) -> list[TextChunk]:
    chunks = OutlineTextSplitter(chunk_size=chunk_size, page_markers=AUTO, **options).split(text)  # type: ignore[arg-type]
    assert_source_chunks(text, chunks, TOKENIZER, chunk_size)
    return chunks


@pytest.mark.parametrize(("doc_type", "chunk_size"), [("markdown", 16), ("text", 16), ("markdown", 64)])
def test_a_marker_after_the_last_text_joins_the_chunk_before(doc_type: str, chunk_size: int) -> None:
    text = "# Part\n\n" + "\n".join(f"- Item {i}: {PARAGRAPH}" for i in range(3)) + "\n\n--- end of page=1 ---\n"
    chunks = _splits(text, chunk_size, doc_type=doc_type)
    assert chunks[-1].text.endswith("--- end of page=1 ---")
    assert chunks[-1].text != "--- end of page=1 ---"
    assert all(chunk.metadata["pages"] == [1] for chunk in chunks)


@pytest.mark.parametrize("doc_type", ["markdown"])
def test_docling_opening_run_goes_with_the_first_page(doc_type: str) -> None:
    text = f"{DOCLING}\n\n{DOCLING}\n\n# Intro\n\n{PARAGRAPH}\n\n{DOCLING}\n\n{PARAGRAPH}\n"
    chunks = _splits(text, 16, doc_type=doc_type)
    assert chunks[0].text.startswith(f"{DOCLING}\n\n{DOCLING}\n\n# Intro")  # (two 4-token chunks before)
    assert chunks[0].metadata["pages"] == [3]


@pytest.mark.parametrize("doc_type", ["markdown", "text"])
@pytest.mark.parametrize("chunk_size", [24])
def test_a_run_of_markers_for_empty_pages_goes_with_the_page_after_it(doc_type: str, chunk_size: int) -> None:
    text = f"{PARAGRAPH}\n\n{DOCLING}\n\n{DOCLING}\n\n{PARAGRAPH}\n"
    chunks = _splits(text, chunk_size, doc_type=doc_type)
    run, run_end = text.index(DOCLING), text.rindex(DOCLING) + len(DOCLING)
    [holder] = [chunk for chunk in chunks if chunk.start_pos <= run < chunk.end_pos]
    assert holder.end_pos >= run_end and text[run_end : holder.end_pos].strip(), holder.text
    assert holder.metadata["pages"][-1] == 3


def test_a_marker_before_a_heading_does_not_end_the_section_before() -> None:
    text = f"# One\n\n{PARAGRAPH}\n\n{DOCLING}\n\n# Two\n\n{PARAGRAPH}\n"
    chunks = _splits(text, 40, doc_type="markdown")
    assert [chunk.text for chunk in chunks] == [f"# One\n\n{PARAGRAPH}", f"{DOCLING}\n\n# Two\n\n{PARAGRAPH}"]
    assert [chunk.metadata["heading_path"] for chunk in chunks] == [["One"], ["Two"]]


@pytest.mark.parametrize("doc_type", ["markdown", "text"])
def test_a_marker_takes_the_head_of_a_block_it_does_not_fit_with(doc_type: str) -> None:
    # the paragraph fits 24 tokens alone, not with the marker: the marker takes its head
    text = f"{PARAGRAPH}\n\n{DOCLING}\n\n{PARAGRAPH}\n"
    chunks = _splits(text, 18, doc_type=doc_type)
    marker = text.index(DOCLING)
    assert all(not chunk.text.endswith(DOCLING) for chunk in chunks)
    assert any(chunk.start_pos == marker and len(chunk.text) > len(DOCLING) for chunk in chunks)


def test_pages_are_never_empty_where_the_budget_holds_no_more_than_the_markers() -> None:
    # two pymupdf4llm markers are 15 tokens: at 16 they cannot share a chunk with text
    text = f"{PARAGRAPH}\n\n--- end of page=1 ---\n\n--- end of page=2 ---\n\n{PARAGRAPH}\n"
    chunks = _splits(text, 16, doc_type="markdown")
    assert all(chunk.metadata["pages"] for chunk in chunks)
    alone = [chunk for chunk in chunks if chunk.text.startswith("--- end of page=1")]
    assert [chunk.metadata["pages"] for chunk in alone] == [[3]]


def _pages_of(path: Path, size: int = 1800) -> list[str]:
    """A document's blocks, in pages of about `size` characters."""
    pages, page = [], ""
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        page = f"{page}\n\n{block}" if page else block
        if len(page) > size:
            pages.append(page)
            page = ""
    return [*pages, page] if page else pages


def _docling(pages: list[str]) -> str:
    """Docling's output: it opens with two breaks, and an empty page makes a run of two."""
    runs = [
        DOCLING,
        DOCLING,
        *(f"{page}\n\n{DOCLING}" + (f"\n\n{DOCLING}" if i % 5 == 2 else "") for i, page in enumerate(pages)),
    ]
    return "\n\n".join(runs) + "\n"


def _pymupdf(pages: list[str]) -> str:
    """pymupdf4llm's output: `end of page` after each page, its last after the text too."""
    out, number = "", 0
    for i, page in enumerate(pages):
        number += 1
        out += f"{page}\n\n--- end of page={number} ---\n\n"
        if i % 5 == 2:  # an empty page
            number += 1
            out += f"--- end of page={number} ---\n\n"
    return out


def _form_feeds(pages: list[str]) -> str:
    """pdftotext's output: a form feed after each page, two for an empty one."""
    return "".join(page + ("\n\f\f" if i % 5 == 2 else "\n\f") for i, page in enumerate(pages))


_CONVERTERS = {"docling": _docling, "pymupdf4llm": _pymupdf, "form feeds": _form_feeds}
_CONVERTED = ["CLAUDE.md", "docs_AUTHORING.md", "src_appendix-08-system-calls.md", "src_ch01-02-hello-world.md"]


def _runs(text: str) -> list[tuple[int, int]]:
    """The runs of page markers in `text` (markers with white space between them)."""
    runs: list[tuple[int, int]] = []
    for marker in page_map(text, AUTO).markers:
        if runs and not text[runs[-1][1] : marker.start].strip():
            runs[-1] = (runs[-1][0], marker.end)
        else:
            runs.append((marker.start, marker.end))
    return runs


_NEXT_UNIT = re.compile(r"\s*(#[^\n]*|\S+)")
_LAST_WORD = re.compile(r"\S+\s*\Z")


def _room_for_text(text: str, run: tuple[int, int], chunk_size: int) -> bool:
    """Whether a chunk of `chunk_size` holds the run of markers with the least text it can
    go with: the first word after it (a whole heading, which is never cut), or, after the
    last text, the last word before it."""
    start, end = run
    after = _NEXT_UNIT.match(text, end)
    if text[end:].strip() and after is not None:
        return len(TOKENIZER.encode(text[start : after.end()])) <= chunk_size
    before = _LAST_WORD.search(text, 0, start)
    return before is not None and len(TOKENIZER.encode(text[before.start() : end])) <= chunk_size


def _misplaced_markers(text: str, chunks: list[TextChunk], chunk_size: int) -> list[str]:
    """The chunks that are page markers alone, or end with markers while text follows,
    where the budget had room to do otherwise."""
    wrong = []
    for chunk in chunks:
        for start, end in _runs(text):
            if not chunk.start_pos <= start < chunk.end_pos or text[end : chunk.end_pos].strip():
                continue  # not in the chunk, or text follows it in the chunk
            alone = not text[chunk.start_pos : start].strip()
            if (alone or text[end:].strip()) and _room_for_text(text, (start, end), chunk_size):
                wrong.append(f"{'alone' if alone else 'ends a chunk'}: {chunk.text[-60:]!r}")
    return wrong


@pytest.mark.parametrize("name", _CONVERTED)
@pytest.mark.parametrize("converter", sorted(_CONVERTERS))
def test_converted_pages_of_real_documents_place_every_marker(converter: str, name: str) -> None:
    [path] = corpus_files("markdown", name)
    text = _CONVERTERS[converter](_pages_of(path))
    for chunk_size in (16, 64, 256):
        for overlap in (0, 8):
            for hierarchy in (False, True) if chunk_size >= 64 else (False,):
                for doc_type in ("markdown", "text"):
                    options = {"doc_type": doc_type, "chunk_overlap": overlap, "hierarchy": hierarchy}
                    chunks = OutlineTextSplitter(chunk_size=chunk_size, page_markers=AUTO, **options).split(text)  # type: ignore[arg-type]
                    case = f"{doc_type} at {chunk_size}, overlap {overlap}, hierarchy {hierarchy}"
                    assert all(chunk.metadata["pages"] for chunk in chunks), case
                    assert _misplaced_markers(text, chunks, chunk_size) == [], case
