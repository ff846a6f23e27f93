"""Shared fixtures: the real tokenizer for recounts, and the shared corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from outline_splitter.tokens import TiktokenTokenizer

# In CI the property tests draw the same examples on every run (a seed per test), so a
# commit's CI gives one answer however often it runs; new examples are drawn by every
# local run and by `make fuzz`, and what they find becomes an @example.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def corpus_files(folder: str, pattern: str = "*") -> list[Path]:
    """The files of `../shared/corpora/<folder>`; outside CI a missing folder skips the
    test (a user's clone has no ../shared), in CI it fails: CI always has it."""
    directory = CORPORA / folder
    if not directory.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{directory} is missing, and CI always has ../shared/corpora")
        pytest.skip(f"{directory} is not here (../shared/corpora comes with the project's CI, not with a clone)")
    return sorted(directory.glob(pattern))


@pytest.fixture(scope="session")
def cl100k() -> TiktokenTokenizer:
    """cl100k_base, for recounting chunks with a plain encode."""
    return TiktokenTokenizer.from_name("cl100k_base")
