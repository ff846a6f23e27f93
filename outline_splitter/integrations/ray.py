"""Ray Data: split a dataset of documents into a dataset of chunk rows, on a laptop or a
cluster (the `ray` extra: `pip install 'outline-splitter[ray]'`).

    import ray
    from outline_splitter.integrations.ray import split_dataset

    files = ray.data.read_binary_files("s3://bucket/docs/", include_paths=True)
    chunks = split_dataset(files, text_column="bytes", doc_type="auto", chunk_size=512)
    chunks.write_parquet("s3://bucket/chunks/")

Each chunk row holds the chunk's fields (`text`, `start_pos`, `end_pos`, `token_count`,
`start_overlap`, `end_overlap`), `chunk_index`, `heading_path`, the whole `metadata` as
JSON, `error` (null), and the input row's other columns (its ids: `path`, `id`, ...). A
document that cannot be decoded or split is one row whose `error` says why (its chunk
fields null), never the run's end. The batches are mapped by an actor pool whose actors
each build their splitters once, sized so that it never holds every CPU of the cluster
(the read tasks that feed it need one).
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

from outline_splitter.bad_input import check_not_binary
from outline_splitter.batch import Splitters, failure_message
from outline_splitter.models import TextChunk
from outline_splitter.options import SplitterKwargs, SplitterOptions, with_option_parameters
from outline_splitter.reading import check_encoding, decode_text
from outline_splitter.registry import doc_type_for_path

# Ray 2.51 deprecated map_batches' `concurrency` for `compute` (an ActorPoolStrategy);
# older releases (the extra allows 2.9) take `concurrency`.
COMPUTE_SINCE = (2, 51)

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
        ("error", pa.string()),
    ]
)
# The chunk fields a row copies from its TextChunk as they are.
_CHUNK_FIELDS = ("text", "start_pos", "end_pos", "token_count", "start_overlap", "end_overlap")


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
    """A dataset of chunk rows, one per chunk of each document of `ds`, and one error row per document that
    could not be split.

    `text_column` holds each document's text (`str`, or `bytes` decoded with `encoding`, as `read_binary_files`
    gives, its BOM dropped as `split_file` drops it; bytes that do not decode fail their document unless
    `decode_errors="replace"`, which reads them as U+FFFD).
    `path_column` (default `path`), where the dataset has it, names each document: its chunks' ids include it
    (equal texts in two files get two ids) and their metadata's `source` is it, so a file's rows are
    `split_file`'s chunks. `splitter_args` are `OutlineTextSplitter`'s options
    (`outline_splitter.options.SplitterOptions`); with `doc_type="auto"` each row's format comes from its path
    by extension. `keep_columns` are the input columns copied into each of the row's chunks (default: every
    column but `text_column`). `batch_size` documents go to an actor at a time; `concurrency` is the actor
    pool's size (`n` or `(min, max)`; default: Ray's), and where it could take every CPU of the cluster, its
    actors ask for a share of all but one. A document that cannot be split (an unknown extension, a binary, bytes
    not in `encoding`) is a row whose `error` says why in the words of docs/usage.md's table (`bad_input.WORDS`),
    an empty one a row with no chunk (its chunk fields and `error` null). Bad arguments, and a column that is missing or
    would clash with a chunk field, raise `ValueError`.
    """
    doc_type = SplitterOptions.of(**splitter_args).doc_type
    check_encoding(encoding)
    names = ds.schema().names
    kept = _kept_columns(names, text_column, keep_columns, path_column if doc_type == "auto" else None)
    _check_batch_size(batch_size)
    options = {**splitter_args, "doc_type": doc_type}
    Splitters(options, encoding)  # bad splitter arguments fail here, not on a worker
    rows: dict[str, Any] = {"text_column": text_column, "path_column": path_column if path_column in names else None}
    rows |= {"keep_columns": kept, "encoding": encoding, "splitter_args": options}
    pool = _actor_pool(concurrency)
    return ds.map_batches(ChunkRows, batch_format="pyarrow", batch_size=batch_size, fn_constructor_kwargs=rows, **pool)


def _check_batch_size(batch_size: object) -> None:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an integer >= 1, not {batch_size!r}")


def _actor_pool(concurrency: int | tuple[int, int] | None) -> dict[str, Any]:
    """`map_batches`' actor pool arguments for `concurrency` on the cluster Ray is connected to."""
    cpus = ray.cluster_resources().get("CPU", 1.0)  # type: ignore[no-untyped-call]  # Ray has no annotation here
    return pool_arguments(concurrency, cpus, ray_version())


def _kept_columns(
    names: Sequence[str], text_column: str, keep_columns: Sequence[str] | None, path_column: str | None
) -> list[str]:
    """The columns copied into each chunk row (`keep_columns`, by default every one but
    `text_column`); `ValueError` where one of them, `text_column` or a `path_column`
    that is needed is missing, or one would clash with a chunk field."""
    kept = [name for name in names if name != text_column] if keep_columns is None else list(keep_columns)
    for name in (text_column, *kept, *([path_column] if path_column is not None else [])):
        if name not in names:
            raise ValueError(f"column {name!r} is not in the dataset; its columns: {', '.join(names)}")
    clashes = sorted(set(kept) & set(CHUNK_SCHEMA.names))
    if clashes:
        raise ValueError(f"keep_columns {clashes} clash with chunk fields: rename them or leave them out")
    return kept


