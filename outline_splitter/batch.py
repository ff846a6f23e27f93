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

import os
from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import Any, Unpack

from outline_splitter.jobs import (
    InputError,
    Job,
    SplitError,
    SplitResult,
    Splitters,
    failure_message,
    make_jobs,
    read_path,
)
from outline_splitter.options import SplitterKwargs, with_option_parameters
from outline_splitter.pool import Pool

__all__ = [
    "InputError",
    "SplitError",
    "SplitResult",
    "Splitters",
    "default_workers",
    "failure_message",
    "read_path",
    "split_many",
]

# Items taken from the input and not yet yielded, per worker: enough that a slow item in
# ordered mode does not leave the other workers idle at once, small enough to stay flat.
_WINDOW_PER_WORKER = 4


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
    jobs = make_jobs(items, state.default_doc_type)
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


def _checked(result: SplitResult, strict: bool) -> SplitResult:
    if strict and result.error is not None:
        raise SplitError(result)
    return result


def _in_process(
    jobs: Iterator[Job | SplitResult], state: Splitters, strict: bool
) -> Generator[SplitResult, None, None]:
    for job in jobs:
        yield _checked(job if isinstance(job, SplitResult) else state.run(job), strict)


# -- the pool ---------------------------------------------------------------------


def _in_pool(
    jobs: Iterator[Job | SplitResult],
    workers: int,
    ordered: bool,
    strict: bool,
    init_args: tuple[Mapping[str, Any], str],
) -> Generator[SplitResult, None, None]:
    pool = Pool(workers, init_args)
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
