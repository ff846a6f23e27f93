"""HTML source mode never cuts a tag that fits the budget (docs/usage.md: "In the HTML
mode a tag is never cut"), whatever sentence ends, line breaks or white space its
attribute values hold; a tag over the budget alone is still cut.

The tags are found here by the standard library's `html.parser`, not by the detector's
scanner (`detectors/html_scan.py`), so that the check does not share its mistakes."""

from __future__ import annotations

from bisect import bisect_left
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.tokens import Tokenizer
from tests.conftest import corpus_files


class _TagSpans(HTMLParser):
    """The `[start, end)` offsets of every start, end and self-closing tag of a page, in
    order (`html.parser` reports a tag's line and column; the text of a start tag is its
    source, an end tag runs to the next `>`)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0, *(i + 1 for i, char in enumerate(text) if char == "\n")]
        self.spans: list[tuple[int, int]] = []
        self.feed(text)
        self.close()

    def _position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: object) -> None:
        start = self._position()
        self.spans.append((start, start + len(self.get_starttag_text() or "")))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        start = self._position()
        self.spans.append((start, self.text.index(">", start) + 1))


def _cut_tags(text: str, edges: list[int], tokenizer: Tokenizer, budget: int) -> list[str]:
    """Each of `edges` that falls strictly inside a tag of at most `budget` tokens, with
    the tag and the chunk edge marked in it."""
    spans = _TagSpans(text).spans
    starts = [start for start, _ in spans]
    found = []
    for edge in edges:
        i = bisect_left(starts, edge) - 1
        if i >= 0 and spans[i][0] < edge < spans[i][1]:
            start, end = spans[i]
            if tokenizer.count(text[start:end]) <= budget:
                found.append(f"{edge}: {text[start:edge]}|{text[edge:end]}")
    return found


def _edges(text: str, budget: int) -> list[int]:
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=budget).split(text)
    return [edge for chunk in chunks for edge in (chunk.start_pos, chunk.end_pos)]


def test_sentence_ends_in_attribute_values_are_no_place_to_cut(cl100k):
    html = (
        "<html><head>\n"
        + "".join(f'  <meta name="k{i}" content="The latest news, number {i}." />\n' for i in range(30))
        + "</head></html>"
    )
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=48).split(html)
    assert len(chunks) > 10
    assert not any(chunk.text.startswith("/>") for chunk in chunks)
    for chunk in chunks:  # whole tags: each chunk is its lines of tags
        assert chunk.text.count("<meta") == chunk.text.count("/>"), chunk.text
    assert _cut_tags(html, _edges(html, 48), cl100k, 48) == []


def test_a_tag_over_the_budget_alone_is_still_cut(cl100k):
    words = " ".join(f"word{i}." for i in range(200))
    html = f'<p>Before. <img alt="{words}" src="x.png"> After.</p>'
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=64).split(html)
    assert all(chunk.token_count <= 64 for chunk in chunks)
    tag_start = html.index("<img")
    tag_end = html.index(">", tag_start) + 1
    inside = [edge for chunk in chunks for edge in (chunk.start_pos, chunk.end_pos) if tag_start < edge < tag_end]
    assert inside, "the tag of some 600 tokens is cut"
    assert "".join(html[c.start_pos : c.end_pos] for c in chunks).replace(" ", "") == html.replace(" ", "")


def test_a_tag_with_angle_brackets_in_quotes_is_one_word(cl100k):
    """At the level of words a tag is one word, though a quoted value holds `>` or `<`."""
    html = "<p>" + " ".join(f'w{i} <a title="x > y. Z < w" href="#{i}">link {i}</a>' for i in range(60)) + "</p>"
    for budget in (12, 24, 40):
        assert _cut_tags(html, _edges(html, budget), cl100k, budget) == []


@pytest.mark.parametrize("budget", [128, 512])
def test_no_chunk_of_a_real_page_starts_or_ends_inside_a_tag_that_fits(cl100k, budget):
    cut = []
    for path in [*corpus_files("html-web", "*.html"), *corpus_files("html-spec", "*.html")]:
        text = path.read_text(encoding="utf-8")
        cut += [f"{path.name} {found}" for found in _cut_tags(text, _edges(text, budget), cl100k, budget)]
    assert cut == []


_SENTENCES = st.lists(
    st.sampled_from(
        ["The end.", "Really?", "Yes!", "e.g. this", "one", "two  words", "a\nline", "x.\n\ny", "…", "。", "1.5", "Dr."]
    ),
    min_size=1,
    max_size=8,
).map(" ".join)
_ATTRIBUTE = st.tuples(st.sampled_from(["title", "alt", "content", "data-note", "aria-label"]), _SENTENCES).map(
    lambda pair: f' {pair[0]}="{pair[1]}"'
)
_TAG = st.tuples(
    st.sampled_from(["a", "span", "img", "meta", "abbr", "em"]), st.lists(_ATTRIBUTE, min_size=1, max_size=3)
).map(lambda pair: f"<{pair[0]}{''.join(pair[1])}" + (" />" if pair[0] in ("img", "meta") else f">x</{pair[0]}>"))
_BLOCK = st.tuples(
    st.sampled_from(["p", "li", "pre", "div", "td", "head"]),
    st.lists(st.one_of(_TAG, _SENTENCES, st.just("\n")), min_size=1, max_size=12),
).map(lambda pair: f"<{pair[0]}>{' '.join(pair[1])}</{pair[0]}>\n")


@settings(max_examples=150, deadline=None)
@given(blocks=st.lists(_BLOCK, min_size=1, max_size=8), budget=st.integers(8, 64))
def test_no_generated_tag_that_fits_is_cut(cl100k, blocks, budget):
    html = "".join(blocks)
    assert _cut_tags(html, _edges(html, budget), cl100k, budget) == []


def test_the_tag_scanner_of_this_test_finds_every_tag():
    html = '<p class="a > b">One <br/> two</p><!-- <a href="x"> --><script>"<b>"</script>'
    spans = _TagSpans(html).spans
    assert [html[a:b] for a, b in spans] == ['<p class="a > b">', "<br/>", "</p>", "<script>", "</script>"]
