"""Reading a file's text for `split_file` and `split_many`: the policy for bytes that do
not decode, and for a byte-order mark.

Strict by default: the first undecodable byte is an `UndecodableError` (a `ValueError`)
naming the byte offset in the file; `errors="replace"` (or any other codec error
handler, e.g. `"ignore"`) reads on instead. A leading BOM (U+FEFF, from any encoding)
is dropped, so the text starts at the first character after it: chunk offsets are
character offsets into the decoded text without its BOM, never byte offsets.
"""

from __future__ import annotations

import codecs
from pathlib import Path


class UndecodableError(ValueError):
    """A file's bytes that do not decode; `byte` is their offset in the file. The
    message says why, without the path (the caller adds it where it has none)."""

    def __init__(self, encoding: str, error: UnicodeDecodeError) -> None:
        self.byte = error.start
        super().__init__(f"cannot decode as {encoding} (byte {error.start}: {error.reason})")


def check_decoding(encoding: str, errors: str) -> None:
    """`ValueError` naming `encoding` or `errors` if Python has no such codec or handler."""
    try:
        codecs.lookup(encoding)
    except (LookupError, TypeError) as exc:
        raise ValueError(f"encoding must be a codec name such as 'utf-8', not {encoding!r}") from exc
    try:
        codecs.lookup_error(errors)
    except (LookupError, TypeError) as exc:
        raise ValueError(f"errors must be a codec error handler ('strict', 'replace', ...), not {errors!r}") from exc


def read_text_file(path: Path, encoding: str = "utf-8", errors: str = "strict") -> str:
    """The text of the file at `path` by the module's policy (see the docstring)."""
    return decode_text(path.read_bytes(), encoding, errors)


def decode_text(data: bytes, encoding: str = "utf-8", errors: str = "strict") -> str:
    """A file's bytes as its text by the module's policy (`UndecodableError`, BOM dropped)."""
    try:
        text = data.decode(encoding, errors)
    except UnicodeDecodeError as exc:
        raise UndecodableError(encoding, exc) from exc
    return text[1:] if text.startswith("\ufeff") else text
