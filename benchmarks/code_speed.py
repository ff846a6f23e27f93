"""Speed of splitting source code, as a ratio to one tiktoken pass over the same text.

Splits the 40 standard-library modules of `stdlib_modules.py` at 512 tokens with
`OutlineTextSplitter(doc_type="python")` and prints the time against one
`encode_ordinary` (cl100k_base) of every module, with the outline pass (tree-sitter
parse and the walk) on its own and tree-sitter's parse alone: the outline less the parse
is the walk's Python (its deferred parts, built while packing, count in the split only).
Times are CPU time of this process (the machines here are shared, and wall time follows
their load), best of `--repeat` runs after a warm-up.

    python -m benchmarks.code_speed [--chunk-size 512] [--repeat 5]
"""

from __future__ import annotations

import argparse

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
from outline_splitter.detectors.code import LANGUAGES_BY_NAME, grammar_parser
from outline_splitter.detectors.code.offsets import encode_source
from outline_splitter.registry import load_detector, resolve_doc_type
from outline_splitter.tokens import load_encoding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chunk-size", type=int, default=512)
    args = parser.parse_args()
    texts = [path.read_text(encoding="utf-8") for path in stdlib_module_paths()]
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type="python", chunk_size=args.chunk_size)
    detect = load_detector(resolve_doc_type("python"))
    python = LANGUAGES_BY_NAME["python"]
    parser = grammar_parser(python.name, python.grammar)  # (the detector's own, its ranges the whole text)

    def parse(text: str) -> object:
        return parser.parse(encode_source(text))

    for text in texts:  # warm-up: grammar, parser, tokenizer tables
        splitter.split(text)

    best = best_per_document(
        {"tiktoken": encoding.encode_ordinary, "parse": parse, "outline": detect, "split": splitter.split},
        texts,
        args.repeat,
    )
    tiktoken_pass, parsed, outline, split = best["tiktoken"], best["parse"], best["outline"], best["split"]
    size = sum(len(text) for text in texts)
    print(f"{len(texts)} modules, {size / 1e6:.2f} M characters, chunk_size {args.chunk_size}")
    print(f"tiktoken encode_ordinary: {tiktoken_pass * 1000:8.1f} ms")
    print(f"tree-sitter parse:        {parsed * 1000:8.1f} ms  {parsed / tiktoken_pass:5.2f}x")
    print(f"outline (parse + walk):   {outline * 1000:8.1f} ms  {outline / tiktoken_pass:5.2f}x")
    print(f"split:                    {split * 1000:8.1f} ms  {split / tiktoken_pass:5.2f}x")


if __name__ == "__main__":
    main()
