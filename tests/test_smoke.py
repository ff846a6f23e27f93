"""End to end on the bundled sample."""

from __future__ import annotations

from outline_splitter import OutlineTextSplitter
from outline_splitter.demo import SAMPLE
from tests.invariants import assert_source_chunks


def test_sample_splits_with_invariants(cl100k):
    text = SAMPLE.read_text(encoding="utf-8")
    for size in (32, 96, 512):
        splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=size)
        chunks = splitter.split(text)
        assert_source_chunks(text, chunks, cl100k, size)
    assert len(OutlineTextSplitter(chunk_size=4096).split(text)) == 1
