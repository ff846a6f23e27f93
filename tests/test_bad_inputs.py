"""One error per kind of bad input (issue 51): the same bad files (a PNG, an empty file, a
directory, an unknown extension, Latin-1 bytes, a binary under a text extension) fed to
every entry point (`split_file`, `split_many`, the command line, Ray's batch mapper, the
LangChain, LlamaIndex and Haystack front ends) give the same words, those of
`bad_input.WORDS` and of docs/usage.md's table; an empty file gives no chunks, and in Ray
a row that says so. `decode_errors="replace"` keeps the Latin-1 file everywhere bytes
are read."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

from outline_splitter import OutlineTextSplitter, split_many
from outline_splitter.bad_input import BINARY, DIRECTORY, UNDECODABLE, UNKNOWN_EXTENSION, WORDS, BadInput
from outline_splitter.cli import main

ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
LATIN1 = b"# Caf\xe9\n\nCr\xe8me br\xfbl\xe9e.\n"

# Each bad file and the kind of problem it is under doc_type="auto" (None: not a problem, no chunks).
BAD_FILES: dict[str, tuple[bytes | None, str | None]] = {
    "logo.png": (PNG, UNKNOWN_EXTENSION),  # the extension is checked before the bytes
    "notes.xyz": (b"plain words\n", UNKNOWN_EXTENSION),
    "image.md": (PNG, BINARY),
    "latin1.md": (LATIN1, UNDECODABLE),
    "folder.md": (None, DIRECTORY),
    "empty.md": (b"", None),
}

if os.environ.get("CI"):  # CI installs the extras (make test): a missing one is a failure there
    import haystack  # noqa: F401
    import langchain_core  # noqa: F401
    import llama_index.core  # noqa: F401
    import ray  # noqa: F401
else:
    for extra in ("haystack", "langchain_core", "llama_index.core", "ray"):
        pytest.importorskip(extra, reason=f"{extra} is not installed: the test extras (make test) bring it")
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, (data, _) in BAD_FILES.items():
        path = tmp_path / name
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)
        paths[name] = path
    return paths


def _words_of(path: Path) -> str | None:
    """`split_file`'s words for `path` (None where it splits), checked to be its kind's."""
    try:
        OutlineTextSplitter(doc_type="auto").split_file(path)
    except BadInput as exc:
        assert str(exc) == f"{path}: {exc.words}" and exc.kind == BAD_FILES[path.name][1]
        return exc.words
    assert BAD_FILES[path.name][1] is None
    return None


def test_the_words_are_the_tables_and_split_file_says_them(bad_files: dict[str, Path]):
    words = {name: _words_of(path) for name, path in bad_files.items()}
    assert words["folder.md"] == "a directory, not a file"
    assert words["image.md"] == "a binary file (it holds NUL bytes), not text"
    assert (words["logo.png"] or "").startswith("unknown extension '.png': doc_type 'auto' knows .c, ")
    assert words["latin1.md"] == (
        "cannot decode as utf-8 (byte 5: invalid continuation byte); decode_errors='replace' reads such bytes as U+FFFD"
    )
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert all(f"| `{template}` |" in usage for template in WORDS.values())


def test_split_many_and_the_command_line_say_the_same_words(bad_files: dict[str, Path], capsys):
    results = list(split_many(list(bad_files.values()), workers=1, doc_type="auto"))
    for result, (name, path) in zip(results, bad_files.items(), strict=True):
        assert result.error == _words_of(path) and result.source == str(path), name
    assert [result.chunks for result in results if result.ok] == [[]]  # the empty file
    files = [path for path in bad_files.values() if not path.is_dir()]  # (the command line walks a folder)
    assert main(["split", *map(str, files)]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if ": error: " in line]
    assert errors == [f"outline-splitter: error: {path}: {_words_of(path)}" for path in files if _words_of(path)]


def test_ray_says_the_same_words_and_an_empty_file_is_a_row(bad_files: dict[str, Path]):
    import pyarrow as pa

    from outline_splitter.integrations.ray import ChunkRows

    files = [path for path in bad_files.values() if not path.is_dir()]  # (read_binary_files lists files)
    batch = pa.table({"bytes": [path.read_bytes() for path in files], "path": [str(path) for path in files]})
    rows = ChunkRows("bytes", "path", ["path"], "utf-8", {"doc_type": "auto"})(batch).to_pylist()
    assert [row["path"] for row in rows] == [str(path) for path in files]  # one row each, the empty file too
    assert [row["error"] for row in rows] == [_words_of(path) for path in files]
    assert all(row["text"] is None for row in rows)


def _documents(bad_files: dict[str, Path]) -> list[tuple[Path, str]]:
    """The files as a framework's loader gives them: text (bytes it cannot decode as
    U+FFFD, as LlamaIndex's reader with errors="replace"), named by their path."""
    return [(path, path.read_bytes().decode("utf-8", "replace")) for path in bad_files.values() if not path.is_dir()]


