"""Fuzzing `split` (issues 15 and 17): arbitrary text and arguments for every doc type
give valid chunks (`tests.hostile.split_checked`), or a `ValueError` naming the argument
drawn invalid on purpose; no other exception, ever. Bounded here; `make fuzz` runs the
same property for a time budget (`tests/fuzz.py`), and what it finds is kept below as
an `@example`."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings

from tests.fuzz_strategies import Case, cases
from tests.hostile import split_checked


def check_case(case: Case) -> None:
    """The property: valid chunks, or a `ValueError` naming the invalid argument."""
    if case.bad:
        with pytest.raises(ValueError, match="|".join(case.bad)):
            split_checked(case.text, case.doc_type, **case.options)
        return
    split_checked(case.text, case.doc_type, **case.options)


@pytest.mark.timeout(300)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
# found by `make fuzz`: "&F" is no entity, yet its "F" shared the "&"'s offset, so no cut fell between them
@example(Case("&F", "html", {"chunk_size": 1, "tokenizer": "cl100k_base", "output": "text"}))
# found by `make fuzz`: min_chunk_size moved "e" off "><article" (2 tokens), leaving "><articl" (3 > 2)
@example(Case("</table><article>", "markdown", {"chunk_size": 2, "min_chunk_size": 2, "tokenizer": "cl100k_base"}))
# found by `make fuzz`: a trailing comment was a node of its own inside the statement of its line
@example(Case("\n---\n\n===\n0// LLM-REGION: r\n", "java", {"chunk_size": 1, "tokenizer": "cl100k_base"}))
def test_split_gives_valid_chunks_or_a_value_error(case: Case) -> None:
    check_case(case)
