"""The faster Markdown backend (pulldown-cmark through pyromark, the `markdown-fast`
extra) gives the reference's outline (markdown-it-py): on every Markdown file of the
shared corpora, every CommonMark spec example, the GFM spec's and its extensions'
examples (where `OUTLINE_CONFORMANCE_DIR` holds them) and generated documents. `make
test` installs the extra, so in CI these run for real; elsewhere without it they skip."""

from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import scale
from outline_splitter.detectors import markdown, markdown_fast, markdown_windows
from tests import conformance
from tests.conftest import CORPORA, corpus_files
from tests.markdown_backends import difference, outline_signature
from tests.strategies import markdown_document

if importlib.util.find_spec("pyromark") is None:
    if os.environ.get("CI"):
        pytest.fail("pyromark (the markdown-fast extra, which make test installs) is missing in CI", pytrace=False)
    pytest.skip("pyromark (the markdown-fast extra) is not installed", allow_module_level=True)


def test_the_fast_backend_is_the_default_where_installed():
    calls = []
    fast = markdown._fast_outline
    assert fast is not None

    def counted(text):
        calls.append(text)
        return fast(text)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "_fast_outline", counted)
        root = markdown.detect_markdown("# A\n\ntext\n")
    assert calls == ["# A\n\ntext\n"]
    assert outline_signature(root) == outline_signature(markdown.detect_markdown_reference("# A\n\ntext\n"))


def test_every_corpus_markdown_file_has_the_reference_outline():
    corpus_files("markdown", "*.md")  # skips (or fails in CI) without ../shared/corpora
    files = sorted(CORPORA.rglob("*.md"))
    assert len(files) >= 138
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert markdown.detect_markdown_fast(text) is not None, path.name  # no fallback on the corpus
        assert difference(text) is None, (path.name, difference(text))


def _suite(reader):
    try:
        return list(reader())
    except conformance.Unavailable as missing:
        if os.environ.get("CI") and reader is conformance.commonmark_inputs:
            pytest.fail(str(missing))
        pytest.skip(str(missing))


