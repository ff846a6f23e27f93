"""Separators on every real page, in both splitter classes (issue 15): the seed-style
call ended in `RecursionError` on real pages. Each split holds the invariants with
`max_chunk_size` as the hard cap, and its boundaries match the golden record
(`tests/separator_pages.py`)."""

from __future__ import annotations

import json

import pytest

from outline_splitter.tokens import resolve_tokenizer
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks, assert_text_chunks
from tests.separator_pages import (
    FOLDERS,
    GOLDEN,
    MAX_CHUNK_SIZE,
    SEPARATOR_SETS,
    case_key,
    outline_splitter,
    record,
    seed_splitter,
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("folder", FOLDERS)
def test_separators_on_every_page_hold_the_hard_cap(folder, cl100k):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for page in corpus_files(folder):
        html = page.read_text(encoding="utf-8")
        for separators in SEPARATOR_SETS:
            chunks = seed_splitter(separators).split_chunks(html)
            assert_text_chunks(html, chunks, resolve_tokenizer(len), MAX_CHUNK_SIZE)
            assert all(len(c.text) <= MAX_CHUNK_SIZE for c in chunks)
            assert record(chunks) == golden[case_key(page, separators, "seed")], (page.name, separators)
            chunks = outline_splitter(separators).split(html)
            assert_source_chunks(html, chunks, cl100k, MAX_CHUNK_SIZE)
            assert record(chunks) == golden[case_key(page, separators, "outline")], (page.name, separators)
