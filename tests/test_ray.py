"""Ray Data, for real on a local Ray instance: a dataset of the Markdown corpus files
becomes chunk rows whose text is the source slice, as many per file as `split` gives; a
folder with bad files finishes with an error row for each, on every pool size the docs
allow, the good files' rows being `split_file`'s chunks with ids unique across files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from outline_splitter import OutlineTextSplitter
from tests.conftest import corpus_files

pa = pytest.importorskip("pyarrow", reason="pyarrow comes with the ray extra")

ROOT = Path(__file__).resolve().parents[1]

if os.environ.get("CI"):  # CI installs the extra (make test): a missing ray is a failure there
    import ray
else:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install 'outline-splitter[ray]'")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_markdown_corpus_files_become_chunk_rows_equal_to_split(local_ray: Any):
    from outline_splitter.integrations.ray import split_dataset

    files = corpus_files("markdown", "*.md")
    ds = local_ray.data.read_binary_files([str(path) for path in files], include_paths=True)
    rows = split_dataset(ds, text_column="bytes", doc_type="markdown", chunk_size=256).take_all()
    by_path: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_path[Path(row["path"]).name].append(row)
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=256)
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = splitter.split(text)
        got = sorted(by_path[path.name], key=lambda row: row["chunk_index"])
        assert len(got) == len(chunks), path.name
        for row, chunk in zip(got, chunks):
            assert row["text"] == text[row["start_pos"] : row["end_pos"]] == chunk.text
            assert row["token_count"] == chunk.token_count
            assert list(row["heading_path"]) == chunk.metadata["heading_path"]
    assert len(rows) == sum(len(group) for group in by_path.values()) > len(files)


def test_rows_keep_the_id_columns_and_auto_types_by_path(local_ray: Any):
    from outline_splitter.integrations.ray import CHUNK_SCHEMA, split_dataset

    items = [
        {"id": 7, "path": "a/notes.md", "text": "# Notes\n\nSome text.\n\n## More\n\nEven more."},
        {"id": 8, "path": "b/code.py", "text": "def f():\n    return 1\n"},
        {"id": 9, "path": "c/empty.txt", "text": "   "},
    ]
    rows = split_dataset(local_ray.data.from_items(items), doc_type="auto", chunk_size=8, concurrency=1).take_all()
    # a blank document has no chunks: one row that says so (chunk fields and error null), as split_many's result
    (blank,) = [row for row in rows if row["id"] == 9]
    assert blank["error"] is None and all(blank[name] is None for name in ("text", "start_pos", "chunk_index"))
    for row in rows:
        if row["id"] == 9:
            continue
        source = next(item for item in items if item["id"] == row["id"])
        assert set(row) == {*CHUNK_SCHEMA.names, "id", "path"} and row["path"] == source["path"]
        assert row["text"] == source["text"][row["start_pos"] : row["end_pos"]]
        assert json.loads(row["metadata"])["doc_type"] == ("markdown" if row["id"] == 7 else "python")


def test_bad_columns_and_arguments_are_value_errors(local_ray: Any):
    from outline_splitter.integrations.ray import split_dataset

    ds = local_ray.data.from_items([{"text": "# a", "token_count": 1}])
    with pytest.raises(ValueError, match="column 'body' is not in the dataset"):
        split_dataset(ds, text_column="body")
    with pytest.raises(ValueError, match="clash with chunk fields"):
        split_dataset(ds)
    with pytest.raises(ValueError, match="chunk_size"):
        split_dataset(ds, keep_columns=[], chunk_size=0)
    with pytest.raises(ValueError, match="batch_size"):
        split_dataset(ds, keep_columns=[], batch_size=0)
    with pytest.raises(ValueError, match="decode_errors must be one of 'strict', 'replace'"):
        split_dataset(ds, keep_columns=[], decode_errors="ignore")
    with pytest.raises(ValueError, match="encoding must be a codec name"):
        split_dataset(ds, keep_columns=[], encoding="no-such-codec")


def test_without_ray_the_import_error_names_the_extra():
    code = "import sys; sys.modules['ray'] = None; import outline_splitter.integrations.ray"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install 'outline-splitter[ray]'" in done.stderr


LATIN1_ERROR = (
    "cannot decode as utf-8 (byte 5: invalid continuation byte); decode_errors='replace' reads such bytes as U+FFFD"
)


@pytest.fixture(scope="module")
def folder_with_bad_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Markdown corpus files, one of them again under a second name, a `.pyc` and a
    Markdown file that is not UTF-8; and the good files."""
    folder = tmp_path_factory.mktemp("mixed")
    files = corpus_files("markdown", "*.md")[:12]
    for path in files:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "copy-of-the-first.md").write_bytes(files[0].read_bytes())
    (folder / "module.pyc").write_bytes(b"\xa7\r\r\n\x00\x00\x00\x00compiled")
    (folder / "latin1.md").write_bytes(b"# Caf\xe9\n\nNot UTF-8.\n")
    good = sorted(path for path in folder.iterdir() if path.suffix == ".md" and path.name != "latin1.md")
    return folder, good


