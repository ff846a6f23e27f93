"""Issue 16's "Done when", at full size: texts drawn from the alphabet that breaks
tokenizers (`tests/test_tokenizers.BREAKERS`), split as every doc type (HTML in both
output modes) at every budget from 1 to 64 with cl100k_base; counts the chunks whose
`token_count` differs from a plain encode of their text and those over the budget
(below 4 tokens a single character may be over: the documented exception).

    python -m tests.fuzz_counts [--seed 1] [--texts 60]

The regular suite draws the same (`test_chunk_counts_agree_with_plain_encodes_...`).
"""

from __future__ import annotations

import argparse
import random

from outline_splitter import OutlineTextSplitter
from outline_splitter.registry import FORMATS
from outline_splitter.tokens import load_encoding
from tests.test_tokenizers import BREAKERS


def fuzz_text(rng: random.Random) -> str:
    """Up to 40 parts, half of them breakers, the rest short runs of plain characters."""
    parts = []
    for _ in range(rng.randint(0, 40)):
        if rng.random() < 0.5:
            parts.append(rng.choice(BREAKERS))
        else:
            parts.append("".join(rng.choice("ab Z.,\n1") for _ in range(rng.randint(0, 6))))
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--texts", type=int, default=60)
    args = parser.parse_args()
    encoding = load_encoding("cl100k_base")
    rng = random.Random(args.seed)
    modes = [(fmt.name, output) for fmt in FORMATS for output in fmt.outputs]
    chunks = mismatches = over = 0
    for _ in range(args.texts):
        text = fuzz_text(rng)
        for doc_type, output in modes:
            for budget in range(1, 65):
                for chunk in OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, output=output).split(text):
                    chunks += 1
                    plain = len(encoding.encode(chunk.text, disallowed_special=()))
                    if chunk.token_count != plain:
                        mismatches += 1
                        print(f"count {chunk.token_count} != {plain}: {doc_type}/{output} at {budget}: {chunk.text!r}")
                    if plain > budget and not (budget < 4 and len(chunk.text) == 1):
                        over += 1
                        print(f"over {budget}: {doc_type}/{output}: {chunk.text!r} ({plain} tokens)")
    sizes = f"{args.texts} texts x {len(modes)} modes x budgets 1-64"
    print(f"{sizes}: {chunks} chunks, {mismatches} mismatches, {over} over")


if __name__ == "__main__":
    main()
