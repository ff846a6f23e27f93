"""`benchmarks.pack_speed` times what a split does: its packer makes the split's chunks,
and its steps are the split's steps (so that its breakdown adds up to a split)."""

from __future__ import annotations

from benchmarks.pack_speed import packer, step_runs
from outline_splitter import OutlineTextSplitter
from outline_splitter.nodes import Node
from outline_splitter.tokens.index import TokenIndex

_TEXT = "# Title\n\n" + "\n\n".join(f"## Part {n}\n\n" + "A sentence of the part. " * 40 for n in range(12))


def test_the_packer_makes_the_chunks_of_a_split():
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64)
    packed = packer(splitter, _TEXT)()
    split = splitter.split(_TEXT)
    assert len(split) > 10
    assert [(c.start_pos, c.end_pos, c.token_count) for c in packed] == [
        (c.start_pos, c.end_pos, c.token_count) for c in split
    ]


def test_the_steps_are_the_splits_own():
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64)
    steps = step_runs(splitter)
    index = steps["index"](_TEXT)
    assert isinstance(index, TokenIndex)
    assert index.count(0, len(_TEXT)) == splitter.tokenizer.count(_TEXT)
    for name in ("detect", "detect+mark"):
        root = steps[name](_TEXT)
        assert isinstance(root, Node)
        assert (root.start, root.end) == (0, len(_TEXT))
        assert [child.kind for child in root.children] == ["section"]
