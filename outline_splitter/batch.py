"""`split_many`: split many documents on all cores, streaming, with bounded memory.

The parent process reads the input iterator only as fast as the workers take items:
each worker holds one item at a time, and no more than `_WINDOW_PER_WORKER` items per
worker are taken from the input and not yet handed back to the caller (finished results
waiting for an earlier one, in ordered mode, count too). So a generator of a million
paths is never read up front and finished results never pile up.

Each worker is a process with a pipe of its own, so the parent always knows which item
a worker holds: a worker that dies (killed, out of memory) fails exactly that item, and
a new worker takes its place. The splitters (tokenizer, grammars) are built once per
worker, one per doc type, on first use.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, NamedTuple, Unpack

from outline_splitter.models import TextChunk
from outline_splitter.options import AUTO, DEFAULT_DOC_TYPE, SplitterKwargs, SplitterOptions, with_option_parameters
from outline_splitter.reading import UndecodableError, read_text_file
from outline_splitter.registry import doc_type_for_path, load_hooks, resolve_doc_type
from outline_splitter.splitter import OutlineTextSplitter
from outline_splitter.tokens import resolve_tokenizer

# Items taken from the input and not yet yielded, per worker: enough that a slow item in
# ordered mode does not leave the other workers idle at once, small enough to stay flat.
_WINDOW_PER_WORKER = 4
# Spawned workers start clean on every platform (fork would copy a parent's threads'
# locks, e.g. a tokenizer's, in whatever state they were).
_START_METHOD = "spawn"
# A worker's first message: its splitters are built (a worker that dies before it
# could not start at all, which is no item's fault).
_READY = "ready"


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


class _Job(NamedTuple):
    """One item as a worker receives it: a text, or a path to read."""

    number: int
    text: str | None
    path: str | None
    doc_type: str | None
    source: str | None


def split_many(
    items: Iterable[Any],
    *,
    workers: int | None = None,
    ordered: bool = True,
    strict: bool = False,
    encoding: str = "utf-8",
    **splitter_args: Unpack[SplitterKwargs],
) -> Generator[SplitResult, None, None]:
    """Split many documents in a pool of worker processes; an iterator of `SplitResult`.

    Items are texts (`str`, split as `doc_type`, default `"markdown"`), `(text,
    doc_type)` pairs, paths (`pathlib.Path` or any `os.PathLike`: read with `encoding`,
    the doc type from the extension unless `doc_type` is given), or documents with
    `page_content` and `metadata` (LangChain's `Document`; `metadata["source"]` names
    the result). `splitter_args` are `OutlineTextSplitter`'s (`chunk_size`,
    `tokenizer`, ...); `output` applies to the formats that have that mode (HTML's
    `"text"`), the others are split as source, so one batch can mix formats.

    `workers`: processes (default: the cores this process may use); `1` splits in this
    process, for debugging. With more, `splitter_args` must pickle (a tokenizer that is
    a lambda cannot). Results come in input order, or as they finish with
    `ordered=False`. An item that fails (unsupported type, missing or undecodable file,
    unknown extension, a worker that died on it) gives a result with `error` set and the
    run goes on; with `strict=True` it raises `SplitError` instead. Bad arguments raise
    `ValueError` at once. Closing the iterator (or leaving a `for` loop over it and
    dropping it) stops the workers.
    """
    workers = _worker_count(workers)
    if not isinstance(encoding, str) or not encoding:
        raise ValueError(f"encoding must be a codec name such as 'utf-8', not {encoding!r}")
    state = Splitters(dict(splitter_args), encoding)  # validates splitter_args here, not per item
    jobs = _jobs(items, state.default_doc_type)
    if workers == 1:
        return _in_process(jobs, state, strict)
    return _in_pool(jobs, workers, ordered, strict, (dict(splitter_args), encoding))


def default_workers() -> int:
    """The worker count `workers=None` means: the cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _worker_count(workers: object) -> int:
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1 (or None for every core), not {workers!r}")
    return workers


def _jobs(items: Iterable[Any], default_doc_type: str | None) -> Iterator[_Job | SplitResult]:
    """Each item as a job, or as a failed result when its type is not supported."""
    for index, item in enumerate(items):
        if isinstance(item, str):
            yield _Job(index, item, None, default_doc_type, None)
        elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(part, str) for part in item):
            yield _Job(index, item[0], None, item[1], None)
        elif isinstance(item, os.PathLike):
            path = os.fspath(item)
            yield _Job(index, None, str(path), default_doc_type, str(path))
        elif _is_document(item):
            source = item.metadata.get("source")
            yield _Job(index, item.page_content, None, default_doc_type, None if source is None else str(source))
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

    def run(self, job: _Job) -> SplitResult:
        """The job's result; any exception becomes the result's error."""
        try:
            return SplitResult(job.number, job.source, self._chunks(job))
        except Exception as exc:  # an item's failure is its result, never the run's
            return SplitResult(job.number, job.source, error=failure_message(exc))

    def _chunks(self, job: _Job) -> list[TextChunk]:
        if job.path is None:
            assert job.text is not None
            return self.splitter(job.doc_type or DEFAULT_DOC_TYPE).split(job.text)
        path = Path(job.path)
        text = read_path(path, self._encoding)
        chunks = self.splitter(job.doc_type or doc_type_for_path(path)).split(text, document_id=job.path)
        for chunk in chunks:
            chunk.metadata["source"] = job.path
        return chunks


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