@pytest.mark.parametrize("reader", [conformance.commonmark_inputs, conformance.gfm_inputs], ids=["commonmark", "gfm"])
def test_every_spec_example_has_the_reference_outline(reader):
    inputs = _suite(reader)
    differ = {item.name: difference(item.text) for item in inputs}
    assert not {name: why for name, why in differ.items() if why is not None}
    handed_over = [item.name for item in inputs if markdown.detect_markdown_fast(item.text) is None]
    # handed to the reference: empty list items (`-` alone on its line), a tab before a
    # list marker, a lazy `===` line (see detectors/markdown_fast.py)
    assert len(handed_over) <= 16, handed_over


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("> foo\nbar\n===\n", "a lazy line of `=` the reference's Setext rule takes for an underline"),
        ("- 0\n=\n", "the same in a tight list item"),
        ("0\n=\n-\n", "a `=` Setext heading with a line right after it"),
        ("a\n--\n", "a `-` underline shorter than the rule `hr`'s three"),
        ("> " * 30 + "deep\n", "deeper than markdown-it's maxNesting"),
        ("- " * 30 + "deep\n", "deeper than markdown-it's maxNesting"),
        ("a\n\x0c\nb\n", "a form feed"),
        ("# a\ud800\n\n- b\udfff\n", "lone surrogates (not UTF-8, so no Rust string)"),
        ("```py\rx\r```\r", "a lone carriage return"),
        ("# \x00\n", "a NUL, which markdown-it reads as U+FFFD (in a heading's title)"),
        ("[0]: /u\n-\n", "an empty list item"),
        ("[0]:0\n\t0\n", "a link reference definition, then a line indented further"),
        ("[x]: /u\n3) c\n", "a link reference definition, then an ordered list that does not start at 1"),
        ("> [x]:\n> /u\n> 2. c\n", "the same in a block quote, the destination on a line of its own"),
        ("- [x]: /u\n  3) c\n", "the same in a list item the definition opens"),
        ("- 0\n\t- 0\n", "a tab before a list marker"),
        ("- a\n\n ", "a last line of white space with no line end"),
        (":|\n:-", "a one-column delimiter row with a colon and no pipe"),
        ("x\n> a|\n> -:\n", "the same in a block quote, after a paragraph"),
        ("0|0\n-|-\n    0", "a table row indented as code: markdown-it's table ends before it"),
        ("0|0\n-|-\n\t0\n", "the same, indented by a tab"),
        ("- a|b\n  -|-\n", "a list item's line with a pipe, then a delimiter row: a table to markdown-it"),
        ("# a|b\n-|-\n", "the same after a heading's `#`"),
        ("a\nb|c\n-|-\n", "a table that interrupts a paragraph (markdown-it's does)"),
        ("> a\n> b|c\n> -|-\n", "the same in a block quote"),
        ("- a\n  b|c\n  -|-\n", "the same in a tight list item's text"),
        ("x\na|b\n|-|-|\n|-|-|\n", "the same, a second delimiter row after: a table to both, from another line"),
        ("- x\n  a|b\n  |-|-|\n  |-|-|\n", "the same in a tight list item's text"),
        ("a|\n---\n", "a Setext heading's line and `-` underline: a table of one column to markdown-it"),
        ("x\na|\n---\n", "the same, the heading's last line"),
        ("> a|\n> ---\n", "the same in a block quote"),
        ("```\n```\t\ny\n", "a tab after a closing fence: no closing fence to pulldown-cmark"),
        ("- ~~~\n  ~~~ \t\n  y\n", "the same in a list item"),
        ("[a]: /u\n<a>\n", "a link reference definition, then an HTML block that interrupts no paragraph"),
        ("[a]:\na\n\ta\n", "a link reference definition, then indented code"),
        (" [a]: /u\n\ta\n", "the same, the definition indented"),
        ("- [a]: /u\nb\n", "a link reference definition in a list item, then a lazy line"),
        ("> [a]:\n> /u\nb\n", "the same in a block quote, the destination on a line of its own"),
        ("> - [a]: /u\n> b\n", "the same in a list in a block quote"),
        ("<div>|\n--\n", "a line that opens an HTML block and holds a pipe, then a delimiter row: a table"),
        ("- a\n\n  <div> a|b\n  -|-\n", "the same in a list item"),
        ("```|\n-|\n", "the same, a fence's opening line"),
        (">|\n--\n", "the same, a block quote's line (`>|`: one column to markdown-it's table rule)"),
        ("   - a\n    <div\n", "a lazy line four columns in that opens a block: markdown-it opens it"),
        (">>a\n    - b\n", "the same in two block quotes, a list item"),
        ("-    a\n    >\n", "the same, a `>`"),
        (
            "> a\n>\n    > b\n",
            "a `>` four columns past the block quote's line before: the quote goes on to markdown-it",
        ),
        ("- <a>\n   \n", "a line of white space past an item's indent ends its HTML block to markdown-it only"),
        ("> <div>\n>  \n> b\n", "the same in a block quote"),
        ("[a]:\r\na\n<a>\n", "a definition then an HTML block, a CRLF after `]:`"),
        ("> [x]: /u\n\nb\n", "a block quote that ends with a definition, then a blank line"),
        ("> [x]: /u\n\n", "the same at the document's end"),
        ("- -\n  a\n", "an empty item in an item, a line after it"),
        ("1. 1.\n\n\n", "the same, ordered, blank lines after it"),
        (">>> \ta\n", "a tab after three block quote marks: indented code to pulldown-cmark"),
        (">>* \t~\n", "the same after a list marker"),
        (" >\n    >\n", "a `>` four columns in, further in than the quote's line before"),
        ("- >\n      >\n", "the same in a list item"),
        ("   - >a\n    >\n", "a lazy line's `>` after four columns of white space"),
        (">>\n>     >\n", "a `>` four columns past the `>` before it, further in than the line before's"),
        ("1.   - a\n    - b\n", "a lazy item four columns in, after a list opened on an item's line"),
        ("-    - a\n    - b\n", "the same in a bullet list"),
        ("[a]:|-\n-|-\n", "a link reference definition's line with a pipe over a delimiter row: a table"),
        (">|\n---\n", "a line with a pipe over a rule: a table to markdown-it"),
        ("a|b\n- |-\n", "a delimiter row that opens a list item: a table to pulldown-cmark, an item to markdown-it"),
        ("- a\n  \t=\n", "a tab before a `=` underline in a list item: a heading to pulldown-cmark only"),
        (">a\n>\t=\n", "the same in a block quote"),
        (" 10. a\n     - a\n    - a\n", "a lazy item four columns in, in a list in a list item"),
        ("- 1. ---\na\n", "three `-` after the first line's list markers: front matter to the reference's plugin"),
        ("- >1. ---\na\n", "the same, a block quote's mark among the list markers"),
        ("[a]:\na|a\n-|-\n", "a definition's destination on the next line, a table header"),
        ("1. [a]:\n   =\n", "a definition's destination on the next line, a `=`"),
        ("- [a]: /u\n``` `\n", "a definition in a list item, then a lazy line that only looks like a fence"),
        ("<script\n</pre>\na\n", "a `<script` HTML block ends at `</pre>` to markdown-it only"),
        ("<pre>\n</PRE>\na\n", "a `<pre>` HTML block ends at `</PRE>` to markdown-it only"),
    ],
)
def test_documents_the_parsers_read_differently_go_to_the_reference(text, why):
    assert markdown.detect_markdown_fast(text) is None, why
    assert outline_signature(markdown.detect_markdown(text)) == outline_signature(
        markdown.detect_markdown_reference(text)
    )


