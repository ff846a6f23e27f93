"""`hierarchy=True` with text parents (issue 35): every parent is the exact text of its
span, within `parent_chunk_size`, every child inside its parent, links both ways; on
generated Markdown and HTML, the corpora and stdlib modules."""

from __future__ import annotations

import itertools
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk, reconstruct, section_chunks
from tests.boundary_snapshots import STDLIB_SNAPSHOT_MODULES
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.strategies import markdown_document
from tests.test_hierarchy import split_in_roles


def text_parents(**options: Any) -> OutlineTextSplitter:
    """A splitter with `hierarchy=True` and text parents (the default)."""
    return OutlineTextSplitter(hierarchy=True, **options)


def assert_text_parents(splitter: OutlineTextSplitter, text: str, cl100k: object = None) -> list[TextChunk]:
    """Every invariant of a split with text parents; returns its chunks."""
    chunks, leaves, parents = split_in_roles(splitter, text)
    by_id = {c.metadata["id"]: c for c in chunks}
    source = splitter.output in (None, "html")
    for parent in parents:
        # a parent is the text of its span, exactly counted, within the parent budget
        if source:
            assert parent.text == text[parent.start_pos : parent.end_pos]
        assert parent.text.strip() == parent.text and parent.text
        assert parent.token_count == splitter.tokenizer.count(parent.text)
        if cl100k is not None:
            assert parent.token_count == cl100k.count(parent.text)  # type: ignore[attr-defined]
        assert parent.token_count <= splitter.options.parent_budget
        children = [by_id[name] for name in parent.metadata["children"]]
        assert len(children) >= 2, "a parent with one child is no level of its own"
        for child in children:
            # links both ways; the child lies inside its parent, its text inside the parent's
            assert child.metadata["parent_id"] == parent.metadata["id"]
            assert parent.start_pos <= child.start_pos and child.end_pos <= parent.end_pos
            assert (child.start_pos, child.end_pos) != (parent.start_pos, parent.end_pos)
            if source:
                offset = child.start_pos - parent.start_pos
                assert parent.text[offset : offset + len(child.text)] == child.text
            else:
                assert child.text in parent.text
        for before, after in itertools.pairwise(children):
            assert before.end_pos <= after.start_pos, "a parent's children overlap"
        # its children cover it: the first starts and the last ends where it does
        assert children[0].start_pos == parent.start_pos and children[-1].end_pos == parent.end_pos
    for chunk in chunks:
        above = chunk.metadata["parent_id"]
        if above is not None:
            assert chunk.metadata["id"] in by_id[above].metadata["children"]
    # the chunks at the top (no parent) are disjoint and hold every leaf
    top = [c for c in chunks if c.metadata["parent_id"] is None]
    for before, after in itertools.pairwise(top):
        assert before.end_pos <= after.start_pos
    assert all(any(t.start_pos <= leaf.start_pos and leaf.end_pos <= t.end_pos for t in top) for leaf in leaves)
    # a section's chunks: its parents and all below them, leaves covering a run of leaves
    for section_id in {p.metadata["section_id"] for p in parents} - {None}:
        found = section_chunks(chunks, section_id)
        assert all(p in found for p in parents if p.metadata["section_id"] == section_id)
        inner = [c for c in found if c.metadata["role"] == "leaf"]
        first, last = leaves.index(inner[0]), leaves.index(inner[-1])
        assert inner == leaves[first : last + 1]
    if source:
        assert reconstruct(chunks, text) == text
    return chunks


@settings(max_examples=80, deadline=None)
@given(markdown_document(), st.sampled_from([64, 96, 160]), st.sampled_from([2, 4]))
def test_markdown_text_parents(text, chunk_size, times):
    assert_text_parents(text_parents(chunk_size=chunk_size, parent_chunk_size=times * chunk_size), text)


@settings(max_examples=50, deadline=None)
@given(html_documents(), st.sampled_from(["html", "text"]))
def test_html_text_parents(html, output):
    assert_text_parents(text_parents(doc_type="html", chunk_size=64, output=output), html)


@pytest.mark.parametrize("chunk_size", [128, 256])
def test_markdown_corpus_text_parents(chunk_size, cl100k):
    parents = 0
    for path in corpus_files("markdown", "*.md"):
        chunks = assert_text_parents(text_parents(chunk_size=chunk_size), path.read_text("utf-8"), cl100k)
        parents += sum(c.metadata["role"] == "parent" for c in chunks)
    assert parents > 100


@pytest.mark.parametrize("chunk_size", [128, 256])
@pytest.mark.parametrize("folder", ["html-spec", "html-web"])
def test_html_corpus_text_parents(folder, chunk_size, cl100k):
    parents = 0
    for path in corpus_files(folder, "*.html"):
        splitter = text_parents(doc_type="html", chunk_size=chunk_size)
        chunks = assert_text_parents(splitter, path.read_text("utf-8"), cl100k)
        parents += sum(c.metadata["role"] == "parent" for c in chunks)
    assert parents > 20


@pytest.mark.parametrize("chunk_size", [128, 256])
def test_stdlib_text_parents(chunk_size, cl100k):
    root = Path(sysconfig.get_paths()["stdlib"])
    for name in STDLIB_SNAPSHOT_MODULES:
        text = (root / f"{name}.py").read_text("utf-8")
        chunks = assert_text_parents(text_parents(doc_type="python", chunk_size=chunk_size), text, cl100k)
        assert any(c.metadata["role"] == "parent" for c in chunks)


def test_a_parent_is_its_sections_text():
    text = "# Guide\n\nIntro.\n\n" + "".join(
        f"## Part {n}\n\n" + "".join(f"Paragraph {n}.{i} says a few things of its own here.\n\n" for i in range(12))
        for n in range(3)
    )
    chunks = text_parents(chunk_size=64, parent_chunk_size=256).split(text)
    parents = {c.metadata["section_id"]: c for c in chunks if c.metadata["role"] == "parent"}
    part1 = parents["guide/part-1"]
    start = text.index("## Part 1")
    assert part1.text == text[start : text.index("## Part 2")].rstrip()
    assert (part1.start_pos, part1.end_pos) == (start, start + len(part1.text))
    # the guide is over 256 tokens: its parts are parents of their own, at the top
    guide = [c for c in chunks if c.metadata["role"] == "parent" and c.metadata["section_id"] == "guide"]
    assert all(c.metadata["parent_id"] is None for c in guide) and part1.metadata["parent_id"] in {
        c.metadata["id"] for c in guide
    } | {None}
    found = section_chunks(chunks, "guide/part-1")
    assert found[0] is part1 and all(part1.start_pos <= c.start_pos < part1.end_pos for c in found)


def test_no_parent_holds_what_a_content_option_left_out():
    section = "<h2>Part {n}</h2>" + "".join(
        f"<p>Paragraph {{n}}.{i} says a few words of its own here.</p>" for i in range(8)
    )
    html = (
        "<main><h1>Guide</h1>"
        + "".join(
            section.format(n=n) + (f"<nav>Left out {n}: home, about, contact.</nav>" if n % 2 else "") for n in range(4)
        )
        + "</main>"
    )
    splitter = text_parents(doc_type="html", chunk_size=64, exclude=["nav"], parent_chunk_size=256)
    chunks = assert_text_parents(splitter, html)
    parents = [c for c in chunks if c.metadata["role"] == "parent"]
    assert parents and not any("Left out" in c.text for c in chunks)
    # without the option, the same parents may hold the nav
    whole = text_parents(doc_type="html", chunk_size=64, parent_chunk_size=256).split(html)
    assert any("Left out" in c.text for c in whole if c.metadata["role"] == "parent")
