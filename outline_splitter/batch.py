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
import time
from collections.abc import Generator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Unpack

from outline_splitter.bad_input import BadInput
from outline_splitter.jobs import (
    Job,
    SplitError,
    SplitResult,
    Splitters,
    failure_message,
    make_jobs,
)
from outline_splitter.options import SplitterKwargs, with_option_parameters
from outline_splitter.pool import Pool, StartFailed

__all__ = [
    "BadInput",
    "SplitError",
    "SplitResult",
    "Splitters",
    "default_workers",
    "failure_message",
    "split_many",
]

# Items taken from the input and not yet yielded, per worker: enough that a slow item in
# ordered mode does not leave the other workers idle at once, small enough to stay flat.
_WINDOW_PER_WORKER = 4
# With the default workers this process splits too, and starts its helpers (one fewer
# than the cores) only once it has split for this many seconds: a spawned worker costs
# about half a second of CPU before it splits anything (several on a busy machine),
# which a short batch never earns back.
_HELPERS_AFTER = 0.5
# ... and only where cores stood idle meanwhile (at least this many): on a machine that
# other work keeps busy a helper gets no core of its own (Linux shares the CPUs between
# sessions, not processes), so it only adds its start and the results' trip to the time.
_IDLE_FOR_A_HELPER = 0.5
# A batch this process has split for this long beside all its helpers is a long one: it
# starts one more helper and leaves the splitting to them. A job it splits itself can
# take far longer than the two a helper holds (a 1.6 MB page against two 6 KB READMEs),
# and the helpers wait on it meanwhile: 8,000 corpus documents took 0.65 of one worker's
# time with this process splitting beside one helper, 0.55 with two helpers and this
# process only handing out jobs (`python -m benchmarks.batches --cases docs`).
_HAND_OVER_AFTER = 3.0


class IdleCores:
    """How many cores of the machine stood idle since the last reading (Linux's
    /proc/stat); None where it cannot tell."""

    def __init__(self, stat: Path = Path("/proc/stat")) -> None:
        self._stat = stat
        self._last = self._read()

    def _read(self) -> tuple[int, int] | None:
        try:
            with self._stat.open(encoding="ascii") as lines:
                ticks = [int(value) for value in lines.readline().split()[1:9]]
        except (OSError, ValueError):
            return None
        if len(ticks) < 5:
            return None
        return ticks[3] + ticks[4], sum(ticks)  # idle and waiting for I/O, of all

    def since_last(self) -> float | None:
        now, last = self._read(), self._last
        self._last = now
        if now is None or last is None or now[1] <= last[1]:
            return None
        return (now[0] - last[0]) / (now[1] - last[1]) * (os.cpu_count() or 1)


def _helpers_to_start(idle: float | None, most: int) -> int:
    """Helpers worth starting with `idle` cores free (None: unknown, start them all)."""
    if idle is None:
        return most
    return min(most, max(1, round(idle))) if idle >= _IDLE_FOR_A_HELPER else 0


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

    `workers`: `N` splits in `N` worker processes, each item in a process of its own (so
    an item that kills its worker fails alone); `1` splits in this process, for
    debugging. The default (None) is never slower than one worker: this process splits
    the items itself, starts helpers (one fewer than its cores, no more than stand idle)
    only once it has split for half a second (the cost of starting one), and leaves the
    splitting to them (one more helper) once the batch proves long (an item it splits
    itself is not isolated). With more than one, `splitter_args` must pickle (a
    tokenizer that is a lambda cannot). Results come in input order, or as they finish
    with `ordered=False`. An item that fails (unsupported type, a worker that died on
    it, a file that cannot be split: its `error` in the words of docs/usage.md's table,
    `bad_input.WORDS`; `decode_errors="replace"` keeps a file with bytes not in
    `encoding`) gives a result with `error` set and the run goes on; with `strict=True`
    it raises `SplitError` instead. Bad arguments raise `ValueError` at once. Closing the
    iterator (or leaving a `for` loop over it and dropping it) stops the workers.
    """
    count = _worker_count(workers)
    state = Splitters(dict(splitter_args), encoding)  # checks splitter_args once, here
    jobs = make_jobs(items, state.default_doc_type)
    if count == 1:
        return _in_process(jobs, state, strict)
    return _in_pool(jobs, count, ordered, strict, (dict(splitter_args), encoding), state if workers is None else None)


def default_workers() -> int:
    """The processes `workers=None` splits on at most: the cores this process may run on."""
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


class _Schedule:
    """The input taken as jobs within the window, and the results not yet yielded."""

    def __init__(self, jobs: Iterator[Job | SplitResult], window: int, ordered: bool, pool: Pool) -> None:
        self._jobs = jobs
        self._window = window
        self._ordered = ordered
        self._pool = pool
        self._done: dict[int, SplitResult] = {}  # finished, not yet yielded
        self._taken = self._yielded = 0  # items read from the input / results handed back
        self._next_index = 0  # ordered mode: the index to yield next
        self.exhausted = False

    def take(self) -> Job | None:
        """The next job to run: one a dead worker held but had not begun, else the
        input's next while the window allows."""
        if self._pool.retry:
            return self._pool.retry.popleft()
        while not self.exhausted and self._taken - self._yielded < self._window:
            job = next(self._jobs, None)
            if job is None:
                self.exhausted = True
            else:
                self._taken += 1
                if not isinstance(job, SplitResult):
                    return job
                self._done[job.index] = job  # an item of an unsupported type
        return None

    def feed(self) -> None:
        """Give jobs to the workers that can take one."""
        while (worker := self._pool.idle()) is not None and (job := self.take()) is not None:
            worker.give(job)

    def add(self, results: Iterable[SplitResult]) -> None:
        for result in results:
            self._done[result.index] = result

    def ready(self) -> list[SplitResult]:
        """The results to yield now (in input order, unless unordered)."""
        if not self._ordered:
            ready, self._done = list(self._done.values()), {}
        else:
            ready = []
            while self._next_index in self._done:
                ready.append(self._done.pop(self._next_index))
                self._next_index += 1
        self._yielded += len(ready)
        return ready

    def finished(self) -> bool:
        return self.exhausted and not self._done and not self._pool.busy() and not self._pool.retry


