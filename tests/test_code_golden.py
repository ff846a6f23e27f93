"""Golden tests over 40 standard-library modules (`outline_splitter/bench/stdlib_modules.py`).

The definitions and their comments and decorators come from `ast` and `tokenize`
(`benchmarks/code_attachment.py`), not from the detector under test.
"""

from __future__ import annotations

import pytest

from benchmarks.code_attachment import AttachmentScore, score_python_chunks
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import STDLIB_MODULES, stdlib_module_paths
from tests.invariants import assert_source_chunks


@pytest.fixture(scope="module")
def modules() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in stdlib_module_paths()]


def test_the_module_list_is_fixed_and_sorted():
    assert len(STDLIB_MODULES) == 40
    assert list(STDLIB_MODULES) == sorted(set(STDLIB_MODULES))


@pytest.mark.parametrize("chunk_size", [128, 512])
def test_definitions_whole_and_documented_together(modules, chunk_size, cl100k):
    splitter = OutlineTextSplitter(doc_type="python", chunk_size=chunk_size)
    total, strict = AttachmentScore(), AttachmentScore()
    misses: list[str] = []
    for name, text in modules:
        chunks = splitter.split(text)
        assert_source_chunks(text, chunks, cl100k, chunk_size)
        spans = [(c.start_pos, c.end_pos) for c in chunks]
        # a definition's span starts at its leading comments; comments, decorators and
        # first line are asked to share a chunk wherever they fit in one together
        score, missed = score_python_chunks(text, spans, cl100k.count, chunk_size, with_leading=True)
        total.add(score)
        misses.extend(f"{name}: {line}" for line in missed)
        strict.add(score_python_chunks(text, spans, cl100k.count, chunk_size)[0])
    assert total.fitting > 2000 and total.documented > 300  # the corpus is what it should be
    assert not misses, "\n".join(misses[:20])
    if chunk_size == 512:  # the measure: spans from the first decorator, every documented definition
        assert (strict.whole, strict.attached) == (strict.fitting, strict.documented)
