"""Real pipelines end to end (issue 40), as users write them: a mixed folder of messy files
(Markdown, HTML, Python, the same file under two names, a `.pyc`, an undecodable `.md`)
through each framework's own loader, our front end and a real store and retriever.

Each asserts that every chunk of every readable file reached the store (count and ids),
that ids are unique, that the text at each stored offset is the source slice, that the
overlap is in the text and within `chunk_size`, and that the bad files are reported.
The embeddings are deterministic fakes: nothing downloads."""

from __future__ import annotations

import json
import logging
import os
import py_compile
import re
import shutil
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from outline_splitter import OutlineTextSplitter, split_many
from outline_splitter.tokens import TiktokenTokenizer
from tests.conftest import corpus_files

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # no network: Haystack would try to send telemetry

if os.environ.get("CI"):  # CI installs the extras (make test): a missing one is a failure there
    import chromadb
    import faiss  # noqa: F401
    import haystack  # noqa: F401
    import langchain_community  # noqa: F401
    import llama_index.core  # noqa: F401
else:
    chromadb = pytest.importorskip("chromadb", reason="the stores extra is not installed (make test installs it)")
    for extra in ("faiss", "haystack", "langchain_community", "llama_index.core"):
        pytest.importorskip(extra, reason=f"{extra} is not installed: the test extras (make test) bring it")

