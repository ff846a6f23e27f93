"""The jobs of `split_many` (and Ray's batches): the items a batch takes, made into
jobs; the splitters a process builds once to run them; and each job's outcome, a
`SplitResult` that says why where it failed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from outline_splitter.bad_input import BadInput
from outline_splitter.models import TextChunk
from outline_splitter.options import AUTO, DEFAULT_DOC_TYPE
from outline_splitter.reading import check_encoding, read_input
from outline_splitter.splitter import OutlineTextSplitter


@dataclass(frozen=True)
class SplitResult:
    """One item's outcome: its position in the input, its source, its chunks, or why it
    failed.

    - `index`: the item's position in the input (0-based).
    - `source`: the path for a path item, `metadata["source"]` for a document, else None.
    - `chunks`: the item's chunks (empty when it failed).
    - `error`: None on success, else why it failed (`"TypeError: ..."`, or a bad
      input's words, `bad_input.WORDS`: `"no such file or directory"`, ...).
    """

    index: int
    source: str | None
    chunks: list[TextChunk] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the item was split."""
        return self.error is None

    @property
    def name(self) -> str:
        """The item as a user knows it: its source, or `item N`."""
        return self.source if self.source is not None else f"item {self.index}"

    def describe(self) -> str:
        """One line: the item's name and its error (or its chunk count)."""
        return f"{self.name}: {self.error}" if self.error is not None else f"{self.name}: {len(self.chunks)} chunks"


class SplitError(Exception):
    """An item that could not be split, raised by `split_many(strict=True)`; `result` is
    its failed `SplitResult`."""

    def __init__(self, result: SplitResult) -> None:
        super().__init__(result.describe())
        self.result = result


class Job(NamedTuple):
    """One item as a worker receives it: a text, or a path to read."""

    number: int
    text: str | None
    path: str | None
    doc_type: str | None
    source: str | None


def make_jobs(items: Iterable[Any], default_doc_type: str | None) -> Iterator[Job | SplitResult]:
    """Each item as a job, or as a failed result when its type is not supported."""
    for index, item in enumerate(items):
        if isinstance(item, str):
            yield Job(index, item, None, default_doc_type, None)
        elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(part, str) for part in item):
            yield Job(index, item[0], None, item[1], None)
        elif isinstance(item, os.PathLike):
            path = os.fspath(item)
            yield Job(index, None, str(path), default_doc_type, str(path))
        elif _is_document(item):
            source = item.metadata.get("source")
            yield Job(index, item.page_content, None, default_doc_type, None if source is None else str(source))
        else:
            yield SplitResult(
                index,
                None,
                error=f"TypeError: an item must be a str, a (text, doc_type) pair, a path or a document with "
                f"page_content and metadata, not {type(item).__name__}",
            )


def _is_document(item: object) -> bool:
    return isinstance(getattr(item, "page_content", None), str) and isinstance(getattr(item, "metadata", None), Mapping)


class Splitters:
    """The splitters of one process, one per doc type, each built on first use from the
    options as they apply to its format (`OutlineTextSplitter.splitter_for`: under
    `"auto"` a batch mixes formats, and `output` and the content options apply to the
    formats that have them); the tokenizer is resolved once and shared."""

    def __init__(self, splitter_args: Mapping[str, Any], encoding: str) -> None:
        args = dict(splitter_args)
        # a batch's processes fill the cores: a thread per document beside each would only contend with them
        args.setdefault("encode_in_background", False)
        # no doc_type: a batch of mixed formats, "auto" (texts are DEFAULT_DOC_TYPE, paths go by their extension)
        args.setdefault("doc_type", AUTO)
        self._splitter = OutlineTextSplitter(**args)  # bad arguments fail here, once
        doc_type = self._splitter.options.doc_type
        self.default_doc_type: str | None = None if doc_type == AUTO else doc_type
        self._encoding = check_encoding(encoding)
        self.splitter(self.default_doc_type or DEFAULT_DOC_TYPE)  # an option the format lacks fails here, once

    def splitter(self, doc_type: str) -> OutlineTextSplitter:
        return self._splitter.splitter_for(doc_type)

    def run(self, job: Job) -> SplitResult:
        """The job's result; any exception becomes the result's error."""
        try:
            return SplitResult(job.number, job.source, self._chunks(job))
        except Exception as exc:  # an item's failure is its result, never the run's
            return SplitResult(job.number, job.source, error=failure_message(exc))

    def _chunks(self, job: Job) -> list[TextChunk]:
        if job.path is None:
            assert job.text is not None
            return self.splitter(job.doc_type or DEFAULT_DOC_TYPE).split(job.text)
        decode_errors = self._splitter.options.decode_errors
        doc_type, text = read_input(Path(job.path), job.doc_type, self._encoding, decode_errors)
        return self.splitter(doc_type).split(text, document_id=job.path, source=job.path)


def failure_message(exc: Exception) -> str:
    """Why an item failed, as its result (or Ray's error row) says it: a bad input's
    words (`bad_input.WORDS`: the result names the file), else the exception's type and
    message."""
    return exc.words if isinstance(exc, BadInput) else f"{type(exc).__name__}: {exc}"
