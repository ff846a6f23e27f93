"""Headings that tell the truth: `heading_paths` names every section a chunk covers,
titles are the visible text of a heading, section ids are GitHub's anchors, and an HTML
block that opens with a heading element is a heading."""

from __future__ import annotations

import pytest

from detectors.markdown_titles import html_heading, plain_title
from outline_splitter import OutlineTextSplitter
from tests.conftest import corpus_files


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("[3.5.3](https://github.com/o/r/compare/v3.5.2...v3.5.3) (2026-11-23)", "3.5.3 (2026-11-23)"),
        ("Uses `snake_case` and *emphasis* and __strong__", "Uses snake_case and emphasis and strong"),
        ("![logo](logo.png) The <em>Tool</em> &amp; friends", "logo The Tool & friends"),
        ("Escaped \\*stars\\* and ~~gone~~ [ref link][1]", "Escaped *stars* and gone ref link"),
        ("Code `a [b](c) *d*` stays literal", "Code a [b](c) *d* stays literal"),
    ],
)
def test_titles_are_plain_visible_text(source, title):
    assert plain_title(source) == title


def test_slugs_are_githubs_anchors():
    text = "# [3.5.3](https://x.y/z) (2026-11-23)\n\nA.\n\n# Uses `snake_case`!\n\nB.\n\n# Uses `snake_case`!\n\nC.\n"
    chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=10).split(text)
    ids = list(dict.fromkeys(c.metadata["section_id"] for c in chunks))
    assert ids == ["353-2026-11-23", "uses-snake_case", "uses-snake_case-1"]


def test_an_html_heading_in_a_markdown_html_block_opens_a_section():
    assert html_heading('<h1 align="center">\n  My <b>Tool</b>\n</h1>') == (1, "My Tool")
    assert html_heading("<p>not a heading</p>") is None
    text = '<h1 align="center">My Tool</h1>\n\nIntro words.\n\n## Install\n\nRun it.\n'
    (chunk,) = OutlineTextSplitter(doc_type="markdown", chunk_size=64).split(text)
    assert chunk.metadata["heading_path"] == ["My Tool"]
    assert chunk.metadata["heading_paths"] == [["My Tool"], ["My Tool", "Install"]]


def test_heading_paths_name_every_section_a_chunk_covers():
    text = "# Changelog\n\n## 0.10.0\n\nFixes.\n\n## 0.9.0\n\nMore fixes.\n\n## 0.8.1\n\nA fix.\n"
    (chunk,) = OutlineTextSplitter(doc_type="markdown", chunk_size=200).split(text)
    assert chunk.metadata["heading_path"] == ["Changelog"]
    assert chunk.metadata["heading_paths"] == [
        ["Changelog"], ["Changelog", "0.10.0"], ["Changelog", "0.9.0"], ["Changelog", "0.8.1"]
    ]  # fmt: skip
    later = OutlineTextSplitter(doc_type="markdown", chunk_size=14).split(text)[-1]
    assert later.metadata["heading_paths"] == [["Changelog", "0.8.1"]]


@pytest.mark.parametrize("budget", [256, 512])
def test_heading_paths_and_plain_titles_on_the_corpus(budget):
    files = corpus_files("markdown", "*.md")
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=budget)
    spanning = 0
    for path in files:
        for chunk in splitter.split(path.read_text(encoding="utf-8")):
            paths = chunk.metadata["heading_paths"]
            if chunk.metadata["heading_path"]:
                assert paths[0] == chunk.metadata["heading_path"], (path.name, chunk.start_pos)
            assert len({tuple(p) for p in paths}) == len(paths)
            spanning += len(paths) > 1
            for title in (t for p in paths for t in p):
                assert "](" not in title and "`" not in title and "**" not in title, title
    assert spanning > 50  # chunks that cover several sections are common: each now names them all
