"""Time to split all of ../shared/corpora/markdown, as a ratio to one tiktoken pass.

    python -m benchmarks.markdown_speed [--budget 512] [--repeat 5] [--fast-only]

The denominator is `encode_ordinary` over every document, the floor any splitter with
exact counts pays; the numerators are `OutlineTextSplitter.split` over the same documents
with each Markdown backend (pulldown-cmark through pyromark where the `markdown-fast` extra
is installed, and markdown-it-py, the reference), and, for scale, each backend's outline
alone and markdown-it-py's block pass alone. Each is the least CPU time of `--repeat`
rounds in which they take turns (`benchmarks/timing.py`). `--fast-only` leaves out the
markdown-it-py runs, most of the process's time otherwise: for timings of the whole
process that measure the faster backend.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.detectors import markdown
from outline_splitter.tokens import load_encoding

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "markdown"


def _with_reference(run: Callable[[str], object]) -> Callable[[str], object]:
    """`run` with the Markdown detector held to markdown-it-py."""

    def reference(text: str) -> object:
        fast, markdown._fast_outline = markdown._fast_outline, None
        try:
            return run(text)
        finally:
            markdown._fast_outline = fast

    return reference


def main() -> None:
    shared_corpus("markdown")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--fast-only", action="store_true", help="time pulldown-cmark alone, not markdown-it-py")
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=args.budget)
    splitter.split(texts[0])  # load the parser and the tokenizer tables outside the timing
    runs: dict[str, Callable[[str], object]] = {"floor": encoding.encode_ordinary}
    if markdown._fast_outline is not None:
        runs["split, pulldown-cmark"] = splitter.split
        runs["outline, pulldown-cmark"] = markdown.detect_markdown
    if not args.fast_only:
        runs["split, markdown-it-py"] = _with_reference(splitter.split)
        runs["outline, markdown-it-py"] = markdown.detect_markdown_reference
        runs["markdown-it-py block pass"] = markdown._parser().parse
    best = best_per_document(runs, texts, args.repeat)
    floor = best.pop("floor")
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"{len(texts)} documents, {megabytes:.2f} MB, budget {args.budget}")
    print(f"tiktoken encode_ordinary: {floor:.3f} s ({megabytes / floor:.1f} MB/s) = 1.00x")
    if markdown._fast_outline is None:
        print("(pyromark, the markdown-fast extra, is not installed: markdown-it-py alone)")
    for name, seconds in best.items():
        print(f"{name}: {seconds:.3f} s ({megabytes / seconds:.1f} MB/s) = {seconds / floor:.2f}x")


if __name__ == "__main__":
    main()
