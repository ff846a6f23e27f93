"""Chunk boundaries compared with the stored snapshots (`tests/boundary_snapshots.py`).

A failure here is not necessarily a bug: it says that a change moved boundaries. If it
was meant, regenerate with `make snapshots` and review the diff of `tests/snapshots/`.
"""

from __future__ import annotations

import difflib

import pytest

from tests.boundary_snapshots import (
    CORPORA,
    SNAPSHOTS,
    SnapshotCase,
    corpus_cases,
    input_digest,
    render_snapshot,
    stdlib_cases,
    stored_digest,
)
from tests.conftest import corpus_files


def _corpus_cases() -> list[SnapshotCase]:
    return list(corpus_cases()) if CORPORA.is_dir() else []


def _check(case: SnapshotCase) -> None:
    stored_path = SNAPSHOTS / case.name
    assert stored_path.is_file(), f"no snapshot {stored_path}: run `make snapshots`"
    stored = stored_path.read_text(encoding="utf-8")
    if stored_digest(stored) != input_digest(case):
        pytest.skip(f"{case.path} differs from the copy its snapshot was made from")
    fresh = render_snapshot(case)
    if fresh != stored:
        diff = difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True), "stored", "now")
        shown = "".join(list(diff)[:60])
        pytest.fail(f"chunk boundaries of {case.name} moved (regenerate with `make snapshots` if meant):\n{shown}")


def test_every_corpus_file_has_a_snapshot() -> None:
    corpus_files("markdown")  # skips (or fails in CI) without ../shared/corpora
    names = {case.name for case in corpus_cases()}
    stored = {p.relative_to(SNAPSHOTS).as_posix() for p in (SNAPSHOTS / "corpora").rglob("*.txt")}
    assert names == stored


@pytest.mark.parametrize("case", _corpus_cases(), ids=lambda c: c.name)
def test_corpus_boundaries_match_snapshot(case: SnapshotCase) -> None:
    _check(case)


@pytest.mark.parametrize("case", list(stdlib_cases()), ids=lambda c: c.name)
def test_stdlib_boundaries_match_snapshot(case: SnapshotCase) -> None:
    _check(case)
