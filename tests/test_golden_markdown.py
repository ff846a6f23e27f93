"""Golden tests over every file of ../shared/corpora/markdown at budgets 128 and 512.

Structure comes from markdown-it-py's own tokens here, not from this project's
detector, so a detector that misses a list or a fence makes these tests fail.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from outline_splitter import OutlineTextSplitter, TextChunk
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks

BUDGETS = (128, 512)
STRUCTURE_TOKENS = {"bullet_list_open", "ordered_list_open", "table_open", "fence", "code_block"}
_LINE_END = re.compile(r"\r\n?|\n")
_SENTENCE_END = re.compile(r"[.!?:;][\"')\]*_`]*$")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin)


def _spans(text: str, types: set[str]) -> list[tuple[str, int, int]]:
    """(token type, start, end) of markdown-it tokens of `types`, trimmed of white space."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text)), len(text)]
    out = []
    for token in _parser().parse(text):
        if token.type in types and token.map:
            a, b = starts[min(token.map[0], len(starts) - 1)], starts[min(token.map[1], len(starts) - 1)]
            while b > a and text[b - 1].isspace():
                b -= 1
            while a < b and text[a].isspace():
                a += 1
            out.append((token.type, a, b))
    return out


@cache
def _split(name: str, budget: int) -> tuple[str, list[TextChunk]]:
    path = next(p for p in corpus_files("markdown", "*.md") if p.name == name)
    text = path.read_text(encoding="utf-8")
    return text, OutlineTextSplitter(doc_type="markdown", chunk_size=budget).split(text)


def _names() -> list[str]:
    return [p.name for p in corpus_files("markdown", "*.md")]


@pytest.mark.parametrize("budget", BUDGETS)
def test_invariants_on_every_file(cl100k, budget):
    for name in _names():
        text, chunks = _split(name, budget)
        assert_source_chunks(text, chunks, cl100k, budget)


@pytest.mark.parametrize("budget", BUDGETS)
def test_lists_tables_and_fences_that_fit_land_whole(cl100k, budget):
    checked = 0
    for name in _names():
        text, chunks = _split(name, budget)
        for kind, a, b in _spans(text, STRUCTURE_TOKENS):
            if a == b or cl100k.count(text[a:b]) > budget:
                continue
            checked += 1
            assert any(c.start_pos <= a and b <= c.end_pos for c in chunks), f"{name}: {kind} [{a}, {b}) was cut"
    assert checked > 500


def test_no_chunk_ends_with_a_heading_at_512(cl100k):
    for name in _names():
        text, chunks = _split(name, 512)
        heading_ends = {b for _, _, b in _spans(text, {"heading_open"})}
        for chunk in chunks[:-1]:
            assert chunk.end_pos not in heading_ends, f"{name}: chunk {chunk.metadata['index']} ends with a heading"


def test_no_cut_inside_a_sentence_where_a_sentence_boundary_fits_at_512(cl100k):
    for name in _names():
        text, chunks = _split(name, 512)
        paragraphs = _spans(text, {"paragraph_open"})
        for chunk in chunks[:-1]:
            cut = chunk.end_pos
            inside = [(a, b) for _, a, b in paragraphs if a < cut < b]
            if not inside or _SENTENCE_END.search(text[:cut]):
                continue
            # the cut is inside a sentence: allowed only if that sentence alone is over budget
            a, b = inside[-1]
            sentence_start = max(m.end() for m in re.finditer(r"(?:^|[.!?]\s+)", text[a:cut])) + a
            following = re.search(r"[.!?](\s|$)", text[cut:b])
            sentence_end = cut + following.end() if following else b
            assert cl100k.count(text[sentence_start:sentence_end]) > 512, f"{name}: cut at {cut} is inside a sentence"
