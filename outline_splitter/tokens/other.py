"""Tokenizers other than tiktoken: Hugging Face `tokenizers` and plain callables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from outline_splitter.tokens.base import SpanCounter
from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.sanitize import as_encoded


class HuggingFaceTokenizer:
    """A Hugging Face `tokenizers.Tokenizer` (or a `transformers` tokenizer); special
    tokens are not added, so a chunk's count is the count of its own text."""

    def __init__(self, tokenizer: Any) -> None:
        self.name = str(getattr(tokenizer, "name_or_path", None) or type(tokenizer).__name__)
        if getattr(tokenizer, "truncation", None) is not None or getattr(tokenizer, "padding", None) is not None:
            # a model's tokenizer.json often truncates and pads to the model's input size
            # (all-MiniLM-L6-v2: 128), which would cap or pad every count: count with a
            # copy that does neither, leaving the user's object as it was
            tokenizer = type(tokenizer).from_str(tokenizer.to_str())
            tokenizer.no_truncation()
            tokenizer.no_padding()
        self.tokenizer = tokenizer

    def encode(self, text: str) -> list[int]:
        encoded = self.tokenizer.encode(as_encoded(text), add_special_tokens=False)
        ids = getattr(encoded, "ids", encoded)
        return list(ids)

    def decode(self, tokens: list[int]) -> str:
        return str(self.tokenizer.decode(tokens))

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def span_counter(self, text: str) -> SpanCounter:
        return FastTokenizer(self, text)


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
