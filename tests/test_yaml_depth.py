"""Deep YAML block nesting: tree-sitter-yaml's scanner crashes the process (SIGSEGV)
once its stack of open block collections reaches about 254 (253 nested mappings or
block sequences, 126 `- k:` items). The splitter must read such a document without
the parser, and read one under the limit with it. Each split runs in a child process,
so that a regression fails the test instead of killing pytest."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from outline_splitter.detectors.data_tree import INVALID
from outline_splitter.detectors.yaml_depth import MAX_BLOCK_DEPTH, block_depth

ROOT = Path(__file__).resolve().parents[1]


def _mappings(depth: int, indent: str = "  ") -> str:
    return "".join(indent * i + "k:\n" for i in range(depth)) + indent * depth + "v\n"


def _sequences(depth: int) -> str:
    return "".join("  " * i + "-\n" for i in range(depth)) + "  " * depth + "v\n"


def _compact_sequences(depth: int) -> str:
    return "- " * depth + "v\n"


def _items_of_mappings(depth: int) -> str:
    return "".join("  " * i + "- k:\n" for i in range(depth)) + "  " * (depth + 1) + "v\n"


def _mixed(depth: int) -> str:
    return "".join("  " * i + ("k:\n" if i % 2 == 0 else "-\n") for i in range(depth)) + "  " * depth + "v\n"


def _sequences_under_keys(depth: int) -> str:
    """`k:` then `- k:` at the key's own column: a sequence as deep as its mapping."""
    return "k:\n" + "".join("  " * i + "- k:\n" for i in range(depth)) + "  " * depth + "- v\n"


# shape, builder, and how many of the builder's levels the scanner holds open per level
SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "mappings": (_mappings, 1),
    "mappings indented by 8": (lambda depth: _mappings(depth, " " * 8), 1),
    "sequences": (_sequences, 1),
    "compact sequences": (_compact_sequences, 1),
    "items of mappings": (_items_of_mappings, 2),
    "mixed": (_mixed, 1),
    "sequences under keys": (_sequences_under_keys, 2),
}
CRASH = 254  # the scanner's open block collections at which tree-sitter-yaml 0.7.2 crashes


def _split_in_child(texts: list[str]) -> list[str]:
    """Each text's top node kinds, split and checked with every invariant in a child
    process."""
    script = (
        "import json, sys\n"
        "from outline_splitter import OutlineTextSplitter\n"
        "from tests.invariants import assert_source_chunks\n"
        "splitter = OutlineTextSplitter(doc_type='yaml', chunk_size=64)\n"
        "for text in json.load(sys.stdin):\n"
        "    assert_source_chunks(text, splitter.split(text), splitter.tokenizer, 64)\n"
        "    print(','.join(child.kind for child in splitter.outline(text).children))\n"
    )

    done = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(texts), capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, f"exit code {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout.splitlines()


@pytest.mark.parametrize("shape", SHAPES)
def test_deep_block_nesting_splits_without_crashing(shape: str) -> None:
    build, per_level = SHAPES[shape]
    crash = CRASH // per_level
    deepest_read = max(depth for depth in range(1, crash) if block_depth(build(depth)) <= MAX_BLOCK_DEPTH)
    assert deepest_read >= (MAX_BLOCK_DEPTH - 3) // per_level, "the measure overestimates by a line or two at most"
    depths = [deepest_read, crash - 1, crash, crash + 1, 1_000]
    kinds = _split_in_child([build(depth) for depth in depths])
    assert len(kinds) == len(depths)
    assert kinds[0] != INVALID, "a document at the limit is read with the parser"
    assert kinds[2:] == [INVALID] * 3, "a document deep enough to crash the parser is read as plain text"


def test_deep_flow_collections_are_read_with_the_parser() -> None:
    """Flow collections open no block collection: the parser reads them at any depth."""
    texts = [
        "[" * 2_000 + "]" * 2_000 + "\n",
        "{a: " * 2_000 + "1" + "}" * 2_000 + "\n",
        _mappings(100) + "  " * 100 + "[" * 1_000 + "]" * 1_000 + "\n",
    ]
    assert all(kinds != INVALID for kinds in _split_in_child(texts))


@pytest.mark.parametrize("shape", SHAPES)
def test_the_depth_measured_bounds_the_scanners(shape: str) -> None:
    build, per_level = SHAPES[shape]
    for depth in (1, 10, 100, 300):
        assert block_depth(build(depth)) >= depth * per_level


# A level of a random block structure: its lines (`{}` is the level's indentation) and
# the indentation of the next level.
_LEVELS = [("{}k:", 2), ("{}-", 2), ("{}- k:", 4), ("{}- - k:", 6), ("{}j: v\n{}k:", 2), ("{}- v\n{}-", 2)]


def _random_block_structure(rng: random.Random, levels: int) -> str:
    out: list[str] = []
    indent = 0
    for _ in range(levels):
        lines, step = rng.choice(_LEVELS)
        out.append(lines.replace("{}", " " * indent))
        indent += step
    return "\n".join(out) + "\n" + " " * indent + "v\n"


def test_random_block_structures_never_crash_the_parser() -> None:
    """Mixed shapes around the limit: the measure bounds the scanner's stack whatever the
    mix (a document it lets through never crashes it)."""
    rng = random.Random(7)
    texts = [_random_block_structure(rng, rng.randrange(80, 250)) for _ in range(150)]
    kinds = _split_in_child(texts)
    assert len(kinds) == len(texts)
    assert any(k != INVALID for k in kinds) and any(k == INVALID for k in kinds), "both sides of the limit are tried"
