"""Hugging Face tokenizers (`tokenizers.Tokenizer`, or a `transformers` fast tokenizer).

A chunk's count is `len(encode(text, add_special_tokens=False))` of its own text, the
text repaired as tiktoken repairs surrogates (`sanitize.as_encoded`; the Rust side
refuses a string holding one). Where the tokenizer's pipeline is one whose tokens of a
span are the whole document's tokens between white space (`_splits_at_white_space`),
spans are counted by a `TokenIndex` built from one encode of the document and its
`offsets`, so a greedy join costs two short edge encodes, never an encode of the
growing chunk; any other pipeline is counted span by span (`FastTokenizer`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from outline_splitter.tokens.base import SpanCounter
from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.index import TokenIndex
from outline_splitter.tokens.positions import offsets_for
from outline_splitter.tokens.sanitize import as_encoded
from outline_splitter.tokens.sync import WHITESPACE

# Normalizers that map each character on its own (or, NF*, each run of combining marks
# with its base, and no white space composes with what follows it): normalizing a span
# cut next to white space gives that part of the normalized document.
_LOCAL_NORMALIZERS = frozenset({"BertNormalizer", "Lowercase", "NFC", "NFD", "NFKC", "NFKD", "StripAccents", "Nmt"})
# Pre-tokenizers that split at every white space character and keep none of it in a
# piece (BERT's, `\w+|[^\w\s]+`, white space alone) ...
_WHITE_SPACE_SPLITTERS = frozenset({"BertPreTokenizer", "Whitespace", "WhitespaceSplit"})
# ... and ones that only split pieces further, never join them.
_FURTHER_SPLITTERS = _WHITE_SPACE_SPLITTERS | {"Punctuation", "Digits", "UnicodeScripts"}


def _normalizer_is_local(config: dict[str, Any] | None) -> bool:
    if config is None:
        return True
    if config["type"] == "Sequence":
        return all(_normalizer_is_local(part) for part in config["normalizers"])
    return config["type"] in _LOCAL_NORMALIZERS


def _pre_tokenizer_parts(config: dict[str, Any] | None) -> list[str]:
    if config is None:
        return []
    if config["type"] == "Sequence":
        return [name for part in config["pretokenizers"] for name in _pre_tokenizer_parts(part)]
    return [config["type"]]


def _splits_at_white_space(config: dict[str, Any]) -> bool:
    """Whether a tokenizer (its `to_str()` as JSON) gives any span cut next to white
    space the whole document's tokens there: a char-local normalizer, pre-tokenizers
    that split at white space and drop it (one of them) and otherwise only split, a
    model without randomness (BPE dropout), and added tokens that neither hold white
    space nor strip it from their sides (so none matches across white space; the model
    then works on each piece alone, whatever its type)."""
    parts = _pre_tokenizer_parts(config.get("pre_tokenizer"))
    return (
        _normalizer_is_local(config.get("normalizer"))
        and any(part in _WHITE_SPACE_SPLITTERS for part in parts)
        and all(part in _FURTHER_SPLITTERS for part in parts)
        and not (config.get("model") or {}).get("dropout")
        and not any(
            token.get("lstrip") or token.get("rstrip") or any(c.isspace() for c in token["content"])
            for token in config.get("added_tokens") or []
        )
    )


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
        # the Rust tokenizer, which gives offsets (a `transformers` fast tokenizer wraps one)
        backend = getattr(tokenizer, "backend_tokenizer", tokenizer)
        self._backend = backend if hasattr(backend, "to_str") else None
        self._indexable = self._backend is not None and _splits_at_white_space(json.loads(self._backend.to_str()))

    def encode(self, text: str) -> list[int]:
        encoded = self.tokenizer.encode(as_encoded(text), add_special_tokens=False)
        ids = getattr(encoded, "ids", encoded)
        return list(ids)

    def decode(self, tokens: list[int]) -> str:
        return str(self.tokenizer.decode(tokens))

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def span_counter(self, text: str) -> SpanCounter:
        """A `TokenIndex` of `text` where the pipeline allows one, else a `FastTokenizer`."""
        index = self.index(text) if self._indexable else None
        return index if index is not None else FastTokenizer(self, text)

    def index(self, text: str) -> TokenIndex | None:
        """The `TokenIndex` of `text`, from one encode and its character offsets, for a
        pipeline that splits at white space (None for another, or should the offsets
        go back: the index searches them)."""
        if self._backend is None or not self._indexable:
            return None
        offsets = self._backend.encode(as_encoded(text), add_special_tokens=False).offsets
        bounds = np.array(offsets, dtype=np.int64).reshape(-1, 2)
        starts, ends = np.ascontiguousarray(bounds[:, 0]), np.ascontiguousarray(bounds[:, 1])
        if np.any(starts[1:] < starts[:-1]) or np.any(ends[1:] < ends[:-1]):
            return None
        return TokenIndex(text, starts.data, ends.data, offsets_for(text, "char"), WHITESPACE, self.count)