def _in_pool(
    jobs: Iterator[Job | SplitResult],
    workers: int,
    ordered: bool,
    strict: bool,
    init_args: tuple[Mapping[str, Any], str],
    own: Splitters | None = None,
) -> Generator[SplitResult, None, None]:
    """Results from `workers` worker processes; or, given this process's splitters
    (`own`), from this process and the helpers `_OwnShare` starts beside it."""
    pool = Pool(init_args, depth=1 if own is None else 2, warm_only=own is not None)
    if own is None:
        pool.start(workers)
    schedule = _Schedule(jobs, workers * _WINDOW_PER_WORKER, ordered, pool)
    share = None if own is None else _OwnShare(own, pool, workers - 1)
    try:
        while True:
            schedule.feed()
            ready = schedule.ready()
            for result in ready:
                yield _checked(result, strict)
            if schedule.finished():
                return
            if not ready:
                schedule.add(pool.collect() if share is None else _next_results(share, schedule, pool))
    finally:
        pool.close()


def _next_results(share: _OwnShare, schedule: _Schedule, pool: Pool) -> list[SplitResult]:
    """What came from the helpers, else the next job split here while this process
    still splits, else what the helpers send next."""
    try:
        results = pool.collect(timeout=0)
        job = None if results or not share.splits() else schedule.take()
        if job is not None:
            return [share.run(job, more_to_come=not schedule.exhausted)]
        return results or pool.collect()
    except StartFailed:
        return []  # this process goes on without that helper


class _OwnShare:
    """This process's part of a batch with the default workers: it splits alone until
    it has split for `_HELPERS_AFTER` seconds, then starts helpers (as many as cores
    stood idle meanwhile, looked at again every `_HELPERS_AFTER` seconds, at most
    `most` of them) and splits beside them; once it has split for `_HAND_OVER_AFTER`
    seconds beside all `most` helpers, it starts one more and, when that one is warm,
    leaves the splitting to them."""

    def __init__(self, splitters: Splitters, pool: Pool, most: int) -> None:
        self._splitters = splitters
        self._pool = pool
        self._most = most
        self._idle = IdleCores()
        self._seconds = 0.0  # spent splitting here
        self._next_look = _HELPERS_AFTER
        self._helpers = 0  # started

    def splits(self) -> bool:
        """Whether this process still takes jobs itself."""
        return self._pool.warm() <= self._most

    def run(self, job: Job, more_to_come: bool) -> SplitResult:
        started = time.perf_counter()
        result = self._splitters.run(job)
        self._seconds += time.perf_counter() - started
        if more_to_come and self._seconds >= self._next_look:
            self._next_look = self._seconds + _HELPERS_AFTER
            self._start_helpers()
        return result

    def _start_helpers(self) -> None:
        if not self._helpers:
            self._helpers = _helpers_to_start(self._idle.since_last(), self._most)
            if self._helpers:
                self._pool.start(self._helpers)
        elif self._helpers == self._most == self._pool.warm() and self._seconds >= _HAND_OVER_AFTER:
            self._pool.start(1)
            self._helpers += 1


with_option_parameters(split_many)