@pytest.mark.timeout(600)
@pytest.mark.parametrize("concurrency", [1, 2, (1, 8)])
def test_bad_files_become_error_rows_and_every_pool_size_finishes(
    local_ray: Any, folder_with_bad_files: tuple[Path, list[Path]], concurrency: int | tuple[int, int]
):
    """`ray.init(num_cpus=2)` with 2 actors hung before the pool left a CPU to the reads."""
    from outline_splitter.integrations.ray import split_dataset

    folder, good = folder_with_bad_files
    ds = local_ray.data.read_binary_files(str(folder), include_paths=True)
    rows = split_dataset(ds, text_column="bytes", doc_type="auto", chunk_size=256, concurrency=concurrency).take_all()
    errors = {Path(row["path"]).name: row for row in rows if row["error"] is not None}
    assert set(errors) == {"module.pyc", "latin1.md"}
    assert errors["module.pyc"]["error"].startswith("unknown extension '.pyc'")
    assert errors["latin1.md"]["error"] == LATIN1_ERROR
    assert all(row[name] is None for row in errors.values() for name in ("text", "start_pos", "chunk_index"))
    chunk_rows = [row for row in rows if row["error"] is None]
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=256)
    for path in good:
        got = sorted((row for row in chunk_rows if row["path"] == str(path)), key=lambda row: row["chunk_index"])
        chunks = splitter.split_file(path)
        assert [(row["text"], row["start_pos"], row["end_pos"], row["token_count"]) for row in got] == [
            (chunk.text, chunk.start_pos, chunk.end_pos, chunk.token_count) for chunk in chunks
        ], path.name
        assert [json.loads(row["metadata"]) for row in got] == [
            json.loads(json.dumps(chunk.metadata, ensure_ascii=False, default=str)) for chunk in chunks
        ]
    assert len(chunk_rows) == sum(len(splitter.split_file(path)) for path in good)
    ids = [json.loads(row["metadata"])["id"] for row in chunk_rows]
    assert len(ids) == len(set(ids))  # the file and its copy: equal texts, ids of their own


def test_the_pool_never_holds_every_cpu_and_speaks_the_installed_rays_terms():
    from outline_splitter.integrations.ray import COMPUTE_SINCE, pool_arguments, ray_version

    assert pool_arguments(None, 2, (2, 60)) == {}
    one = pool_arguments(1, 2, (2, 60))
    assert "num_cpus" not in one and "concurrency" not in one  # one actor, one CPU left for reads
    assert (one["compute"].min_size, one["compute"].max_size) == (1, 1)
    two = pool_arguments(2, 2, (2, 60))
    assert two["num_cpus"] == 0.5 and (two["compute"].min_size, two["compute"].max_size) == (2, 2)
    wide = pool_arguments((1, 8), 2, (2, 60))
    assert wide["num_cpus"] * 8 <= 1 and (wide["compute"].min_size, wide["compute"].max_size) == (1, 8)
    assert pool_arguments((1, 8), 2, (2, 50)) == {"concurrency": (1, 8), "num_cpus": 0.125}
    assert pool_arguments(2, 1, (2, 60))["num_cpus"] == 0  # one CPU: the reads take it
    assert pool_arguments(4, 16, (2, 60)).keys() == {"compute"}
    for bad in (0, (2, 1), (1, 2, 3), 1.5, True):
        with pytest.raises(ValueError, match="concurrency must be"):
            pool_arguments(bad, 2, (2, 60))  # type: ignore[arg-type]
    installed = ray_version()
    assert ("compute" in pool_arguments(2, 4, installed)) == (installed >= COMPUTE_SINCE)


