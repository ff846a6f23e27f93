"""How often the two Markdown parsers' chunk boundaries differ on the shared corpus
(report only: each parser's outline is its own reading, docs/design.md).

    python -m benchmarks.markdown_parsers [--budgets 128 512]

For each budget: the documents of ../shared/corpora/markdown whose chunks (their spans)
differ between `markdown_parser="markdown-it"` and `"pulldown-cmark"`, each named with
how many of its chunk ends only one of the two has.
"""

from __future__ import annotations

import argparse

from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.options import MARKDOWN_PARSERS


def _ends(text: str, budget: int, parser: str) -> set[int]:
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=budget, markdown_parser=parser)
    return {chunk.end_pos for chunk in splitter.split(text)}


def main() -> None:
    corpus = shared_corpus("markdown")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[128, 512])
    args = parser.parse_args()
    paths = sorted(corpus.glob("*.md"))
    for budget in args.budgets:
        differ = []
        for path in paths:
            text = path.read_text(encoding="utf-8")
            first, second = (_ends(text, budget, name) for name in MARKDOWN_PARSERS)
            if first != second:
                differ.append(f"{path.name} ({len(first ^ second)} of {len(first | second)} chunk ends)")
        print(f"budget {budget}: {len(differ)} of {len(paths)} documents differ" + "".join(f"\n  {d}" for d in differ))


if __name__ == "__main__":
    main()
