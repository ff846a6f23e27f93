"""The invariants of DESIGN.md on generated documents and on arbitrary strings."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.text import detect_text
from outline_splitter.nodes import check_outline
from tests.invariants import assert_same_output, assert_source_chunks
from tests.markdown_parsers import EACH_PARSER, detector
from tests.strategies import markdown_document, text_document

SIZES = st.sampled_from([4, 8, 16, 32, 64, 128, 512])
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@EACH_PARSER
@FAST
@given(text=markdown_document(), chunk_size=SIZES, overlap=st.integers(0, 40))
def test_markdown_invariants(cl100k, parser, text, chunk_size, overlap):
    check_outline(detector(parser)(text), len(text))
    overlap = min(overlap, chunk_size - 1)
    splitter = OutlineTextSplitter(
        doc_type="markdown", markdown_parser=parser, chunk_size=chunk_size, chunk_overlap=overlap
    )
    chunks = splitter.split(text)
    assert_source_chunks(text, chunks, cl100k, chunk_size, overlap)
    assert_same_output(chunks, splitter.split(text))


@FAST
@given(text=text_document(), chunk_size=SIZES, min_size=st.integers(0, 4))
def test_text_invariants(cl100k, text, chunk_size, min_size):
    check_outline(detect_text(text).expand_all(), len(text))
    splitter = OutlineTextSplitter(doc_type="text", chunk_size=chunk_size, min_chunk_size=min(min_size, chunk_size))
    chunks = splitter.split(text)
    assert_source_chunks(text, chunks, cl100k, chunk_size)
    assert_same_output(chunks, splitter.split(text))


def _splitter(doc_type: str, parser: str, chunk_size: int) -> OutlineTextSplitter:
    """A splitter of `doc_type`, reading Markdown with `parser` (an option of Markdown only)."""
    parser_option = {"markdown_parser": parser} if doc_type == "markdown" else {}
    return OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size, **parser_option)


@FAST
@given(text=st.text(max_size=400), doc_type=st.sampled_from(["markdown", "text"]), chunk_size=SIZES)
@EACH_PARSER
def test_any_string_gives_valid_chunks(cl100k, parser, text, doc_type, chunk_size):
    chunks = _splitter(doc_type, parser, chunk_size).split(text)
    assert_source_chunks(text, chunks, cl100k, chunk_size)


@EACH_PARSER
def test_hostile_inputs_finish_with_valid_chunks(cl100k, parser):
    cases = {
        "one huge line": "word " * 200_000,
        "one huge token run": "=" * 300_000,
        "nul bytes": "a\x00b\x00\x00 c.\n\n" * 500,
        "bom and crlf": "\ufeff# Title\r\n\r\nBody text.\r\n" * 300,
        "unbalanced fences": "```\n" * 301 + "text",
        "deep nesting": "".join("  " * i + "- item\n" for i in range(200)),
        "deep quotes": "> " * 500 + "quoted",
    }
    for name, text in cases.items():
        for doc_type in ("markdown", "text"):
            chunks = _splitter(doc_type, parser, 256).split(text)
            assert chunks, name
            assert_source_chunks(text, chunks, cl100k, 256)