def test_a_long_document_has_the_reference_outline_in_no_more_memory_than_the_reference():
    # pulldown-cmark's events come one at a time and each block's node is made as its
    # event comes (no token list): at its peak the fast backend holds no more than the
    # reference does with its windows of tokens
    import tracemalloc

    items = "".join(f"- item {n}\n" + ("\n  more\n" if n % 7 == 0 else "") for n in range(3000))
    text = f"# List\n\n{items}\n> quote\n>\n> - in it\n\n\n" + "".join(f"Paragraph {n}.\n\n" for n in range(3000))
    assert len(text.splitlines()) > markdown_windows.WINDOW_LINES  # (read in windows)
    assert markdown.detect_markdown_fast(text) is not None
    assert difference(text) is None
    peaks = []
    for detect in (markdown.detect_markdown_fast, markdown.detect_markdown_reference):
        tracemalloc.start()
        try:
            assert detect(text) is not None
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[0] <= peaks[1], peaks


_PIECES = st.sampled_from(
    [
        "# h", "Title\n===", "Title\n---", "text", "text:", "- a", "1. b", "3) c", "  - nested", "    code",
        "```py", "```", "~~~", "> quote", ">", "| a | b |", "|---|---|", "| 1 | 2 |", "<div>", "</div>",
        "<h2>t</h2>", "<!-- c -->", "***", "---", "[x]: /u", "", "  lazy", "\t- tab", "* * *", "+ plus",
    ]
)  # fmt: skip


