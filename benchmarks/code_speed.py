"""Speed of splitting source code, as a ratio to one tiktoken pass over the same text.

Splits the 40 standard-library modules of `stdlib_modules.py` at 512 tokens with
`OutlineTextSplitter(doc_type="python")` and prints the time against one
`encode_ordinary` (cl100k_base) of every module, with the outline pass (tree-sitter
parse and the walk) on its own and tree-sitter's parse alone: the outline less the parse
is the walk's Python. The walk defers the parts of a definition or statement that spans
four lines or more until the packer breaks it; those the split builds are timed too (the
outline, then the same deferred parts the split built, found by a split before: less the
outline, the walk's share inside the split, with a pass over the outline's nodes to find
them). The split less both is the encode (on its thread, CPU all the same), the packing and
the chunks. Times are CPU time of this process, every thread's (the machines here are
shared, and wall time follows their load), best of `--repeat` runs after a warm-up.

    python -m benchmarks.code_speed [--chunk-size 512] [--repeat 5]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from unittest.mock import patch

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
from outline_splitter.detectors.code import LANGUAGES_BY_NAME, grammar_parser
from outline_splitter.detectors.code.offsets import encode_source
from outline_splitter.nodes import Node
from outline_splitter.registry import load_detector, resolve_doc_type
from outline_splitter.tokens import load_encoding

_Built = set[tuple[str, int, int]]


def built_by_split(split: Callable[[str], object], text: str) -> _Built:
    """The nodes (kind and span) whose deferred parts `split(text)` builds."""
    built: _Built = set()
    expanded_children = Node.expanded_children

    def record(node: Node) -> list[Node]:
        if node.expand is not None:
            built.add((node.kind, node.start, node.end))
        return expanded_children(node)

    with patch.object(Node, "expanded_children", record):
        split(text)
    return built


def build_parts(root: Node, built: _Built) -> Node:
    """`root` with the deferred parts of the nodes of `built` built."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.expand is not None and (node.kind, node.start, node.end) in built:
            node.expanded_children()
        stack.extend(node.children)
    return root


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
    built = {text: built_by_split(splitter.split, text) for text in texts}

    def outline_as_split(text: str) -> Node:
        return build_parts(detect(text), built[text])

    best = best_per_document(
        {
            "tiktoken": encoding.encode_ordinary,
            "parse": parse,
            "outline": detect,
            "parts": outline_as_split,
            "split": splitter.split,
        },
        texts,
        args.repeat,
    )
    tiktoken_pass, parsed, outline, split = best["tiktoken"], best["parse"], best["outline"], best["split"]
    parts = best["parts"] - outline
    size = sum(len(text) for text in texts)
    print(f"{len(texts)} modules, {size / 1e6:.2f} M characters, chunk_size {args.chunk_size}")
    print(f"tiktoken encode_ordinary: {tiktoken_pass * 1000:8.1f} ms")
    print(f"tree-sitter parse:        {parsed * 1000:8.1f} ms  {parsed / tiktoken_pass:5.2f}x")
    print(f"outline (parse + walk):   {outline * 1000:8.1f} ms  {outline / tiktoken_pass:5.2f}x")
    print(f"deferred parts of split:  {parts * 1000:8.1f} ms  {parts / tiktoken_pass:5.2f}x")
    print(f"split:                    {split * 1000:8.1f} ms  {split / tiktoken_pass:5.2f}x")
    rest = split - outline - parts
    print(f"  less outline and parts: {rest * 1000:8.1f} ms  {rest / tiktoken_pass:5.2f}x")


if __name__ == "__main__":
    main()