with_option_parameters(split_dataset)


def ray_version() -> tuple[int, int]:
    """The installed Ray's major and minor version."""
    major, minor = ray.__version__.split(".")[:2]
    return int(major), int(minor)


def pool_arguments(concurrency: int | tuple[int, int] | None, cpus: float, version: tuple[int, int]) -> dict[str, Any]:
    """`map_batches`' arguments for an actor pool of `concurrency` (`n`, `(min, max)` or
    None for Ray's default) on a cluster of `cpus` CPUs, in the installed Ray's terms
    (`compute` since 2.51, `concurrency` before).

    An actor holds its CPUs for the whole run, and Ray Data's read tasks each need a
    whole one: a pool that may hold every CPU (`ray.init(num_cpus=2)` and 2 actors) left
    the reads waiting for CPUs that were never freed, and the run hung with no output.
    Such a pool's actors ask for an equal share of all CPUs but one (`num_cpus`)."""
    if concurrency is None:
        return {}
    if isinstance(concurrency, int) and not isinstance(concurrency, bool) and concurrency >= 1:
        smallest = largest = concurrency
    elif (
        isinstance(concurrency, tuple)
        and len(concurrency) == 2
        and all(isinstance(size, int) and not isinstance(size, bool) for size in concurrency)
        and 1 <= concurrency[0] <= concurrency[1]
    ):
        smallest, largest = concurrency
    else:
        raise ValueError(f"concurrency must be an integer >= 1 or a (min, max) pair of them, not {concurrency!r}")
    arguments: dict[str, Any] = {}
    if version >= COMPUTE_SINCE:
        arguments["compute"] = ray.data.ActorPoolStrategy(min_size=smallest, max_size=largest)
    else:
        arguments["concurrency"] = concurrency
    if largest > cpus - 1:
        arguments["num_cpus"] = max(cpus - 1, 0) / largest
    return arguments


class ChunkRows:
    """The batch mapper: made once per actor (its splitters with it), it turns a batch
    of documents into a batch of chunk rows (and error rows)."""

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
        rows: list[int] = []  # the input row of each output row
        columns: dict[str, list[Any]] = {name: [] for name in CHUNK_SCHEMA.names}
        texts = batch.column(self._text_column).to_pylist()
        paths = batch.column(self._path_column).to_pylist() if self._path_column else [None] * len(texts)
        for row, (value, path) in enumerate(zip(texts, paths)):
            try:
                chunks = self._chunks(value, path)
            except Exception as exc:  # a document's failure is its row, never the run's
                _no_chunk_row(columns, failure_message(exc))
                rows.append(row)
                continue
            if not chunks:  # an empty document is a row too, as elsewhere a result with no chunks
                _no_chunk_row(columns, None)
                rows.append(row)
            for chunk in chunks:
                rows.append(row)
                for name in _CHUNK_FIELDS:
                    columns[name].append(getattr(chunk, name))
                columns["chunk_index"].append(chunk.metadata["index"])
                columns["heading_path"].append(chunk.metadata.get("heading_path", []))
                columns["metadata"].append(json.dumps(chunk.metadata, ensure_ascii=False, default=str))
                columns["error"].append(None)
        table = pa.table(columns, schema=CHUNK_SCHEMA)
        taken = pa.array(rows, pa.int64())
        for name in self._keep_columns:
            table = table.append_column(name, batch.column(name).take(taken))
        return table

    def _chunks(self, value: object, path: object) -> list[TextChunk]:
        """A document's chunks, as `split_file` gives them where it has a path (its
        problems checked in the same order: the extension, then the bytes)."""
        doc_type = self._splitters.default_doc_type
        if doc_type is None:  # "auto"
            if not isinstance(path, str):
                raise ValueError(f"doc_type 'auto' needs a path to tell the format by, and the row has {path!r}")
            doc_type = doc_type_for_path(path)
        document_id = str(path) if path is not None else ""
        source = document_id if path is not None else None
        splitter = self._splitters.splitter(doc_type)
        return splitter.split(self._text(value, splitter.options.decode_errors), document_id=document_id, source=source)

    def _text(self, value: object, decode_errors: str) -> str:
        if isinstance(value, bytes):
            return decode_text(value, self._encoding, decode_errors)
        if isinstance(value, str):
            check_not_binary(value)
            return value
        raise ValueError(f"column {self._text_column!r} holds {type(value).__name__}, not str or bytes")


def _no_chunk_row(columns: dict[str, list[Any]], error: str | None) -> None:
    """A row of `columns` with no chunk: its chunk fields null, `error` as given."""
    for name, column in columns.items():
        column.append(error if name == "error" else None)
