"""Ray Data, for real on a local Ray instance: a dataset of the Markdown corpus files
becomes chunk rows whose text is the source slice, as many per file as `split` gives."""

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
    assert {row["id"] for row in rows} == {7, 8}  # a blank document has no chunks
    for row in rows:
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


def test_without_ray_the_import_error_names_the_extra():
    code = "import sys; sys.modules['ray'] = None; import outline_splitter.integrations.ray"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install 'outline-splitter[ray]'" in done.stderr
