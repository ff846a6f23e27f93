"""The text to embed: `metadata["context"]`, `contextualize(chunk)` and
`context_in_budget=True` (issue 10)."""

from __future__ import annotations

import pytest

from outline_splitter import Document, OutlineNode, OutlineTextSplitter, TextChunk
from outline_splitter.detectors.html_text import extract_text
from tests.conftest import corpus_files

TABLE = "# Guide\n\n## Table\n\n| name | value |\n|---|---|\n" + "".join(
    f"| row {i} | some value for row number {i} |\n" for i in range(30)
)


def _header_rows(node: OutlineNode) -> list[tuple[OutlineNode, OutlineNode]]:
    """Each (table, its header row) of the outline: the nodes with the CONTEXT trait."""
    found = []
    for child in node.children:
        if "CONTEXT" in child.traits:
            found.append((node, child))
        found.extend(_header_rows(child))
    return found


def assert_broken_tables_carry_their_header(splitter: OutlineTextSplitter, text: str, chunks: list[TextChunk]) -> int:
    """Every chunk that starts inside a table after its header row has the row's text in
    its context; returns how many such chunks there are."""
    parts = 0
    for table, row in _header_rows(splitter.outline(text)):
        for chunk in chunks:
            if row.end <= chunk.start_pos < table.end and chunk.metadata.get("role") != "parent":
                source = text[row.start : row.end]
                expected = (extract_text(source) if splitter.output == "text" else source).strip()
                assert expected in chunk.metadata.get("context", ""), (chunk.text[:80], expected)
                parts += 1
    return parts


def test_context_holds_the_heading_path_and_a_broken_tables_header_row():
    splitter = OutlineTextSplitter(chunk_size=64)
    chunks = splitter.split(TABLE)
    assert len(chunks) > 2 and "context" not in chunks[0].metadata  # it starts with its headings
    for chunk in chunks[1:]:
        assert chunk.metadata["context"] == "Guide > Table\n| name | value |\n|---|---|"
        assert splitter.contextualize(chunk) == chunk.metadata["context"] + "\n" + chunk.text
    assert splitter.contextualize(chunks[0]) == chunks[0].text
    assert assert_broken_tables_carry_their_header(splitter, TABLE, chunks) == len(chunks) - 1


def test_html_header_row_in_both_outputs():
    html = "<h1>G</h1><table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>" + "".join(
        f"<tr><td>row {i}</td><td>value of row {i} here</td></tr>" for i in range(30)
    )
    for output, header in (("html", "<thead><tr><th>Name</th><th>Value</th></tr></thead>"), ("text", "Name\nValue")):
        chunks = OutlineTextSplitter(doc_type="html", chunk_size=64, output=output).split(html + "</tbody></table>")
        assert len(chunks) > 2
        assert all(chunk.metadata["context"] == f"G\n{header}" for chunk in chunks[1:])


def test_a_broken_definition_carries_its_signature():
    code = "class Store:\n    def load(self, path: str) -> bytes:\n" + "".join(
        f"        value_{i} = read(path, offset={i})\n" for i in range(60)
    )
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(code)
    assert len(chunks) > 2
    assert all("def load(self, path: str) -> bytes:" in chunk.metadata["context"] for chunk in chunks[1:])


@pytest.mark.parametrize(("hierarchy", "parents"), [(False, "text"), (True, "outline"), (True, "text")])
def test_context_in_budget_bounds_the_contextualized_text(hierarchy, parents):
    text = TABLE + "\n## Deeper heading with a long title of many words\n\n" + "Words here and there. " * 200
    splitter = OutlineTextSplitter(chunk_size=64, context_in_budget=True, hierarchy=hierarchy, parents=parents)
    chunks = splitter.split(text)
    # what is embedded fits; a text parent (handed to the model, not embedded) fits parent_chunk_size
    text_parents = [c for c in chunks if c.metadata.get("role") == "parent" and parents == "text"]
    assert all(splitter.tokenizer.count(splitter.contextualize(c)) <= 64 for c in chunks if c not in text_parents)
    assert all(c.token_count <= splitter.options.parent_budget for c in text_parents)
    assert bool(text_parents) == (hierarchy and parents == "text")
    plain = OutlineTextSplitter(chunk_size=64).split(text)
    assert max(splitter.tokenizer.count(OutlineTextSplitter().contextualize(c)) for c in plain) > 64


def test_context_in_budget_with_a_chunk_header():
    splitter = OutlineTextSplitter(chunk_size=64, context_in_budget=True)
    parts = splitter.split_documents([Document(TABLE)], chunk_header="Guide: ")
    chunks = splitter.split(TABLE)
    assert len(parts) >= len(chunks)
    for part in parts:
        context = part.metadata.get("context")
        embedded = ("Guide: " + f"{context}\n" if context else "Guide: ") + part.page_content[len("Guide: ") :]
        assert splitter.tokenizer.count(embedded) <= 64


@pytest.mark.parametrize("value", ["yes", 0, None])
def test_context_in_budget_must_be_a_bool(value):
    with pytest.raises(ValueError, match="context_in_budget"):
        OutlineTextSplitter(context_in_budget=value)


def test_context_in_budget_cuts_a_long_context_to_a_quarter_of_the_budget():
    text = "# " + " ".join(["long"] * 60) + "\n\n" + "## b\n\n" + "word " * 200
    splitter = OutlineTextSplitter(chunk_size=32, context_in_budget=True)
    chunks = splitter.split(text)
    cut = [c for c in chunks if c.metadata.get("context", "").endswith("...")]
    assert cut and all(splitter.tokenizer.count(c.metadata["context"]) <= 8 for c in cut)
    assert all(splitter.tokenizer.count(splitter.contextualize(c)) <= 32 for c in chunks)


def _corpus_cases() -> list[tuple[str, str, str | None]]:
    return [("markdown", "markdown", None), ("html-spec", "html", "html"), ("html-spec", "html", "text"),
            ("html-web", "html", "html"), ("html-web", "html", "text")]  # fmt: skip


@pytest.mark.parametrize(("folder", "doc_type", "output"), _corpus_cases())
def test_corpora_contextualized_chunks_fit_and_tables_carry_headers(folder, doc_type, output):
    fitting = OutlineTextSplitter(doc_type=doc_type, chunk_size=256, output=output, context_in_budget=True)
    plain = OutlineTextSplitter(doc_type=doc_type, chunk_size=256, output=output)
    parts = 0
    for path in corpus_files(folder, "*.md" if doc_type == "markdown" else "*.html"):
        text = path.read_text(encoding="utf-8")
        for chunk in fitting.split(text):
            assert fitting.tokenizer.count(fitting.contextualize(chunk)) <= 256, (path.name, chunk.metadata["index"])
        # (a context cut to fit the budget may lose the end of a header row: the check is without it)
        parts += assert_broken_tables_carry_their_header(plain, text, plain.split(text))
    if folder != "html-spec":
        assert parts > 0, "the corpus should have a table broken across chunks"
