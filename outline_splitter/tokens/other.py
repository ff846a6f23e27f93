"""Plain callables as tokenizers (`len`, a word count, a model's own counter)."""

from __future__ import annotations

from collections.abc import Callable

from outline_splitter.tokens.base import SpanCounter
from outline_splitter.tokens.fast import FastTokenizer


class CallableTokenizer:
    """Any callable `str -> int` (`len` counts characters)."""

    def __init__(self, function: Callable[[str], int]) -> None:
        self.function = function
        self.name = getattr(function, "__name__", type(function).__name__)

    def count(self, text: str) -> int:
        """The callable's count of `text`; a `ValueError` naming `tokenizer` (the
        callable's own exception chained) where it raises or returns no count."""
        try:
            result = self.function(text)
        except Exception as exc:
            name = type(exc).__name__
            raise ValueError(f"tokenizer {self.name!r} raised {name} on a {len(text)}-character text") from exc
        if isinstance(result, bool) or not isinstance(result, int) or result < 0:
            raise ValueError(f"tokenizer {self.name!r} must return a count (an int >= 0), not {result!r}")
        return result

    def span_counter(self, text: str) -> SpanCounter:
        if self.function is len:
            return CharacterCounter()
        return FastTokenizer(self, text)


class CharacterCounter:
    """Span counts in characters: the span's length, no work at all."""

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        return max(end - start, 0)
