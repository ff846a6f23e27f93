"""The kinds of input that cannot be split, and the words each entry point says them in.

`split_file`, `split_many`, the command line, Ray and the framework front ends all
raise (or report) a `BadInput` made here, so one bad file reads the same everywhere:
`"<file>: <words>"` where the entry point names the file, the words alone where the
file is named beside them (`SplitResult.source`, a Ray row's path). The checks come in
one order everywhere: a directory or a missing file, then the extension (under
`doc_type="auto"`), then the bytes (binary, then undecodable). An empty file is not
bad: it has no chunks (docs/usage.md's table of these words is kept equal to `WORDS`
by a test).
"""

from __future__ import annotations

DIRECTORY = "directory"
MISSING = "missing"
DANGLING = "dangling link"
UNREADABLE = "unreadable"
UNKNOWN_EXTENSION = "unknown extension"
BINARY = "binary"
UNDECODABLE = "undecodable"

#: Each kind's words; `{...}` fields are filled from the input.
WORDS: dict[str, str] = {
    DIRECTORY: "a directory, not a file",
    MISSING: "no such file or directory",
    DANGLING: "a dangling symbolic link",
    UNREADABLE: "cannot read ({reason})",
    UNKNOWN_EXTENSION: "unknown extension {extension!r}: doc_type 'auto' knows {known} (or pass doc_type)",
    BINARY: "a binary file (it holds NUL bytes), not text",
    UNDECODABLE: "cannot decode as {encoding} (byte {byte}: {reason}); decode_errors='replace' reads such bytes "
    "as U+FFFD",
}


class BadInput(ValueError):
    """An input that cannot be split: `kind` (a key of `WORDS`), `words` (its message
    without the file) and `name` (the file, or None); `str()` is `"<name>: <words>"`."""

    def __init__(self, kind: str, words: str, name: str | None = None) -> None:
        self.kind = kind
        self.words = words
        self.name = name
        super().__init__(words if name is None else f"{name}: {words}")

    def named(self, name: str) -> BadInput:
        """The same problem, said of the file `name`."""
        return BadInput(self.kind, self.words, name)


def bad_input(kind: str, **fields: object) -> BadInput:
    """The `BadInput` of `kind`, its words filled from `fields`."""
    return BadInput(kind, WORDS[kind].format(**fields))


def check_not_binary(text: str) -> None:
    """`BadInput` (binary) where `text` holds a NUL character: no text format has one,
    and a file decoded leniently (or by a framework's loader) that holds one is binary."""
    if "\x00" in text:
        raise bad_input(BINARY)
