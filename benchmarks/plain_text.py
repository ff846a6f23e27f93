"""A plain-text corpus and how often its chunks end inside a sentence.

    python -m benchmarks.plain_text [--budget 256]

No plain-text corpus ships with the project; the readable text of every page of
../shared/corpora/html-web-expected (news, blogs, Wikipedia, a Chinese page) stands in,
in four forms: with its blocks as paragraphs, and flattened to one line (as scraped text
and transcripts come), each as written and lower-cased (as the Chroma `finance` corpus
and much scraped text come). Sentences are found here by a rule of this module's own,
not by the splitter's.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.bench.corpora import FORMS, plain_texts, shared_corpus

# A text that ends a sentence: terminal punctuation, then closing quotes, brackets or citation marks.
_ENDS_SENTENCE = re.compile(r"""[.!?…。！？।॥؟۔](?:["'”’»)\]」』》】）]|\[[^\[\]]{1,24}\])*$""")
_SENTENCE_END = re.compile(r"""[.!?…。！？।॥؟۔](?:["'”’»)\]」』》】）]|\[[^\[\]]{1,24}\])*(?:\s|(?<=[。！？]))""")


@dataclass
class SentenceScore:
    """Chunk boundaries of a split, those inside a sentence that fits the budget (a
    boundary inside a longer one is forced), and the chunks' mean fill."""

    boundaries: int = 0
    inside: int = 0
    forced: int = 0
    fill_total: float = 0.0
    chunks: int = 0

    @property
    def inside_rate(self) -> float:
        return self.inside / max(1, self.boundaries - self.forced)

    @property
    def mean_fill(self) -> float:
        return self.fill_total / max(1, self.chunks)


def score_sentences(
    text: str, chunks: list[TextChunk], count: Callable[[str], int], budget: int, score: SentenceScore
) -> list[str]:
    """Add one split to `score`; return the text around each boundary inside a sentence."""
    inside: list[str] = []
    score.chunks += max(0, len(chunks) - 1)  # the last chunk holds what is left: not a measure of fill
    score.fill_total += sum(chunk.token_count / budget for chunk in chunks[:-1])
    for chunk, following in pairwise(chunks):
        score.boundaries += 1
        if _ENDS_SENTENCE.search(chunk.text) or "\n" in text[chunk.end_pos : following.start_pos]:
            continue
        before = [m.end() for m in _SENTENCE_END.finditer(text, max(0, chunk.end_pos - 20 * budget), chunk.end_pos)]
        after = _SENTENCE_END.search(text, chunk.end_pos)
        sentence = text[before[-1] if before else 0 : after.end() if after else len(text)]
        if count(sentence) > budget:
            score.forced += 1
            continue
        score.inside += 1
        inside.append(f"{text[chunk.end_pos - 50 : chunk.end_pos]!r} | {text[following.start_pos :][:30]!r}")
    return inside


def main() -> None:
    pages = shared_corpus("html-web-expected")  # stops with a message on a clone without ../shared
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--show", action="store_true", help="print the text around each boundary inside a sentence")
    args = parser.parse_args()
    splitter = OutlineTextSplitter(doc_type="text", chunk_size=args.budget)
    for form in FORMS:
        score = SentenceScore()
        for text in plain_texts(form, pages):
            found = score_sentences(text, splitter.split(text), splitter.tokenizer.count, args.budget, score)
            if args.show:
                print("\n".join(f"  {line}" for line in found))
        print(
            f"{form}: {score.boundaries} boundaries, {score.forced} forced, {score.inside} inside a sentence "
            f"({score.inside_rate:.1%}), mean fill {score.mean_fill:.3f}"
        )


if __name__ == "__main__":
    main()
