"""`make fuzz`: the property of `tests/test_fuzz.py` for a time budget instead of a
number of examples. `FUZZ_SECONDS` sets the budget (default 1200, 20 minutes); rounds
of fresh random examples run until it is spent, each example under a 60 s alarm (a hang
is a failure too). Prints how many examples ran; on a failure, hypothesis's shrunk
example and a non-zero exit: add it to `tests/test_fuzz.py` as an `@example`.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from types import FrameType

from hypothesis import HealthCheck, given, settings

from tests.fuzz_strategies import Case, cases
from tests.test_fuzz import check_case

EXAMPLE_SECONDS = 60
ROUND = 500  # examples per hypothesis run: each run starts from a fresh random seed


def _hang(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"one example ran past {EXAMPLE_SECONDS} s")


def main() -> int:
    budget = float(os.environ.get("FUZZ_SECONDS", "1200"))
    began = time.monotonic()
    count = 0
    signal.signal(signal.SIGALRM, _hang)

    @settings(max_examples=ROUND, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cases())
    def run(case: Case) -> None:
        nonlocal count
        count += 1
        signal.alarm(EXAMPLE_SECONDS)
        try:
            check_case(case)
        finally:
            signal.alarm(0)

    rounds = 0
    while time.monotonic() - began < budget:
        try:
            run()
        except BaseException:
            print(f"fuzz: FAILED after {count} examples in {time.monotonic() - began:.0f} s", file=sys.stderr)
            raise
        rounds += 1
        print(f"fuzz: {count} examples, {rounds} rounds, {time.monotonic() - began:.0f} s", flush=True)
    print(f"fuzz: {count} examples in {time.monotonic() - began:.0f} s, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
