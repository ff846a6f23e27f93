"""`FastTokenizer`: answers "does this span fit?" without encoding spans that surely do not.

The seed (vectra's FastTokenizer) estimated `0.75 * len(text)` tokens and, where that
estimate passed 110% of the budget, returned it without encoding. Here the estimate is
calibrated on the document itself (bytes per token of a sample), divided by a safety
factor so that an estimate above the budget almost never belongs to a span that fits,
and counts are cached per span. An estimate only ever steers where the packer descends;
every count at or under the limit is exact.
"""

from __future__ import annotations

from outline_splitter.tokens.base import Tokenizer

# Real text runs well above 2 bytes per token only rarely (long runs of spaces or
# repeated punctuation); estimates use the calibrated ratio times this factor.
SAFETY_FACTOR = 1.5
SURELY_OVER = 1.1
CALIBRATION_CHARS = 4096


class FastTokenizer:
    """A tokenizer wrapper for one document that skips exact counts of oversized spans.

    `count(a, b, limit)` returns the exact token count of `text[a:b]` unless the span is
    estimated above `SURELY_OVER * limit`, in which case it returns that estimate (which
    is then always above `limit`). Exact counts are cached per span.
    """

    def __init__(self, tokenizer: Tokenizer, text: str) -> None:
        self.tokenizer = tokenizer
        self.text = text
        self._cache: dict[tuple[int, int], int] = {}
        sample = text[:CALIBRATION_CHARS]
        sample_tokens = tokenizer.count(sample) if sample.strip() else 0
        # chars per token of the sample, made generous so estimates err low
        ratio = len(sample) / sample_tokens if sample_tokens else 4.0
        self.chars_per_token = max(ratio, 1.0) * SAFETY_FACTOR
        self.encoded_chars = 0  # how many characters were really encoded (for benchmarks)

    def estimate(self, start: int, end: int) -> int:
        """A low estimate of the tokens of `text[start:end]`, from its length."""
        return int((end - start) / self.chars_per_token)

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        """Exact tokens of `text[start:end]`, or an estimate above `limit` if surely over it."""
        key = (start, end)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if limit is not None:
            estimate = self.estimate(start, end)
            if estimate > SURELY_OVER * limit:
                return estimate
        exact = self.tokenizer.count(self.text[start:end])
        self.encoded_chars += end - start
        self._cache[key] = exact
        return exact
