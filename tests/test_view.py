"""The split shown as a page (`outline_splitter.view`, `outline-splitter view`): the page
marks every chunk at exactly the offsets `split()` gives, flags real problems, and loads
in a real browser (headless Chromium) without errors into a picture that is not blank."""

from __future__ import annotations

import io
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.demo import SAMPLE
from outline_splitter.view import find_problems
from tests.browser import Browser, find_chromium
from tests.conftest import corpus_files
from tests.test_cli import run

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = "README.md"  # of the Markdown corpus (HTML blocks, lists, code, sections)
PYTHON = ROOT / "outline_splitter" / "splitter.py"
WEB_PAGE = "wikipedia-2.html"  # of the html-web corpus, shown in text mode


class _Marks(HTMLParser):
    """The text of the element with id `pane` and, for each element in it with a
    `data-index`, its attributes, where its text starts in the pane's and its text."""

    def __init__(self, pane: str) -> None:
        super().__init__(convert_charrefs=True)
        self.pane = pane
        self.depth = 0  # open elements inside the pane (0: outside)
        self.text: list[str] = []
        self.length = 0
        self.marks: list[dict[str, Any]] = []
        self.open: list[dict[str, Any] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if self.depth:
            self.depth += 1
            mark = None
            if "data-index" in attributes:
                mark = {**attributes, "offset": self.length, "text": []}
                self.marks.append(mark)
            self.open.append(mark)
        elif attributes.get("id") == self.pane:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
            if self.depth:
                self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)
            self.length += len(data)
            for mark in self.open:
                if mark is not None:
                    mark["text"].append(data)


def _marks(page: str, pane: str) -> tuple[str, list[dict[str, Any]]]:
    parser = _Marks(pane)
    parser.feed(page)
    return "".join(parser.text), parser.marks


def _check_source_marks(text: str, chunks: list[TextChunk], page: str) -> None:
    """The source pane reads as `text`, and its chunk marks sit at the chunks' offsets."""
    shown, marks = _marks(page, "source")
    assert shown == text
    leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
    assert len(marks) == len(leaves)
    for mark, chunk in zip(marks, leaves):
        assert (int(mark["data-start"]), int(mark["data-end"])) == (chunk.start_pos, chunk.end_pos)
        assert int(mark["data-tokens"]) == chunk.token_count
        assert mark["offset"] == chunk.start_pos
        assert "".join(mark["text"]) == text[chunk.start_pos : chunk.end_pos]


def test_the_page_marks_every_chunk_where_split_puts_it():
    text = "# Title\r\n\r\nFirst paragraph, <b>bold</b> & more.\n\n```\ncode\n```\n\n## Next\n\n- a\n- b\n" * 20
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=40, chunk_overlap=8)
    view = splitter.view(text, title="t.md")
    chunks = splitter.split(text)
    assert view.chunks == chunks and view.problems == []
    _check_source_marks(text, chunks, view.html)
    assert len(re.findall(r'class="chunk ', view.html)) == len(chunks) > 10


@pytest.mark.parametrize(
    ("doc_type", "text"),
    [
        ("text", "Plain words here. And more of them.\n\n" * 1000),  # several blocks
        ("html", "<h1>T</h1><p>One &amp; two.</p><script>x()</script><ul><li>a<li>b</ul>" * 100),
        ("python", "import os\n\n\ndef f(x):\n    return x  # one\n\n\nclass C:\n    y = 2\n" * 100),
    ],
)
def test_the_view_shows_the_chunks_split_gives(doc_type: str, text: str):
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=48, chunk_overlap=8)
    view = splitter.view(text)
    assert view.chunks == splitter.split(text) and len(view.chunks) > 5
    assert view.problems == []
    _check_source_marks(text, view.chunks, view.html)


def test_hierarchy_parents_have_an_element_each_and_leaves_stay_in_the_source():
    text = SAMPLE.read_text(encoding="utf-8")
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=96, hierarchy=True)
    view = splitter.view(text)
    parents = [c for c in view.chunks if c.metadata.get("role") == "parent"]
    assert parents and view.problems == []
    _check_source_marks(text, view.chunks, view.html)
    _, listed = _marks(view.html, "parents")
    assert [int(m["data-index"]) for m in listed] == [c.metadata["index"] for c in parents]


def test_the_page_is_self_contained():
    view = OutlineTextSplitter(chunk_size=64).view("# A\n\nSee <https://example.com/x.js>.\n" * 5)
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", view.html)
    assert "url(" not in view.html and "@import" not in view.html and "<script>" in view.html


def test_in_jupyter_the_page_shows_in_a_frame_of_its_own():
    view = OutlineTextSplitter(chunk_size=64).view("# A\n\nText & more.\n")
    frame = view._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "&amp;amp;" in frame  # escaped once for the attribute


