"""Issue 39's HTML reproducers (found by running html5lib-tests through every mode):
each input as the issue gives it, split with the invariants of DESIGN.md asserted
(`tests/hostile.py`), and what a browser shows of it."""

from __future__ import annotations

import pytest

from outline_splitter.detectors.html_scan import CDATA, END, OTHER, RAW, START, scan
from outline_splitter.detectors.html_text import extract_text
from tests.hostile import split_checked

# No block element at all: the outline is the root alone (issue 39, item 1).
NO_BLOCKS = [
    "plain text", "<b>x</b>", "<span>x</span> y", "<!-- only a comment -->", "<!DOCTYPE html>Hello", "FOO&#x0000;ZOO"
]  # fmt: skip


@pytest.mark.parametrize("html", NO_BLOCKS)
@pytest.mark.parametrize("output", [None, "text"])
def test_main_content_of_a_page_without_blocks_is_the_whole_page(html: str, output: str | None) -> None:
    chunks = split_checked(html, "html", output, content="main", chunk_size=64)
    everything = split_checked(html, "html", output, chunk_size=64)
    assert [c.text for c in chunks] == [c.text for c in everything]


def test_main_content_is_not_the_title() -> None:
    html = "<!DOCTYPE html><title>t</title>Body text of the page."
    source = split_checked(html, "html", content="main", chunk_size=64)
    assert "Body text of the page." in "".join(c.text for c in source)
    text = split_checked(html, "html", "text", content="main", chunk_size=64)
    assert [c.text for c in text] == ["Body text of the page."]


@pytest.mark.parametrize(
    ("html", "shown"),
    [
        # after `<!--` a `<script>` nests: its `</script>` does not end the element
        ("FOO<script><!--<script>-></script>--></script>QUX", "FOOQUX"),
        ("<script><!--<script>-</script>-->", ""),
        ("<script><!--<script>document.write('</script>');\n//-->\n</script>After", "After"),
        ("<!doctype html><script><!--<script></script><script></script>--><!--</script>X", "X"),
        # `<!-->` opens and closes the escape at once
        ("<script><!-->x</script>y", "y"),
        # without `<!--` the first `</script>` ends the element
        ("<script><script></script>z", "z"),
        # (so does it where `-->`, `<script` or `<!--` come only around or after it)
        ("<script>a-->b<script>c</SCRIPT>d<!--e", "d"),
        ("<script>a</script\tb>c<!--<script>--></script>d", "cd"),
        # an escape before it, but no `<script` after the `<!--`: it still ends the element
        ("<script>if (a<!--b) x</script>-->q</script>r", "-->qr"),
        ("<script>x<!--y", ""),
    ],
)
def test_script_text_follows_the_escape_states(html: str, shown: str) -> None:
    assert extract_text(html) == shown
    split_checked(html, "html", "text", chunk_size=8)
    split_checked(html, "html", chunk_size=8)


@pytest.mark.parametrize(
    ("html", "shown"),
    [
        ('FOO<script></script foo=">" dd>BAR', "FOOBAR"),
        ("a</b c='>'>d", "ad"),
        ('<p>x</p title=">">y', "x\ny"),
    ],
)
def test_an_end_tag_may_hold_a_quoted_greater_than_sign(html: str, shown: str) -> None:
    assert extract_text(html) == shown
    split_checked(html, "html", "text", chunk_size=8)


def test_an_end_tag_cut_off_by_the_end_of_the_document_shows_nothing() -> None:
    assert extract_text('a</b title="x>y') == "a"
    assert [kind for kind, *_ in scan("<script>x</script title='>")] == [START, RAW, OTHER]


