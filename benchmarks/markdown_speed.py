"""Time to split all of ../shared/corpora/markdown, as a ratio to one tiktoken pass.

    python -m benchmarks.markdown_speed [--budget 512] [--repeat 5] [--parser NAME]

The denominator is `encode_ordinary` over every document, the floor any splitter with
exact counts pays; the numerators are `OutlineTextSplitter.split` over the same documents
with each Markdown parser (`markdown_parser`: markdown-it-py, and pulldown-cmark through
pyromark where the `markdown-fast` extra is installed), and, for scale, each parser's
outline alone and markdown-it-py's block pass alone. Each is the least CPU time of
`--repeat` rounds in which they take turns (`benchmarks/timing.py`). `--parser` times one
parser alone: for timings of the whole process that measure it.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.detectors import markdown
from outline_splitter.options import MARKDOWN_PARSERS
from outline_splitter.registry import load_detector, resolve_doc_type
from outline_splitter.tokens import load_encoding

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "markdown"


def _runs(parser: str, budget: int, first: str) -> dict[str, Callable[[str], object]]:
    """The split and the outline of a document with `parser` (its tables and parser
    loaded on `first`, outside the timing)."""
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=budget, markdown_parser=parser)
    splitter.split(first)
    return {
        f"split, {parser}": splitter.split,
        f"outline, {parser}": load_detector(resolve_doc_type("markdown"), parser),
    }


def main() -> None:
    shared_corpus("markdown")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--parser", choices=MARKDOWN_PARSERS, help="time this parser alone")
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    encoding = load_encoding("cl100k_base")
    installed = importlib.util.find_spec("pyromark") is not None
    parsers = [args.parser] if args.parser else [p for p in MARKDOWN_PARSERS if installed or p == "markdown-it"]
    runs: dict[str, Callable[[str], object]] = {"floor": encoding.encode_ordinary}
    for name in parsers:
        runs.update(_runs(name, args.budget, texts[0]))
    if "markdown-it" in parsers:
        runs["markdown-it-py block pass"] = markdown._parser().parse
    best = best_per_document(runs, texts, args.repeat)
    floor = best.pop("floor")
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"{len(texts)} documents, {megabytes:.2f} MB, budget {args.budget}")
    print(f"tiktoken encode_ordinary: {floor:.3f} s ({megabytes / floor:.1f} MB/s) = 1.00x")
    if not installed:
        print("(pyromark, the markdown-fast extra, is not installed: markdown-it-py alone)")
    for name, seconds in best.items():
        print(f"{name}: {seconds:.3f} s ({megabytes / seconds:.1f} MB/s) = {seconds / floor:.2f}x")


if __name__ == "__main__":
    main()
