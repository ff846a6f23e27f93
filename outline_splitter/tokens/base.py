"""The tokenizer protocol and the per-document span counter protocol."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

# How far a close estimate of a span's tokens (from whole-document token positions) is
# trusted to be off: by the tokens of the span's two edge pieces, rarely more. A span
# estimated this far under a limit is taken to fit, this far over it to be over; every
# chunk is still counted exactly when it is closed, so a wrong guess costs time only.
ESTIMATE_MARGIN = 16


@runtime_checkable
class Tokenizer(Protocol):
    """Counts tokens of a string. `name` identifies it in chunk metadata and errors."""

    name: str

    def count(self, text: str) -> int:
        """Number of tokens of `text`."""
        ...


@runtime_checkable
class EncodingTokenizer(Tokenizer, Protocol):
    """A tokenizer that can also encode to and decode from token ids."""

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`."""
        ...

    def decode(self, tokens: list[int]) -> str:
        """The text of `tokens`."""
        ...


class SpanCounter(Protocol):
    """Counts tokens of spans of one document: `count(a, b)` is the exact token count of
    `text[a:b]`, or, where `limit` is given and the span is surely over it, any number
    above `limit` (so a caller that only asks "does it fit?" pays no full encode)."""

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        """Tokens of `text[start:end]`; exact whenever the result is `<= limit`."""
        ...
