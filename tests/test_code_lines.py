"""Code cut at whole lines, a golden measure over the stdlib modules at 256 and 512
tokens (`benchmarks/code_lines.py`): no chunk starts inside a line that fits, at most 1%
of chunks are 10 tokens or fewer where a neighbour could take them, no opening line alone
while its first statement fits with it, every docstring with its definition's first line
where both fit, and `symbol` names the definition a chunk starts in."""

from __future__ import annotations

import pytest

from benchmarks.code_lines import measure
from outline_splitter import OutlineTextSplitter
from tests.invariants import assert_source_chunks


def test_a_trailing_comment_stays_with_its_line(cl100k):
    body = "\n".join(
        f"    value_{i} = compute(value_{i - 1}, {i})  # step {i} of the computation" for i in range(1, 30)
    )
    text = f"def run(value_0):\n{body}\n    return value_29\n"
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    for chunk in chunks:
        line_start = text.rfind("\n", 0, chunk.start_pos) + 1
        assert not text[line_start : chunk.start_pos].strip(), chunk.text[:40]


def test_a_block_opening_line_stays_with_its_first_statement(cl100k):
    inner = "\n".join(f"        total += weigh(item, {i}) * scale(item, {i})" for i in range(12))
    text = f"def run(items):\n    total = 0\n    for item in items:\n{inner}\n    return total\n"
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=48).split(text)
    assert_source_chunks(text, chunks, cl100k, 48)
    opener = next(c for c in chunks if "for item in items:" in c.text)
    assert "total += weigh(item, 0)" in opener.text


def test_a_signature_keeps_the_start_of_its_long_docstring(cl100k):
    doc = "\n".join(f"    Line {i} of a docstring that explains the function at length." for i in range(20))
    text = f'def explain(x):\n    """\n{doc}\n    """\n    return x\n'
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    assert chunks[0].text.startswith('def explain(x):\n    """\n    Line 0')
    assert all(c.metadata["symbol"] == "explain" for c in chunks)


@pytest.mark.parametrize("budget", [256, 512])
def test_code_is_cut_at_whole_lines_on_the_stdlib(budget):
    score = measure(budget)
    assert score.chunks > 1000 and score.docstrings > 1000
    assert score.mid_line == 0, score.examples[:10]
    assert score.rate("small") <= 0.01
    assert score.header_alone == 0
    assert score.docstrings_apart == 0
    assert score.rate("wrong_symbol") <= 0.001
