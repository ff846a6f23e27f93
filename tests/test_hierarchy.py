"""`hierarchy=True, parents="outline"`: parent chunks for broken sections, `parent_id`/`subsections`, and
`section_chunks` (issue 10), on generated Markdown and HTML and on every corpus file."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineNode, OutlineTextSplitter, TextChunk, reconstruct, section_chunks
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.strategies import markdown_document


def _sections(node: OutlineNode) -> list[OutlineNode]:
    found = [node] if node.kind == "section" else []
    for child in node.children:
        found.extend(_sections(child))
    return found


def split_in_roles(splitter: OutlineTextSplitter, text: str) -> tuple[list[TextChunk], ...]:
    """The chunks of a `hierarchy=True` split of `text`, its leaves and its parents, once
    checked that the leaves are the chunks of a split without `hierarchy` and that the
    ids are unique and the same in a second run."""
    chunks = splitter.split(text, document_id="doc")
    flat = OutlineTextSplitter(**{**_options(splitter), "hierarchy": False}).split(text, document_id="doc")
    leaves = [c for c in chunks if c.metadata["role"] == "leaf"]
    parents = [c for c in chunks if c.metadata["role"] == "parent"]
    assert len(leaves) + len(parents) == len(chunks)
    # the leaves are the chunks of a split without hierarchy
    assert [(c.text, c.start_pos, c.end_pos, c.metadata["id"]) for c in leaves] == [
        (c.text, c.start_pos, c.end_pos, c.metadata["id"]) for c in flat
    ]
    # ids unique and identical across two runs
    ids = [c.metadata["id"] for c in chunks]
    assert len(set(ids)) == len(ids), "two chunks share an id"
    assert ids == [c.metadata["id"] for c in splitter.split(text, document_id="doc")]
    assert [c.metadata["index"] for c in chunks] == list(range(len(chunks)))
    return chunks, leaves, parents


def assert_hierarchy(splitter: OutlineTextSplitter, text: str, cl100k: object = None) -> list[TextChunk]:
    """Every invariant of a `hierarchy=True` split of `text`; returns its chunks."""
    chunks, leaves, parents = split_in_roles(splitter, text)
    by_id = {c.metadata["id"]: c for c in chunks}
    first_parent: dict[str, TextChunk] = {}
    for parent in parents:
        first_parent.setdefault(parent.metadata["section_id"], parent)
    listed: dict[str, str] = {}
    for parent in parents:
        # every parent fits the budget, its count exact
        assert parent.token_count <= splitter.chunk_size, parent.text
        assert parent.token_count == splitter.tokenizer.count(parent.text)
        if cl100k is not None:
            assert parent.token_count == cl100k.count(parent.text)  # type: ignore[attr-defined]
        assert parent.metadata["subsections"], "a parent lists nothing"
        for name in parent.metadata["subsections"]:
            child = by_id.get(name) or first_parent.get(name)
            assert child is not None, f"{name} names no chunk and no section"
            assert child.metadata["parent_id"] == parent.metadata["id"], "a child does not point back"
            assert name not in listed, f"{name} is listed by two parents"
            listed[name] = parent.metadata["id"]
            assert parent.start_pos <= child.start_pos and child.end_pos <= parent.end_pos
        # its section's chunks: the leaves cover exactly the parent's span
        if parent is first_parent[parent.metadata["section_id"]]:
            found = section_chunks(chunks, parent.metadata["section_id"])
            inside = [c for c in leaves if parent.start_pos <= c.start_pos and c.end_pos <= parent.end_pos]
            assert [c for c in found if c.metadata["role"] == "leaf"] == inside
            assert inside[0].start_pos == parent.start_pos and inside[-1].end_pos == parent.end_pos
            assert not any(
                c.start_pos < parent.end_pos and c.end_pos > parent.start_pos for c in leaves if c not in inside
            )
    # every chunk has parent_id: a parent that lists it, or None at the top
    for chunk in chunks:
        above = chunk.metadata["parent_id"]
        assert (
            above is None
            or above == listed.get(chunk.metadata["id"])
            or (
                chunk is first_parent.get(chunk.metadata.get("section_id", ""))
                and above == listed.get(chunk.metadata["section_id"])
            )
        )
    for parent in parents:  # children: the chunks whose parent_id names it, in order
        named = [c.metadata["id"] for c in chunks if c.metadata["parent_id"] == parent.metadata["id"]]
        assert parent.metadata["children"] == named
        if parent.metadata["parent_id"] is None:
            assert parent is first_parent[parent.metadata["section_id"]]
    # a section over the budget has a parent spanning it; the leaves still rebuild the text
    if splitter.doc_type == "markdown":
        spans = {(p.start_pos, p.end_pos) for p in parents}
        for section in _sections(splitter.outline(text)):
            body = text[section.start : section.end]
            start, end = section.start + len(body) - len(body.lstrip()), section.end - len(body) + len(body.rstrip())
            holding = [c for c in leaves if c.start_pos < end and c.end_pos > start]
            if len(holding) > 1:  # its leaves start where its heading or a parent's heading starts
                assert (holding[0].start_pos, holding[-1].end_pos) in spans, section.meta.get("title")
    if splitter.output in (None, "html"):
        assert reconstruct(chunks, text) == text
    return chunks


def _options(splitter: OutlineTextSplitter) -> dict[str, object]:
    return dict(splitter.options)


@settings(max_examples=80, deadline=None)
@given(markdown_document(), st.sampled_from([64, 96, 160]))
def test_markdown_hierarchy_invariants(text, chunk_size):
    assert_hierarchy(OutlineTextSplitter(chunk_size=chunk_size, hierarchy=True, parents="outline"), text)


@settings(max_examples=50, deadline=None)
@given(html_documents(), st.sampled_from(["html", "text"]))
def test_html_hierarchy_invariants(html, output):
    assert_hierarchy(
        OutlineTextSplitter(doc_type="html", chunk_size=64, output=output, hierarchy=True, parents="outline"), html
    )


def test_markdown_corpus_hierarchy(cl100k):
    parents = 0
    for path in corpus_files("markdown", "*.md"):
        chunks = assert_hierarchy(
            OutlineTextSplitter(chunk_size=256, hierarchy=True, parents="outline"), path.read_text("utf-8"), cl100k
        )
        parents += sum(c.metadata["role"] == "parent" for c in chunks)
    assert parents > 100


@pytest.mark.parametrize("folder", ["html-spec", "html-web"])
@pytest.mark.parametrize("output", ["html", "text"])
def test_html_corpus_hierarchy(folder, output, cl100k):
    parents = 0
    for path in corpus_files(folder, "*.html"):
        splitter = OutlineTextSplitter(
            doc_type="html", chunk_size=256, output=output, hierarchy=True, parents="outline"
        )
        chunks = assert_hierarchy(splitter, path.read_text("utf-8"), cl100k)
        parents += sum(c.metadata["role"] == "parent" for c in chunks)
    assert parents > 50


def test_a_parent_names_its_parts_and_fits():
    text = "# Guide\n\nIntro.\n\n" + "".join(
        f"## Part {n}\n\n" + "".join(f"Paragraph {n}.{i} says a few things of its own here.\n\n" for i in range(12))
        for n in range(2)
    )
    chunks = OutlineTextSplitter(chunk_size=128, hierarchy=True, parents="outline").split(text)
    guide, part0 = (
        c for c in chunks if c.metadata["role"] == "parent" and c.metadata["section_id"] in ("guide", "guide/part-0")
    )
    assert guide.text.startswith("# Guide\n\nIntro.\n")  # the heading and the opening text as they are
    assert '[Subsection available: title "Part 0" at id: ' + part0.metadata["id"] + "]" in guide.text
    assert guide.metadata["subsections"] == [chunks[1].metadata["id"], "guide/part-0", "guide/part-1"]
    assert (guide.start_pos, guide.end_pos) == (0, len(text.rstrip()))
    assert part0.metadata["parent_id"] == guide.metadata["id"] and guide.metadata["parent_id"] is None
    assert chunks[1].metadata == {**chunks[1].metadata, "role": "leaf", "parent_id": guide.metadata["id"]}
    assert [c.metadata["section_id"] for c in section_chunks(chunks, "guide/part-1")][:1] == ["guide/part-1"]


def test_references_that_do_not_fit_go_to_a_continuation_parent():
    text = "# Long\n\n" + "".join(
        f"Paragraph {i} is long enough that it needs its own chunk here, with words.\n\n" for i in range(12)
    )
    chunks = OutlineTextSplitter(chunk_size=64, hierarchy=True, parents="outline").split(text)
    parents = [c for c in chunks if c.metadata["role"] == "parent"]
    assert len(parents) > 1
    for first, second in itertools.pairwise(parents):
        assert first.text.endswith(f"[Continued at id: {second.metadata['id']}]")
        assert second.metadata["parent_id"] == first.metadata["id"]
        assert first.metadata["subsections"][-1] == second.metadata["id"]
    leaves = [c for c in chunks if c.metadata["role"] == "leaf"]
    assert [c.metadata["role"] for c in section_chunks(chunks, "long")].count("leaf") == len(leaves)


def test_without_hierarchy_no_parents_and_parent_id_is_none():
    text = "# A\n\n" + "Words and more words here. " * 80
    chunks = OutlineTextSplitter(chunk_size=64).split(text)
    assert len(chunks) > 1 and all("role" not in c.metadata and c.metadata["parent_id"] is None for c in chunks)


@pytest.mark.parametrize("value", [1, "yes", None])
def test_hierarchy_must_be_a_bool(value):
    with pytest.raises(ValueError, match="hierarchy"):
        OutlineTextSplitter(hierarchy=value)


def test_hierarchy_needs_room_for_a_parent():
    with pytest.raises(ValueError, match="chunk_size"):
        OutlineTextSplitter(chunk_size=32, hierarchy=True, parents="outline")


def test_section_chunks_needs_a_str():
    with pytest.raises(ValueError, match="section_id"):
        section_chunks([], 3)  # type: ignore[arg-type]
