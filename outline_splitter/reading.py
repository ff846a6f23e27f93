"""Reading a file's text for `split_file`, `split_many`, the command line and Ray: the
order of the checks, the policy for bytes that do not decode, and for a byte-order mark.

A file is checked in `bad_input`'s order (a directory or a missing file, the extension
under `"auto"`, then its bytes: binary, undecodable), each problem a `BadInput` in that
module's words. Strict by default: the first undecodable byte is a `BadInput` naming its
offset in the file; `decode_errors="replace"` reads on, each bad byte a U+FFFD. A
leading BOM (U+FEFF, from any encoding) is dropped, so the text starts at the first
character after it: chunk offsets are character offsets into the decoded text without
its BOM (and with its U+FFFDs), never byte offsets.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from outline_splitter.bad_input import (
    BINARY,
    DANGLING,
    DIRECTORY,
    MISSING,
    UNDECODABLE,
    UNREADABLE,
    BadInput,
    bad_input,
    check_not_binary,
)
from outline_splitter.registry import doc_type_for_path


def check_encoding(encoding: object) -> str:
    """`encoding`, or a `ValueError` naming it if Python has no such codec."""
    try:
        codecs.lookup(encoding)  # type: ignore[arg-type]  # (a bad type is the ValueError below)
    except (LookupError, TypeError) as exc:
        raise ValueError(f"encoding must be a codec name such as 'utf-8', not {encoding!r}") from exc
    assert isinstance(encoding, str)
    return encoding


def read_input(path: Path, doc_type: str | None, encoding: str, decode_errors: str) -> tuple[str, str]:
    """The doc type (`doc_type`, or by extension where None) and text of the file at
    `path`, checked in the module's order; a `BadInput` naming `path` otherwise."""
    try:
        if path.is_dir():
            raise bad_input(DIRECTORY)
        if not path.exists():
            raise bad_input(DANGLING if path.is_symlink() else MISSING)
        found = doc_type or doc_type_for_path(path)
        return found, read_text_file(path, encoding, decode_errors)
    except BadInput as exc:
        raise exc.named(str(path)) from exc


def read_text_file(path: Path, encoding: str = "utf-8", decode_errors: str = "strict") -> str:
    """The text of the file at `path` by the module's policy (see the docstring)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:  # (a dangling symbolic link exists as a name only)
        raise bad_input(MISSING) from exc
    except OSError as exc:
        raise bad_input(UNREADABLE, reason=exc.strerror or exc) from exc
    return decode_text(data, encoding, decode_errors)


def decode_text(data: bytes, encoding: str = "utf-8", decode_errors: str = "strict") -> str:
    """A file's bytes as its text by the module's policy (`BadInput`, BOM dropped)."""
    try:
        text = data.decode(encoding, decode_errors)
    except UnicodeDecodeError as exc:
        if b"\x00" in data:
            raise bad_input(BINARY) from exc
        raise bad_input(UNDECODABLE, encoding=encoding, byte=exc.start, reason=exc.reason) from exc
    check_not_binary(text)
    return text[1:] if text.startswith("\ufeff") else text
