"""Time to split all of ../shared/corpora/markdown, as a ratio to one tiktoken pass.

    python -m benchmarks.markdown_speed [--budget 512] [--repeat 5]

The denominator is `encode_ordinary` over every document, the floor any splitter with
exact counts pays; the numerator is `OutlineTextSplitter.split` over the same documents,
and, for scale, markdown-it-py's block pass alone (which the Markdown detector runs).
Each is the least CPU time of `--repeat` rounds in which they take turns
(`benchmarks/timing.py`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.detectors.markdown import _parser
from outline_splitter.tokens import load_encoding

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "markdown"


def main() -> None:
    shared_corpus("markdown")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=args.budget)
    splitter.split(texts[0])  # load the parser and the tokenizer tables outside the timing
    parser_block = _parser()
    best = best_per_document(
        {"floor": encoding.encode_ordinary, "split": splitter.split, "block pass": parser_block.parse},
        texts,
        args.repeat,
    )
    floor, split, block_pass = best["floor"], best["split"], best["block pass"]
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"{len(texts)} documents, {megabytes:.2f} MB, budget {args.budget}")
    print(f"tiktoken encode_ordinary: {floor:.3f} s ({megabytes / floor:.1f} MB/s) = 1.00x")
    print(f"OutlineTextSplitter.split: {split:.3f} s ({megabytes / split:.1f} MB/s) = {split / floor:.2f}x")
    print(f"  of which markdown-it-py block pass: {block_pass:.3f} s = {block_pass / floor:.2f}x")


if __name__ == "__main__":
    main()
