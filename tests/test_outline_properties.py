"""Every detector's outline is well-formed on arbitrary text (issue 15: the rst detector
built one that `check_outline` refused, an internal error dressed as bad input): offsets
in the text, children ordered, disjoint and inside their parent, deferred children too."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings

from outline_splitter.nodes import check_outline
from outline_splitter.registry import FORMATS, load_detector
from tests.fuzz_strategies import TEXT


@pytest.mark.timeout(300)
@pytest.mark.parametrize("fmt", FORMATS, ids=[fmt.name for fmt in FORMATS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT)
@example(text="a\n---\na\n---")
@example(text="---\na\n---\na\n---\n\n===\nb\n===\n")
def test_every_detector_builds_a_valid_outline(fmt, text):
    root = load_detector(fmt)(text).expand_all()
    check_outline(root, len(text))