CHUNK_SIZE = 128
OVERLAP = 16
READABLE = (".md", ".html", ".py")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Markdown and web pages from the corpora, stdlib modules, one README under two
    names, a compiled module and a Markdown file that is not UTF-8."""
    root = tmp_path_factory.mktemp("mixed")
    (root / "pages").mkdir()
    (root / "code").mkdir()
    for path in corpus_files("markdown", "*.md")[:12]:
        shutil.copy(path, root / path.name)
    for path in corpus_files("html-web", "*.html")[:3]:
        shutil.copy(path, root / "pages" / path.name)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in ("bisect.py", "colorsys.py", "textwrap.py"):
        shutil.copy(stdlib / name, root / "code" / name)
    shutil.copy(root / "README.md", root / "code" / "README-copy.md")  # the same text under two names
    py_compile.compile(str(stdlib / "bisect.py"), cfile=str(root / "code" / "bisect.cpython.pyc"))
    (root / "broken.md").write_bytes(b"# Broken\n\nLatin-1 bytes: caf\xe9 \xff\xfe\n")
    return root


def _readable(folder: Path, errors: str) -> list[Path]:
    strict = errors == "strict"
    return sorted(p for p in folder.rglob("*") if p.suffix in READABLE and not (strict and p.name == "broken.md"))


def _expected_ids(folder: Path, document_id: dict[Path, str] | None = None, errors: str = "strict") -> set[str]:
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=CHUNK_SIZE, chunk_overlap=OVERLAP)
    ids: set[str] = set()
    for path in _readable(folder, errors):
        text = path.read_text(encoding="utf-8", errors=errors)
        name = (document_id or {}).get(path, str(path))
        chunks = splitter.split(text, document_id=name, file_name=str(path), overlap_in_text=True)
        ids.update(chunk.metadata["id"] for chunk in chunks)
    return ids


def _check_texts(records: list[tuple[str, str, int, dict[str, Any]]], cl100k: TiktokenTokenizer) -> None:
    """(path, text, start, metadata) of each stored chunk: the text is the source slice
    at its offset, within the budget, with its overlap where it has one (the chunk's own
    span, `own_start` to `own_end` in its metadata, inside the text)."""
    sources: dict[str, str] = {}
    overlapped = 0
    for path, text, start, metadata in records:
        own_start, own_end = metadata.get("own_start", start), metadata.get("own_end", start + len(text))
        source = sources.setdefault(path, Path(path).read_text(encoding="utf-8", errors="replace"))
        if not path.endswith(".html"):  # web pages are split as HTML source: slices too
            assert source[start : start + len(text)] == text
        assert start <= own_start <= own_end <= start + len(text)
        assert cl100k.count(text) <= CHUNK_SIZE
        overlapped += start < own_start
    assert overlapped > len(records) // 4, "the overlap is in the text"


def test_langchain_into_faiss_and_chroma(folder: Path, cl100k: TiktokenTokenizer, caplog: pytest.LogCaptureFixture):
    from langchain_chroma import Chroma
    from langchain_community.document_loaders import DirectoryLoader, TextLoader
    from langchain_community.vectorstores import FAISS
    from langchain_core.embeddings import DeterministicFakeEmbedding

    from outline_splitter.integrations.langchain import OutlineSplitter

    caplog.set_level(logging.WARNING)
    loader = DirectoryLoader(str(folder), glob="**/*", loader_cls=TextLoader, silent_errors=True)
    splitter = OutlineSplitter(
        doc_type="auto", chunk_size=CHUNK_SIZE, chunk_overlap=OVERLAP, add_start_index=True, on_error="skip"
    )
    documents = splitter.split_documents(loader.load())

    ids = [document.id for document in documents]
    assert len(ids) == len(set(ids)) and set(ids) == _expected_ids(folder)
    reported = caplog.text + str(splitter.failures)
    assert "bisect.cpython.pyc" in reported and "broken.md" in reported
    _check_texts(
        [(d.metadata["source"], d.page_content, d.metadata["start_index"], d.metadata) for d in documents], cl100k
    )

    embedding = DeterministicFakeEmbedding(size=16)
    faiss_store = FAISS.from_documents(documents, embedding)
    assert set(faiss_store.index_to_docstore_id.values()) == set(ids)
    client = chromadb.EphemeralClient(settings=chromadb.Settings(anonymized_telemetry=False))
    chroma = Chroma(collection_name="mixed-folder", embedding_function=embedding, client=client)
    chroma.add_documents(documents)  # Chroma refuses None, nested lists and empty lists
    stored = chroma.get(include=["metadatas", "documents"])
    assert sorted(stored["ids"]) == sorted(ids)
    by_id = {document.id: document for document in documents}
    for chunk_id, metadata, text in zip(stored["ids"], stored["metadatas"], stored["documents"], strict=True):
        assert text == by_id[chunk_id].page_content and metadata["heading"] == by_id[chunk_id].metadata["heading"]
    assert chroma.similarity_search("install", k=3)
    assert splitter.contextualize(documents[0]).endswith(documents[0].page_content)


def test_llama_index_into_a_docstore_and_a_vector_index(folder: Path, cl100k: TiktokenTokenizer):
    from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.storage.docstore import SimpleDocumentStore

    from outline_splitter.integrations.llama_index import OutlineNodeParser

    # LlamaIndex's reader decodes leniently (errors="ignore" by default; strict would stop
    # the whole load): with "replace" the broken file's bad bytes show as U+FFFD
    reader = SimpleDirectoryReader(str(folder), recursive=True, filename_as_id=True, errors="replace")
    documents = reader.load_data()
    parser = OutlineNodeParser(doc_type="auto", chunk_size=CHUNK_SIZE, chunk_overlap=OVERLAP, on_error="skip")
    nodes = parser.get_nodes_from_documents(documents)

    names = {Path(document.metadata["file_path"]): document.doc_id for document in documents}
    assert [Path(name).name for name, _ in parser.failures] == ["bisect.cpython.pyc"]
    assert any("\ufffd" in node.text for node in nodes if node.metadata["file_name"] == "broken.md")
    docstore = SimpleDocumentStore()
    docstore.add_documents(nodes, allow_update=False)  # raises on a repeated id
    assert set(docstore.docs) == _expected_ids(folder, names, "replace") and len(docstore.docs) == len(nodes)
    _check_texts([(n.metadata["file_path"], n.text, n.start_char_idx, n.metadata) for n in nodes], cl100k)

    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))
    found = index.as_retriever(similarity_top_k=4).retrieve("how to install")
    assert len(found) == 4 and all(hit.node.node_id in docstore.docs for hit in found)
    assert again_the_same_ids(parser, reader)


def again_the_same_ids(parser: object, reader: object) -> bool:
    """The same folder read and split again gives the same node ids."""
    first = {node.node_id for node in parser.get_nodes_from_documents(reader.load_data())}  # type: ignore[attr-defined]
    second = {node.node_id for node in parser.get_nodes_from_documents(reader.load_data())}  # type: ignore[attr-defined]
    return first == second


def test_haystack_into_its_in_memory_store(folder: Path, cl100k: TiktokenTokenizer, caplog: pytest.LogCaptureFixture):
    from haystack import Pipeline
    from haystack.components.converters import TextFileToDocument
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.components.writers import DocumentWriter
    from haystack.document_stores.in_memory import InMemoryDocumentStore
    from haystack.document_stores.types import DuplicatePolicy

    from outline_splitter.integrations.haystack import OutlineDocumentSplitter

    caplog.set_level(logging.WARNING)
    store = InMemoryDocumentStore()
    splitter = OutlineDocumentSplitter(doc_type="auto", chunk_size=CHUNK_SIZE, chunk_overlap=OVERLAP, on_error="skip")
    pipeline = Pipeline()
    # the full path names the file (by default Haystack keeps its name alone, which two folders can share)
    pipeline.add_component("convert", TextFileToDocument(store_full_path=True))
    pipeline.add_component("split", splitter)
    pipeline.add_component("write", DocumentWriter(store, policy=DuplicatePolicy.FAIL))
    pipeline.connect("convert", "split")
    pipeline.connect("split", "write")
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    result = pipeline.run({"convert": {"sources": paths}})

    stored = store.filter_documents()
    assert result["write"]["documents_written"] == len(stored)
    assert {document.id for document in stored} == _expected_ids(folder)
    reported = caplog.text + str(splitter.failures)  # the converter reports what it cannot decode
    assert "bisect.cpython.pyc" in reported and "broken.md" in reported
    _check_texts([(d.meta["file_path"], d.content, d.meta["split_idx_start"], d.meta) for d in stored], cl100k)
    hits = InMemoryBM25Retriever(store).run(query="install the package", top_k=3)["documents"]
    assert len(hits) == 3


def test_split_many_over_the_folder(folder: Path):
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    results = list(split_many(paths, workers=1, doc_type="auto", chunk_size=CHUNK_SIZE))
    failed = sorted(paths[result.index].name for result in results if not result.ok)
    assert failed == ["bisect.cpython.pyc", "broken.md"]
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=CHUNK_SIZE)
    ids = []
    for result in results:
        if result.ok:
            assert result.chunks == splitter.split_file(paths[result.index])
            ids.extend(chunk.metadata["id"] for chunk in result.chunks)
    assert len(ids) == len(set(ids))


# -- a mixed folder with web pages as text (issue 51) ------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b[^>]*>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)
MARKUP = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*[\s/>]|<!--|<!DOCTYPE", re.IGNORECASE)


@pytest.fixture(scope="module")
def web_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Markdown READMEs, saved web pages, Python modules, JSON and YAML, a PNG, an empty
    file and a Latin-1 Markdown file: a folder as a new user has one."""
    root = tmp_path_factory.mktemp("web-mixed")
    for path in corpus_files("markdown", "*.md")[:6]:
        shutil.copy(path, root / path.name)
    for path in corpus_files("html-web", "*.html")[:8]:
        shutil.copy(path, root / path.name)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in ("bisect.py", "colorsys.py"):
        shutil.copy(stdlib / name, root / name)
    services = [{"name": f"svc-{n}", "replicas": n, "ports": [80 + n, 443]} for n in range(40)]
    (root / "settings.json").write_text(json.dumps({"services": services}, indent=2), encoding="utf-8")
    (root / "deploy.yaml").write_text(
        "".join(f"job-{n}:\n  image: app:{n}\n  args: [--port, '{8000 + n}']\n" for n in range(40)), encoding="utf-8"
    )
    (root / "logo.png").write_bytes(PNG)
    (root / "empty.md").write_bytes(b"")
    (root / "latin1.md").write_bytes(b"# Caf\xe9\n\nCr\xe8me br\xfbl\xe9e, the menu.\n\n## Prices\n\nFive euros.\n")
    return root