_FRONTS = st.sampled_from(
    [
        "", "---\ntitle: x\n---\n\n", "---\n", "---\n\n# a\n\n---\n", "---\na: 1\n...\ntext\n",
        "----\nx\n---\n---\n", "--- x\nk\n---\n",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    front=_FRONTS,
    text=st.one_of(
        markdown_document(),
        st.lists(_PIECES, max_size=24).map("\n".join),
        st.lists(_PIECES, max_size=16).map("\r\n".join),
        st.text(alphabet="ab:#-=>|`*~ \t\n", max_size=120),
        st.text(max_size=60),
    ),
)
def test_generated_documents_have_the_reference_outline(front, text):
    # front matter as mdit-py-plugins reads it: closed by as many `-` or more, or by `...`
    text = front + text
    assert difference(text) is None, text


# -- long documents: both backends read them in the same windows (markdown_windows) ------


def _windows(patch: pytest.MonkeyPatch, chars: int, lines: int) -> list[int]:
    """Windows of `chars` characters or `lines` lines for both backends; the list
    gathers the first line of each window the fast backend parses."""
    patch.setattr(markdown_windows, "WINDOW_CHARS", chars)
    patch.setattr(markdown_windows, "WINDOW_LINES", lines)
    firsts: list[int] = []
    parse = markdown_fast._Outline.parse

    def counted(self, first, end, last):
        firsts.append(first)
        return parse(self, first, end, last)

    patch.setattr(markdown_fast._Outline, "parse", counted)
    return firsts


@settings(max_examples=300, deadline=None)
@given(
    text=markdown_document(),
    front=st.sampled_from(["", "---\ntitle: x\n---\n\n", "---\n", "---\n\n# a\n\n---\n", "Title\n"]),
    chars=st.sampled_from([1, 7, 40, 300]),
    lines=st.sampled_from([1, 3, 1024]),
)
def test_a_document_read_in_windows_has_the_reference_outline_in_the_same_windows(text, front, chars, lines):
    text = front + text
    with pytest.MonkeyPatch.context() as patch:
        _windows(patch, chars, lines)
        assert difference(text) is None, text


_ITEMS = ["a", "b\n  continued", "c\nlazy line", "d\n\n  a second paragraph", "e\n  - nested\n  - nested too",
          "f\n  ```\n  - not an item\n  ```", "g\n\n", "Title\n  ---", "h\n  > quoted"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    bodies=st.lists(st.sampled_from(_ITEMS), min_size=8, max_size=30),
    marker=st.sampled_from(["-", "*", "1.", "3)"]),
    other=st.sampled_from(["", "+ another list", "1) another list", "# after", "---", "    code", "text"]),
    chars=st.sampled_from([1, 5, 60]),
)
def test_a_long_list_read_in_windows_has_the_reference_outline(bodies, marker, other, chars):
    # two short items first: the first window surely ends inside the list
    text = "\n".join(f"{marker} {body}" for body in ["a", "a", *bodies]) + "\n" + other + "\n"
    with pytest.MonkeyPatch.context() as patch:
        firsts = _windows(patch, chars, 1024)
        assert markdown.detect_markdown_fast(text) is not None
        assert difference(text) is None, text
    assert len(firsts) > 1


@pytest.mark.parametrize("kind", [kind for kind in scale.KINDS if kind.doc_type == "markdown"], ids=lambda k: k.name)
def test_the_scaling_benchmark_documents_have_the_reference_outline_in_windows(kind):
    text = kind.make(256 * 1024)
    for chars, lines in ((16 * 1024, 64), (4096, 1 << 20)):
        with pytest.MonkeyPatch.context() as patch:
            firsts = _windows(patch, chars, lines)
            fast = markdown.detect_markdown_fast(text)
            assert fast is not None
            assert outline_signature(fast) == outline_signature(markdown.detect_markdown_reference(text))
        # (the table is one block: its window grows past it once, and reads it whole)
        assert len(firsts) > (1 if kind.make is scale.wide_table else 8), (chars, lines)


@pytest.mark.parametrize("quote", ["", "> "])
@pytest.mark.parametrize("underline", ["===", "---"])
def test_a_setext_heading_over_a_table_header_has_the_reference_outline(quote, underline):
    # pulldown-cmark reads the lines up to the underline as the heading's, where
    # markdown-it's table rule interrupts the paragraph they would be (hypothesis found it)
    text = "".join(f"{quote}{line}\n" for line in ["text", "a|b", "-|-", "Title", underline])
    assert difference(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "- a\n  - # h\n  b\n",
        "- a\n  - ```\n    x\n    ```\n  b\n",
        "- a\n  - b\n    <div>\n  c\n",
        "- - ***\n  a\n",
        "> 1. a\n>    - # h\n>    b\n",
    ],
)
def test_a_tight_items_text_after_a_nested_list_ends_that_list(text):
    # the text has no paragraph event (markdown-it opens a hidden one): where it starts,
    # the list closed before it ends, as at a block's start (the fast backend reads it)
    assert markdown.detect_markdown_fast(text) is not None
    assert difference(text) is None, text


@pytest.mark.parametrize(
    "text", ["- a\n  - b\n\n  [x]: /u\n", "- - a\n\n  [x]: /u\n\nb\n", "1. a\n   - b\n\n   [x]: /u\n   [y]: /v\n"]
)
def test_a_list_closed_before_a_definition_in_the_item_around_it_ends_there(text):
    # a definition makes no event: the inner list ends at it (markdown-it's next block),
    # the item around it after it, each at its own limit (the fast backend reads it)
    assert markdown.detect_markdown_fast(text) is not None
    assert difference(text) is None, text


@pytest.mark.parametrize("text", [">|\na>\n>---\n", "> a\nb>\n> ===\n"])
def test_a_setext_headings_lazy_line_keeps_a_mark_at_its_end(text):
    # only the marks a line starts with are the block quote's (a `>` at its end is text)
    assert markdown.detect_markdown_fast(text) is not None
    assert difference(text) is None, text


# -- a long document with what the parsers read differently in one window: that window
# alone goes to markdown-it-py (its tokens read into the same outline), the others not --

# What `markdown_fast._read_alike` finds in a text (the other differences show only in
# pulldown-cmark's events, and still send the whole document to the reference).
_SEARCHED = [
    "a\n\x0c\nb\n",
    "```py\rx\r```\r",
    "# \x00\n",
    "[0]: /u\n-\n",
    "[0]:0\n\t0\n",
    "[x]: /u\n3) c\n",
    "> [x]:\n> /u\n> 2. c\n",
    "- 0\n\t- 0\n",
    ":|\n:-\n",
    "x\n> a|\n> -:\n",
    "- a|b\n  -|-\n",
    "# a|b\n-|-\n",
    "```\n```\t\ny\n",
    "[a]: /u\n<a>\n",
    "- [a]: /u\nb\n",
    "> a\n>\n    > b\n",
    "> [x]: /u\n\nb\n",
    "[a]:|-\n-|-\n",
]


