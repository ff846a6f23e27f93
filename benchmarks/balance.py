"""Balanced splits: among the lists, tables and sections (in code, definitions) that a
split breaks, how many leave a last part under a third of the size of their largest
part although a balanced split of the same node into as many parts exists.

    python -m benchmarks.balance [--budget 256] [--show]

A node's parts are its pieces in the chunks it spans (the part of a chunk inside the
node, in tokens), but for pieces of HTML markup alone (the end tag of a section after a
full chunk), which show nothing. Whether a balanced split exists is decided here, not by the packer: the
node's units are its descendants that fit the budget whole (a leaf that fits nowhere is
cut where the chunks cut it), each sized with the white space after it; a split may not
cut after a heading, comment or decorator; and a split into at most as many parts, each
within the budget, whose last part is at least a third of the largest, must exist.
"""

from __future__ import annotations

import argparse
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from benchmarks.lead_ins import trim_span
from outline_splitter import OutlineNode, OutlineTextSplitter, TextChunk
from outline_splitter.bench.stdlib_modules import stdlib_module_paths

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
KINDS = frozenset({"list", "table", "section", "definition"})
_LEADING = frozenset({"heading", "comment", "decorator", "header"})
Count = Callable[[str], int]
_TAG = re.compile(r"<[^>]*>")
_LEAD_IN = re.compile(r":[\s*_`]*(?:</[A-Za-z][\w-]*>[\s*_`]*)*$")


@dataclass
class BalanceScore:
    """Broken nodes, and those whose last part is small where a balanced split exists."""

    broken: int = 0
    unbalanced: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.unbalanced / max(1, self.broken)


Unit = tuple[int, int, bool]  # start, end, and whether a part may end after it


def _leads(node: OutlineNode, text: str, a: int, b: int) -> bool:
    """Whether a part may not end after the node: a heading, comment, decorator, lead-in,
    or opening markup alone."""
    if node.kind in _LEADING or (node.kind == "paragraph" and _LEAD_IN.search(text, a, b)):
        return True
    return not _TAG.sub("", text[a:b]).strip() and not text.startswith("</", a)


def _units(node: OutlineNode, text: str, count: Count, budget: int, cuts: list[int]) -> tuple[list[Unit], int]:
    """The node's units (see the module docstring) after the end of its last descendant
    section or definition that is broken (whose last part is that descendant's own), and
    that end (the node's start if there is none)."""
    out: list[Unit] = []
    hard = node.start
    stack = [node]
    while stack:
        current = stack.pop()
        a, b = trim_span(text, current.start, current.end)
        if a >= b:
            continue
        if count(text[a:b]) <= budget:
            out.append((a, b, not _leads(current, text, a, b)))
        elif current.children:
            if current is not node and current.kind in ("section", "definition"):
                out, hard = [], b  # its units are all before a hard end
                continue
            stack.extend(reversed(current.children))
        else:
            inside = [c for c in cuts if a < c < b]
            out += ((x, y, True) for x, y in zip([a, *inside], [*inside, b]))
    return out, hard


def balanced_split_exists(sizes: list[int], may_end: list[bool], parts: int, budget: int, floor: int) -> bool:
    """Whether the units split into at most `parts` parts within `budget`, each ending
    after a unit that `may_end` and before no closing markup, with a last part at least a
    third of the largest, and of `floor` (the largest part before these units)."""
    prefix = list(accumulate(sizes, initial=0))
    ends = [e for e in range(1, len(sizes)) if may_end[e - 1]]
    end_prefix = [prefix[e] for e in ends]
    for i, s in enumerate(ends):
        last = prefix[-1] - prefix[s]
        if last > budget or 3 * last < floor:
            continue
        cap = min(budget, 3 * last)
        used, start = 1, 0
        while start < s and used <= parts:
            k = min(bisect_right(end_prefix, prefix[start] + cap) - 1, i)
            if k < 0 or ends[k] <= start:
                break
            start, used = ends[k], used + 1
        if start == s and used <= parts:
            return True
    return False


def score_balance(
    text: str, root: OutlineNode, chunks: list[TextChunk], count: Count, budget: int, score: BalanceScore
) -> None:
    """Add the broken nodes of one split to `score`."""
    cuts = sorted({c.start_pos for c in chunks} | {c.end_pos for c in chunks})
    chunk_ends = [c.end_pos for c in chunks]
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.kind not in KINDS:
            continue
        a, b = trim_span(text, node.start, node.end)
        overlapping = _overlapping(chunks, chunk_ends, a, b)
        pieces = [trim_span(text, max(a, c.start_pos), min(b, c.end_pos)) for c in overlapping]
        pieces = [(x, y) for x, y in pieces if _TAG.sub("", text[x:y]).strip()]
        sizes = [count(text[x:y]) for x, y in pieces]
        if len(sizes) < 2:
            continue
        score.broken += 1
        if sizes[-1] * 3 >= max(sizes):
            continue
        units, hard = _units(node, text, count, budget, cuts)
        if not units:
            continue
        tail = [size for (x, _), size in zip(pieces, sizes) if x >= hard]
        floor = max((size for (x, _), size in zip(pieces, sizes) if x < hard), default=0)
        ends = [u[0] for u in units[1:]] + [units[-1][1]]
        unit_sizes = [count(text[u[0] : e]) for u, e in zip(units, ends)]
        closing = [text.startswith("</", u[0]) and not _TAG.sub("", text[u[0] : u[1]]).strip() for u in units]
        may_end = [u[2] and not close for u, close in zip(units, [*closing[1:], False])]
        if balanced_split_exists(unit_sizes, may_end, len(tail), budget, floor):
            score.unbalanced += 1
            score.examples.append(f"{node.kind} at {a}: parts {sizes}: {text[a : a + 60]!r}")


def _overlapping(chunks: list[TextChunk], chunk_ends: list[int], start: int, end: int) -> Iterator[TextChunk]:
    """The chunks that overlap `[start, end)`."""
    for chunk in chunks[bisect_right(chunk_ends, start) :]:
        if chunk.start_pos >= end:
            return
        yield chunk


def corpus_cases() -> Iterator[tuple[str, str]]:
    """(text, doc type) of the Markdown, HTML and stdlib files measured."""
    for path in sorted((CORPORA / "markdown").glob("*.md")):
        yield path.read_text(encoding="utf-8"), "markdown"
    for folder in ("html-spec", "html-web"):
        for path in sorted((CORPORA / folder).glob("*.html")):
            yield path.read_text(encoding="utf-8"), "html"
    for path in stdlib_module_paths():
        yield path.read_text(encoding="utf-8"), "python"


def measure(budget: int) -> dict[str, BalanceScore]:
    """The score per doc type at `budget` tokens."""
    scores: dict[str, BalanceScore] = {}
    for text, doc_type in corpus_cases():
        splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=budget)
        score = scores.setdefault(doc_type, BalanceScore())
        score_balance(text, splitter.outline(text), splitter.split(text), splitter.tokenizer.count, budget, score)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--show", action="store_true", help="print each unbalanced node")
    args = parser.parse_args()
    for doc_type, score in measure(args.budget).items():
        print(f"{doc_type}: {score.broken} broken lists/tables/sections, {score.unbalanced} with a small last part")
        print(f"  where a balanced split exists ({score.rate:.1%})")
        if args.show:
            print("\n".join(f"    {line}" for line in score.examples))


if __name__ == "__main__":
    main()
