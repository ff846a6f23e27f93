"""Parents that hold their leaves with overlap (issue 51): with `hierarchy=True` and
`chunk_overlap`, each leaf's overlaps lie inside its parent, in both parents modes, so a
text parent's text holds its leaves with their overlaps (as the front ends put them in
the text, `overlap_in_text`) and a merge into the parent loses none of them. An overlap
is left out only where the neighbour it comes from lies outside the leaf's parent; every
other one is that of a split without `hierarchy`. On generated Markdown and HTML, and on
the Markdown corpus and the spec pages."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.strategies import markdown_document


def _inside(chunk: TextChunk, parent: TextChunk) -> bool:
    return parent.start_pos <= chunk.start_pos and chunk.end_pos <= parent.end_pos


def assert_overlaps_inside_parents(splitter: OutlineTextSplitter, text: str) -> int:
    """Each leaf with its overlaps (the source slice they and it make) lies inside its
    parent; each overlap is a flat split's, or empty where the neighbour lies outside the
    leaf's parent. Returns how many overlaps a parent boundary left out."""
    chunks = splitter.split(text, document_id="doc")
    flat = OutlineTextSplitter(**{**dict(splitter.options), "hierarchy": False}).split(text, document_id="doc")
    by_id = {c.metadata["id"]: c for c in chunks}
    leaves = [c for c in chunks if c.metadata["role"] == "leaf"]
    assert [(c.start_pos, c.end_pos) for c in leaves] == [(c.start_pos, c.end_pos) for c in flat]
    left_out = 0
    for (before, after), (flat_before, flat_after) in zip(pairwise(leaves), pairwise(flat), strict=True):
        for leaf, neighbour, shared, flat_shared in (
            (after, before, after.start_overlap, flat_after.start_overlap),
            (before, after, before.end_overlap, flat_before.end_overlap),
        ):
            parent = by_id.get(leaf.metadata["parent_id"] or "")
            if parent is not None and not _inside(neighbour, parent):
                assert not shared, "an overlap comes from outside the leaf's parent"
                left_out += bool(flat_shared)
            else:
                assert shared == flat_shared, "an overlap inside the parent was changed"
    return left_out


def assert_framed_leaves_inside_parents(splitter: OutlineTextSplitter, text: str) -> None:
    """With the overlaps in the text (the front ends' chunks), each leaf's span lies in
    its parent's, and a text parent's text holds the leaf's text where it lies."""
    chunks = splitter.split(text, document_id="doc", overlap_in_text=True)
    by_id = {c.metadata["id"]: c for c in chunks}
    source = splitter.output in (None, "html")
    for leaf in chunks:
        parent = by_id.get(leaf.metadata.get("parent_id") or "")
        if leaf.metadata["role"] != "leaf" or parent is None:
            continue
        assert _inside(leaf, parent), "a leaf with its overlaps runs out of its parent"
        if splitter.options.parents != "text":
            continue
        if source:
            offset = leaf.start_pos - parent.start_pos
            assert parent.text[offset : offset + len(leaf.text)] == leaf.text
        else:
            assert leaf.text in parent.text


@settings(max_examples=60, deadline=None)
@given(markdown_document(), st.sampled_from([64, 96]), st.sampled_from(["text", "outline"]), st.data())
def test_markdown_overlaps_stay_inside_parents(text, chunk_size, parents, data):
    overlap = data.draw(st.integers(1, chunk_size - 1), label="chunk_overlap")
    splitter = OutlineTextSplitter(chunk_size=chunk_size, chunk_overlap=overlap, hierarchy=True, parents=parents)
    assert_overlaps_inside_parents(splitter, text)
    if 2 * overlap < chunk_size:  # (what a front end allows)
        assert_framed_leaves_inside_parents(splitter, text)


@settings(max_examples=40, deadline=None)
@given(html_documents(), st.sampled_from(["text", "outline"]), st.integers(1, 31))
def test_html_overlaps_stay_inside_parents(html, parents, overlap):
    splitter = OutlineTextSplitter(
        doc_type="html", chunk_size=64, chunk_overlap=overlap, hierarchy=True, parents=parents
    )
    assert_overlaps_inside_parents(splitter, html)
    assert_framed_leaves_inside_parents(splitter, html)


def _readmes_and_spec_pages() -> list[tuple[Path, str]]:
    return [(path, "markdown") for path in corpus_files("markdown", "*.md")] + [
        (path, "html") for path in corpus_files("html-spec", "*.html")
    ]


@pytest.mark.parametrize("parents", ["text", "outline"])
def test_corpus_leaves_with_overlap_lie_inside_their_parents(parents):
    left_out = 0
    for path, doc_type in _readmes_and_spec_pages():
        text = path.read_text("utf-8")
        splitter = OutlineTextSplitter(
            doc_type=doc_type, chunk_size=128, chunk_overlap=32, hierarchy=True, parents=parents
        )
        left_out += assert_overlaps_inside_parents(splitter, text)
        assert_framed_leaves_inside_parents(splitter, text)
    assert left_out > 0, "no overlap crossed a parent boundary: the corpus tests nothing"


