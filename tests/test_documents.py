"""Documents in and out on `OutlineTextSplitter`: the seed HTMLTextSplitter's
`split_documents` / `create_documents` semantics for any format (issue 10)."""

from __future__ import annotations

from typing import Any

import pytest

from outline_splitter import Document, OutlineTextSplitter

TEXT = "# Intro\n\nFirst part of the text. It has two sentences.\n\n# Usage\n\nSecond part, with more words in it.\n"


class OtherDocument:
    """A document type of someone else's (as LangChain's is): keyword construction."""

    def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
        self.page_content = page_content
        self.metadata = metadata


def test_metadata_is_kept_and_parts_are_counted_per_document():
    splitter = OutlineTextSplitter(chunk_size=16)
    docs = splitter.split_documents(
        [Document(TEXT, {"source": "a.md", "title": "Mine"}), Document("One line.", {"source": "b.md"})]
    )
    assert [(d.metadata["source"], d.metadata["partindex"], d.metadata["totalparts"]) for d in docs] == [
        ("a.md", 0, 2),
        ("a.md", 1, 2),
        ("b.md", 0, 1),
    ]
    assert docs[0].page_content.startswith("# Intro") and docs[1].page_content.startswith("# Usage")
    assert all(d.metadata["title"] == "Mine" for d in docs[:2])  # the input's key wins over the chunk's
    assert docs[1].metadata["heading_path"] == ["Usage"]  # the chunk's keys the input lacks are added
    assert len({d.metadata["id"] for d in docs}) == 3


def test_the_same_type_comes_back():
    docs = OutlineTextSplitter(chunk_size=16).split_documents([OtherDocument(TEXT, {"k": 1})])
    assert docs and all(type(d) is OtherDocument and d.metadata["k"] == 1 for d in docs)


def test_an_input_id_does_not_repeat_on_every_part():
    docs = OutlineTextSplitter(chunk_size=16).split_documents([Document(TEXT, {"id": "doc-1"})])
    assert len({d.metadata["id"] for d in docs}) == len(docs) == 2


def test_the_chunk_header_is_prepended_and_counted_in_the_budget(cl100k):
    header = "Document: the user guide of the tool\n\n"
    plain = OutlineTextSplitter(chunk_size=20).split_documents([Document(TEXT * 3)])
    headed = OutlineTextSplitter(chunk_size=20).split_documents([Document(TEXT * 3)], chunk_header=header)
    assert all(d.page_content.startswith(header) for d in headed)
    assert all(cl100k.count(d.page_content) <= 20 for d in headed)
    assert len(headed) > len(plain)
    assert " ".join(d.page_content.removeprefix(header) for d in headed).split() == (TEXT * 3).split()


def test_create_documents_pairs_texts_and_metadatas():
    docs = OutlineTextSplitter(chunk_size=16).create_documents([TEXT, "Short."], [{"n": 1}, {"n": 2}])
    assert [d.metadata["n"] for d in docs] == [1, 1, 2] and all(isinstance(d, Document) for d in docs)
    with pytest.raises(ValueError, match="metadatas"):
        OutlineTextSplitter().create_documents(["a", "b"], [{}])


@pytest.mark.parametrize("bad", [{"page_content": "x"}, "text", Document("x", None)])  # type: ignore[arg-type]
def test_an_object_that_is_no_document_is_refused_saying_what_one_needs(bad):
    with pytest.raises(TypeError, match=r"page_content.*metadata"):
        OutlineTextSplitter().split_documents([bad])


@pytest.mark.parametrize("header", [3, b"h: "])
def test_a_bad_chunk_header_is_refused(header):
    with pytest.raises(ValueError, match="chunk_header"):
        OutlineTextSplitter().split_documents([Document("x")], chunk_header=header)


def test_a_chunk_header_that_fills_the_budget_is_refused():
    with pytest.raises(ValueError, match="chunk_header"):
        OutlineTextSplitter(chunk_size=4).split_documents([Document("x")], chunk_header="one two three four five")


def test_split_files_puts_source_and_doc_type_in_metadata(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Plain text.\n", encoding="utf-8")
    chunks = OutlineTextSplitter(doc_type="auto").split_files([tmp_path / "a.md", tmp_path / "b.txt"])
    assert [(c.metadata["source"], c.metadata["doc_type"]) for c in chunks] == [
        (str(tmp_path / "a.md"), "markdown"),
        (str(tmp_path / "b.txt"), "text"),
    ]
