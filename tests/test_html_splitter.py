"""`OutlineTextSplitter(doc_type="html")` in both output modes: invariants on generated
HTML and on every page of the HTML corpora, blocks kept whole, selectors, text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.detectors.html import detect_html
from outline_splitter.detectors.html_text import ExtractedText, extract_text
from outline_splitter.tokens import Tokenizer
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.invariants import assert_same_output, assert_source_chunks, assert_text_chunks

WHOLE_TAGS = frozenset({"ol", "ul", "table", "pre"})


def assert_chunks(html: str, chunks: list[TextChunk], output: str, tokenizer: Tokenizer, size: int) -> None:
    if output == "html":
        assert_source_chunks(html, chunks, tokenizer, size)
    else:
        assert_text_chunks(html, chunks, tokenizer, size)


def assert_blocks_whole(html: str, chunks: list[TextChunk], output: str, tokenizer: Tokenizer, size: int) -> None:
    """Every `ol`, `ul`, `table`, `pre` whose chunk text fits the budget lies inside one chunk."""
    extracted = ExtractedText(html) if output == "text" else None
    spans = [(chunk.start_pos, chunk.end_pos) for chunk in chunks]
    for node in detect_html(html).walk():
        if node.meta.get("tag") not in WHOLE_TAGS:
            continue
        if extracted is not None:
            lo, hi = extracted.span(node.start, node.end)
            if lo >= hi or tokenizer.count(extracted.text[lo:hi]) > size:
                continue
            start, end = extracted.source_span(lo, hi)
        else:
            start, end = node.start, node.end
            if not html[start:end].strip() or tokenizer.count(html[start:end].strip()) > size:
                continue
        assert any(a <= start and (end <= b or not html[b:end].strip()) for a, b in spans), (
            f"{node.meta['tag']} [{start}, {end}) fits {size} tokens but is not inside one chunk"
        )


@pytest.mark.parametrize("output", ["html", "text"])
@settings(max_examples=120, deadline=None)
@given(html=html_documents(), size=st.sampled_from([8, 24, 64]))
def test_generated_html_keeps_the_invariants(cl100k, output, html, size):
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=size, output=output)
    chunks = splitter.split(html)
    assert_chunks(html, chunks, output, cl100k, size)
    assert_blocks_whole(html, chunks, output, cl100k, size)
    assert_same_output(chunks, splitter.split(html))


@settings(max_examples=60, deadline=None)
@given(html=html_documents(), separator=st.sampled_from(["h2", "p", "li", ".keep", "td, th"]))
def test_generated_html_with_selectors_in_characters(html, separator):
    splitter = OutlineTextSplitter(
        doc_type="html", chunk_size=20, max_chunk_size=40, tokenizer=len, output="text",
        separators=[separator], never_break_within=["pre", ".keep"],
    )  # fmt: skip
    cursor = 0
    for chunk in splitter.split(html):
        assert chunk.text == extract_text(html[chunk.start_pos : chunk.end_pos])
        assert chunk.start_pos >= cursor and len(chunk.text) == chunk.token_count <= 40
        cursor = chunk.end_pos


@pytest.mark.parametrize("size", [128, 512])
@pytest.mark.parametrize("output", ["html", "text"])
@pytest.mark.parametrize("folder", ["html-web", "html-spec"])
def test_corpus_pages_keep_the_invariants(cl100k, folder, output, size):
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=size, output=output)
    for path in corpus_files(folder, "*.html"):
        html = path.read_text(encoding="utf-8")
        chunks = splitter.split(html)
        assert chunks, path.name
        assert_chunks(html, chunks, output, cl100k, size)
        assert_blocks_whole(html, chunks, output, cl100k, size)


@settings(max_examples=80, deadline=None)
@given(html=html_documents(), data=st.data())
def test_text_mode_reach_bounds_the_estimate_of_every_shorter_span(cl100k, html, data):
    # The packer takes any span ending within `reach` as surely fitting without a count.
    from outline_splitter.detectors.html_support import html_view

    view = html_view(html, detect_html(html), cl100k, "text")
    start = data.draw(st.integers(0, len(html)))
    tokens = data.draw(st.integers(0, 30))
    reach = view.reach(start, tokens)
    assert reach is not None and start <= reach <= len(html)
    for end in range(start, reach + 1):
        assert view.counter.estimate(*view.rendered.span(start, end)) <= tokens
    if reach < len(html):  # and it is the furthest such end
        assert view.counter.estimate(*view.rendered.span(start, reach + 1)) > tokens


def test_text_mode_reads_like_the_page(cl100k):
    html = (
        "<html><head><title>T</title><style>p{}</style></head><body>"
        "<h1>Title</h1><p>Hello <b>bold</b>world &amp; more.</p><script>var x = 1;</script>"
        "<ul><li>one</li>\n  <li>two</li></ul><template><p>never</p></template></body></html>"
    )
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=512, output="text").split(html)
    assert [c.text for c in chunks] == ["Title\nHello boldworld & more.\none\ntwo"]
    assert chunks[0].token_count == cl100k.count(chunks[0].text)
    assert html[chunks[0].start_pos :].startswith("Title</h1>")
    assert chunks[0].metadata["output"] == "text"
    assert chunks[0].metadata["heading_path"] == ["Title"]  # the chunk opens with that heading


def test_html_mode_chunks_are_slices_with_heading_paths():
    steps = "".join(f"<h2>Step {i}</h2><p>{'word ' * 40}</p>" for i in range(6))
    html = f"<article><h1>Guide</h1>{steps}</article>"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=64).split(html)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text == html[chunk.start_pos : chunk.end_pos]
        assert chunk.metadata["heading_path"][0] == "Guide"
    assert chunks[-1].metadata["heading_path"] == ["Guide", "Step 5"]


def test_never_break_within_and_separators_take_css_selectors():
    html = '<div><p class="keep">' + "alpha beta gamma delta " * 6 + "</p><p>x</p><h2>Part</h2><p>y</p></div>"
    splitter = OutlineTextSplitter(
        doc_type="html", chunk_size=16, max_chunk_size=64, output="text", never_break_within=["p.keep"]
    )
    chunks = splitter.split(html)
    assert chunks[0].text == extract_text(html[html.index('<p class="keep">') : html.index("</p>")])
    assert 16 < chunks[0].token_count <= 64
    assert [c.text for c in chunks[1:]] == ["x\nPart\ny"]


def test_separator_groups_follow_the_separator():
    html = "<div><p>intro words here</p><hr><p>one</p><p>two</p><hr><p>three</p></div>"
    plain = OutlineTextSplitter(doc_type="html", chunk_size=8, tokenizer=len, output="text")
    grouped = OutlineTextSplitter(
        doc_type="html", chunk_size=8, max_chunk_size=16, tokenizer=len, output="text", separators=["hr"]
    )
    # plain: the broken paragraph's last piece keeps to itself (balanced splits), the rest in halves
    assert [c.text for c in plain.split(html)] == ["intro", "words", "here", "one\ntwo", "three"]
    assert [c.text for c in grouped.split(html)] == ["intro", "words", "here", "one\ntwo", "three"]
    html = "<div><p>a</p><hr><p>bb</p><p>cc</p><p>dd</p></div>"
    assert [c.text for c in plain.split(html)] == ["a\nbb", "cc\ndd"]
    assert [c.text for c in grouped.split(html)] == ["a", "bb\ncc\ndd"]


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="output"):
        OutlineTextSplitter(doc_type="html", output="markdown")
    with pytest.raises(ValueError, match="output"):
        OutlineTextSplitter(doc_type="markdown", output="text")
    with pytest.raises(ValueError, match="never_break_within"):
        OutlineTextSplitter(doc_type="html", never_break_within=["p["]).split("<p>x</p>")
