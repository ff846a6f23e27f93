"""Time to split the plain-text corpus (`benchmarks/plain_text.py`, flat and as
paragraphs, lower-cased too) as `doc_type="text"`, as a ratio to one tiktoken pass; and
the same of its CJK documents alone (their sync points are their punctuation: `tokens/sync.py`).

    python -m benchmarks.text_speed [--budget 512] [--repeat 5]
"""

from __future__ import annotations

import argparse

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import FORMS, plain_texts, shared_corpus
from outline_splitter.tokens import load_encoding


def main() -> None:
    pages = shared_corpus("html-web-expected")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [text for form in FORMS for text in plain_texts(form, pages)]
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type="text", chunk_size=args.budget)
    splitter.split(texts[0])  # load the tokenizer tables outside the timing
    runs = {"floor": encoding.encode_ordinary, "split": splitter.split}
    best = best_per_document(runs, texts, args.repeat)
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"{len(texts)} documents, {megabytes:.2f} MB, budget {args.budget}")
    print(f"tiktoken encode_ordinary: {best['floor']:.3f} s = 1.00x")
    print(f"OutlineTextSplitter.split: {best['split']:.3f} s = {best['split'] / best['floor']:.2f}x")
    cjk = [text for text in texts if sum(character >= _CJK_FROM for character in text) > len(text) * 0.3]
    if cjk:
        best = best_per_document(runs, cjk, args.repeat)
        print(f"its {len(cjk)} CJK documents alone: split {best['split'] / best['floor']:.2f}x")


_CJK_FROM = "\u2e80"  # (CJK radicals, punctuation, kana, ideographs, Hangul, full-width forms up)


if __name__ == "__main__":
    main()
