"""Time to split with a Hugging Face tokenizer and with plain callables, as a ratio to
one encode (one call) of the same text with the same tokenizer.

    python -m benchmarks.hf_speed [--repeat 3] [--budgets 512 4096]

The Hugging Face tokenizers are a BERT-style WordPiece (BERT's normalizer and
pre-tokenizer) and a GPT-2-style byte-level BPE, 8,000 pieces each, trained here on the
Markdown corpus, so nothing is downloaded. Inputs: every document of ../shared/corpora/markdown (as Markdown) and
`"x\\n\\n" * 13333` (as text), which issue 17 timed at 3.7 s (512) to 24 s (4096) when
each greedy join re-encoded the open chunk. A split should cost a few encodes at most,
whatever the budget. The callables (`len`, a word count) have no offsets to index: their
rows show whether the time grows with the budget.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "markdown"
REPEATED = "x\n\n" * 13333


def word_count(text: str) -> int:
    """Words separated by white space."""
    return len(text.split())


def train_word_piece(texts: list[str]) -> Any:
    """A BERT-style WordPiece tokenizer trained on `texts`."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer()
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=8000, special_tokens=["[UNK]", "[CLS]", "[SEP]"])
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return tokenizer


def train_byte_level_bpe(texts: list[str]) -> Any:
    """A GPT-2-style byte-level BPE tokenizer (a space before each word's piece) trained on `texts`."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=8000, special_tokens=["<|endoftext|>"], initial_alphabet=alphabet)
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return tokenizer


def row(
    name: str,
    floor: Callable[[str], object],
    tokenizer: Any,
    inputs: dict[str, tuple[str, list[str]]],
    budgets: list[int],
    repeat: int,
) -> None:
    for label, (doc_type, texts) in inputs.items():
        runs: dict[str, Callable[[str], object]] = {"floor": floor}
        for budget in budgets:
            runs[str(budget)] = OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, tokenizer=tokenizer).split
        best = best_per_document(runs, texts, repeat)
        cells = "".join(f" | {best[str(b)]:7.3f} s {best[str(b)] / best['floor']:6.2f}x" for b in budgets)
        print(f"| {name:<10} | {label:<18} | {best['floor']:7.3f} s{cells} |")


def main() -> None:
    shared_corpus("markdown")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budgets", type=int, nargs="+", default=[512, 4096])
    args = parser.parse_args()
    markdown = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    inputs = {f"markdown ({len(markdown)} docs)": ("markdown", markdown), '"x\\n\\n" * 13333': ("text", [REPEATED])}
    word_piece = train_word_piece(markdown)

    def encode(text: str) -> object:
        return word_piece.encode(text, add_special_tokens=False)

    header = "".join(f" | split at {b:<5}      " for b in args.budgets)
    print(f"| tokenizer  | input              | one encode{header} |")
    print("|---|---|---|" + "---|" * len(args.budgets))
    row("WordPiece", encode, word_piece, inputs, args.budgets, args.repeat)
    byte_level = train_byte_level_bpe(markdown)

    def encode_bytes(text: str) -> object:
        return byte_level.encode(text, add_special_tokens=False)

    row("byte BPE", encode_bytes, byte_level, inputs, args.budgets, args.repeat)
    row("word count", word_count, word_count, inputs, args.budgets, args.repeat)
    row("len", len, len, inputs, args.budgets, args.repeat)


if __name__ == "__main__":
    main()
