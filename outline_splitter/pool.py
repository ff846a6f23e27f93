"""The worker processes of `split_many`: each a spawned process with a pipe of its
own, holding at most `depth` jobs at a time (which, the parent always knows), so a worker
that dies (killed, out of memory) fails exactly the job it was splitting, and a new one
takes its place. A worker builds its splitters (tokenizer, grammars) once, on start, and
sends each result as plain tuples (a pickled pydantic chunk cost the parent twice the
time to read back, `_pack`), from a thread of its own, so it splits its next job while
the parent is busy and has not read the last result yet.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
from collections import deque
from collections.abc import Mapping
from multiprocessing.connection import Connection, wait
from typing import Any

from outline_splitter.jobs import Job, SplitResult, Splitters
from outline_splitter.models import TextChunk

# Spawned workers start clean on every platform (fork would copy a parent's threads'
# locks, e.g. a tokenizer's, in whatever state they were).
_START_METHOD = "spawn"
# A worker's first message: its splitters are built (a worker that dies before it
# could not start at all, which is no item's fault).
_READY = "ready"

# A result on the wire: (index, source, error, chunks as tuples of these fields).
_FIELDS = ("text", "start_pos", "end_pos", "token_count", "start_overlap", "end_overlap", "metadata")
Packed = tuple[int, str | None, str | None, list[tuple[Any, ...]]]


def _pack(result: SplitResult) -> Packed:
    rows = [
        (c.text, c.start_pos, c.end_pos, c.token_count, c.start_overlap, c.end_overlap, c.metadata)
        for c in result.chunks
    ]
    return result.index, result.source, result.error, rows


def _unpack(message: Packed) -> SplitResult:
    index, source, error, rows = message
    chunks = [TextChunk(**dict(zip(_FIELDS, row))) for row in rows]
    return SplitResult(index, source, chunks, error)


def _serve(conn: Connection, splitter_args: Mapping[str, Any], encoding: str) -> None:
    """A worker: build the splitters once, then split the jobs in the order they come
    until told to stop; a thread sends the results."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    state = Splitters(dict(splitter_args), encoding)
    conn.send(_READY)
    outbox: queue.SimpleQueue[Packed | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(conn, outbox), daemon=True)
    sender.start()
    try:
        while True:
            try:
                job = conn.recv()
            except EOFError:  # the parent is gone
                return
            if job is None:
                return
            outbox.put(_pack(state.run(job)))
    finally:
        outbox.put(None)
        sender.join()


def _send_all(conn: Connection, outbox: queue.SimpleQueue[Packed | None]) -> None:
    while (message := outbox.get()) is not None:
        try:
            conn.send(message)
        except OSError:  # the parent is gone
            return


class Worker:
    """A worker process, its end of the pipe, and the jobs it holds, oldest first."""

    def __init__(self, context: Any, init_args: tuple[Mapping[str, Any], str]) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, *init_args), daemon=True)
        self.process.start()
        child.close()
        self.jobs: deque[Job] = deque()
        self.started = False

    def give(self, job: Job) -> None:
        self.jobs.append(job)
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


class StartFailed(RuntimeError):
    """A worker process that could not start (no job's fault)."""


class Pool:
    """Workers, each holding at most `depth` jobs; a dead one is replaced. With
    `warm_only`, jobs go only to workers whose splitters are built (the parent splits
    in the meantime); otherwise they wait in a starting worker's pipe."""

    def __init__(self, init_args: tuple[Mapping[str, Any], str], depth: int = 1, warm_only: bool = False) -> None:
        self._context = multiprocessing.get_context(_START_METHOD)
        self._init_args = init_args
        self._depth = depth
        self._warm_only = warm_only
        self.workers: list[Worker] = []
        self.retry: deque[Job] = deque()  # jobs a dead worker held but had not begun

    def start(self, size: int) -> None:
        """Start `size` more workers."""
        self.workers += [Worker(self._context, self._init_args) for _ in range(size)]

    def idle(self) -> Worker | None:
        """A worker that can take a job now, or None."""
        for number, worker in enumerate(self.workers):
            if len(worker.jobs) < self._depth and (worker.started or not self._warm_only):
                if worker.started and not worker.jobs and not worker.process.is_alive():  # died between jobs
                    worker.stop()
                    self.workers[number] = worker = Worker(self._context, self._init_args)
                    if self._warm_only:
                        continue
                return worker
        return None

    def warm(self) -> int:
        """How many workers have their splitters built."""
        return sum(worker.started for worker in self.workers)

    def busy(self) -> bool:
        return any(worker.jobs for worker in self.workers)

    def collect(self, timeout: float | None = None) -> list[SplitResult]:
        """Wait up to `timeout` seconds (None: until at least one busy worker is done) for
        messages; the results that came. `StartFailed` if a worker could not start."""
        watched = [worker for worker in self.workers if worker.jobs or not worker.started]
        if not watched or (timeout is None and not self.busy()):
            return []
        handles = [handle for worker in watched for handle in (worker.conn, worker.process.sentinel)]
        ready = set(wait(handles, timeout))
        results: list[SplitResult] = []
        for worker in watched:
            if worker.conn in ready or worker.process.sentinel in ready:
                results += self._read(worker)
        return results

    def _read(self, worker: Worker) -> list[SplitResult]:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            message = None
        if message == _READY:
            worker.started = True
            return []
        if message is not None:
            worker.jobs.popleft()
            return [_unpack(message)]
        if not worker.started:
            death = worker.death()
            worker.stop()
            self.workers.remove(worker)
            raise StartFailed(
                f"a worker process could not start ({death}); a script that calls split_many with "
                "workers > 1 must guard its entry point with `if __name__ == '__main__':`"
            )
        # the oldest job held was being split when the worker died; the others wait for another
        failed = worker.jobs.popleft()
        self.retry.extend(worker.jobs)
        result = SplitResult(failed.number, failed.source, error=worker.death())
        worker.stop()
        self.workers[self.workers.index(worker)] = Worker(self._context, self._init_args)
        return [result]

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
