"""Timing for the speed scripts: CPU time of this process, best of several runs.

CPU time rather than wall time: the machines here are shared, and wall time follows
their load while a single-threaded run's CPU time barely does.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def cpu_seconds(run: Callable[[], object], repeat: int = 1) -> float:
    """Least CPU time (`time.process_time`) of `repeat` runs of `run`."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best