def _reference_windows(patch: pytest.MonkeyPatch) -> list[int]:
    """The first line of each window the fast backend hands to markdown-it-py."""
    firsts: list[int] = []
    read = markdown_fast._Outline.read_tokens

    def counted(self, tokens, cut):
        firsts.append(self.first_line)
        return read(self, tokens, cut)

    patch.setattr(markdown_fast._Outline, "read_tokens", counted)
    return firsts


@pytest.mark.parametrize("differs", _SEARCHED)
@pytest.mark.parametrize("after", ["", "- x\n- y\n"])
def test_a_window_the_parsers_read_differently_alone_goes_to_the_reference(differs, after):
    # (issue 41: the 4 MB list of benchmarks.scale went to markdown-it-py whole for the
    # `- ` its cut left at its end)
    paragraphs = "".join(f"Paragraph {n} of a few words.\n\n" for n in range(60))
    text = f"# Title\n\n{paragraphs}- a\n- b\n\n{differs}\n{after}\n## Later\n\n{paragraphs}"
    with pytest.MonkeyPatch.context() as patch:
        firsts = _windows(patch, 400, 1024)
        handed = _reference_windows(patch)
        assert markdown.detect_markdown_fast(text) is not None, differs
        assert difference(text) is None, differs
    assert 0 < len(handed) < len(firsts) / 2, (handed, firsts)


def test_a_first_window_the_parsers_read_differently_sends_the_document_to_the_reference():
    text = "[0]: /u\n-\n\n" + "".join(f"Paragraph {n}.\n\n" for n in range(100))
    with pytest.MonkeyPatch.context() as patch:
        firsts = _windows(patch, 300, 1024)
        assert markdown.detect_markdown_fast(text) is None
    assert firsts == [0]  # (the first window's search hands it over: nothing more is parsed)


def test_a_long_list_cut_short_by_a_lone_marker_has_the_reference_outline():
    # benchmarks.scale's list, cut at its size, ends with a `- ` (an empty item)
    text = scale.markdown_list(200 * 1024)
    text = text[: text.rindex("\n") + 1] + "- "
    with pytest.MonkeyPatch.context() as patch:
        firsts = _windows(patch, 16 * 1024, 1024)
        handed = _reference_windows(patch)
        fast = markdown.detect_markdown_fast(text)
        assert fast is not None
        assert outline_signature(fast) == outline_signature(markdown.detect_markdown_reference(text))
    assert len(handed) == 1 and handed[0] == firsts[-1], (handed, firsts)


_DIFFERING_PIECES = st.sampled_from(["-", "1.", "[x]: /u", "\t- tab", ":-", "3) c", "a|b", "-|-", "\x0c", "x\ry"])


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.one_of(_PIECES, _DIFFERING_PIECES), max_size=30).map("\n".join),
    chars=st.sampled_from([1, 7, 40]),
    lines=st.sampled_from([1, 3, 1024]),
)
def test_documents_with_windows_read_differently_have_the_reference_outline(text, chars, lines):
    with pytest.MonkeyPatch.context() as patch:
        _windows(patch, chars, lines)
        assert difference(text) is None, text


_ITEMS_READ_DIFFERENTLY = ["", "x\n\t- tab", "a|b\n  -|-", "[x]: /u\n  3) c"]


@settings(max_examples=200, deadline=None)
@given(
    bodies=st.lists(st.sampled_from([*_ITEMS, *_ITEMS_READ_DIFFERENTLY]), min_size=8, max_size=30),
    marker=st.sampled_from(["-", "*", "1.", "3)"]),
    other=st.sampled_from(["", "+ another list", "1) another list", "# after", "- ", "text"]),
    chars=st.sampled_from([1, 5, 60]),
)
def test_a_long_list_with_items_read_differently_has_the_reference_outline(bodies, marker, other, chars):
    # the windows markdown-it-py reads continue the list the last window was cut inside,
    # and are cut inside it for the next
    text = "\n".join(f"{marker} {body}" for body in ["a", "a", *bodies]) + "\n" + other + "\n"
    with pytest.MonkeyPatch.context() as patch:
        _windows(patch, chars, 1024)
        handed = _reference_windows(patch)
        assert difference(text) is None, text
    if "" in bodies[:-1] and markdown.detect_markdown_fast(text) is not None:
        assert handed
