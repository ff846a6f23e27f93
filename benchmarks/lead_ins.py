"""Lead-ins cut from what they introduce: chunks that end with a paragraph ending in a
colon (or an HTML `dt`) while the block it introduces starts the next chunk, although
the two (with a heading right before the lead-in, which goes along) fit in one chunk.

    python -m benchmarks.lead_ins [--budget 256]

Markdown lead-ins and their next blocks come from markdown-it-py's tokens, not from the
detector; HTML ones from the outline of the HTML detector, with the colon tested here.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.detectors.html import detect_html

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
_ENDS_WITH_COLON = re.compile(r":[\s*_`]*(?:</[A-Za-z][\w-]*>[\s*_`]*)*$")
_LINE_END = re.compile(r"\r\n?|\n")
# (lead-in start, lead-in end, next block start, next block end), trimmed of white space
Pair = tuple[int, int, int, int]


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def trim_span(text: str, a: int, b: int) -> tuple[int, int]:
    """`[a, b)` without the white space at its two ends."""
    while b > a and text[b - 1].isspace():
        b -= 1
    while a < b and text[a].isspace():
        a += 1
    return a, b


def markdown_pairs(text: str) -> Iterator[Pair]:
    """Each paragraph ending in a colon and the sibling block after it."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text)), len(text)]
    tokens = _parser().parse(text)
    blocks = [t for t in tokens if t.map is not None and t.nesting >= 0 and t.type != "inline"]

    def span(token_map: list[int]) -> tuple[int, int]:
        return trim_span(text, starts[min(token_map[0], len(starts) - 1)], starts[min(token_map[1], len(starts) - 1)])

    for i, token in enumerate(blocks):
        if token.type != "paragraph_open" or token.map is None:
            continue
        a, b = span(token.map)
        if not _ENDS_WITH_COLON.search(text, a, b):
            continue
        following = next((t for t in blocks[i + 1 :] if t.level <= token.level), None)
        if following is not None and following.level == token.level and following.map is not None:
            c, d = span(following.map)
            previous = blocks[i - 1] if i > 0 else None
            if previous is not None and previous.type == "heading_open" and previous.map is not None:
                a = span(previous.map)[0]  # a heading right before goes where its lead-in goes
            if c >= b:
                yield a, b, c, d


def html_pairs(text: str) -> Iterator[Pair]:
    """Each HTML paragraph ending in a colon, and each `dt`, with the sibling after it."""
    stack = [detect_html(text)]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        children = node.children
        for i in range(len(children) - 1):
            lead = children[i]
            a, b = trim_span(text, lead.start, lead.end)
            is_lead_in = lead.meta.get("tag") == "dt" or (
                lead.kind == "paragraph" and _ENDS_WITH_COLON.search(text, a, b) is not None
            )
            if is_lead_in:
                if i > 0 and children[i - 1].kind == "heading":
                    a = trim_span(text, children[i - 1].start, b)[0]  # a heading goes where its lead-in goes
                yield (a, b, *trim_span(text, children[i + 1].start, children[i + 1].end))


@dataclass
class LeadInScore:
    """Chunks, and those that end with a lead-in whose next block starts the next chunk
    though the two fit together."""

    chunks: int = 0
    cut: int = 0

    @property
    def cut_rate(self) -> float:
        return self.cut / max(1, self.chunks)


def score_lead_ins(
    text: str, chunks: list[TextChunk], pairs: Iterator[Pair], count: Callable[[str], int], budget: int,
    score: LeadInScore,
) -> list[str]:  # fmt: skip
    """Add one split to `score`; return the lead-ins cut from their block."""
    score.chunks += len(chunks)
    ends = {chunk.end_pos: i for i, chunk in enumerate(chunks)}
    cut: list[str] = []
    for a, b, c, d in pairs:
        i = ends.get(b)
        if i is None or i + 1 >= len(chunks) or chunks[i + 1].start_pos != c:
            continue
        if count(text[a:d]) <= budget:
            score.cut += 1
            cut.append(repr(text[max(a, b - 60) : b]))
    return cut


def corpus_cases() -> Iterator[tuple[str, str, Callable[[str], Iterator[Pair]]]]:
    """(text, doc type, pairs function) for the Markdown and the HTML specification corpora."""
    for path in sorted((CORPORA / "markdown").glob("*.md")):
        yield path.read_text(encoding="utf-8"), "markdown", markdown_pairs
    for path in sorted((CORPORA / "html-spec").glob("*.html")):
        yield path.read_text(encoding="utf-8"), "html", html_pairs


def main() -> None:
    shared_corpus("markdown")  # stops with a message on a clone without ../shared
    shared_corpus("html-spec")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--show", action="store_true", help="print each lead-in cut from its block")
    args = parser.parse_args()
    scores = {"markdown": LeadInScore(), "html": LeadInScore()}
    for text, doc_type, pairs in corpus_cases():
        splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=args.budget)
        cut = score_lead_ins(text, splitter.split(text), pairs(text), splitter.tokenizer.count, args.budget,
                             scores[doc_type])  # fmt: skip
        if args.show and cut:
            print("\n".join(f"  {line}" for line in cut))
    for doc_type, score in scores.items():
        print(f"{doc_type}: {score.chunks} chunks, {score.cut} end with a lead-in cut from its block", end=" ")
        print(f"({score.cut_rate:.1%})")


if __name__ == "__main__":
    main()