def _problems(text: str, chunks: list[TextChunk], chunk_size: int = 64) -> list[tuple[str, int | None]]:
    counter = OutlineTextSplitter().tokenizer.count
    return [(p.kind, p.chunk) for p in find_problems(text, chunks, chunk_size, chunk_size, counter)]


def test_problems_are_found_where_they_are():
    text = "# A\n\nOne two three. Four five six.\n\n# B\n\nSeven eight nine.\n"
    chunks = OutlineTextSplitter(chunk_size=12).split(text)
    assert len(chunks) == 2 and _problems(text, chunks) == []
    assert _problems(text, chunks[1:]) == [("uncovered", None)]
    assert _problems(text, chunks, chunk_size=5) == [("over_budget", 0), ("over_budget", 1)]
    shifted = chunks[1].model_copy(update={"start_pos": chunks[1].start_pos + 1})
    assert _problems(text, [chunks[0], shifted]) == [("uncovered", None), ("bad_offsets", 1)]
    outside = chunks[1].model_copy(update={"end_pos": len(text) + 5})
    assert ("bad_offsets", 1) in _problems(text, [chunks[0], outside])
    miscounted = chunks[0].model_copy(update={"token_count": chunks[0].token_count + 1})
    assert _problems(text, [miscounted, chunks[1]]) == [("miscounted", 0)]
    overlapping = chunks[1].model_copy(update={"start_pos": 0, "text": text[: chunks[1].end_pos]})
    found = _problems(text, [chunks[0], overlapping], chunk_size=100)
    assert found == [("miscounted", 1), ("bad_offsets", 1)]  # its text is longer, and starts in chunk 0


def _cut_at(text: str, chunks: list[TextChunk], cut: int) -> list[TextChunk]:
    """`chunks` (one chunk) made two, cut at `cut`, with their true counts."""
    count = OutlineTextSplitter().tokenizer.count
    (whole,) = chunks
    first, second = text[whole.start_pos : cut], text[cut : whole.end_pos]
    return [
        whole.model_copy(update={"end_pos": cut, "text": first, "token_count": count(first)}),
        whole.model_copy(
            update={
                "start_pos": cut,
                "text": second,
                "token_count": count(second),
                "metadata": {**whole.metadata, "index": 1},
            }
        ),
    ]


def test_a_chunk_that_starts_or_ends_inside_a_tag_is_a_problem(monkeypatch: pytest.MonkeyPatch):
    from outline_splitter.detectors.html_scan import tag_spans

    html = '<p>One two. <a title="Three. Four" href="#x">five</a> six.</p>'
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=64)
    chunks = splitter.split(html)
    assert splitter.view(html).problems == []
    cut = _cut_at(html, chunks, html.index(" Four"))
    count = splitter.tokenizer.count
    found = find_problems(html, cut, 64, 64, count, tags=lambda: tag_spans(html))
    assert [(p.kind, p.chunk) for p in found] == [("cut_tag", 0), ("cut_tag", 1)]
    assert 'ends inside the tag \'<a title="Three. Four" href="#x">\' at [12, 45) (11 tokens)' in found[0].message
    assert find_problems(html, cut, 5, 64, count, tags=lambda: tag_spans(html))[0].kind == "over_budget"
    assert "cut_tag" not in {p.kind for p in find_problems(html, cut, 5, 64, count, tags=lambda: tag_spans(html))}
    # the page of a split asks the format for its tags in source mode
    monkeypatch.setattr(OutlineTextSplitter, "_split", lambda *args, **kwargs: cut)
    assert [p.kind for p in splitter.view(html).problems] == ["cut_tag", "cut_tag"]
    assert "2 problems" in splitter.view(html).summary()


def test_the_page_marks_text_in_no_chunk():
    text = "# A\n\nOne two three.\n\n# B\n\nSeven eight nine.\n"
    chunks = OutlineTextSplitter(chunk_size=8).split(text)
    counter = OutlineTextSplitter().tokenizer.count
    from outline_splitter.view import ViewOptions, render_page

    problems = find_problems(text, chunks[1:], 8, 8, counter)
    page = render_page(text, chunks[1:], None, problems, ViewOptions("markdown", 8, 8))
    gaps = re.findall(r'<span class="gap" data-start="(\d+)" data-end="(\d+)">', page)
    assert gaps == [("0", str(chunks[1].start_pos))]
    assert "1 uncovered" in page


