"""The `markdown_parser` option: the parser the user names reads the document, whatever
is installed, and its outline is that parser's own reading."""

from __future__ import annotations

import sys

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.nodes import check_outline
from outline_splitter.registry import load_detector
from tests.markdown_parsers import EACH_PARSER, detector

# Documents the two parsers read differently: the kinds of node each one's outline has.
READ_DIFFERENTLY = {
    # markdown-it's table rule is tried before the HTML block's
    "<div>|\n--\n": {"markdown-it": ["table", "table_row"], "pulldown-cmark": ["html_block"]},
    # a lazy `=` line: a Setext underline to markdown-it-py, a paragraph's text to pulldown-cmark
    "> foo\nbar\n===\n": {"markdown-it": ["blockquote", "heading"], "pulldown-cmark": ["blockquote", "paragraph"]},
}


def _kinds(parser: str | None, text: str) -> list[str]:
    """The kinds of the splitter's outline of `text` below the document, in order."""
    options = {} if parser is None else {"markdown_parser": parser}
    nodes = list(OutlineTextSplitter(**options).outline(text).children)
    kinds = []
    while nodes:
        node = nodes.pop(0)
        kinds.append(node.kind)
        nodes[:0] = node.children
    return kinds


@pytest.mark.parametrize("text", READ_DIFFERENTLY)
def test_the_option_chooses_the_parser_whatever_is_installed(text):
    assert "pyromark" in sys.modules or __import__("pyromark")  # the extra is installed here
    readings = READ_DIFFERENTLY[text]
    assert _kinds(None, text) == readings["markdown-it"]
    for parser, kinds in readings.items():
        assert _kinds(parser, text) == kinds


def test_pulldown_cmark_without_its_extra_raises_an_import_error_that_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyromark", None)  # (import pyromark then fails)
    monkeypatch.delitem(sys.modules, "outline_splitter.detectors.markdown_pulldown", raising=False)
    load_detector.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"markdown_parser='pulldown-cmark' needs pyromark.*markdown-fast"):
            OutlineTextSplitter(markdown_parser="pulldown-cmark").split("# Title\n\ntext\n")
        assert OutlineTextSplitter().split("# Title\n\ntext\n")  # markdown-it-py needs no extra
    finally:
        load_detector.cache_clear()


@EACH_PARSER
@pytest.mark.parametrize(
    "text",
    [
        "# Tête\n\nÉté — ünïcode 𝄞 text.\n\n- a\n- b é\n\n| é | b |\n|---|---|\n| 𝄞 | 2 |\n",
        "# a\ud800b\n\npara \udfff\n\n## c\n\nend\n",  # lone surrogates: no Rust string holds one
        "# Title\r\n\r\nbody\rmore\r\n> q\r\n",
        # (pulldown-cmark's list ends past the `> ` of the line after it: its node does not)
        "# Quote\n\n> - a\n>   b\n> - c\n>\n> Then a paragraph.\n",
    ],
)
def test_offsets_are_exact_in_characters_whatever_the_text_holds(parser, text):
    root = detector(parser)(text).expand_all()
    check_outline(root, len(text))
    headings = [node for node in root.walk() if node.kind == "heading"]
    assert headings and all(text[node.start : node.end].startswith("#") for node in headings)
    paragraphs = [text[node.start : node.end] for node in root.walk() if node.kind == "paragraph"]
    assert paragraphs and all(p.strip() and not p.startswith("#") for p in paragraphs)
