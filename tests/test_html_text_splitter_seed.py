"""The seed suite (ask262 test/textsplitters/HTMLTextSplitter.test.ts), ported test by
test: same inputs, same expected outputs, through the core class and through its
LangChain subclass (`outline_splitter.integrations.langchain.HTMLTextSplitter`)."""

from __future__ import annotations

import pytest

import outline_splitter
from outline_splitter import Document
from outline_splitter.integrations import langchain


@pytest.fixture(params=["core", "langchain"])
def HTMLTextSplitter(request: pytest.FixtureRequest) -> type[outline_splitter.HTMLTextSplitter]:
    """The seed splitter class under test: the core one or the LangChain subclass."""
    return outline_splitter.HTMLTextSplitter if request.param == "core" else langchain.HTMLTextSplitter


SAMPLE = "<section><p>Intro text</p><h2>Section Title</h2><p>Body text</p></section>"


def test_keeps_small_html_in_a_single_chunk(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=64, separators=["h2"])
    chunks = splitter.split_text("<section><h2>Title</h2><p>Short body text</p></section>")
    assert chunks == ["Title\nShort body text"]


def test_does_not_add_synthetic_spaces_between_inline_tags(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=64)
    assert splitter.split_text("<p><span>Hello</span><span>World</span></p>") == ["HelloWorld"]


def test_preserves_authored_whitespace_between_inline_tags(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=64)
    assert splitter.split_text("<p><span>Hello </span><span>World</span></p>") == ["Hello World"]


def test_adds_spacing_between_adjacent_block_ish_tags(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=64)
    assert splitter.split_text("<div>Hello</div><div>World</div>") == ["Hello\nWorld"]


def test_normalizes_repeated_whitespace_in_emitted_text(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=64)
    chunks = splitter.split_text("<div>  Hello\n\n   World  </div><div>\tAgain</div>")
    assert chunks == ["Hello\n\nWorld\nAgain"]


def test_treats_separators_as_soft_hints_until_size_pressure_exists(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=18, separators=["h2"])
    chunks = splitter.split_text(
        "".join(["<section>", "<p>Intro text</p>", "<h2>Section Title</h2>", "<p>Body text</p>", "</section>"])
    )
    assert chunks == ["Intro text", "Section Title\nBody text"]


def test_groups_consecutive_separators_into_later_section_boundaries(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=4, separators=["h2", "h3"])
    chunks = splitter.split_text("<section><h2>A</h2><h3>B</h3><p>Body</p></section>")
    assert chunks == ["A", "B\nBody"]


def test_keeps_protected_content_intact_up_to_max_chunk_size(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=10, max_chunk_size=32, never_break_within=["pre"])
    assert splitter.split_text("<div><pre>12345678901234567890</pre></div>") == ["12345678901234567890"]


def test_recurses_into_protected_nodes_once_max_chunk_size_is_exceeded(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=12, max_chunk_size=18, never_break_within=[".keep"], separators=["p"])
    chunks = splitter.split_text("".join(['<div class="keep">', "<p>Alpha beta</p>", "<p>Gamma delta</p>", "</div>"]))
    assert chunks == ["Alpha beta", "Gamma delta"]


def test_ignores_separators_inside_protected_subtrees_until_forced_open(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=10, max_chunk_size=40, never_break_within=[".keep"], separators=["h2"])
    chunks = splitter.split_text('<div class="keep"><h2>Title</h2><p>Body text</p></div>')
    assert chunks == ["Title\nBody text"]


def test_force_splits_oversized_leaf_text_when_max_chunk_size_is_finite(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=12, max_chunk_size=15)
    chunks = splitter.split_text(f"<pre>{'a' * 35}</pre>")
    assert len(chunks) > 1
    for chunk in chunks:
        assert len(chunk) <= 15


def test_force_splits_protected_oversized_leaf_text_when_max_chunk_size_is_finite(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=12, max_chunk_size=15, never_break_within=["pre"])
    chunks = splitter.split_text(f"<pre>{'x' * 35}</pre>")
    assert len(chunks) > 1
    for chunk in chunks:
        assert len(chunk) <= 15


def test_does_not_enforce_a_hard_cap_when_max_chunk_size_is_omitted(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=12, never_break_within=["pre"])
    assert splitter.split_text(f"<pre>{'a' * 35}</pre>") == ["a" * 35]


def test_splits_plain_text_input_without_html_structure(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=8, max_chunk_size=8)
    assert splitter.split_text("alpha beta gamma") == ["alpha", "beta", "gamma"]


def test_preserves_metadata_and_adds_per_document_part_indexes(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=18, separators=["h2"])
    documents = splitter.split_documents([Document(page_content=SAMPLE, metadata={"source": "sample.html"})])
    assert len(documents) == 2
    assert documents[0].page_content == "Intro text"
    assert documents[0].metadata.items() >= {"source": "sample.html", "partindex": 0, "totalparts": 2}.items()
    assert documents[1].page_content == "Section Title\nBody text"
    assert documents[1].metadata.items() >= {"source": "sample.html", "partindex": 1, "totalparts": 2}.items()


def test_prepends_chunk_header_in_split_documents_output(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=18, separators=["h2"])
    documents = splitter.split_documents(
        [Document(page_content=SAMPLE, metadata={"source": "sample.html"})], chunk_header="Header: "
    )
    assert len(documents) == 2
    assert documents[0].page_content == "Header: Intro text"
    assert documents[1].page_content == "Header: Section Title\nBody text"


def test_returns_no_documents_when_source_content_produces_no_chunks(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=18)
    documents = splitter.split_documents([Document(page_content="<div>   </div>", metadata={"source": "empty.html"})])
    assert documents == []


def test_resets_part_metadata_per_input_document(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=18, separators=["h2"])
    documents = splitter.split_documents(
        [
            Document(page_content=SAMPLE, metadata={"source": "first.html"}),
            Document(
                page_content="<section><p>Lead text</p><h2>Second Title</h2><p>More text</p></section>",
                metadata={"source": "second.html"},
            ),
        ]
    )
    assert len(documents) == 4
    expected = [("first.html", 0), ("first.html", 1), ("second.html", 0), ("second.html", 1)]
    for document, (source, index) in zip(documents, expected, strict=True):
        assert document.metadata.items() >= {"source": source, "partindex": index, "totalparts": 2}.items()


def test_rejects_chunk_overlap(HTMLTextSplitter):
    with pytest.raises(ValueError, match="does not support chunk_overlap"):
        HTMLTextSplitter(chunk_size=32, chunk_overlap=4)


def test_keeps_adjacent_inline_text_contiguous_when_no_whitespace_exists(HTMLTextSplitter):
    splitter = HTMLTextSplitter(chunk_size=100)
    assert splitter.split_text("<span>alpha</span><span>bet</span><span>gamma</span>") == ["alphabetgamma"]
