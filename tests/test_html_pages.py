"""HTML on real pages: no chunk that shows nothing, heading titles and anchors."""

from __future__ import annotations

import importlib
import pydoc
import re

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.html_scan import RAW, scan
from outline_splitter.detectors.html_text import extract_text
from tests.conftest import corpus_files

PYDOC_MODULES = (
    "argparse", "bisect", "csv", "dataclasses", "json", "heapq", "shlex", "textwrap", "string", "fractions",
    "statistics", "difflib", "functools", "itertools", "collections", "os", "re", "pathlib", "typing", "enum",
)  # fmt: skip
_NO_BREAK = re.compile(r"&nbsp;|&#160;|&#xa0;", re.IGNORECASE)


def _pages() -> dict[str, str]:
    folders = ("html-web", "html-spec")
    pages = {p.name: p.read_text(encoding="utf-8") for folder in folders for p in corpus_files(folder)}
    for name in PYDOC_MODULES:
        pages[f"pydoc {name}"] = pydoc.HTMLDoc().document(importlib.import_module(name))
    return pages


def _blank(chunk_text: str) -> bool:
    """Whether a chunk of HTML source is markup alone: tags, comments, doctypes, white
    space and no-break spaces (the content of a script counts as content)."""
    content = []
    cursor = 0
    for kind, start, end, _ in scan(chunk_text):
        content.append(chunk_text[cursor:start])
        if kind == RAW:
            content.append(chunk_text[start:end])
        cursor = end
    content.append(chunk_text[cursor:])
    return not _NO_BREAK.sub("", "".join(content)).split()


@pytest.mark.parametrize("size", [128, 512])
@pytest.mark.parametrize("content", ["all", "main"])
def test_text_mode_has_no_chunk_without_visible_text(size, content):
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=size, output="text", content=content)
    for name, html in _pages().items():
        for chunk in splitter.split(html):
            assert chunk.text.split(), f"{name}: chunk [{chunk.start_pos}, {chunk.end_pos}) is blank"


@pytest.mark.parametrize("size", [128, 512])
def test_markup_only_chunks_are_those_no_neighbour_can_take(cl100k, size):
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=size)
    for name, html in _pages().items():
        chunks = splitter.split(html)
        for i, chunk in enumerate(chunks):
            if not _blank(chunk.text):
                continue
            for a, b in ((i - 1, i), (i, i + 1)):
                if a >= 0 and b < len(chunks):
                    joined = html[chunks[a].start_pos : chunks[b].end_pos]
                    assert cl100k.count(joined) > size, f"{name}: markup-only chunk {i} could join chunk {a or b}"


def test_markup_between_blocks_joins_the_chunk_it_belongs_to():
    rows = "".join(f"<tr><td>Row {i} has some words in it.</td></tr>\n" for i in range(8))
    html = f"<emu-clause id='c'><h1>Clause</h1>\n<p>Intro text of the clause.</p>\n<table>\n{rows}</table>\n"
    html += "</emu-clause>\n"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=46).split(html)
    assert len(chunks) > 2
    assert all(not _blank(chunk.text) for chunk in chunks)
    assert any(chunk.text.startswith("<table>\n<tr>") for chunk in chunks)  # a start tag goes with what follows
    assert chunks[-1].text.endswith("</table>\n</emu-clause>")  # end tags go with what came before
    assert all(chunk.metadata["heading_path"] == ["Clause"] for chunk in chunks)


def test_no_break_spaces_are_blank_in_text_mode():
    html = "<p>One.</p><p>&nbsp;&nbsp;</p><div>\u00a0</div><p>&nbsp;Two.&nbsp;</p>"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=3, output="text").split(html)
    assert [chunk.text for chunk in chunks] == ["One.", "Two."]
    assert chunks[1].text == extract_text(html[chunks[1].start_pos : chunks[1].end_pos])


def _metadata(html: str, size: int = 512) -> list[tuple[str, list[str], str | None]]:
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=size, output="text").split(html)
    return [(c.text, c.metadata["heading_path"], c.metadata.get("section_id")) for c in chunks]


def test_wikipedia_headings_take_the_inner_id_and_drop_edit_links():
    edit = '<span class="mw-editsection"><span>[</span><a href="/edit">edit</a><span>]</span></span>'
    html = f"""<div id="mw-content-text"><div class="mw-parser-output">
    <h2><span class="mw-headline" id="Early_life">Early
       life</span>{edit}</h2><p>Born somewhere, long ago.</p>
    <h3><span class="mw-headline" id="School">School</span> [edit source]</h3><p>Went to school.</p>
    </div></div>"""
    chunks = _metadata(html, 12)
    assert (chunks[-1][1], chunks[-1][2]) == (["Early life", "School"], "School")
    assert any(path == ["Early life"] and section_id == "Early_life" for _, path, section_id in chunks)


def test_headings_with_attributes_and_inside_headers_title_what_follows():
    html = """<body><div class="post"><header class="entry-header"><h1 class="title" align=center>The
    post</h1><p class="byline">By someone</p></header>
    <div class="entry"><p>First paragraph of the post, long enough.</p><p>Second paragraph of the post.</p></div>
    </div></body>"""
    chunks = _metadata(html, 10)
    assert len(chunks) > 1 and all(path == ["The post"] for _, path, _ in chunks)
    section = '<section id="part-two"><header><h2>Part two</h2></header><p>Its text.</p></section>'
    assert _metadata(section) == [("Part two\nIts text.", ["Part two"], "part-two")]


def test_wikipedia_article_chunks_get_their_section_ids():
    path = next(p for p in corpus_files("html-web") if p.name == "wikipedia.html")
    chunks = OutlineTextSplitter(doc_type="html", output="text", content="main").split(path.read_text("utf-8"))
    ids = {chunk.metadata.get("section_id") for chunk in chunks}
    assert len(ids) > len(chunks) // 3
    assert all("[edit]" not in title for chunk in chunks for title in chunk.metadata["heading_path"])
