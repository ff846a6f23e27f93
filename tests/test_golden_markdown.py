"""Golden tests over every file of ../shared/corpora/markdown at budgets 128 and 512,
with each Markdown parser.

Structure comes from the parser's own output here (markdown-it-py's tokens,
pulldown-cmark's events), not from this project's detector, so a detector that misses a
list or a fence makes these tests fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache

import pyromark
import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from outline_splitter import OutlineTextSplitter, TextChunk
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks
from tests.markdown_parsers import EACH_PARSER

BUDGETS = (128, 512)
# The blocks of each kind, as each parser names them: markdown-it's token types,
# pulldown-cmark's start events.
STRUCTURE = {
    "markdown-it": {"bullet_list_open", "ordered_list_open", "table_open", "fence", "code_block"},
    "pulldown-cmark": {"List", "Table", "CodeBlock"},
}
HEADING = {"markdown-it": {"heading_open"}, "pulldown-cmark": {"Heading"}}
PARAGRAPH = {"markdown-it": {"paragraph_open"}, "pulldown-cmark": {"Paragraph"}}
_PULLDOWN_OPTIONS = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_YAML_STYLE_METADATA_BLOCKS
_LINE_END = re.compile(r"\r\n?|\n")
_SENTENCE_END = re.compile(r"[.!?:;][\"')\]*_`]*$")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin)


def _spans(text: str, parser: str, types: set[str]) -> list[tuple[str, int, int]]:
    """(type, start, end) of the parser's blocks of `types`, trimmed of white space."""
    out = []
    for kind, a, b in _blocks(text) if parser == "markdown-it" else _events(text):
        if kind in types:
            while b > a and text[b - 1].isspace():
                b -= 1
            while a < b and text[a].isspace():
                a += 1
            out.append((kind, a, b))
    return out


def _blocks(text: str) -> Iterator[tuple[str, int, int]]:
    """markdown-it's block tokens: (type, start, end) of their lines."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text)), len(text)]
    for token in _parser().parse(text):
        if token.map:
            yield token.type, starts[min(token.map[0], len(starts) - 1)], starts[min(token.map[1], len(starts) - 1)]


def _events(text: str) -> Iterator[tuple[str, int, int]]:
    """pulldown-cmark's start events: (name, start, end) of their ranges, in characters."""
    characters = [i for i, c in enumerate(text) for _ in c.encode("utf-8")] + [len(text)]
    for event, span in pyromark.events_with_range(text, options=_PULLDOWN_OPTIONS):
        start = event.get("Start") if isinstance(event, dict) else None
        if start is not None:
            yield (
                (start if isinstance(start, str) else next(iter(start))),
                characters[span["start"]],
                characters[span["end"]],
            )


@cache
def _split(name: str, budget: int, parser: str) -> tuple[str, list[TextChunk]]:
    path = next(p for p in corpus_files("markdown", "*.md") if p.name == name)
    text = path.read_text(encoding="utf-8")
    return text, OutlineTextSplitter(doc_type="markdown", chunk_size=budget, markdown_parser=parser).split(text)


def _names() -> list[str]:
    return [p.name for p in corpus_files("markdown", "*.md")]


@EACH_PARSER
@pytest.mark.parametrize("budget", BUDGETS)
def test_invariants_on_every_file(cl100k, budget, parser):
    for name in _names():
        text, chunks = _split(name, budget, parser)
        assert_source_chunks(text, chunks, cl100k, budget)


@EACH_PARSER
@pytest.mark.parametrize("budget", BUDGETS)
def test_lists_tables_and_fences_that_fit_land_whole(cl100k, budget, parser):
    checked = 0
    for name in _names():
        text, chunks = _split(name, budget, parser)
        for kind, a, b in _spans(text, parser, STRUCTURE[parser]):
            if a == b or cl100k.count(text[a:b]) > budget:
                continue
            checked += 1
            assert any(c.start_pos <= a and b <= c.end_pos for c in chunks), f"{name}: {kind} [{a}, {b}) was cut"
    assert checked > 500


@EACH_PARSER
def test_no_chunk_ends_with_a_heading_at_512(cl100k, parser):
    for name in _names():
        text, chunks = _split(name, 512, parser)
        heading_ends = {b for _, _, b in _spans(text, parser, HEADING[parser])}
        for chunk in chunks[:-1]:
            assert chunk.end_pos not in heading_ends, f"{name}: chunk {chunk.metadata['index']} ends with a heading"


@EACH_PARSER
def test_no_cut_inside_a_sentence_where_a_sentence_boundary_fits_at_512(cl100k, parser):
    for name in _names():
        text, chunks = _split(name, 512, parser)
        paragraphs = _spans(text, parser, PARAGRAPH[parser])
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
