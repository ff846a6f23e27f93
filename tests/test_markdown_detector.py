"""The Markdown detector: structure and exact offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter.detectors import markdown, markdown_outline, markdown_windows
from outline_splitter.detectors.markdown import detect_markdown
from outline_splitter.nodes import Node, Trait, apply_traits, check_outline, mark_lead_ins
from tests.conftest import corpus_files
from tests.markdown_parsers import EACH_PARSER, detector
from tests.strategies import markdown_document


def kinds(node: Node) -> list[str]:
    return [child.kind for child in node.children]


def find(root: Node, kind: str) -> list[Node]:
    return [n for n in root.walk() if n.kind == kind]


@EACH_PARSER
def test_sections_nest_by_level_for_atx_and_setext(parser):
    text = "Top\n===\n\nintro\n\n## A\n\na text\n\n### A1\n\ndeep\n\nB\n---\n\nb text\n\n# Next\n"
    root = detector(parser)(text)
    check_outline(root, len(text))
    (top, following) = root.children
    assert top.public_meta() == {"level": 1, "title": "Top", "id": "top"} and following.public_meta()["title"] == "Next"
    assert kinds(top) == ["heading", "paragraph", "section", "section"]
    a, b = top.children[2], top.children[3]
    assert (a.public_meta()["title"], b.public_meta()["title"]) == ("A", "B")
    assert kinds(a) == ["heading", "paragraph", "section"] and a.children[2].public_meta()["title"] == "A1"
    assert text[b.start : b.end] == "B\n---\n\nb text\n\n"
    assert top.end == following.start == text.index("# Next")


@EACH_PARSER
def test_blocks_and_their_offsets(parser):
    text = (
        "---\ntitle: x\n---\n\n"
        "Para one\ncontinues.\n\n"
        "- item 1\n  - nested\n- item 2\n\n"
        "1. first\n2. second\n\n"
        "```python\nprint('x')\n```\n\n"
        "    indented code\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n"
        "> quoted\n> text\n\n"
        "<div>\nhtml\n</div>\n\n"
        "***\n"
    )
    root = detector(parser)(text)
    check_outline(root, len(text))
    assert kinds(root) == [
        "front_matter",
        "paragraph",
        "list",
        "list",
        "code",
        "code",
        "table",
        "blockquote",
        "html_block",
        "thematic_break",
    ]
    _front, para, bullets, ordered, fence, indented, table, quote, _html, _rule = root.children
    assert text[para.start : para.end] == "Para one\ncontinues.\n"
    assert bullets.meta["ordered"] is False and ordered.meta == {"ordered": True, "list_start": 1}
    assert len(bullets.children) == 2 and find(bullets.children[0], "list")
    assert (
        fence.public_meta()["language"] == "python" and text[fence.start : fence.end] == "```python\nprint('x')\n```\n"
    )
    assert indented.meta["fenced"] is False
    header, *rows = table.children
    assert text[header.start : header.end] == "| a | b |\n|---|---|\n"  # the delimiter row stays with the header
    assert [text[r.start : r.end] for r in rows] == ["| 1 | 2 |\n", "| 3 | 4 |\n"]
    assert text[quote.start : quote.end].startswith("> quoted")


@EACH_PARSER
def test_crlf_and_lone_cr_offsets_are_exact(parser):
    text = "# Head\r\n\r\nline one\r\nline two\r\n\r\n- a\r- b\r\n"
    root = detector(parser)(text)
    check_outline(root, len(text))
    section = root.children[0]
    heading, para, items = section.children
    assert text[heading.start : heading.end] == "# Head\r\n"
    assert text[para.start : para.end] == "line one\r\nline two\r\n"
    assert [text[i.start : i.end].strip() for i in items.children] == ["- a", "- b"]


@EACH_PARSER
def test_unclosed_fence_runs_to_the_end(parser):
    text = "intro\n\n```\ncode\n# not a heading\n"
    root = detector(parser)(text)
    assert kinds(root) == ["paragraph", "code"] and root.children[1].end == len(text)


@EACH_PARSER
def test_headings_inside_containers_are_not_sections(parser):
    text = "> # quoted heading\n\n- # item heading\n"
    root = detector(parser)(text)
    assert not find(root, "section")
    assert len(find(root, "heading")) == 2


@EACH_PARSER
def test_every_corpus_file_gives_a_well_formed_outline(parser):
    for path in corpus_files("markdown", "*.md"):
        text = path.read_text(encoding="utf-8")
        root = detector(parser)(text)
        check_outline(root, len(text))
        for heading in find(root, "heading"):
            assert text[heading.start : heading.end].lstrip(" >-*0123456789.").startswith(("#",)) or "\n" in text[
                heading.start : heading.end
            ].rstrip("\n"), path.name


@EACH_PARSER
def test_sections_get_unique_anchor_slugs(parser):
    text = "# Intro\n\n## `if` Expressions!\n\n## `if` Expressions!\n\n# Intro\n"
    slugs = [n.public_meta()["id"] for n in detector(parser)(text).walk() if n.kind == "section"]
    assert slugs == ["intro", "if-expressions", "if-expressions-1", "intro-1"]


SETEXT_CASES = [
    "Foo\n===\nBar\n===\nBaz",
    "Foo\n---\nBar",
    "a\nb\n---",
    "===\nx",
    "Foo\n    ===",
    "> Foo\n> ===",
    "> Foo\n> ---",
    "- Foo\n  ---",
    "Foo\n- - -",
    "Foo\n***",
    "Foo\n===  \n\nx",
    "Foo\r\n---\r\n",
    "| a |\n|---|\n| b |\n---",
    "Foo\n  ===\n  ---",
]


def _block_signature(tokens):
    return [(t.type, t.map, t.level, t.content.strip() if t.type == "inline" else "") for t in tokens]


def _full_parser():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin).disable(["inline", "text_join"])


@settings(max_examples=150, deadline=None)
@given(text=markdown_document())
def test_setext_headings_match_markdown_it_on_generated_documents(text):
    _assert_same_blocks(_full_parser(), text)


def test_setext_headings_match_markdown_it_on_the_corpus_and_edge_cases():
    full = _full_parser()
    for text in SETEXT_CASES:
        _assert_same_blocks(full, text)
    for path in corpus_files("markdown", "*.md"):
        _assert_same_blocks(full, path.read_text(encoding="utf-8"))


def _assert_same_blocks(full, text):
    from outline_splitter.detectors.lines import line_starts
    from outline_splitter.detectors.markdown import _parser, _setext_headings

    expected = _block_signature(full.parse(text))
    assert _block_signature(_setext_headings(_parser().parse(text), text, line_starts(text))) == expected, text


def _outline_signature(root: Node) -> list[tuple[object, ...]]:
    return [
        (
            node.kind,
            node.start,
            node.end,
            node.traits,
            None if node.label is None else (node.label.title, node.label.level, node.label.id),
            sorted(node.meta.items()) if node.meta else None,
            len(node.children),
        )
        for node in root.walk()
    ]


def _windowed(text: str, window: int) -> tuple[list[tuple[object, ...]], int]:
    """The outline signature of `text` parsed in windows of `window` characters, and
    how many windows it took."""
    windows = 0
    setext = markdown._setext_headings

    def counted(*args):  # called once per window
        nonlocal windows
        windows += 1
        return setext(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_windows, "WINDOW_CHARS", window)
        patch.setattr(markdown, "_setext_headings", counted)
        return _outline_signature(markdown.detect_markdown(text)), windows


@settings(max_examples=200, deadline=None)
@given(
    text=markdown_document(),
    front=st.sampled_from(["", "---\ntitle: x\n---\n\n", "---\n", "---\n\n# a\n\n---\n", "Title\n"]),
    window=st.sampled_from([1, 7, 40, 300]),
)
def test_a_document_parsed_in_windows_has_the_outline_of_one_parse(text, front, window):
    text = front + text
    assert _windowed(text, window)[0] == _outline_signature(detect_markdown(text)), text


def test_corpus_documents_parsed_in_windows_have_the_outline_of_one_parse():
    windows = 0
    for path in corpus_files("markdown", "*.md"):
        text = path.read_text(encoding="utf-8")
        whole = _outline_signature(detect_markdown(text))
        for window in (1, 500):
            outline, used = _windowed(text, window)
            assert outline == whole, (path.name, window)
            windows = max(windows, used)
    assert windows > 10  # the corpus was really read in windows


_ITEM_BODIES = [
    "a",
    "b\n  continued",
    "c\nlazy line",
    "d\n\n  a second paragraph",
    "e\n  - nested\n  - nested too",
    "f\n  ```\n  - not an item\n  ```",
    "g\n\n",
    "Title\n  ---",
]


@settings(max_examples=200, deadline=None)
@given(
    bodies=st.lists(st.sampled_from(_ITEM_BODIES), min_size=8, max_size=30),
    marker=st.sampled_from(["-", "*", "1.", "3)"]),
    other=st.sampled_from(["", "+ another list", "# after", "---", "    code"]),
    window=st.sampled_from([1, 5]),
)
def test_a_long_list_parsed_in_windows_has_the_outline_of_one_parse(bodies, marker, other, window):
    # two short items first: the first window surely ends inside the list
    text = "\n".join(f"{marker} {body}" for body in ["a", "a", *bodies]) + "\n" + other + "\n"
    outline, windows = _windowed(text, window)
    assert outline == _outline_signature(detect_markdown(text)), text
    assert windows > 1


def test_a_long_list_is_parsed_a_bounded_number_of_lines_at_a_time():
    # markdown-it's tokens come by lines (five for each line of a tight list): a window
    # holds at most _WINDOW_LINES of them however short they are
    text = "".join(f"- item {n}\n" for n in range(5 * markdown_windows.WINDOW_LINES))
    outline, windows = _windowed(text, markdown_windows.WINDOW_CHARS)
    assert windows >= 5
    assert outline == _outline_signature(detect_markdown(text))


@pytest.mark.parametrize("block", ["table", "paragraph", "quote"])
def test_a_block_longer_than_the_window_is_parsed_once_more_not_at_each_doubling(block):
    # a window that one block fills grows past the blank line that ends it: a 16 MB table
    # was parsed at 1, 2, 4, 8 and 16 MB, twice the text in all
    rows = {
        "table": "| a | b |\n|---|---|\n" + "".join(f"| row {n} | cell {n} |\n" for n in range(400)),
        "paragraph": "".join(f"line {n} of one paragraph\n" for n in range(400)),
        "quote": "".join(f"> line {n} of one quote\n" for n in range(400)),
    }[block]
    text = rows + "\n" + "".join(f"Paragraph {n}.\n\n" for n in range(400))
    parsed = 0
    parser = markdown._parser

    class Counting:
        def __init__(self, md):
            self.md = md

        def parse(self, window):
            nonlocal parsed
            parsed += len(window)
            return self.md.parse(window)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "_parser", lambda **kwargs: Counting(parser(**kwargs)))
        outline, windows = _windowed(text, 300)
    assert outline == _outline_signature(detect_markdown(text))
    assert windows > 3  # the paragraphs after the block still come in windows
    assert parsed < 1.3 * len(text), (parsed, len(text))


def _eager(text: str, parser: str) -> Node:
    """The outline with every list item's paragraph built at once (as the detector made
    them before it deferred them): no paragraph taken for a lead-in defers."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_outline, "leads_in", lambda *args: True)
        return detector(parser)(text)


