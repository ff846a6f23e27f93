"""`OutlineTextSplitter(doc_type="html")` in both output modes: invariants on generated
HTML and on every page of the HTML corpora, blocks kept whole, selectors, text rules."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.detectors import html_text
from outline_splitter.detectors.html import detect_html
from outline_splitter.detectors.html_scan import scan
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
@example(html="<PRE> alpha  alpha ", separator="h2")
def test_generated_html_with_selectors_in_characters(html, separator):
    splitter = OutlineTextSplitter(
        doc_type="html", chunk_size=20, max_chunk_size=40, tokenizer=len, output="text",
        separators=[separator], never_break_within=["pre", ".keep"],
    )  # fmt: skip
    cursor = 0
    whole = ExtractedText(html)
    for chunk in splitter.split(html):
        lo, hi = whole.span(chunk.start_pos, chunk.end_pos)
        assert chunk.text == whole.text[lo:hi]
        # a slice alone folds the white space of a `pre` whose start tag it does not hold
        assert chunk.text.split() == extract_text(html[chunk.start_pos : chunk.end_pos]).split()
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
    from outline_splitter.format_hooks.html import html_view
    from outline_splitter.tokens import span_counter_for

    view = html_view(html, detect_html(html), lambda text: span_counter_for(cl100k, text), "text")
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


def test_text_mode_keeps_the_indentation_of_preformatted_text(cl100k):
    code = "def f(x):\n    if x:\n        return 1\n\n\n    return 2"
    html = f"<p>Code:</p>\n<pre>\n{code}\n</pre>\n<p>After   it.</p><listing>a\n  b</listing>"
    assert extract_text(html) == f"Code:\n{code}\nAfter it.\na\n  b"
    assert extract_text("<pre>  a<br>\tb <b> c</b>\n  </pre>x") == "a\n\tb  c\nx"  # ends trimmed
    # a chunk that starts inside the block keeps the indentation of the lines it holds
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=12, output="text").split(html)
    assert_text_chunks(html, chunks, cl100k, 12)
    assert html.index("<pre>") < chunks[1].start_pos and "return 1\n\n\n    return 2" in chunks[1].text


def test_text_mode_shows_a_formula_once_without_its_annotations():
    formula = "<mrow><msup><mi>e</mi><mi>x</mi></msup><mo>=</mo><mn>1</mn></mrow>"
    annotated = (
        f"<p>So <math><semantics>{formula}<annotation encoding='application/x-tex'>e^x=1</annotation>"
        "<annotation-xml encoding='MathML-Content'><apply><eq/><ci>q</ci></apply></annotation-xml>"
        "</semantics></math> holds.</p>"
    )
    plain = f"<p>So <math>{formula}</math> holds.</p>"
    assert extract_text(annotated) == extract_text(plain) == "So ex=1 holds."
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=64, output="text").split(annotated)
    assert [c.text for c in chunks] == ["So ex=1 holds."]
    source = OutlineTextSplitter(doc_type="html", chunk_size=64).split(annotated)
    assert "".join(c.text for c in source) == annotated  # the source mode keeps all of it


def test_html_mode_never_cuts_inside_a_tag(cl100k):
    # a paragraph with few spaces outside its tags: the word level must not use theirs
    links = "".join(f'<a href="/p{i}" title="see page {i} here" class="x y">{i}</a>,' for i in range(30))
    html = f"<p>Pages: {links} end.</p>"
    for overlap in (0, 6):
        chunks = OutlineTextSplitter(doc_type="html", chunk_size=24, chunk_overlap=overlap).split(html)
        assert_source_chunks(html, chunks, cl100k, 24, overlap)
        tag_spans = [(start, end) for _, start, end, _ in scan(html)]
        for chunk in chunks:
            for position in (chunk.start_pos, chunk.end_pos):
                assert not any(a < position < b for a, b in tag_spans), f"cut inside a tag at {position}"
            for shared in (chunk.start_overlap, chunk.end_overlap):
                assert shared.count("<") == shared.count(">"), f"overlap {shared!r} holds part of a tag"


@pytest.mark.parametrize("size", [1, 2, 3, 4, 8])
def test_text_mode_cuts_unknown_entities_like_other_text(cl100k, size):
    # `&bogus;` is kept as written (5 tokens), `&notit;` reads as the legacy `&not` and
    # a literal "it;": neither may be an atom a budget cannot cut (issue 16)
    html = "<p>&bogus;</p><p>x&bogus;y &notit; &zzzzzzzzzzzzzzzzzzzzzzzzzz; &amp;lt;</p>"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=size, output="text").split(html)
    assert_text_chunks(html, chunks, cl100k, size)
    assert "\n".join(c.text for c in chunks).replace("\n", "").replace(" ", "") == (
        "&bogus;x&bogus;y¬it;&zzzzzzzzzzzzzzzzzzzzzzzzzz;&lt;"
    )


def test_text_mode_reads_entities_as_the_html_parser_does():
    for html in ["&bogus;", "&notit;", "&amp;", "&ampx;", "&#65;&#x42", "&semi;", "&NotEqualTilde;x", "&zz"]:
        assert extract_text(html) == unescape(html)
        extracted = ExtractedText(html)  # what is left as written maps to itself, character by character
        for lo in range(len(extracted.text)):
            start, end = extracted.source_span(lo, lo + 1)
            mapped = zip(extracted.text, extracted.starts, strict=True)
            assert extract_text(html[start:end]) == "".join(c for c, at in mapped if start <= at < end), (html, lo)
    assert list(ExtractedText("&bogus;").starts) == list(range(7))
    assert list(ExtractedText("&notit;").starts) == [0, 4, 5, 6]


_WHITE_SPACE_PIECES = [
    *(" ", "\t", "\n", "\r", "\f", "\r\n", "\xa0", "x"),
    *("<p>", "</p>", "<pre>", "</pre>", "<br>", "<b>", "</b>"),
]


@given(
    pieces=st.lists(st.tuples(st.sampled_from(_WHITE_SPACE_PIECES), st.sampled_from([1, 2, 5, 9, 12, 30])), max_size=30)
)
@example(pieces=[("x", 1), ("\r", 1), (" ", 12), ("\n", 1), ("<p>", 1)])
def test_long_white_space_runs_fold_as_written(pieces):
    # the extraction puts a long run between tags in as five characters (`_short_blank`):
    # text and offsets must be those of folding the run as written
    html = "".join(piece * times for piece, times in pieces)
    shortened = ExtractedText(html)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html_text, "_SHORT_BLANK", len(html) + 1)
        as_written = ExtractedText(html)
    assert (shortened.text, list(shortened.starts)) == (as_written.text, list(as_written.starts))


@given(text=st.text(alphabet=" \t\n\r\f\x00ab", max_size=40))
@example(text=" a")
@example(text="a  b\tc \n")
def test_the_runs_folding_reads_are_white_space_but_one_space_alone(text):
    # `_FOLD` finds its runs with lookbehinds (one space alone turned down once read):
    # the runs must be those of the plain definition, two or more white-space characters
    # or one that is not a space, at the string's start too
    plain = re.compile(r"([ \t\n\r\f\x00]{2,}|[\t\n\r\f\x00])")
    assert html_text._FOLD.split(text) == plain.split(text)


def test_the_caches_of_folded_runs_keep_short_runs_and_so_many():
    # the folds of the runs between tags are kept across pages: never a long run, nor
    # more than so many (a page of long, all different runs would grow them without end)
    def blank(number: int) -> str:  # a different short run for each number (its digits in base 4)
        digits = ""
        while number:
            number, digit = divmod(number, 4)
            digits += " \t\n\f"[digit]
        return digits

    html = "".join(
        f"<p>{i}</p>{blank(i)}<br><b>a</b>{' ' * (i % 97)}\n<div>b{'<br> ' * (i % 50)}</div>" for i in range(6_000)
    )
    ExtractedText(html)
    for cache in (html_text._FOLDS, html_text._SHORTS):
        assert 0 < len(cache) <= html_text._FOLDS_KEPT
        assert max(map(len, cache)) <= html_text._FOLD_KEPT_UP_TO
    assert len(html_text._FOLDS) == html_text._FOLDS_KEPT  # (so many were seen)


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
