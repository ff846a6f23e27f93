"""Ray Data: split a dataset of documents into a dataset of chunk rows, on a laptop or a
cluster (the `ray` extra: `pip install 'outline-splitter[ray]'`).

    import ray
    from outline_splitter.integrations.ray import split_dataset

    files = ray.data.read_binary_files("s3://bucket/docs/", include_paths=True)
    chunks = split_dataset(files, text_column="bytes", doc_type="auto", chunk_size=512)
    chunks.write_parquet("s3://bucket/chunks/")

Each chunk row holds the chunk's fields (`text`, `start_pos`, `end_pos`, `token_count`,
`start_overlap`, `end_overlap`), `chunk_index`, `heading_path`, the whole `metadata` as
JSON, and the input row's other columns (its ids: `path`, `id`, ...). The batches are
mapped by an actor pool whose actors each build their splitters once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Unpack

try:
    import pyarrow as pa
    import ray.data
except ImportError as exc:
    raise ImportError("outline_splitter.integrations.ray needs Ray Data: pip install 'outline-splitter[ray]'") from exc

from outline_splitter.batch import Splitters
from outline_splitter.options import DEFAULT_DOC_TYPE, SplitterKwargs, SplitterOptions, with_option_parameters
from outline_splitter.registry import doc_type_for_path

CHUNK_SCHEMA = pa.schema(
    [
        ("text", pa.string()),
        ("start_pos", pa.int64()),
        ("end_pos", pa.int64()),
        ("token_count", pa.int64()),
        ("start_overlap", pa.string()),
        ("end_overlap", pa.string()),
        ("chunk_index", pa.int64()),
        ("heading_path", pa.list_(pa.string())),
        ("metadata", pa.string()),
    ]
)


def split_dataset(
    ds: ray.data.Dataset,
    text_column: str = "text",
    *,
    path_column: str = "path",
    keep_columns: Sequence[str] | None = None,
    encoding: str = "utf-8",
    batch_size: int = 16,
    concurrency: int | tuple[int, int] | None = None,
    **splitter_args: Unpack[SplitterKwargs],
) -> ray.data.Dataset:
    """A dataset of chunk rows, one per chunk of each document of `ds`.

    `text_column` holds each document's text (`str`, or `bytes` decoded with `encoding`,
    as `read_binary_files` gives). `splitter_args` are `OutlineTextSplitter`'s options
    (`outline_splitter.options.SplitterOptions`); with `doc_type="auto"` each row's format
    comes from its `path_column` by extension. `keep_columns` are the input columns
    copied into each of the row's chunks (default: every column but `text_column`).
    `batch_size` documents go to an actor at a time; `concurrency` is the actor pool's
    size (`n` or `(min, max)`; default: Ray's). Bad arguments, and a
    column that is missing or would clash with a chunk field, raise `ValueError`.
    """
    doc_type = SplitterOptions.of(**splitter_args).doc_type
    names = ds.schema().names
    kept = [name for name in names if name != text_column] if keep_columns is None else list(keep_columns)
    for name in (text_column, *kept, *([path_column] if doc_type == "auto" else [])):
        if name not in names:
            raise ValueError(f"column {name!r} is not in the dataset; its columns: {', '.join(names)}")
    clashes = sorted(set(kept) & set(CHUNK_SCHEMA.names))
    if clashes:
        raise ValueError(f"keep_columns {clashes} clash with chunk fields: rename them or leave them out")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an integer >= 1, not {batch_size!r}")
    options = {**splitter_args, "doc_type": doc_type}
    Splitters(options, encoding)  # bad splitter arguments fail here, not on a worker
    return ds.map_batches(
        ChunkRows,
        batch_format="pyarrow",
        batch_size=batch_size,
        concurrency=concurrency,
        fn_constructor_kwargs={
            "text_column": text_column,
            "path_column": path_column if doc_type == "auto" else None,
            "keep_columns": kept,
            "encoding": encoding,
            "splitter_args": options,
        },
    )


with_option_parameters(split_dataset)


class ChunkRows:
    """The batch mapper: made once per actor (its splitters with it), it turns a batch
    of documents into a batch of chunk rows."""

    def __init__(
        self,
        text_column: str,
        path_column: str | None,
        keep_columns: Sequence[str],
        encoding: str,
        splitter_args: dict[str, Any],
    ) -> None:
        self._text_column = text_column
        self._path_column = path_column
        self._keep_columns = list(keep_columns)
        self._encoding = encoding
        self._splitters = Splitters(splitter_args, encoding)

    def __call__(self, batch: pa.Table) -> pa.Table:
        rows: list[int] = []  # the input row of each chunk
        columns: dict[str, list[Any]] = {name: [] for name in CHUNK_SCHEMA.names}
        texts = batch.column(self._text_column).to_pylist()
        paths = batch.column(self._path_column).to_pylist() if self._path_column else [None] * len(texts)
        for row, (value, path) in enumerate(zip(texts, paths)):
            for chunk in self._splitters.splitter(self._doc_type(path)).split(self._text(value, row)):
                rows.append(row)
                for name in ("text", "start_pos", "end_pos", "token_count", "start_overlap", "end_overlap"):
                    columns[name].append(getattr(chunk, name))
                columns["chunk_index"].append(chunk.metadata["index"])
                columns["heading_path"].append(chunk.metadata.get("heading_path", []))
                columns["metadata"].append(json.dumps(chunk.metadata, ensure_ascii=False, default=str))
        table = pa.table(columns, schema=CHUNK_SCHEMA)
        taken = pa.array(rows, pa.int64())
        for name in self._keep_columns:
            table = table.append_column(name, batch.column(name).take(taken))
        return table

    def _doc_type(self, path: str | None) -> str:
        return doc_type_for_path(path) if path is not None else self._splitters.default_doc_type or DEFAULT_DOC_TYPE

    def _text(self, value: object, row: int) -> str:
        if isinstance(value, bytes):
            return value.decode(self._encoding)
        if isinstance(value, str):
            return value
        raise ValueError(f"column {self._text_column!r} of row {row} holds {type(value).__name__}, not str or bytes")