def _markup(text: str, html: str) -> list[str]:
    """The tags and comments in `text` (a chunk of the page `html`), but for those the
    page writes as text (`&lt;noun&gt;` is a reader's `<noun>`, a code sample's
    `&lt;!DOCTYPE html&gt;` its `<!DOCTYPE html>`)."""
    written = html.lower()
    return [
        tag.group()
        for tag in MARKUP.finditer(text)
        if "&lt;" + tag.group()[1:].rstrip(" \t\n/>").lower() not in written
    ]


def _script_and_style_lines(html: str) -> set[str]:
    """The longer lines of a page's scripts and style sheets (text no reader sees)."""
    return {
        line.strip()
        for match in SCRIPT_OR_STYLE.finditer(html)
        for line in match.group(2).splitlines()
        if len(line.strip()) >= 30
    }


def test_langchain_with_output_text_keeps_every_readable_file_and_reads_web_pages_as_text(web_folder: Path):
    """`output="text"` under `doc_type="auto"` applies to the web pages and leaves every
    other format in source form: nothing readable is dropped (a user reads the folder
    keeping undecodable bytes as U+FFFD), the pages' chunks hold no markup and none of
    their scripts or style sheets, the other files' chunks are exact source slices, the
    same chunks as without `output`."""
    from langchain_core.documents import Document

    from outline_splitter.integrations.langchain import OutlineSplitter

    paths = sorted(web_folder.iterdir())
    sources = {str(path): path.read_bytes().decode("utf-8", "replace") for path in paths}
    loaded = [Document(page_content=text, metadata={"source": name}) for name, text in sources.items()]
    options: dict[str, Any] = {"doc_type": "auto", "chunk_size": CHUNK_SIZE, "chunk_overlap": OVERLAP}
    splitter = OutlineSplitter(output="text", add_start_index=True, on_error="skip", **options)
    documents = splitter.split_documents(loaded)

    assert [Path(name).name for name, _ in splitter.failures] == ["logo.png"]
    assert splitter.failures[0][1].startswith("unknown extension '.png'")
    by_file: dict[str, list[Any]] = {}
    for document in documents:
        by_file.setdefault(document.metadata["source"], []).append(document)
    readable = {name for name in sources if not name.endswith((".png", "empty.md"))}
    assert set(by_file) == readable  # Markdown, pages, Python, JSON, YAML and the Latin-1 file
    source_form = OutlineSplitter(on_error="skip", **options).split_documents(
        [document for document in loaded if not document.metadata["source"].endswith(".html")]
    )
    assert [d.id for d in documents if not d.metadata["source"].endswith(".html")] == [d.id for d in source_form]
    for name, chunks in by_file.items():
        if not name.endswith(".html"):
            for document in chunks:
                start = document.metadata["start_index"]
                assert sources[name][start : start + len(document.page_content)] == document.page_content
            continue
        hidden = _script_and_style_lines(sources[name])
        for document in chunks:
            assert not _markup(document.page_content, sources[name]), (name, document.page_content[:200])
            assert not any(line in document.page_content for line in hidden), name
    assert any("\ufffd" in document.page_content for document in by_file[str(web_folder / "latin1.md")])