@EACH_PARSER
def test_a_list_items_one_paragraph_is_built_when_asked(parser):
    text = "- one\n- two:\n- three\n  - nested\n- four\n\n  more\n"
    root = detector(parser)(text)
    items = find(root, "list_item")
    # deferred: an item whose one paragraph has its span; built: a lead-in (LEADS is a
    # trait of the paragraph's node), an item that holds more
    assert [len(item.children) for item in items] == [0, 1, 2, 0, 2]
    assert [item.expand is not None for item in items] == [True, False, False, True, False]
    assert [p.start for p in find(root, "paragraph")] == [text.index(s) - 2 for s in ("two", "three")] + [
        text.index("four") - 2,
        text.index("  more"),
    ]
    expanded = root.expand_all()
    assert _outline_signature(expanded) == _outline_signature(_eager(text, parser))
    assert [len(item.children) for item in items] == [1, 1, 2, 1, 2]


@settings(max_examples=150, deadline=None)
@given(
    text=st.one_of(
        markdown_document(),
        st.lists(st.sampled_from([*_ITEM_BODIES, "x:", "**y:**", "z\n  > quote"]), min_size=1, max_size=12).map(
            lambda bodies: "".join(f"- {body}\n" for body in bodies)
        ),
    )
)
@EACH_PARSER
def test_deferred_list_item_paragraphs_leave_the_outline_as_it_was(parser, text):
    assert _outline_signature(detector(parser)(text).expand_all()) == _outline_signature(_eager(text, parser)), text


