"""Hugging Face tokenizers (`tokenizers.Tokenizer`, or a `transformers` fast tokenizer).

A chunk's count is `len(encode(text, add_special_tokens=False))` of its own text, the
text repaired as tiktoken repairs surrogates (`sanitize.as_encoded`; the Rust side
refuses a string holding one). Where the tokenizer's pipeline is known to give a span
cut at certain positions the whole document's tokens there (`_sync_rule`: next to white
space where the pieces never hold any, or before white space for GPT-2's byte-level
pieces), spans are counted by a `TokenIndex` built from one encode of the document and
its `offsets`, so a greedy join costs two short edge encodes, never an encode of the
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
from outline_splitter.tokens.sorted_offsets import SortedOffsets
from outline_splitter.tokens.sync import BYTE_LEVEL, PREFIXED_BYTE_LEVEL, WHITESPACE, SyncRule

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


def _sync_rule(config: dict[str, Any]) -> SyncRule | None:
    """The sync points of a tokenizer (its `to_str()` as JSON), if its pipeline is known
    to give any span cut at them the whole document's tokens there: a char-local
    normalizer; pre-tokenizers that split at white space and drop it (one of them) and
    otherwise only split (`WHITESPACE`), or GPT-2's byte-level one (`BYTE_LEVEL`, or
    `PREFIXED_BYTE_LEVEL` with `add_prefix_space`); a model without randomness (BPE
    dropout); and added tokens that neither hold white space nor strip it from their
    sides, so that none matches across a sync point (the model then works on each piece
    alone, whatever its type)."""
    if not _normalizer_is_local(config.get("normalizer")) or (config.get("model") or {}).get("dropout"):
        return None
    for token in config.get("added_tokens") or []:
        if token.get("lstrip") or token.get("rstrip") or any(c.isspace() for c in token["content"]):
            return None
    pre_tokenizer = config.get("pre_tokenizer") or {}
    if pre_tokenizer.get("type") == "ByteLevel" and pre_tokenizer.get("use_regex", True):
        return PREFIXED_BYTE_LEVEL if pre_tokenizer.get("add_prefix_space", True) else BYTE_LEVEL
    parts = _pre_tokenizer_parts(config.get("pre_tokenizer"))
    if any(part in _WHITE_SPACE_SPLITTERS for part in parts) and all(part in _FURTHER_SPLITTERS for part in parts):
        return WHITESPACE
    return None


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
        self._rule = None if self._backend is None else _sync_rule(json.loads(self._backend.to_str()))
        if self._rule is not None and backend.post_processor is not None:
            # without special tokens a post-processor changes only offsets (the byte-level
            # one moves a token's start past its leading space): the index reads a copy's
            self._backend = type(backend).from_str(backend.to_str())
            self._backend.post_processor = None

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
        index = self.index(text)
        return index if index is not None else FastTokenizer(self, text)

    def index(self, text: str) -> TokenIndex | None:
        """The `TokenIndex` of `text`, from one encode and its character offsets, for a
        pipeline with known sync points (None for another, or should the offsets go
        back: the index searches them)."""
        if self._backend is None or self._rule is None:
            return None
        offsets = self._backend.encode(as_encoded(text), add_special_tokens=False).offsets
        bounds = np.array(offsets, dtype=np.int64).reshape(-1, 2)
        starts, ends = np.ascontiguousarray(bounds[:, 0]), np.ascontiguousarray(bounds[:, 1])
        if np.any(starts[1:] < starts[:-1]) or np.any(ends[1:] < ends[:-1]):
            return None
        return TokenIndex(
            text,
            SortedOffsets.from_array(starts),
            SortedOffsets.from_array(ends),
            offsets_for(text, "char"),
            self._rule,
            self.count,
        )
