"""The worker processes of `split_many`: each a spawned process with a pipe of its
own, holding one job at a time, so the parent always knows which job a worker holds; a
worker that dies (killed, out of memory) fails exactly that job, and a new one takes
its place. A worker builds its splitters (tokenizer, grammars) once, on start.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Mapping
from multiprocessing.connection import Connection, wait
from typing import Any

from outline_splitter.jobs import Job, SplitResult, Splitters

# Spawned workers start clean on every platform (fork would copy a parent's threads'
# locks, e.g. a tokenizer's, in whatever state they were).
_START_METHOD = "spawn"
# A worker's first message: its splitters are built (a worker that dies before it
# could not start at all, which is no item's fault).
_READY = "ready"


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


class Worker:
    """A worker process, its end of the pipe, and the job it holds (None when idle)."""

    def __init__(self, context: Any, init_args: tuple[Mapping[str, Any], str]) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, *init_args), daemon=True)
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.started = False

    def give(self, job: Job) -> None:
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


class Pool:
    """`size` workers, each holding at most one job; a dead one is replaced."""

    def __init__(self, size: int, init_args: tuple[Mapping[str, Any], str]) -> None:
        self._context = multiprocessing.get_context(_START_METHOD)
        self._init_args = init_args
        self.workers = [Worker(self._context, init_args) for _ in range(size)]

    def idle(self) -> Worker | None:
        for number, worker in enumerate(self.workers):
            if worker.job is None:
                if not worker.process.is_alive():  # died between jobs: replace it before use
                    worker.stop()
                    self.workers[number] = worker = Worker(self._context, self._init_args)
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
            self.workers[self.workers.index(worker)] = Worker(self._context, self._init_args)
        return results

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