def _front_ends() -> dict[str, Any]:
    """Each front end as a function of (options, [(path, text)]) -> its output."""
    from haystack import Document as HaystackDocument
    from langchain_core.documents import Document
    from llama_index.core import Document as LlamaDocument

    from outline_splitter.integrations.haystack import OutlineDocumentSplitter
    from outline_splitter.integrations.langchain import OutlineSplitter
    from outline_splitter.integrations.llama_index import OutlineNodeParser

    def langchain(options: dict[str, Any], docs: list[tuple[Path, str]]) -> tuple[Any, Any]:
        splitter = OutlineSplitter(**options)
        out = splitter.split_documents([Document(page_content=t, metadata={"source": str(p)}) for p, t in docs])
        return splitter, out

    def llama_index(options: dict[str, Any], docs: list[tuple[Path, str]]) -> tuple[Any, Any]:
        parser = OutlineNodeParser(**options)
        return parser, parser.get_nodes_from_documents(
            [LlamaDocument(text=t, metadata={"file_path": str(p)}) for p, t in docs]
        )

    def haystack(options: dict[str, Any], docs: list[tuple[Path, str]]) -> tuple[Any, Any]:
        splitter = OutlineDocumentSplitter(**options)
        return splitter, splitter.run([HaystackDocument(content=t, meta={"file_path": str(p)}) for p, t in docs])

    return {"langchain": langchain, "llama_index": llama_index, "haystack": haystack}


@pytest.mark.parametrize("front_end", ["langchain", "llama_index", "haystack"])
def test_each_front_end_says_the_same_words(bad_files: dict[str, Path], front_end: str, caplog):
    """A front end gets text, not bytes: the Latin-1 file arrives with U+FFFD (its
    loader's doing) and is split; the others fail with split_file's words, raised as
    `<file>: <words>`, or with on_error="skip" listed and logged."""
    split = _front_ends()[front_end]
    documents = _documents(bad_files)
    caplog.set_level(logging.WARNING)
    splitter, _ = split({"doc_type": "auto", "on_error": "skip"}, documents)
    expected = [(str(p), _words_of(p)) for p, _ in documents if BAD_FILES[p.name][1] not in (None, UNDECODABLE)]
    assert splitter.failures == expected
    assert all(f"skipped {name}: {words}" in caplog.text for name, words in expected)
    for path, text in documents:
        words = dict(expected).get(str(path))
        if words is None:
            split({"doc_type": "auto"}, [(path, text)])  # the empty and the Latin-1 file split
            continue
        with pytest.raises(ValueError) as caught:
            split({"doc_type": "auto"}, [(path, text)])
        assert str(caught.value) == f"{path}: {words}"


@pytest.mark.parametrize("front_end", ["langchain", "llama_index", "haystack"])
def test_a_front_end_refuses_decode_errors_rather_than_ignore_it(front_end: str):
    with pytest.raises(ValueError, match="decode_errors applies where the splitter reads a file's bytes"):
        _front_ends()[front_end]({"decode_errors": "replace"}, [])


def test_decode_errors_replace_keeps_the_latin1_file_everywhere_bytes_are_read(tmp_path: Path, capsys):
    import pyarrow as pa

    from outline_splitter.integrations.ray import ChunkRows

    (tmp_path / "good.md").write_text("# Good\n\nText.\n", encoding="utf-8")
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes(LATIN1)
    text = LATIN1.decode("utf-8", "replace")
    expected = OutlineTextSplitter(doc_type="markdown").split(text, document_id=str(latin1), source=str(latin1))
    assert "\ufffd" in expected[0].text
    assert OutlineTextSplitter(doc_type="auto", decode_errors="replace").split_file(latin1) == expected
    (result,) = split_many([latin1], workers=1, decode_errors="replace")
    assert result.chunks == expected
    batch = pa.table({"bytes": [LATIN1], "path": [str(latin1)]})
    replacing = ChunkRows("bytes", "path", [], "utf-8", {"doc_type": "auto", "decode_errors": "replace"})
    (row,) = replacing(batch).to_pylist()
    assert (row["error"], row["text"], row["start_pos"]) == (None, expected[0].text, expected[0].start_pos)
    # the command line: a folder with one Latin-1 file fails (exit 2) unless --decode-errors replace
    assert main(["split", str(tmp_path)]) == 2
    capsys.readouterr()
    assert main(["split", "--decode-errors", "replace", str(tmp_path)]) == 0
    assert '"# Caf\\ufffd' in capsys.readouterr().out.encode("ascii", "backslashreplace").decode()
