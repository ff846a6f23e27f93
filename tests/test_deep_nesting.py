"""Deep nesting: the reproducers of the robustness issues, split with every invariant
held and the same output twice, and outlines that stay readable (no `RecursionError`
anywhere in pass one, pass two, the models or the command line)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from outline_splitter import OutlineNode, OutlineTextSplitter
from outline_splitter.models import MAX_OUTLINE_DEPTH
from outline_splitter.nodes import Node
from tests.invariants import assert_same_output, assert_source_chunks, assert_text_chunks

DEEP = 50_000
ROOT = Path(__file__).resolve().parents[1]


def _rust_ifs(depth: int) -> str:
    return "fn main() {\n" + "if a {\n" * depth + "x;\n" + "}\n" * depth + "}\n"


def _indented(line: str, indent: str, depth: int) -> str:
    return "".join(indent * i + line for i in range(depth))


# (id, doc_type, text, splitter arguments): each names the report it comes from.
CASES = [
    ("html 20,000 divs (issue 15)", "html", "<div>" * 20_000, {}),
    ("html 50,000 divs", "html", "<div>" * DEEP + "x", {}),
    ("html 5,000 unclosed p b i table tr td (issue 15)", "html", "<p><b><i><table><tr><td>" * 5_000, {}),
    ("html 10,000 closed divs", "html", "<div>x " * 10_000 + "</div>" * 10_000, {}),
    ("html 5,000 lists in items", "html", "<ul><li>item " * 5_000, {}),
    (
        "html separators and never_break_within at depth",
        "html",
        "<div><p>text here</p>" * 5_000,
        {"separators": ["div"], "never_break_within": ["p"], "max_chunk_size": 128},
    ),
    ("go '{'*497 (issue 17)", "go", "{" * 497 + "}" * 497, {}),
    ("go 50,000 braces", "go", "package a\nfunc f() " + "{" * DEEP + "}" * DEEP, {}),
    ("javascript '{'*2000 (issue 17)", "javascript", "{" * 2_000, {}),
    ("javascript 50,000 braces", "javascript", "function f() " + "{" * DEEP + "}" * DEEP, {}),
    ("rust 508 nested ifs (issue 17)", "rust", _rust_ifs(508), {}),
    ("rust 2,000 nested ifs", "rust", _rust_ifs(2_000), {}),
    ("php 2,000 braces (issue 17)", "php", "<?php\n" + "{" * 2_000 + "}" * 2_000, {}),
    ("php 50,000 braces", "php", "<?php\n" + "{" * DEEP + "}" * DEEP, {}),
    ("c 2,000 braces (issue 17)", "c", "int f(){" + "{" * 2_000 + "}" * 2_000 + "}", {}),
    ("c 50,000 braces", "c", "int f(){" + "{" * DEEP + "}" * DEEP + "}", {}),
    ("python 50,000 brackets", "python", "x = " + "[" * DEEP + "]" * DEEP, {}),
    ("python 200 nested defs", "python", _indented("def f():\n", "    ", 200) + "    " * 200 + "pass\n", {}),
    ("markdown 50,000 list markers", "markdown", "- " * DEEP + "x\n", {}),
    ("markdown 50,000 ordered markers", "markdown", "1. " * DEEP + "x\n", {}),
    ("markdown 1,500-deep indented list (issue 14)", "markdown", _indented("- item\n", "  ", 1_500), {}),
    ("markdown 50,000 block quotes", "markdown", ">" * DEEP + " x\n", {}),
    ("markdown 50,000 spaced block quotes", "markdown", "> " * DEEP + "x\n", {}),
    ("markdown quotes and lists", "markdown", "> - " * (DEEP // 2) + "x\n", {}),
]


@pytest.mark.parametrize(("doc_type", "text", "options"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_deep_nesting_splits_with_the_invariants(doc_type: str, text: str, options: dict[str, object]) -> None:
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=64, **options)  # type: ignore[arg-type]
    chunks = splitter.split(text)
    assert chunks
    limit = int(options.get("max_chunk_size", 64))  # type: ignore[call-overload]
    assert_source_chunks(text, chunks, splitter.tokenizer, limit)
    assert_same_output(chunks, splitter.split(text))


@pytest.mark.parametrize("doc_type", ["html", "markdown", "go", "rust"])
def test_deep_nesting_with_overlap_and_small_chunks(doc_type: str) -> None:
    text = {
        "html": "<section><h2>T</h2><div>word " * 3_000,
        "markdown": "> - word " * 3_000 + "\n",
        "go": "package a\nfunc f() " + "{ x := 1\n" * 3_000 + "}" * 3_000,
        "rust": _rust_ifs(1_000),
    }[doc_type]
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=48, chunk_overlap=12, min_chunk_size=16)
    chunks = splitter.split(text)
    assert_source_chunks(text, chunks, splitter.tokenizer, 48, overlap=12)
    assert_same_output(chunks, splitter.split(text))


def test_deep_html_in_text_mode() -> None:
    html = "<div>word " * 10_000
    splitter = OutlineTextSplitter(doc_type="html", output="text", chunk_size=64)
    chunks = splitter.split(html)
    assert_text_chunks(html, chunks, splitter.tokenizer, 64)
    assert_same_output(chunks, splitter.split(html))


def _depth(outline: OutlineNode) -> int:
    deepest, stack = 0, [(outline, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return deepest


@pytest.mark.parametrize(
    ("doc_type", "text"),
    [("html", "<div>" * 20_000), ("rust", _rust_ifs(508)), ("html", "<p><b><i><table><tr><td>" * 5_000)],
)
def test_a_deep_outline_is_flattened_at_the_cap(doc_type: str, text: str) -> None:
    outline = OutlineTextSplitter(doc_type=doc_type).outline(text)
    assert _depth(outline) == MAX_OUTLINE_DEPTH
    assert OutlineNode.model_validate_json(outline.model_dump_json()) == outline  # JSON reads it back
    assert len(outline.render(text).splitlines()) == sum(1 for _ in _walk(outline))
    # the flattened node keeps the span of what was below it
    deepest = next(node for node in _walk(outline) if not node.children and node.end - node.start > 1000)
    assert text[deepest.start : deepest.end].strip()


def _walk(outline: OutlineNode) -> list[OutlineNode]:
    out, stack = [], [outline]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def test_a_shallow_outline_is_not_flattened() -> None:
    text = "<div>" * (MAX_OUTLINE_DEPTH - 1) + "x"
    outline = OutlineTextSplitter(doc_type="html").outline(text)
    assert _depth(outline) == MAX_OUTLINE_DEPTH - 1


def test_to_node_and_from_node_round_trip_deep_trees() -> None:
    root = Node("document", 0, 10)
    node = root
    for _ in range(5 * sys.getrecursionlimit()):
        child = Node("div", 0, 10)
        node.children.append(child)
        node = child
    outline = OutlineNode.from_node(root)
    back = outline.to_node()
    assert len(back.walk()) == MAX_OUTLINE_DEPTH + 1
    assert OutlineNode.from_node(back) == outline


def test_the_command_line_splits_and_outlines_a_deep_file(tmp_path: Path) -> None:
    page = tmp_path / "deep.html"
    page.write_text("<div>" * 20_000 + "x", encoding="utf-8")
    for command in (["outline", page], ["split", page, "--chunk-size", "64"]):
        done = subprocess.run(
            [sys.executable, "-m", "outline_splitter", *map(str, command)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "RecursionError" not in done.stderr
    assert done.stdout.count("\n") > 100  # one JSON record a chunk