@settings(max_examples=60, deadline=None)
@given(
    bodies=st.lists(st.sampled_from([*_ITEM_BODIES, "x:", "Several words. Two sentences."]), min_size=1, max_size=16),
    chunk_size=st.sampled_from([4, 8, 16, 40]),
    min_chunk_size=st.sampled_from([0, 3]),
    nested=st.booleans(),
)
@EACH_PARSER
def test_deferred_list_item_paragraphs_leave_every_chunk_as_it_was(parser, bodies, chunk_size, min_chunk_size, nested):
    from outline_splitter import OutlineTextSplitter

    items = "".join(f"- {body}\n" for body in bodies)
    text = f"# Steps\n\nThe steps:\n\n{items}\n## Then\n\n" + (items.replace("- ", "  - ") if nested else items)
    splitter = OutlineTextSplitter(
        doc_type="markdown", markdown_parser=parser, chunk_size=chunk_size, min_chunk_size=min_chunk_size
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_outline, "leads_in", lambda *args: True)
        eager = [chunk.model_dump() for chunk in splitter.split(text)]
    assert [chunk.model_dump() for chunk in splitter.split(text)] == eager, text


def _traits_by_walks(root: Node, text: str) -> list[Trait]:
    """The traits of `root`'s nodes as the table and lead-in walks give them (the
    detector gives each node its own as it makes it), a header row's `CONTEXT` kept."""
    nodes = root.walk()
    for node in nodes:
        node.traits &= Trait.CONTEXT
    mark_lead_ins(apply_traits(root, markdown_outline.TRAITS), text)
    return [node.traits for node in nodes]


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(markdown_document(), st.text(alphabet="ab:#-=>|` \n", max_size=120)))
@EACH_PARSER
def test_each_node_gets_the_traits_of_its_kind_and_lead_in_as_it_is_made(parser, text):
    root = detector(parser)(text)
    made = [node.traits for node in root.walk()]
    assert made == _traits_by_walks(root, text), text


@EACH_PARSER
def test_each_corpus_node_gets_the_traits_of_its_kind_and_lead_in_as_it_is_made(parser):
    for path in corpus_files("markdown", "*.md"):
        text = path.read_text(encoding="utf-8")
        root = detector(parser)(text)
        made = [node.traits for node in root.walk()]
        assert made == _traits_by_walks(root, text), path.name
