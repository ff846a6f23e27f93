"""The LlamaIndex front end, run for real: an IngestionPipeline over the Markdown corpus,
relationships, and auto-merging retrieval over an in-memory index."""

from __future__ import annotations

import pytest
from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import NodeParser
from llama_index.core.retrievers import AutoMergingRetriever
from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.integrations.llama_index import OutlineNodeParser, chunks_to_nodes
from tests.conftest import corpus_files

REPEATED = "The same paragraph, word for word, in every section.\n\n"


@pytest.fixture(scope="module")
def documents() -> list[Document]:
    out = []
    for path in corpus_files("markdown", "*.md")[:40]:
        text = path.read_text(encoding="utf-8")
        half = len(text) // 2
        out.append(Document(text=REPEATED.join(["", text[:half], text[half:], ""]), id_=str(path)))
    return out


def _run(documents: list[Document]) -> list[TextNode]:
    pipeline = IngestionPipeline(transformations=[OutlineNodeParser(chunk_size=64)])
    nodes = pipeline.run(documents=documents)
    assert all(isinstance(node, TextNode) for node in nodes)
    return [node for node in nodes if isinstance(node, TextNode)]


def test_ingestion_pipeline_nodes_are_exact_linked_and_stable(documents: list[Document]) -> None:
    nodes = _run(documents)
    texts = {document.doc_id: document.text for document in documents}
    assert len(nodes) > len(documents)
    for node in nodes:
        assert node.ref_doc_id in texts
        assert node.start_char_idx is not None and node.end_char_idx is not None
        assert node.text == texts[node.ref_doc_id][node.start_char_idx : node.end_char_idx]
        assert node.node_id == node.metadata["id"]
    by_id = {node.node_id: node for node in nodes}
    for node in nodes:
        following = node.next_node
        if following is not None:
            assert by_id[following.node_id].prev_node is not None
            assert by_id[following.node_id].prev_node.node_id == node.node_id  # type: ignore[union-attr]
            assert by_id[following.node_id].ref_doc_id == node.ref_doc_id
    # one chain per document: every document has exactly one first node
    assert sum(node.prev_node is None for node in nodes) == len(documents)
    assert [node.node_id for node in _run(documents)] == [node.node_id for node in nodes]


def test_repeated_text_gets_its_own_offsets(documents: list[Document]) -> None:
    nodes = [node for node in _run(documents[:5]) if node.text == REPEATED.strip()]
    assert len(nodes) >= 2
    assert len({(node.ref_doc_id, node.start_char_idx) for node in nodes}) == len(nodes)


def test_is_a_node_parser_and_bookkeeping_is_not_embedded() -> None:
    parser = OutlineNodeParser(chunk_size=16)
    assert isinstance(parser, NodeParser)
    document = Document(text="# Intro\n\nSome words here.\n\n## Part\n\nMore words there.", metadata={"author": "x"})
    (first, *_) = parser.get_nodes_from_documents([document])
    assert first.metadata["author"] == "x" and first.metadata["heading_path"] == ["Intro"]
    embedded = first.get_content(metadata_mode=MetadataMode.EMBED)
    # the location once, as the context (issue 40: heading_path, title and context repeated it)
    assert "author" in embedded and embedded.count("Intro") == 2 and "context: Intro" in embedded
    for key in ("id", "section_id", "kinds", "index", "token_count", "chunk_number", "heading_path", "title"):
        assert key in first.excluded_embed_metadata_keys and key in first.excluded_llm_metadata_keys
        assert f"{key}:" not in embedded
    assert first.source_node is not None and first.source_node.node_id == document.doc_id


def test_bad_arguments_are_outline_text_splitter_errors() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        OutlineNodeParser(chunk_size=0)


# -- hierarchy: hand-built parents with the keys of OutlineTextSplitter(hierarchy=True) --

SECTIONS = "# Guide\n\nIntro words for the guide.\n\n" + "".join(
    f"## Part {n}\n\n" + "".join(f"Paragraph {n}.{i} with a few words of its own.\n\n" for i in range(4))
    for n in range(3)
)


def _parent(section_id: str, leaves: list[TextChunk], subsections: list[str], parent_id: str | None) -> TextChunk:
    text = "\n".join(f"[Subsection available: at sectionid: {name}]" for name in subsections)
    metadata = {"id": f"parent:{section_id}", "section_id": section_id, "role": "parent"}
    metadata |= {"parent_id": parent_id, "subsections": subsections}
    start, end = leaves[0].start_pos, leaves[-1].end_pos
    return TextChunk(text=text, start_pos=start, end_pos=end, token_count=8, metadata=metadata)


def _hierarchy() -> list[TextChunk]:
    """SECTIONS' leaves (one per paragraph) under a parent per part, the parts under the
    guide's parent: the guide names its parts by section id, a part its leaves by chunk id."""
    leaves = OutlineTextSplitter(chunk_size=20).split(SECTIONS)
    by_section: dict[str, list[TextChunk]] = {}
    for leaf in leaves:
        by_section.setdefault(leaf.metadata["section_id"], []).append(leaf)
    guide, *parts = by_section
    chunks = [_parent(guide, leaves, [*parts, *(leaf.metadata["id"] for leaf in by_section[guide])], None)]
    for part in parts:
        chunks.append(_parent(part, by_section[part], [leaf.metadata["id"] for leaf in by_section[part]], guide))
    for leaf in leaves:
        parent = "parent:" + leaf.metadata["section_id"]
        chunks.append(leaf.model_copy(update={"metadata": {**leaf.metadata, "role": "leaf", "parent_id": parent}}))
    return chunks


