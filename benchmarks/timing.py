"""Timing for the speed scripts: CPU time of this process, best of several rounds.

CPU time rather than wall time: the machines here are shared, and wall time follows
their load while a single-threaded run's CPU time barely does. Even so, this VM's speed
drifts by ±20% over minutes, so `best_of_rounds` times the runs it compares in turns,
round after round, and keeps each one's best: a ratio then compares like with like.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping


def cpu_seconds(run: Callable[[], object], repeat: int = 1) -> float:
    """Least CPU time (`time.process_time`) of `repeat` runs of `run`."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def best_of_rounds(runs: Mapping[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Each run's least CPU time over `rounds` rounds, the runs taking turns in each."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = min(best[name], cpu_seconds(run))
    return best
