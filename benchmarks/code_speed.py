"""Speed of splitting source code, as a ratio to one tiktoken pass over the same text.

Splits the 40 standard-library modules of `stdlib_modules.py` at 512 tokens with
`OutlineTextSplitter(doc_type="python")` and prints the time against one
`encode_ordinary` (cl100k_base) of every module, with the outline pass (tree-sitter
parse and the walk) on its own. Times are CPU time of this process (the machines here
are shared, and wall time follows their load), best of `--repeat` runs after a warm-up.

    python -m benchmarks.code_speed [--chunk-size 512] [--repeat 5]
"""

from __future__ import annotations

import argparse

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
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
    for text in texts:  # warm-up: grammar, parser, tokenizer tables
        splitter.split(text)

    best = best_per_document(
        {"tiktoken": encoding.encode_ordinary, "outline": detect, "split": splitter.split},
        texts,
        args.repeat,
    )
    tiktoken_pass, outline, split = best["tiktoken"], best["outline"], best["split"]
    size = sum(len(text) for text in texts)
    print(f"{len(texts)} modules, {size / 1e6:.2f} M characters, chunk_size {args.chunk_size}")
    print(f"tiktoken encode_ordinary: {tiktoken_pass * 1000:8.1f} ms")
    print(f"outline (parse + walk):   {outline * 1000:8.1f} ms  {outline / tiktoken_pass:5.2f}x")
    print(f"split:                    {split * 1000:8.1f} ms  {split / tiktoken_pass:5.2f}x")


if __name__ == "__main__":
    main()