def test_the_command_writes_the_page(tmp_path: Path):
    source = tmp_path / "doc.md"
    source.write_text("# A\n\nOne. Two.\n\n# B\n\nThree.\n", encoding="utf-8")
    done = run("view", source, "--chunk-size", "8", "-o", tmp_path / "out.html")
    assert done.returncode == 0, done.stderr
    chunks = OutlineTextSplitter(chunk_size=8).split(source.read_text(encoding="utf-8"))
    assert len(chunks) > 1 and f"wrote {tmp_path / 'out.html'} ({len(chunks)} chunks, no problems" in done.stderr
    _check_source_marks(source.read_text(encoding="utf-8"), chunks, (tmp_path / "out.html").read_text(encoding="utf-8"))
    missing = run("view", tmp_path / "nothing.md")
    assert missing.returncode == 2 and "no such file" in missing.stderr


# -- in a real browser --------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium on PATH, and CI installs it (.ci/run)")
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium); the page tests need a real browser")
    with Browser(executable) as running:
        yield running


# Each mark in the pane: its attributes and where its text starts (in code points: the
# offsets split() gives count characters, JavaScript strings count UTF-16 units).
_READ_PANE = """
(() => {
  const pane = document.getElementById(PANE);
  const walker = document.createTreeWalker(pane, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  const marks = [];
  const text = [];
  let offset = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) { text.push(node.data); offset += [...node.data].length; }
    else if (node.dataset.index !== undefined) marks.push({
      cls: node.className, index: +node.dataset.index, start: +node.dataset.start, end: +node.dataset.end,
      tokens: +node.dataset.tokens, offset: offset, text: node.textContent});
  }
  return {text: text.join(''), marks: marks, chunks: document.querySelectorAll('.chunk').length};
})()
"""


def _open(browser: Browser, page: Path, shot: Path | None = None) -> None:
    browser.events.clear()
    browser.open(page)
    assert browser.errors() == []


def _not_blank(png: bytes) -> None:
    from PIL import Image, ImageStat

    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (browser_width := 1400, 900), browser_width
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # text, marks and panels, not one flat colour
    assert min(ImageStat.Stat(image.convert("L")).stddev) > 10


def _in_browser(browser: Browser, page: Path, text: str, chunks: list[TextChunk], text_mode: bool) -> None:
    _open(browser, page)
    pane = browser.evaluate(_READ_PANE.replace("PANE", "'source'"))
    assert pane["text"] == text
    leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
    assert pane["chunks"] == len(chunks)  # one chunk element per chunk
    assert len(pane["marks"]) == len(leaves)
    for mark, chunk in zip(pane["marks"], leaves):
        assert mark["index"] == chunk.metadata["index"]
        assert (mark["start"], mark["end"], mark["tokens"]) == (chunk.start_pos, chunk.end_pos, chunk.token_count)
        assert mark["offset"] == chunk.start_pos and mark["text"] == text[chunk.start_pos : chunk.end_pos]
    if text_mode:
        shown = browser.evaluate(
            "[...document.querySelectorAll('#text .chunk')].map(e => [+e.dataset.start, +e.dataset.end,"
            " e.querySelector('.txt').textContent])"
        )
        assert shown == [[c.start_pos, c.end_pos, c.text] for c in leaves]
    _not_blank(browser.screenshot())
    # the script works: selecting a chunk fills its details, its link leads to its source
    browser.evaluate(f"document.getElementById('c{leaves[3].metadata['index']}').click()")
    detail = browser.evaluate("document.getElementById('detail').textContent")
    assert f"Chunk #{leaves[3].metadata['index']}" in detail and f"{leaves[3].token_count} / " in detail
    if text_mode:
        browser.evaluate("document.querySelector('#c5 .srclink').click()")
        assert browser.evaluate("document.getElementById('source').hidden") is False
    assert browser.errors() == []


def test_a_markdown_file_in_the_browser(browser: Browser, tmp_path: Path):
    path = next(p for p in corpus_files("markdown") if p.name == MARKDOWN)
    page = tmp_path / "markdown.html"
    done = run("view", path, "--chunk-size", "128", "--overlap", "16", "-o", page)
    assert done.returncode == 0, done.stderr
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=128, chunk_overlap=16)
    text = path.read_text(encoding="utf-8")
    _in_browser(browser, page, text, splitter.split(text, document_id=str(path)), text_mode=False)


def test_a_python_file_in_the_browser(browser: Browser, tmp_path: Path):
    text = PYTHON.read_text(encoding="utf-8")
    splitter = OutlineTextSplitter(doc_type="python", chunk_size=128, chunk_overlap=24)
    page = splitter.view(text, title=PYTHON.name).save(tmp_path / "python.html")
    _in_browser(browser, page, text, splitter.split(text), text_mode=False)