def test_hierarchy_gives_parent_and_child_relationships() -> None:
    chunks = _hierarchy()
    nodes = chunks_to_nodes(chunks, Document(text=SECTIONS, id_="guide.md"))
    by_id = {node.node_id: node for node in nodes}
    parents = [node for node in nodes if node.metadata["role"] == "parent"]
    leaves = [node for node in nodes if node.metadata["role"] == "leaf"]
    assert len(parents) == 4 and len(leaves) == 13
    for parent in parents:
        children = parent.child_nodes or []
        assert children
        for child in children:
            assert by_id[child.node_id].parent_node is not None
            assert by_id[child.node_id].parent_node.node_id == parent.node_id  # type: ignore[union-attr]
    assert [child.node_id for child in by_id["parent:guide"].child_nodes or []] == [
        "parent:guide/part-0",
        "parent:guide/part-1",
        "parent:guide/part-2",
        leaves[0].node_id,
    ]
    # PREVIOUS/NEXT run through the leaves only, in document order
    assert all(NodeRelationship.NEXT not in parent.relationships for parent in parents)
    chain = [leaves[0]]
    while chain[-1].next_node is not None:
        chain.append(by_id[chain[-1].next_node.node_id])
    assert chain == leaves
    for leaf in leaves:
        assert SECTIONS[leaf.start_char_idx : leaf.end_char_idx] == leaf.text  # type: ignore[misc]


def _retrieve(section_id: str | None, top_k: int) -> list[str]:
    """Ids an auto-merging retriever returns over an in-memory index of the leaves (of
    `section_id` only, if given) with every node in the doc store."""
    nodes = chunks_to_nodes(_hierarchy(), Document(text=SECTIONS, id_="guide.md"))
    leaves = [node for node in nodes if node.metadata["role"] == "leaf"]
    if section_id is not None:
        leaves = [node for node in leaves if node.metadata["section_id"] == section_id]
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(leaves, storage_context=storage, embed_model=MockEmbedding(embed_dim=8))
    retriever = AutoMergingRetriever(index.as_retriever(similarity_top_k=top_k), storage, simple_ratio_thresh=0.5)
    return [hit.node.node_id for hit in retriever.retrieve("paragraph")]


def test_auto_merging_retrieval_returns_the_parent_when_enough_children_are_hit() -> None:
    # all four leaves of a part: the part; one leaf of four: that leaf
    assert _retrieve("guide/part-1", 4) == ["parent:guide/part-1"]
    (hit,) = _retrieve("guide/part-1", 1)
    assert hit in {chunk.metadata["id"] for chunk in _hierarchy() if chunk.metadata["section_id"] == "guide/part-1"}
    assert not hit.startswith("parent:")
    # every leaf: the parts merge, then the guide over its three parts and its intro
    assert _retrieve(None, 13) == ["parent:guide"]


# -- hierarchy from OutlineTextSplitter itself (hierarchy=True) ---------------------------


def test_real_hierarchy_relationships_are_consistent(documents: list[Document]) -> None:
    pipeline = IngestionPipeline(transformations=[OutlineNodeParser(chunk_size=64, hierarchy=True)])
    nodes = [node for node in pipeline.run(documents=documents) if isinstance(node, TextNode)]
    texts = {document.doc_id: document.text for document in documents}
    # chunk ids are unique within a document (the same text in two documents has one id)
    by_id = {(node.ref_doc_id, node.node_id): node for node in nodes}
    assert any(node.metadata["role"] == "parent" for node in nodes)
    for node in nodes:
        if node.metadata["role"] == "leaf":
            assert node.text == texts[node.ref_doc_id or ""][node.start_char_idx : node.end_char_idx]
        for child in node.child_nodes or []:
            parent = by_id[(node.ref_doc_id, child.node_id)].parent_node
            assert parent is not None and parent.node_id == node.node_id


LONG_PARAGRAPH = "Paragraph {}.{} with a few words of its own, and more to fill it.\n\n"
LONG_SECTIONS = "# Guide\n\nIntro words for the guide.\n\n" + "".join(
    f"## Part {n}\n\n" + "".join(LONG_PARAGRAPH.format(n, i) for i in range(4)) for n in range(3)
)


def test_real_hierarchy_auto_merges_to_a_parent() -> None:
    parser = OutlineNodeParser(chunk_size=64, hierarchy=True)
    nodes = parser.get_nodes_from_documents([Document(text=LONG_SECTIONS, id_="guide.md")])
    leaves = [node for node in nodes if node.metadata["role"] == "leaf"]
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(leaves, storage_context=storage, embed_model=MockEmbedding(embed_dim=8))
    retriever = AutoMergingRetriever(index.as_retriever(similarity_top_k=len(leaves)), storage)
    hits = retriever.retrieve("paragraph")
    assert hits and all(hit.node.metadata["role"] == "parent" for hit in hits)


def test_context_and_header_level_options_reach_the_splitter() -> None:
    rows = "".join(f"| row {i} | value {i} here |\n" for i in range(30))
    text = "# A\n\nintro.\n\n## B\n\n| x | y |\n|---|---|\n" + rows
    parser = OutlineNodeParser(chunk_size=64, context_in_budget=True, header_levels=[1, 2])
    nodes = parser.get_nodes_from_documents([Document(text=text)])
    assert nodes[0].text == "# A\n\nintro."  # "## B" starts a chunk
    splitter = OutlineTextSplitter(chunk_size=64, context_in_budget=True)
    assert all(splitter.tokenizer.count(f"{n.metadata.get('context', '')}\n{n.text}") <= 64 for n in nodes)
    with pytest.raises(ValueError, match="header_levels"):
        OutlineNodeParser(doc_type="text", header_levels=[1])
