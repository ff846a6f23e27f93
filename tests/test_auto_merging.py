"""Small-to-big retrieval with text parents (issue 35), run for real: LlamaIndex's
`AutoMergingRetriever` over an in-memory index of the leaves with a deterministic word
embedding, on generated Markdown and the Markdown corpus (every merge hands the model at
least the characters of the leaves it replaced, and the text of each of them), and
LangChain's `MultiVectorRetriever` recipe of docs/integrations.md on the corpus."""

from __future__ import annotations

import os
import re
import zlib
from typing import Any

import pytest
from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.retrievers import AutoMergingRetriever
from llama_index.core.schema import NodeWithScore, TextNode

from outline_splitter.integrations.llama_index import OutlineNodeParser
from tests.conftest import corpus_files

_WORD = re.compile(r"\w+")
_DIMENSIONS = 64


class WordEmbedding(BaseEmbedding):
    """A deterministic bag-of-words embedding (no model, no download): each word adds one
    to a dimension chosen by its CRC-32, the vector normalized."""

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * _DIMENSIONS
        for word in _WORD.findall(text.lower()):
            vector[zlib.crc32(word.encode()) % _DIMENSIONS] += 1.0
        norm = sum(x * x for x in vector) ** 0.5 or 1.0
        return [x / norm for x in vector]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embed(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embed(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._embed(query)


def _retrievers(
    text: str, chunk_size: int, top_k: int, **options: Any
) -> tuple[Any, AutoMergingRetriever, dict[str, TextNode]]:
    """The leaves' plain retriever, the auto-merging one over it, and every node by id
    (`options`: the parser's others)."""
    parser = OutlineNodeParser(chunk_size=chunk_size, hierarchy=True, **options)
    nodes = [node for node in parser.get_nodes_from_documents([Document(text=text, id_="doc")])]
    leaves = [node for node in nodes if node.metadata["role"] == "leaf"]
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(leaves, storage_context=storage, embed_model=WordEmbedding())
    plain = index.as_retriever(similarity_top_k=top_k)
    by_id = {node.node_id: node for node in nodes if isinstance(node, TextNode)}
    return plain, AutoMergingRetriever(plain, storage), by_id


def _below(parent_id: str, node_id: str, by_id: dict[str, TextNode]) -> bool:
    """Whether `node_id` is `parent_id`'s child, grandchild, ..."""
    above = by_id[node_id].metadata.get("parent_id")
    while above is not None:
        if above == parent_id:
            return True
        above = by_id[above].metadata.get("parent_id")
    return False


def _characters(leaves: list[Any]) -> int:
    """How many characters of the source `leaves` cover (leaves with overlaps share some)."""
    covered: set[int] = set()
    for leaf in leaves:
        covered.update(range(leaf.start_char_idx, leaf.end_char_idx))
    return len(covered)


def assert_merges_keep_the_text(text: str, chunk_size: int, queries: list[str], top_k: int = 8, **options: Any) -> int:
    """For each query: every parent the auto-merging retriever returns holds the text of
    each retrieved leaf it replaced (with its overlaps, where `options` ask for them) and
    at least the characters they cover; no retrieved leaf is lost. Returns how many parents were
    merged in."""
    plain, merging, by_id = _retrievers(text, chunk_size, top_k, **options)
    merged_in = 0
    for query in queries:
        hits: list[NodeWithScore] = plain.retrieve(query)
        found = merging.retrieve(query)
        found_ids = {hit.node.node_id for hit in found}
        for hit in found:
            if hit.node.metadata["role"] != "parent":
                continue
            merged_in += 1
            replaced = [h.node for h in hits if _below(hit.node.node_id, h.node.node_id, by_id)]
            assert replaced, "a parent came back in place of no leaf"
            assert len(hit.node.get_content()) >= _characters(replaced)
            for leaf in replaced:
                assert leaf.get_content() in hit.node.get_content()
        for leaf in (h.node for h in hits):  # each leaf retrieved is there, or a parent holding it
            assert leaf.node_id in found_ids or any(_below(i, leaf.node_id, by_id) for i in found_ids)
    return merged_in


def _paragraph_queries(text: str) -> list[str]:
    return [paragraph[:80] for paragraph in text.split("\n\n") if len(paragraph) > 60][::7]


def _line_queries(text: str) -> list[str]:
    """Queries for a page with few blank lines (the spec pages): every seventh long line."""
    return [line.strip()[:80] for line in text.splitlines() if len(line.strip()) > 60][::7]


GUIDE = "# Guide\n\nIntro words for the guide.\n\n" + "".join(
    f"## Part {n}\n\n"
    + "".join(f"Paragraph {n}.{i} tells of topic {n} and item {i}, with words of its own.\n\n" for i in range(10))
    for n in range(6)
)


def test_auto_merging_returns_the_text_of_the_leaves_it_replaced():
    queries = [f"topic {n} item" for n in range(6)] + ["Paragraph tells", "words of its own"]
    assert assert_merges_keep_the_text(GUIDE, 64, queries) > 0


@pytest.mark.parametrize("chunk_size", [128, 256])
def test_auto_merging_on_the_markdown_corpus(chunk_size):
    merged_in = 0
    for path in corpus_files("markdown", "*.md")[::4]:
        text = path.read_text("utf-8")
        merged_in += assert_merges_keep_the_text(text, chunk_size, _paragraph_queries(text)[:6])
    assert merged_in > 10


# one section cut into several parents: leaves meet inside it, where parents meet too
LONG_SECTION = "# Notes\n\n" + "".join(
    f"Paragraph {i} tells of topic {i % 5} and item {i}, with words of its own.\n\n" for i in range(60)
)


@pytest.mark.parametrize("overlap", [8, 16, 31])
def test_auto_merging_with_overlap_on_a_section_of_several_parents(overlap):
    queries = [f"topic {n} item" for n in range(5)] + ["Paragraph tells", "words of its own"]
    assert assert_merges_keep_the_text(LONG_SECTION, 128, queries, top_k=16, chunk_overlap=overlap) > 0


@pytest.mark.parametrize("folder", ["markdown", "html-spec"])
def test_auto_merging_with_overlap_keeps_every_retrieved_leaf_on_readmes_and_spec_pages(folder):
    """Issue 51: with `chunk_overlap=32` the leaves' texts hold their overlaps, and every
    parent merged in still holds each retrieved leaf's text."""
    merged_in = 0
    if folder == "markdown":
        documents = [(path, "markdown", _paragraph_queries) for path in corpus_files(folder, "*.md")[::4]]
    else:
        documents = [(path, "html", _line_queries) for path in corpus_files(folder, "*.html")]
    for path, doc_type, queries in documents:
        text = path.read_text("utf-8")
        merged_in += assert_merges_keep_the_text(text, 128, queries(text)[:6], doc_type=doc_type, chunk_overlap=32)
    assert merged_in > 10


@pytest.mark.parametrize(("chunk_size", "overlap"), [(128, 0), (256, 0), (128, 32)])
def test_langchain_multi_vector_retriever_returns_parents_holding_the_hits(chunk_size, overlap):
    """docs/integrations.md's recipe on the corpus: the leaves carry their parent's id
    (or their own, without a parent) under the id key; what comes back holds each hit
    (with its overlaps, where there are some)."""
    from langchain_classic.retrievers import MultiVectorRetriever
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.stores import InMemoryStore
    from langchain_core.vectorstores import InMemoryVectorStore

    from outline_splitter.integrations.langchain import OutlineSplitter

    parents_found = 0
    splitter = OutlineSplitter(chunk_size=chunk_size, chunk_overlap=overlap, hierarchy=True)
    for path in corpus_files("markdown", "*.md")[::8]:
        text = path.read_text("utf-8")
        chunks = splitter.create_documents([text])
        leaves = [chunk for chunk in chunks if chunk.metadata["role"] == "leaf"]
        for leaf in leaves:
            leaf.metadata["doc_id"] = leaf.metadata.get("parent_id") or leaf.metadata["id"]
        larger = {chunk.metadata["id"]: chunk for chunk in chunks if chunk.metadata["role"] == "parent"}
        larger |= {leaf.metadata["id"]: leaf for leaf in leaves if leaf.metadata.get("parent_id") is None}
        retriever = MultiVectorRetriever(
            vectorstore=InMemoryVectorStore(DeterministicFakeEmbedding(size=32)),
            docstore=InMemoryStore(),
            id_key="doc_id",
            search_kwargs={"k": 6},
        )
        retriever.vectorstore.add_documents(leaves, ids=[leaf.metadata["id"] for leaf in leaves])
        retriever.docstore.mset(list(larger.items()))
        for query in _paragraph_queries(text)[:4]:
            found = retriever.invoke(query)
            hits = retriever.vectorstore.similarity_search(query, k=6)
            assert all(any(hit.page_content in unit.page_content for unit in found) for hit in hits)
            parents_found += sum(unit.metadata["role"] == "parent" for unit in found)
    assert parents_found > 10


@pytest.mark.parametrize("folder", ["markdown", "html-spec"])
def test_haystack_auto_merging_retriever_with_overlap_returns_every_hit(folder):
    """Haystack's own `AutoMergingRetriever` over `OutlineDocumentSplitter`'s chunks with
    `chunk_overlap=32` (its keys read off ours: `__parent_id` is `parent_id`,
    `__children_ids` `children`): the leaves found by BM25, or the parents merged in
    for them, hold the text of each leaf found."""
    os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # no network
    from haystack import Document as HaystackDocument
    from haystack.components.retrievers import AutoMergingRetriever as HaystackAutoMerging
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    from outline_splitter.integrations.haystack import OutlineDocumentSplitter

    doc_type, pattern, queries = ("markdown", "*.md", _paragraph_queries)
    if folder == "html-spec":
        doc_type, pattern, queries = ("html", "*.html", _line_queries)
    splitter = OutlineDocumentSplitter(doc_type=doc_type, chunk_size=128, chunk_overlap=32, hierarchy=True)
    merged_in = 0
    for path in corpus_files(folder, pattern)[::4]:
        text = path.read_text("utf-8")
        chunks = splitter.run([HaystackDocument(content=text, meta={"file_path": str(path)})])["documents"]
        for chunk in chunks:
            chunk.meta.update(__parent_id=chunk.meta.get("parent_id"), __level=0, __block_size=128)
            chunk.meta["__children_ids"] = chunk.meta.get("children", [])
        leaves, parents = InMemoryDocumentStore(), InMemoryDocumentStore()
        leaves.write_documents([chunk for chunk in chunks if chunk.meta["role"] == "leaf"])
        parents.write_documents([chunk for chunk in chunks if chunk.meta["role"] == "parent"])
        search, merging = InMemoryBM25Retriever(leaves, top_k=8), HaystackAutoMerging(parents, threshold=0.5)
        for query in queries(text)[:6]:
            hits = search.run(query=query)["documents"]
            found = [hit for hit in hits if not hit.meta["__parent_id"]]  # (it merges leaves with a parent only)
            found += merging.run([hit for hit in hits if hit.meta["__parent_id"]])["documents"]
            assert all(any(hit.content in unit.content for unit in found) for hit in hits)
            merged_in += sum(unit.meta["role"] == "parent" for unit in found)
    assert merged_in > 5