def test_parent_chunks_in_the_browser(browser: Browser, tmp_path: Path):
    text = SAMPLE.read_text(encoding="utf-8")
    page = tmp_path / "sample.html"
    done = run("view", SAMPLE, "--chunk-size", "64", "--hierarchy", "--chunk-overlap", "8", "-o", page)
    assert done.returncode == 0, done.stderr
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64, hierarchy=True, chunk_overlap=8)
    chunks = splitter.split(text, document_id=str(SAMPLE))
    _in_browser(browser, page, text, chunks, text_mode=False)
    parents = browser.evaluate(
        "[...document.querySelectorAll('#parents .chunk')].map(e => [+e.dataset.start, +e.dataset.end])"
    )
    assert parents == [[c.start_pos, c.end_pos] for c in chunks if c.metadata.get("role") == "parent"] != []
    leaf = next(c for c in chunks if c.metadata.get("parent_id"))
    browser.evaluate(f"document.getElementById('c{leaf.metadata['index']}').click()")
    assert "parent#" in browser.evaluate("document.getElementById('detail').textContent")


def test_a_web_page_in_text_mode_in_the_browser(browser: Browser, tmp_path: Path):
    path = next(p for p in corpus_files("html-web") if p.name == WEB_PAGE)
    page = tmp_path / "web.html"
    done = run("view", path, "--chunk-size", "256", "--html-output", "text", "-o", page)
    assert done.returncode == 0, done.stderr
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=256, output="text")
    text = path.read_text(encoding="utf-8")
    _in_browser(browser, page, text, splitter.split(text, document_id=str(path)), text_mode=True)


def test_what_content_leaves_out_is_shown_as_left_out_not_as_a_problem():
    article = "<article><h1>Title</h1>" + "<p>A sentence of the article, long enough to count.</p>" * 30 + "</article>"
    page = f"<html><body><nav><a href='/'>Home</a> <a href='/x'>Other page</a></nav>{article}</body></html>"
    view = OutlineTextSplitter(doc_type="html", chunk_size=64, content="main").view(page)
    assert view.chunks and {p.kind for p in view.problems} == {"left_out"}
    assert "Home" in view.problems[0].message and view.summary().endswith("no problems, 1 parts left out")
    assert len(view.problems) == 1  # the markup between and after the chunks shows nothing
    assert '<span class="gap left" data-start="0"' in view.html
    everything = OutlineTextSplitter(doc_type="html", chunk_size=64).view(page)
    assert everything.problems == [] and everything.summary() == f"{len(everything.chunks)} chunks, no problems"


def test_the_jupyter_frame_in_the_browser(browser: Browser, tmp_path: Path):
    """`_repr_html_`'s sandboxed frame shows the page and its script works there (a
    sandboxed document may not change its address: selecting a chunk must not throw)."""
    text = SAMPLE.read_text(encoding="utf-8")
    view = OutlineTextSplitter(chunk_size=96).view(text)
    notebook = tmp_path / "notebook.html"
    notebook.write_text(f"<!DOCTYPE html><html><body><h1>A cell</h1>{view._repr_html_()}</body></html>")
    frames = len(browser.frames)
    _open(browser, notebook)
    assert len(browser.frames) > frames  # the frame is a target of its own
    frame = browser.frames[-1]
    assert browser.evaluate("document.querySelectorAll('.chunk').length", frame=frame) == len(view.chunks)
    browser.evaluate("document.getElementById('c2').click()", frame=frame)
    assert "Chunk #2" in browser.evaluate("document.getElementById('detail').textContent", frame=frame)
    _not_blank(browser.screenshot())
    assert browser.errors() == []


def test_awkward_characters_keep_their_offsets_in_the_browser(browser: Browser, tmp_path: Path):
    """Carriage returns (which an HTML parser folds), astral characters (two UTF-16 units
    in the browser, one offset in Python), markup and entities as text, tabs, and a NUL
    (which the parser drops: shown as U+FFFD, one for one)."""
    paragraph = "Caf\u00e9 \U0001f600 <b>not bold</b> &amp; &lt;tag&gt;\tx\r\n"
    text = "# Title\r\n\r\n" + (paragraph * 3 + "\r\n") * 12 + "## Next\r\rOld Mac line\r\r\0end\n"
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=40)
    page = splitter.view(text).save(tmp_path / "awkward.html")
    chunks = splitter.split(text)
    assert len(chunks) > 5
    _in_browser(browser, page, text.replace("\0", "\ufffd"), chunks, text_mode=False)


@pytest.mark.parametrize("text", ["", "   \n", "x"])
def test_an_empty_or_tiny_text_makes_a_page(text: str):
    view = OutlineTextSplitter().view(text)
    assert view.problems == [] and len(view.chunks) == len(text.strip())
    _check_source_marks(text, view.chunks, view.html)


def test_a_split_repeated_to_fit_its_context_is_the_one_shown():
    text = "# A title\n\n" + "word " * 200
    splitter = OutlineTextSplitter(chunk_size=24, context_in_budget=True)
    view = splitter.view(text)
    assert view.chunks == splitter.split(text) and view.problems == []
