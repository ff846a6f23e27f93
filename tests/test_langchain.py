"""The LangChain front ends, run for real: Documents from the Markdown corpus through
`OutlineSplitter`, offsets checked against the source."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.documents import BaseDocumentTransformer, Document
from langchain_text_splitters import TextSplitter

from outline_splitter import OutlineTextSplitter
from outline_splitter.integrations.framework import flat_metadata
from outline_splitter.integrations.langchain import HTMLTextSplitter, OutlineSplitter
from tests.conftest import corpus_files

ROOT = Path(__file__).resolve().parents[1]
REPEATED = "The same paragraph, word for word, in every section.\n\n"


def _load(paths: list[Path]) -> list[Document]:
    """A loader: one Document per file, its path in the metadata, with a paragraph
    repeated in several places so `str.find` would pick the wrong copy."""
    documents = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        thirds = [text[: len(text) // 3], text[len(text) // 3 : 2 * len(text) // 3], text[2 * len(text) // 3 :]]
        documents.append(Document(page_content=REPEATED.join(["", *thirds, ""]), metadata={"source": str(path)}))
    return documents


@pytest.fixture(scope="module")
def corpus() -> list[Document]:
    return _load(corpus_files("markdown", "*.md")[:40])


def _assert_exact(chunks: list[Document], sources: dict[str, str]) -> None:
    for chunk in chunks:
        source = sources[chunk.metadata["source"]]
        start = chunk.metadata["start_index"]
        assert chunk.page_content == source[start : start + len(chunk.page_content)]


def test_is_a_langchain_text_splitter() -> None:
    splitter = OutlineSplitter(chunk_size=64)
    assert isinstance(splitter, TextSplitter)
    assert isinstance(splitter, BaseDocumentTransformer)
    assert isinstance(HTMLTextSplitter(chunk_size=64), TextSplitter)


def test_split_documents_gives_exact_start_index_on_repeated_paragraphs(corpus: list[Document]) -> None:
    splitter = OutlineSplitter(chunk_size=64, add_start_index=True)
    chunks = splitter.split_documents(corpus)
    sources = {document.metadata["source"]: document.page_content for document in corpus}
    _assert_exact(chunks, sources)
    repeated = [chunk for chunk in chunks if chunk.page_content == REPEATED.strip()]
    # the repeated paragraph is its own chunk in places, at distinct offsets in one file
    assert len(repeated) >= 2
    assert len({(chunk.metadata["source"], chunk.metadata["start_index"]) for chunk in repeated}) == len(repeated)
    assert any(
        sources[chunk.metadata["source"]].find(chunk.page_content) != chunk.metadata["start_index"] for chunk in chunks
    ), "the corpus with repeated text should have a chunk that str.find places wrongly"


def test_transform_documents_and_its_async_variant_match_split_documents(corpus: list[Document]) -> None:
    splitter = OutlineSplitter(chunk_size=128, add_start_index=True)
    expected = splitter.split_documents(corpus[:10])
    assert list(splitter.transform_documents(corpus[:10])) == expected
    assert list(asyncio.run(splitter.atransform_documents(corpus[:10]))) == expected


def test_chunk_metadata_is_merged_into_each_document() -> None:
    """The chunk's metadata over the input's, in the flat form stores take (issue 40); the
    document's source is in the chunk ids, and each Document's id is its chunk's."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    core = OutlineTextSplitter(chunk_size=64).split(text, document_id="README.md")
    documents = OutlineSplitter(chunk_size=64).create_documents([text], [{"source": "README.md", "title": "mine"}])
    assert [document.page_content for document in documents] == [chunk.text for chunk in core]
    for document, chunk in zip(documents, core, strict=True):
        # the chunk's keys win over the input's (its title is the section's)
        flat = flat_metadata(chunk.metadata)
        assert document.metadata == {"source": "README.md", **flat, "token_count": chunk.token_count}
        assert {"heading_path", "heading", "section_id", "id"} <= document.metadata.keys()
        assert document.id == chunk.metadata["id"]
    assert "start_index" not in documents[0].metadata
    nested = OutlineSplitter(chunk_size=64, nested_metadata=True).create_documents([text], [{"source": "README.md"}])
    assert [document.metadata["heading_paths"] for document in nested] == [c.metadata["heading_paths"] for c in core]


def test_input_metadata_is_copied_not_shared() -> None:
    metadata = {"tags": ["a"]}
    text = "# A\n\none two three four five six\n\n## B\n\nseven"
    documents = OutlineSplitter(chunk_size=8).create_documents([text], [metadata])
    assert len(documents) > 1
    documents[0].metadata["tags"].append("b")
    assert metadata == {"tags": ["a"]} and documents[1].metadata["tags"] == ["a"]


def test_sizes_are_tokens_of_the_tokenizer() -> None:
    splitter = OutlineSplitter(chunk_size=32, tokenizer="cl100k_base")
    text = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert all(splitter._length_function(part) <= 32 for part in splitter.split_text(text))


def test_bad_arguments_are_outline_text_splitter_errors() -> None:
    with pytest.raises(ValueError, match="chunk_overlap"):
        OutlineSplitter(chunk_size=16, chunk_overlap=16)
    with pytest.raises(ValueError, match="metadatas has 1 entries for 2 texts"):
        OutlineSplitter().create_documents(["a", "b"], [{}])


def test_html_text_splitter_transforms_langchain_documents() -> None:
    splitter = HTMLTextSplitter(chunk_size=18, separators=["h2"])
    html = "<section><p>Intro text</p><h2>Section Title</h2><p>Body text</p></section>"
    (first, second) = splitter.transform_documents([Document(page_content=html, metadata={"source": "a.html"})])
    assert isinstance(first, Document)
    assert (first.page_content, second.page_content) == ("Intro text", "Section Title\nBody text")
    assert second.metadata == {"source": "a.html", "partindex": 1, "totalparts": 2}


def test_the_core_never_imports_the_frameworks() -> None:
    probe = (
        "import sys, outline_splitter\n"
        "from outline_splitter import OutlineTextSplitter, HTMLTextSplitter\n"
        "OutlineTextSplitter(chunk_size=8).split('# a\\n\\nb')\n"
        "print(sorted(m for m in sys.modules if m.startswith(('langchain', 'llama_index',"
        " 'outline_splitter.integrations'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "extra"),
    [("langchain", "langchain"), ("llama_index", "llama-index")],
)
def test_a_missing_framework_is_an_import_error_naming_the_extra(module: str, extra: str) -> None:
    # a None entry in sys.modules makes importing that package fail, as if not installed
    probe = (
        "import sys\n"
        "for name in ('langchain_core', 'langchain_text_splitters', 'llama_index', 'llama_index.core'):\n"
        "    sys.modules[name] = None\n"
        "try:\n"
        f"    import outline_splitter.integrations.{module}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert f"pip install 'outline-splitter[{extra}]'" in result.stdout


def test_the_langchain_html_splitter_takes_the_seed_arguments_into_both_bases():
    import inspect

    from outline_splitter import html_text_splitter

    halves = lambda text: len(text) // 2  # noqa: E731
    splitter = HTMLTextSplitter(chunk_size=64, length_function=halves, separators=["h2"])
    assert (splitter._chunk_size, splitter._chunk_overlap, splitter._length_function) == (64, 0, halves)
    assert inspect.signature(HTMLTextSplitter) == inspect.signature(html_text_splitter.HTMLTextSplitter)
    with pytest.raises(ValueError, match="chunk_overlap"):
        HTMLTextSplitter(chunk_size=64, chunk_overlap=8)
