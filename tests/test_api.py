"""The public surface: arguments, errors, empty input, files, the outline."""

from __future__ import annotations

import pytest

from outline_splitter import OutlineNode, OutlineTextSplitter, TextChunk, doc_types


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"chunk_size": 0}, "chunk_size"),
        ({"chunk_size": -5}, "chunk_size"),
        ({"chunk_size": 1.5}, "chunk_size"),
        ({"chunk_size": 10, "chunk_overlap": -1}, "chunk_overlap"),
        ({"chunk_size": 10, "chunk_overlap": 10}, "chunk_overlap"),
        ({"chunk_size": 10, "max_chunk_size": 9}, "max_chunk_size"),
        ({"chunk_size": 10, "min_chunk_size": 11}, "min_chunk_size"),
        ({"doc_type": "klingon"}, "doc_type"),
        ({"tokenizer": "no_such_encoding"}, "tokenizer"),
        ({"tokenizer": 42}, "tokenizer"),
        ({"never_break_within": "code"}, "never_break_within"),
        ({"never_break_within": [1, None]}, "never_break_within"),
        ({"never_break_within": [""]}, "never_break_within"),
        ({"separators": ["list", 3]}, "separators"),
        ({"doc_type": "html", "separators": [None]}, "separators"),
        ({"never_break_within": ["bogus"]}, "never_break_within"),
        ({"doc_type": "python", "separators": ["table"]}, "separators"),
        ({"doc_type": "text", "never_break_within": ["code", "sentence"]}, "never_break_within"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        OutlineTextSplitter(**kwargs)


def test_unknown_doc_type_lists_the_allowed_values():
    with pytest.raises(ValueError) as error:
        OutlineTextSplitter(doc_type="klingon")
    assert "markdown" in str(error.value) and "text" in str(error.value)


@pytest.mark.parametrize(
    ("doc_type", "kinds"),
    [("markdown", ["list", "code", "table"]), ("rst", ["code"]), ("latex", ["environment"]), ("go", ["definition"])],
)
def test_kind_names_are_checked_against_the_format(doc_type, kinds):
    """A format's own kinds are accepted; an unknown one is refused with the list of
    those the format has (issue 17: unknown names were accepted silently)."""
    OutlineTextSplitter(doc_type=doc_type, never_break_within=kinds, separators=kinds)
    with pytest.raises(ValueError, match="never_break_within") as error:
        OutlineTextSplitter(doc_type=doc_type, never_break_within=[*kinds, "tabel"])
    assert "'tabel'" in str(error.value) and all(kind in str(error.value) for kind in kinds)


def test_kind_names_are_checked_when_split_file_picks_the_format(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# A\n\ntext\n", encoding="utf-8")
    with pytest.raises(ValueError, match="separators: 'div'"):
        OutlineTextSplitter(doc_type="auto", separators=["div"]).split_file(path)


@pytest.mark.parametrize("document", [object(), "a string", {"page_content": "x"}])
def test_split_documents_names_what_a_document_must_have(document):
    with pytest.raises((TypeError, ValueError), match="page_content"):
        OutlineTextSplitter().split_documents([document])


@pytest.mark.parametrize("text", [b"bytes", None, 3, ["a"]])
def test_non_string_text_is_a_type_error(text):
    with pytest.raises(TypeError, match="str"):
        OutlineTextSplitter().split(text)


@pytest.mark.parametrize("text", ["", " ", "\n\n\t  \r\n", "\u3000\u00a0"])
def test_blank_text_gives_no_chunks(text):
    assert OutlineTextSplitter(doc_type="markdown").split(text) == []
    assert OutlineTextSplitter(doc_type="text").split(text) == []


def test_aliases_and_doc_types():
    assert {"markdown", "md", "text", "auto"} <= set(doc_types())
    text = "# A\n\nbody\n"
    assert OutlineTextSplitter(doc_type="md").split(text) == OutlineTextSplitter(doc_type="markdown").split(text)


def test_split_file_picks_the_format_from_the_extension(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# Title\n\nSome text.\n\n## Part\n\nMore text.\n", encoding="utf-8")
    chunks = OutlineTextSplitter(doc_type="auto", chunk_size=6).split_file(path)
    assert all(isinstance(c, TextChunk) for c in chunks)
    assert chunks[0].metadata["doc_type"] == "markdown"
    assert chunks[0].metadata["source"] == str(path)
    assert chunks[-1].metadata["heading_path"] == ["Title", "Part"]


def test_auto_without_a_file_name_is_refused():
    with pytest.raises(ValueError, match="auto"):
        OutlineTextSplitter(doc_type="auto").split("text")


def test_unknown_extension_names_the_path(tmp_path):
    path = tmp_path / "data.xyz"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match=r"data\.xyz"):
        OutlineTextSplitter(doc_type="auto").split_file(path)


def test_outline_is_a_validated_tree_that_prints():
    text = "# Top\n\nIntro.\n\n## Sub\n\n- a\n- b\n"
    outline = OutlineTextSplitter().outline(text)
    assert isinstance(outline, OutlineNode)
    section = outline.children[0]
    assert section.kind == "section" and section.meta["title"] == "Top"
    assert [c.kind for c in section.children] == ["heading", "paragraph", "section"]
    printed = outline.render(text)
    assert "section [0, " in printed and "'Sub'" in printed and "list" in printed


def test_outline_node_rejects_overlapping_children():
    child = OutlineNode(kind="paragraph", start=0, end=5)
    with pytest.raises(ValueError, match="overlaps"):
        OutlineNode(kind="document", start=0, end=10, children=[child, OutlineNode(kind="paragraph", start=3, end=8)])


def test_chunk_fields():
    text = "# Title\n\nFirst paragraph here.\n"
    (chunk,) = OutlineTextSplitter(chunk_size=64).split(text)
    assert (chunk.start_pos, chunk.end_pos) == (0, len(text.rstrip()))
    assert chunk.text == text.rstrip()
    assert chunk.start_overlap == chunk.end_overlap == ""
    meta = chunk.metadata
    assert meta["index"] == 0 and meta["heading_path"] == ["Title"] and meta["title"] == "Title"
    assert meta["kinds"] == ["heading", "paragraph", "section"]
    assert meta["chunk_number"] == 1 and meta["id"]


def test_split_file_names_the_file_and_byte_it_cannot_decode(tmp_path):
    path = tmp_path / "bad.md"
    path.write_bytes(b"# Title\n\nok \xff\xfe here\n")
    with pytest.raises(ValueError, match=r"bad\.md.*byte 12.*decode_errors='replace'"):
        OutlineTextSplitter(doc_type="auto").split_file(path)
    chunks = OutlineTextSplitter(doc_type="auto", decode_errors="replace").split_file(path)
    assert "ok \ufffd\ufffd here" in chunks[0].text
    assert chunks[0].text == path.read_text(encoding="utf-8", errors="replace")[chunks[0].start_pos : chunks[0].end_pos]
    with pytest.raises(ValueError, match="encoding"):
        OutlineTextSplitter(doc_type="auto").split_file(path, encoding="no-such-codec")


@pytest.mark.parametrize(
    ("encoding", "data"),
    [
        ("utf-8", b"\xef\xbb\xbf"),
        ("utf-8-sig", b"\xef\xbb\xbf"),
        ("utf-16", b""),
        ("utf-16-le", "\ufeff".encode("utf-16-le")),
    ],
)
def test_split_file_drops_a_bom_and_counts_offsets_after_it(tmp_path, encoding, data):
    text = "# Title\n\nBody text.\n"
    path = tmp_path / "notes.md"
    path.write_bytes(data + text.encode(encoding))
    chunks = OutlineTextSplitter(doc_type="auto").split_file(path, encoding=encoding)
    assert chunks[0].start_pos == 0 and chunks[0].text == text[chunks[0].start_pos : chunks[0].end_pos]
    assert chunks[0].text.startswith("# Title")


def test_splitting_a_path_points_to_split_file(tmp_path):
    from pathlib import Path

    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nText.\n", encoding="utf-8")
    splitter = OutlineTextSplitter(chunk_size=64)
    with pytest.raises(TypeError, match="split_file"):
        splitter.split(Path(path))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"text must be a str, not bytes$"):
        splitter.split(b"# Notes")  # type: ignore[arg-type]
    assert [c.text for c in splitter.split_file(path)] == ["# Notes\n\nText."]