# -- the front ends (overlap in the text), both parents modes -----------------------------


class Record(NamedTuple):
    """A front end's chunk as this test reads it; `own`: where a leaf's own part lies."""

    id: str
    role: str
    section_id: str | None
    parent_id: str | None
    children: list[str]
    start: int
    text: str
    own: tuple[int, int] | None


def _record(chunk_id: str, metadata: dict[str, Any], parent_id: str | None, start: int, body: str) -> Record:
    own = (metadata["own_start"], metadata["own_end"]) if "own_start" in metadata else None
    children = metadata.get("children", [])
    return Record(chunk_id, metadata["role"], metadata.get("section_id"), parent_id, children, start, body, own)


def _langchain(options: dict[str, Any], text: str, doc_type: str) -> list[Record]:
    from outline_splitter.integrations.langchain import OutlineSplitter

    documents = OutlineSplitter(add_start_index=True, doc_type=doc_type, **options).create_documents([text])
    return [
        _record(d.metadata["id"], d.metadata, d.metadata.get("parent_id"), d.metadata["start_index"], d.page_content)
        for d in documents
    ]


def _llama_index(options: dict[str, Any], text: str, doc_type: str) -> list[Record]:
    from llama_index.core import Document
    from llama_index.core.schema import TextNode

    from outline_splitter.integrations.llama_index import OutlineNodeParser

    parser = OutlineNodeParser(doc_type=doc_type, **options)
    nodes = [n for n in parser.get_nodes_from_documents([Document(text=text, id_="doc")]) if isinstance(n, TextNode)]
    # (the parent as LlamaIndex links it: its PARENT relationship)
    parent_ids = [n.parent_node.node_id if n.parent_node is not None else None for n in nodes]
    return [
        _record(n.node_id, n.metadata, above, n.start_char_idx or 0, n.text)
        for n, above in zip(nodes, parent_ids, strict=True)
    ]


def _haystack(options: dict[str, Any], text: str, doc_type: str) -> list[Record]:
    os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # no network
    from haystack import Document

    from outline_splitter.integrations.haystack import OutlineDocumentSplitter

    documents = OutlineDocumentSplitter(doc_type=doc_type, **options).run([Document(content=text)])["documents"]
    return [
        _record(d.id, d.meta, d.meta.get("parent_id"), d.meta["split_idx_start"], d.content or "") for d in documents
    ]


def assert_front_end_leaves_inside_parents(records: list[Record], text: str, parents: str) -> int:
    """Each leaf's text (with its overlaps) is the source at its offset and lies inside
    its parent: inside a text parent's text, where it lies; inside the span of an outline
    parent's section (its leaves' own parts, first to last: the parents of one section
    hang from its first, and every leaf of the section lies below that one). Returns how
    many leaves have a parent."""
    by_id = {record.id: record for record in records}

    def below(record: Record) -> list[tuple[int, int]]:
        if record.role == "leaf":
            return [record.own] if record.own is not None else []
        return [own for name in record.children for own in below(by_id[name])]

    def span(record: Record) -> tuple[int, int]:
        if record.role == "leaf" or parents == "text":
            return record.start, record.start + len(record.text)
        while record.parent_id is not None and by_id[record.parent_id].section_id == record.section_id:
            record = by_id[record.parent_id]
        return record.start, max(high for _, high in below(record))

    checked = 0
    for leaf in records:
        if leaf.role != "leaf":
            continue
        assert text[leaf.start : leaf.start + len(leaf.text)] == leaf.text
        if leaf.parent_id is None:
            continue
        parent = by_id[leaf.parent_id]
        (low, high), (leaf_low, leaf_high) = span(parent), span(leaf)
        assert low <= leaf_low and leaf_high <= high, "a leaf with its overlaps runs out of its parent"
        if parents == "text":
            assert parent.text[leaf_low - low : leaf_high - low] == leaf.text
        checked += 1
    return checked


@pytest.mark.parametrize("parents", ["text", "outline"])
@pytest.mark.parametrize(
    "front_end", [_langchain, _llama_index, _haystack], ids=["langchain", "llama_index", "haystack"]
)
def test_front_end_leaves_with_overlap_lie_inside_their_parents(front_end, parents):
    options = {"chunk_size": 128, "chunk_overlap": 32, "hierarchy": True, "parents": parents}
    checked = 0
    for path, doc_type in _readmes_and_spec_pages()[::9]:
        text = path.read_text("utf-8")
        checked += assert_front_end_leaves_inside_parents(front_end(options, text, doc_type), text, parents)
    assert checked > 50