def _checked(result: SplitResult, strict: bool) -> SplitResult:
    if strict and result.error is not None:
        raise SplitError(result)
    return result


def _in_process(
    jobs: Iterator[_Job | SplitResult], state: Splitters, strict: bool
) -> Generator[SplitResult, None, None]:
    for job in jobs:
        yield _checked(job if isinstance(job, SplitResult) else state.run(job), strict)


# -- the pool -------------------------------------------------------------------------


def _serve(conn: Connection, splitter_args: Mapping[str, Any], encoding: str) -> None:
    """A worker: build the splitters once, then split one job at a time until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    state = Splitters(dict(splitter_args), encoding)
    conn.send(_READY)
    while True:
        try:
            job = conn.recv()
        except EOFError:  # the parent is gone
            return
        if job is None:
            return
        conn.send(state.run(job))


class _Worker:
    """A worker process, its end of the pipe, and the job it holds (None when idle)."""

    def __init__(self, context: Any, init_args: tuple[Mapping[str, Any], str]) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, *init_args), daemon=True)
        self.process.start()
        child.close()
        self.job: _Job | None = None
        self.started = False

    def give(self, job: _Job) -> None:
        self.job = job
        self.conn.send(job)

    def death(self) -> str:
        """Why the worker is gone: its signal or exit code."""
        self.process.join()
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"WorkerDied: the worker process was killed by {signal.Signals(-code).name}"
        return f"WorkerDied: the worker process exited with code {code}"

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.conn.close()


class _Pool:
    """`size` workers, each holding at most one job; a dead one is replaced."""

    def __init__(self, size: int, init_args: tuple[Mapping[str, Any], str]) -> None:
        self._context = multiprocessing.get_context(_START_METHOD)
        self._init_args = init_args
        self.workers = [_Worker(self._context, init_args) for _ in range(size)]

    def idle(self) -> _Worker | None:
        for number, worker in enumerate(self.workers):
            if worker.job is None:
                if not worker.process.is_alive():  # died between jobs: replace it before use
                    worker.stop()
                    self.workers[number] = worker = _Worker(self._context, self._init_args)
                return worker
        return None

    def busy(self) -> bool:
        return any(worker.job is not None for worker in self.workers)

    def collect(self) -> list[SplitResult]:
        """Wait until at least one busy worker is done; the results of those that are."""
        busy = [worker for worker in self.workers if worker.job is not None]
        ready = set(wait([handle for worker in busy for handle in (worker.conn, worker.process.sentinel)]))
        results: list[SplitResult] = []
        for worker in busy:
            if worker.conn not in ready and worker.process.sentinel not in ready:
                continue
            job = worker.job
            assert job is not None
            try:
                message = worker.conn.recv()
            except (EOFError, OSError):
                message = None
            if message == _READY:
                worker.started = True
                continue
            if message is not None:
                results.append(message)
                worker.job = None
                continue
            if not worker.started:
                raise RuntimeError(
                    f"a worker process could not start ({worker.death()}); a script that calls split_many with "
                    "workers > 1 must guard its entry point with `if __name__ == '__main__':`"
                )
            results.append(SplitResult(job.number, job.source, error=worker.death()))
            worker.stop()
            self.workers[self.workers.index(worker)] = _Worker(self._context, self._init_args)
        return results

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()


def _in_pool(
    jobs: Iterator[_Job | SplitResult],
    workers: int,
    ordered: bool,
    strict: bool,
    init_args: tuple[Mapping[str, Any], str],
) -> Generator[SplitResult, None, None]:
    pool = _Pool(workers, init_args)
    window = workers * _WINDOW_PER_WORKER
    done: dict[int, SplitResult] = {}  # finished, not yet yielded
    taken = yielded = 0  # items read from the input / results handed back
    next_index = 0  # ordered mode: the index to yield next
    exhausted = False
    try:
        while True:
            while not exhausted and taken - yielded < window and (worker := pool.idle()) is not None:
                job = next(jobs, None)
                if job is None:
                    exhausted = True
                elif isinstance(job, SplitResult):
                    taken += 1
                    done[job.index] = job
                else:
                    taken += 1
                    worker.give(job)
            if not ordered:
                ready, done = list(done.values()), {}
            else:
                ready = []
                while next_index in done:
                    ready.append(done.pop(next_index))
                    next_index += 1
            for result in ready:
                yielded += 1
                yield _checked(result, strict)
            if exhausted and not done and not pool.busy():
                return
            if not ready:
                for result in pool.collect():
                    done[result.index] = result
    finally:
        pool.close()


with_option_parameters(split_many)
