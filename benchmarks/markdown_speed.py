"""Time to split all of ../shared/corpora/markdown, as a ratio to one tiktoken pass.

    python benchmarks/markdown_speed.py [--budget 512] [--repeat 5]

The denominator is `encode_ordinary` over every document (best of `--repeat` runs), the
floor any splitter with exact counts pays; the numerator is `OutlineTextSplitter.split`
over the same documents (best of `--repeat` runs), and, for scale, markdown-it-py's block
pass alone (which the Markdown detector runs).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from detectors.markdown import _parser
from outline_splitter import OutlineTextSplitter
from outline_splitter.tokens import load_encoding

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "markdown"


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """Fastest wall time of `repeat` runs of `work`."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=args.budget)
    splitter.split(texts[0])  # load the parser and the tokenizer tables outside the timing
    floor = best_of(args.repeat, lambda: [encoding.encode_ordinary(t) for t in texts])
    split = best_of(args.repeat, lambda: [splitter.split(t) for t in texts])
    block_pass = best_of(args.repeat, lambda: [_parser().parse(t) for t in texts])
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"{len(texts)} documents, {megabytes:.2f} MB, budget {args.budget}")
    print(f"tiktoken encode_ordinary: {floor:.3f} s ({megabytes / floor:.1f} MB/s) = 1.00x")
    print(f"OutlineTextSplitter.split: {split:.3f} s ({megabytes / split:.1f} MB/s) = {split / floor:.2f}x")
    print(f"  of which markdown-it-py block pass: {block_pass:.3f} s = {block_pass / floor:.2f}x")


if __name__ == "__main__":
    main()