def test_cdata_in_foreign_content_is_text_as_written() -> None:
    html = "<p>a<svg><text><![CDATA[Label &amp; <b>x</b>]]></text></svg>b</p>"
    assert extract_text(html) == "aLabel &amp; <b>x</b>b"
    assert [kind for kind, *_ in scan(html)].count(CDATA) == 1
    # a span that starts inside the section, alone, is out of foreign content: only the
    # page's text of it is checked (tests/invariants.py, _inside_cdata)
    labelled = "<p>a<svg><text><![CDATA[A <label> of five]]></text></svg>b</p>"
    chunks = split_checked(labelled, "html", "text", chunk_size=4)
    assert "".join(c.text for c in chunks).replace(" ", "") == "aA<label>offiveb"
    # a self-closed `<svg/>` opens no foreign content, and out of it CDATA is a bogus
    # comment that the first `>` ends
    assert extract_text("<svg/><![CDATA[z]]>q") == "q"
    assert extract_text("x<![CDATA[a>b]]>y") == "xb]]>y"
    assert [kind for kind, *_ in scan("<math><![CDATA[m]]></math>")] == [START, OTHER, CDATA, OTHER, END]


@pytest.mark.parametrize("size", [4, 5])
def test_a_two_character_reference_is_one_unit(size: int) -> None:
    html = "<p>x &NotSubset; y</p>"
    chunks = split_checked(html, "html", "text", chunk_size=size)
    assert [c.text for c in chunks] == ["x", "\u2282\u20d2", "y"]
    assert chunks[1].token_count > size  # the documented exception, held by assert_within_budget


@pytest.mark.parametrize(
    ("html", "size", "expected"),
    [
        ("<pre>aaa bbb ccc\r\nddd eee fff\r\n</pre>", 6, ["aaa bbb ccc", "ddd eee fff"]),
        ("<pre>x\r\n\r\ny</pre>", 1, ["x", "y"]),
        ("<pre>x\ry\r\rz</pre>", 64, ["x\ny\n\nz"]),
        ("<pre>\r\nx\r\ny</pre>", 64, ["x\ny"]),
    ],
)
def test_a_line_end_in_pre_is_one_newline(html: str, size: int, expected: list[str]) -> None:
    chunks = split_checked(html, "html", "text", chunk_size=size)
    assert [c.text for c in chunks] == expected
    for chunk in chunks:
        assert not html.startswith("\n", chunk.end_pos) or html[chunk.end_pos - 1] != "\r", "cut inside a CRLF"


def test_script_escapes_do_not_reach_other_raw_text() -> None:
    html = "<style><!--<script></style>after"
    assert [kind for kind, *_ in scan(html)] == [START, RAW, END]
    assert extract_text(html) == "after"


@pytest.mark.parametrize(
    ("html", "shown"),
    [("a</", "a</"), ("</", "</"), ("a</>b", "ab"), ("a</ x>b", "ab"), ("a</b", "a")],
)
def test_an_unfinished_end_tag_reads_as_the_tokenizer_reads_it(html: str, shown: str) -> None:
    # issue 39, item 13: `</` at the end of the page is text; `</>` is nothing; `</ x>` is
    # a bogus comment; `</b` cut off by the end of the page is dropped
    assert extract_text(html) == shown
    split_checked(html, "html", "text", chunk_size=2)
    split_checked(html, "html", chunk_size=2)


def test_a_reference_to_a_control_character_is_dropped_as_documented() -> None:
    # issue 39, item 13: docs/usage.md says why text mode differs from the DOM here
    assert extract_text("a&#x0001;b&#127;c") == "abc"


@pytest.mark.parametrize("html", ["<svg><![CDATA[<svg>a", "<svg><![CDATA[<svg>]]><path>", "<math><![CDATA[a <b> c]]>d"])
def test_a_chunk_may_start_at_the_first_character_of_a_cdata_section(html: str) -> None:
    # html5lib-tests' tests21.dat: a chunk starting at the section's first character,
    # alone, is out of foreign content too (tests/invariants.py, _inside_cdata)
    for size in (1, 2, 4):
        split_checked(html, "html", "text", chunk_size=size)
