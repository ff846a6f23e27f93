"""Token counting: the tokenizer protocol, its implementations, and span counters.

`resolve_tokenizer` turns what a user passes as `tokenizer=` into a `Tokenizer`;
`span_counter_for` gives the per-document counter that the packer asks, and
`DocumentCounters` makes it for a document's source beside its detection (`counters.py`).
"""

from __future__ import annotations

from typing import Any

from outline_splitter.tokens.base import EncodingTokenizer, SpanCounter, Tokenizer
from outline_splitter.tokens.counters import DocumentCounters, span_counter_for
from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.huggingface import HuggingFaceTokenizer
from outline_splitter.tokens.other import CallableTokenizer, CharacterCounter
from outline_splitter.tokens.tiktoken_tokenizer import TiktokenTokenizer, load_encoding

__all__ = [
    "CallableTokenizer",
    "CharacterCounter",
    "DocumentCounters",
    "EncodingTokenizer",
    "FastTokenizer",
    "HuggingFaceTokenizer",
    "SpanCounter",
    "TiktokenTokenizer",
    "Tokenizer",
    "load_encoding",
    "resolve_tokenizer",
    "span_counter_for",
]


def resolve_tokenizer(spec: Any) -> Tokenizer:
    """A `Tokenizer` from an encoding name, a `tiktoken.Encoding`, a Hugging Face
    tokenizer, a `Tokenizer`, or a callable `str -> int`.

    Raises `ValueError` (naming `tokenizer`) for anything else or an unknown name.
    """
    if isinstance(spec, str):
        return TiktokenTokenizer.from_name(spec)
    type_name = f"{type(spec).__module__}.{type(spec).__qualname__}"
    if type_name.startswith("tiktoken.") and hasattr(spec, "encode_ordinary"):
        return TiktokenTokenizer(spec)
    if type_name.startswith(("tokenizers.", "transformers.")) and hasattr(spec, "encode"):
        return HuggingFaceTokenizer(spec)
    if isinstance(spec, Tokenizer):
        return spec
    if callable(spec):
        return CallableTokenizer(spec)
    raise ValueError(
        f"tokenizer must be a tiktoken encoding name (e.g. 'cl100k_base'), a tiktoken.Encoding, "
        f"a Hugging Face tokenizer, a Tokenizer or a callable str -> int, not {type(spec).__name__}"
    )