def test_a_batch_mapper_decodes_as_split_file_does_and_fails_a_row_not_the_batch():
    from outline_splitter.integrations.ray import ChunkRows

    batch = pa.table(
        {
            "bytes": [b"\xef\xbb\xbf# One\n\nText.", b"# Caf\xe9\n\nLatin-1.", b"x", b"# Two"],
            "path": ["a/one.md", "b/cafe.md", None, "c/same.md"],
        }
    )
    args: dict[str, Any] = {"doc_type": "auto", "chunk_size": 64}
    strict = ChunkRows("bytes", "path", ["path"], "utf-8", args)(batch).to_pylist()
    assert [row["path"] for row in strict] == ["a/one.md", "b/cafe.md", None, "c/same.md"]
    assert strict[0]["text"] == "# One\n\nText." and strict[0]["start_pos"] == 0  # the BOM dropped
    assert json.loads(strict[0]["metadata"])["source"] == "a/one.md"
    assert strict[1]["error"] == LATIN1_ERROR
    assert strict[2]["error"].startswith("ValueError: doc_type 'auto' needs a path")
    replaced = ChunkRows("bytes", "path", ["path"], "utf-8", {**args, "decode_errors": "replace"})(batch).to_pylist()
    assert replaced[1]["error"] is None and replaced[1]["text"] == "# Caf\ufffd\n\nLatin-1."
    same = ChunkRows("bytes", "path", [], "utf-8", {"doc_type": "markdown"})(
        pa.table({"bytes": [b"# Same", b"# Same"], "path": ["x.md", "y.md"]})
    ).to_pylist()
    assert same[0]["text"] == same[1]["text"]
    assert json.loads(same[0]["metadata"])["id"] != json.loads(same[1]["metadata"])["id"]


@pytest.mark.timeout(600)
def test_chunk_rows_written_to_parquet_read_back_whole(
    local_ray: Any, folder_with_bad_files: tuple[Path, list[Path]], tmp_path: Path
):
    """A folder with bad files through Ray into parquet, as a pipeline writes it: every good
    file's chunks are there once, each text the source slice, the bad files error rows."""
    import pyarrow.parquet as pq

    from outline_splitter.integrations.ray import split_dataset

    folder, good = folder_with_bad_files
    ds = local_ray.data.read_binary_files(str(folder), include_paths=True)
    split_dataset(ds, text_column="bytes", doc_type="auto", chunk_size=256).write_parquet(str(tmp_path / "chunks"))
    rows = pq.read_table(str(tmp_path / "chunks")).to_pylist()
    assert sorted(Path(row["path"]).name for row in rows if row["error"] is not None) == ["latin1.md", "module.pyc"]
    chunk_rows = [row for row in rows if row["error"] is None]
    ids = [json.loads(row["metadata"])["id"] for row in chunk_rows]
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=256)
    assert len(ids) == len(set(ids))
    assert set(ids) == {chunk.metadata["id"] for path in good for chunk in splitter.split_file(path)}
    for row in chunk_rows:
        source = Path(row["path"]).read_text(encoding="utf-8-sig")  # (split_file drops a BOM)
        assert source[row["start_pos"] : row["end_pos"]] == row["text"]
