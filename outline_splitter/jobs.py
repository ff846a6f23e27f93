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

from outline_splitter.models import TextChunk
from outline_splitter.options import AUTO, DEFAULT_DOC_TYPE, SplitterOptions
from outline_splitter.reading import UndecodableError, read_text_file
from outline_splitter.registry import doc_type_for_path, load_hooks, resolve_doc_type
from outline_splitter.splitter import OutlineTextSplitter
from outline_splitter.tokens import resolve_tokenizer

# Options of the formats that can select content (HTML), left out for the others,
# so one batch can mix HTML and Markdown.
_CONTENT_OPTIONS = frozenset({"content", "include", "exclude"})


class InputError(ValueError):
    """An input file that cannot be split (missing, unreadable, undecodable); the message
    says why, without the path (the result names it)."""


@dataclass(frozen=True)
class SplitResult:
    """One item's outcome: its position in the input, its source, its chunks, or why it
    failed.

    - `index`: the item's position in the input (0-based).
    - `source`: the path for a path item, `metadata["source"]` for a document, else None.
    - `chunks`: the item's chunks (empty when it failed).
    - `error`: None on success, else why it failed (`"TypeError: ..."`, or an
      `InputError`'s message: `"no such file or directory"`, ...).
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
    """The splitters of one process, one per doc type, each built on first use; the
    tokenizer is resolved once and shared."""

    def __init__(self, splitter_args: Mapping[str, Any], encoding: str) -> None:
        args = dict(splitter_args)
        # a batch's processes fill the cores: a thread per document beside each would only contend with them
        args.setdefault("encode_in_background", False)
        doc_type = args.pop("doc_type", None)
        # None: texts are DEFAULT_DOC_TYPE and paths go by their extension
        self.default_doc_type: str | None = None if doc_type == AUTO else doc_type
        # a batch mixes formats: `output` and the content options apply to the formats that have them
        options = SplitterOptions.of(**args, doc_type=AUTO)
        self._output: str | None = args.pop("output", None)
        args["tokenizer"] = resolve_tokenizer(options.tokenizer)
        self._args = args
        self._encoding = encoding
        self._built: dict[str, OutlineTextSplitter] = {}
        self.splitter(self.default_doc_type or DEFAULT_DOC_TYPE)  # bad arguments fail here, once

    def splitter(self, doc_type: str) -> OutlineTextSplitter:
        built = self._built.get(doc_type)
        if built is None:
            fmt = resolve_doc_type(doc_type)
            output = self._output if self._output in fmt.outputs else None
            args = self._args
            if load_hooks(fmt).select is None:  # content, include, exclude: HTML's options
                args = {name: value for name, value in args.items() if name not in _CONTENT_OPTIONS}
            built = OutlineTextSplitter(doc_type=doc_type, output=output, **args)
            self._built[doc_type] = built
        return built

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
        path = Path(job.path)
        text = read_path(path, self._encoding)
        splitter = self.splitter(job.doc_type or doc_type_for_path(path))
        return splitter.split(text, document_id=job.path, source=job.path)


def failure_message(exc: Exception) -> str:
    """Why an item failed, as its result (or Ray's error row) says it: an input's own
    reason (`"no such file or directory"`, `"cannot decode as utf-8 (...)"`), else the
    exception's type and message."""
    return str(exc) if isinstance(exc, (InputError, UndecodableError)) else f"{type(exc).__name__}: {exc}"


def read_path(path: Path, encoding: str) -> str:
    """A file's text; `InputError` saying why when it cannot be read or decoded."""
    try:
        return read_text_file(path, encoding)
    except UndecodableError as exc:
        raise InputError(str(exc)) from exc
    except FileNotFoundError as exc:
        reason = "a dangling symbolic link" if path.is_symlink() else "no such file or directory"
        raise InputError(reason) from exc
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})") from exc
