"""Timing for the speed scripts: CPU time of this process, each document's best of
several turns.

CPU time rather than wall time: the machines here are shared, and wall time follows
their load while a single-threaded run's CPU time barely does. Even so, this VM's speed
drifts by ±20% within seconds, so `best_per_document` has the runs it compares take
turns on each document, several times over, and sums each run's best time per document:
a ratio then compares runs made within milliseconds of each other. (Timing each run over
the whole corpus in turns, round after round, still moved the same ratio by ±15%.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping


def cpu_seconds(run: Callable[[], object], repeat: int = 1) -> float:
    """Least CPU time (`time.process_time`) of `repeat` runs of `run`."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def best_per_document(
    runs: Mapping[str, Callable[[str], object]], documents: Iterable[str], repeat: int
) -> dict[str, float]:
    """For each run, the sum over `documents` of its least CPU time on each, the runs
    taking turns on a document `repeat` times before the next document."""
    total = dict.fromkeys(runs, 0.0)
    for document in documents:
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(repeat):
            for name, run in runs.items():
                started = time.process_time()
                run(document)
                best[name] = min(best[name], time.process_time() - started)
        for name in runs:
            total[name] += best[name]
    return total