def test_every_framework_front_end_reads_web_pages_as_text_and_the_rest_as_source(web_folder: Path):
    """LlamaIndex and Haystack honour `output="text"` under `"auto"` as LangChain does:
    the same chunks (the same ids where the document is known by its file), page chunks
    without markup, the other formats as source."""
    from haystack import Document as HaystackDocument
    from langchain_core.documents import Document
    from llama_index.core import Document as LlamaDocument

    from outline_splitter.integrations.haystack import OutlineDocumentSplitter
    from outline_splitter.integrations.langchain import OutlineSplitter
    from outline_splitter.integrations.llama_index import OutlineNodeParser

    paths = [p for p in sorted(web_folder.iterdir()) if p.suffix in (".html", ".md", ".json") and p.stat().st_size]
    texts = {str(path): path.read_bytes().decode("utf-8", "replace") for path in paths}
    options: dict[str, Any] = {"doc_type": "auto", "chunk_size": CHUNK_SIZE, "output": "text"}
    langchain = OutlineSplitter(**options).split_documents(
        [Document(page_content=text, metadata={"source": name}) for name, text in texts.items()]
    )
    llama = OutlineNodeParser(**options).get_nodes_from_documents(
        [LlamaDocument(text=text, metadata={"file_path": name}) for name, text in texts.items()]
    )
    haystack = OutlineDocumentSplitter(**options).run(
        [HaystackDocument(content=text, meta={"file_path": name}) for name, text in texts.items()]
    )["documents"]
    expected = [(d.id, d.page_content) for d in langchain]
    assert any(name.endswith(".html") for name in texts) and len(expected) > len(texts)
    assert [node.text for node in llama] == [text for _, text in expected]
    assert [(document.id, document.content) for document in haystack] == expected
    for document in langchain:
        if document.metadata["source"].endswith(".html"):
            assert not _markup(document.page_content, texts[document.metadata["source"]])
        else:
            assert document.page_content in texts[document.metadata["source"]]
    assert _other_entry_points(paths, options) == [text for _, text in expected]


def _other_entry_points(paths: list[Path], options: dict[str, Any]) -> list[str]:
    """The chunk texts `split_many`, Ray's batch mapper and the command line (`--html-output
    text`) give the files under `options`, checked equal, in order (which read the bytes,
    and keep the Latin-1 file with `decode_errors="replace"`, as the front ends' loader did)."""
    import pyarrow as pa

    from outline_splitter.cli import main
    from outline_splitter.integrations.ray import ChunkRows

    options = {**options, "decode_errors": "replace"}
    many = [chunk.text for result in split_many(paths, workers=1, **options) for chunk in result.chunks]
    batch = pa.table({"bytes": [path.read_bytes() for path in paths], "path": [str(path) for path in paths]})
    rows = [row["text"] for row in ChunkRows("bytes", "path", [], "utf-8", options)(batch).to_pylist()]
    out = paths[0].parent / "chunks.jsonl"
    flags = ["--chunk-size", str(options["chunk_size"]), "--html-output", options["output"], "-o", str(out)]
    flags += ["--decode-errors", "replace"]
    assert main(["split", *flags, *map(str, paths)]) == 0
    command_line = [json.loads(line)["text"] for line in out.read_text(encoding="utf-8").splitlines()]
    out.unlink()
    assert many == rows == command_line
    return many
