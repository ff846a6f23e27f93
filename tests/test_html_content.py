"""`content="main"` and the `include` / `exclude` selectors: what HTML chunks keep."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.cli import main as cli_main
from outline_splitter.detectors.html_text import extract_text
from tests.conftest import corpus_files

_WORD = re.compile(r"[^\W_]+")

ARTICLE = "A paragraph of the article, long enough to be prose, with a comma, and another one here."
PAGE = f"""<!doctype html><html><head><title>T</title></head><body>
<header><a href="/">Site name</a>
<nav><ul><li><a href="/a">Home link</a></li><li><a href="/b">About link</a></li></ul></nav></header>
<div class="cookie-banner">We use cookies to improve things.</div>
<main>
<h1>The headline</h1>
<p>{ARTICLE}</p>
<aside><p>A pull quote in an aside, dropped.</p></aside>
<div class="share-tools"><a href="/s">Share on social</a></div>
<p hidden>A hidden paragraph.</p>
<div aria-hidden="true">Icon text.</div>
<div style="color: red; display: none">Styled away.</div>
<form><label>Search the site</label><input></form>
<h2>Second part</h2>
<p>{ARTICLE.replace("article", "second part")}</p>
</main>
<footer><p>Copyright footer text.</p></footer>
</body></html>"""

DROPPED = ("Site name", "Home link", "cookies", "pull quote", "Share on", "hidden paragraph", "Icon text", "Styled",
           "Search the site", "Copyright")  # fmt: skip


def words(text: str) -> Counter[str]:
    """Lower-cased runs of letters and digits, counted."""
    return Counter(_WORD.findall(text.lower()))


@pytest.mark.parametrize("output", ["html", "text"])
@pytest.mark.parametrize("size", [16, 512])
def test_main_keeps_the_article_and_drops_the_furniture(cl100k, output, size):
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=size, output=output, content="main").split(PAGE)
    joined = " ".join(extract_text(chunk.text) if output == "html" else chunk.text for chunk in chunks)
    for kept in ("The headline", ARTICLE[:40], "Second part", "second part, long"):
        assert kept in joined
    for dropped in DROPPED:
        assert dropped not in joined
    main_start, main_end = PAGE.index("<main>"), PAGE.index("</main>") + len("</main>")
    cursor = 0
    for chunk in chunks:
        assert main_start <= chunk.start_pos < chunk.end_pos <= main_end
        assert chunk.start_pos >= cursor
        cursor = chunk.end_pos
        assert cl100k.count(chunk.text) == chunk.token_count <= size
        if output == "html":
            assert chunk.text == PAGE[chunk.start_pos : chunk.end_pos]
        else:
            assert chunk.text == extract_text(PAGE[chunk.start_pos : chunk.end_pos])
        for dropped in DROPPED:  # no chunk spans what was left out either
            assert dropped not in PAGE[chunk.start_pos : chunk.end_pos]


PLAYER_PAGE = f"""<html><body><main>
<h1>The headline</h1>
<p>{ARTICLE}</p>
<div class="media">
  <div class="frame"><video src="clip.mp4" poster="clip.jpg"></video></div>
  <div class="bar"><div class="cell"><span>Play Video</span></div><div class="cell">0:00 / 3:24</div>
  <div class="cell"><span>Fullscreen</span></div></div>
</div>
<div class="tools"><button type="button"><span>Tweet</span></button> <button type="button">Email</button></div>
<div class="row"><div role="toolbar"><a href="/p">Print</a> <a href="/s">Save</a></div></div>
<div class="tip" role="tooltip">Read Later</div>
<figure><video src="talk.mp4"></video><figcaption>The speaker on stage</figcaption></figure>
<p>{ARTICLE.replace("article", "second part")}</p>
<p><button type="button">Show the answer</button> The answer is in a paragraph of prose, kept whole.</p>
<div class="slide"><div>A caption of the photo, long enough to be prose.</div><button><span>Expand</span></button></div>
</main></body></html>"""


@pytest.mark.parametrize("output", ["html", "text"])
def test_main_drops_player_controls_and_buttons_without_a_word_list(output):
    """Chrome is known by structure, not by its words: a video or audio player without
    prose, an element whose text is all buttons' labels, a button between blocks, the
    roles of controls."""
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=24, output=output, content="main")
    chunks = splitter.split(PLAYER_PAGE)
    joined = " ".join(extract_text(chunk.text) if output == "html" else chunk.text for chunk in chunks)
    for dropped in ("Play Video", "0:00", "Fullscreen", "Tweet", "Email", "Print", "Save", "Read Later", "Expand"):
        assert dropped not in joined
    for kept in (
        "The headline",
        ARTICLE[:40],
        "second part, long",
        "The speaker on stage",
        "kept whole",
        "photo, long",
    ):
        assert kept in joined
    assert all(chunk.token_count > 2 for chunk in chunks)


def test_nothing_kept_is_lost():
    # every visible character of the main content outside the dropped parts is in a chunk
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=12, output="text", content="main").split(PAGE)
    got = words(" ".join(chunk.text for chunk in chunks))
    main = PAGE[PAGE.index("<main>") : PAGE.index("</main>")]
    for tag in ("aside", "form"):
        main = re.sub(rf"<{tag}>.*?</{tag}>", "", main, flags=re.S)
    main = re.sub(r"<(p|div)[^>]*(hidden|share|none)[^>]*>.*?</\1>", "", main, flags=re.S)
    assert got == words(extract_text(main))


def test_all_is_the_default_and_keeps_everything():
    default = OutlineTextSplitter(doc_type="html", output="text").split(PAGE)
    explicit = OutlineTextSplitter(doc_type="html", output="text", content="all").split(PAGE)
    assert [c.model_dump() for c in default] == [c.model_dump() for c in explicit]
    assert words(" ".join(c.text for c in default)) == words(extract_text(PAGE))


def test_without_main_or_article_the_densest_prose_wins():
    prose = " ".join(f"Sentence number {i} of the story, which goes on for a while." for i in range(12))
    page = f"""<html><body>
    <div id="sidebar"><ul>{"".join(f'<li><a href="/{i}">Link {i}</a></li>' for i in range(30))}</ul></div>
    <div class="story-body"><p>{prose}</p><p>{prose}</p><p>A short closing line.</p></div>
    <div class="links">{"".join(f'<a href="/{i}">Teaser {i}</a> ' for i in range(20))}</div>
    </body></html>"""
    chunks = OutlineTextSplitter(doc_type="html", output="text", content="main").split(page)
    text = " ".join(chunk.text for chunk in chunks)
    assert "Sentence number 11" in text and "A short closing line." in text
    assert "Link 3" not in text and "Teaser 4" not in text


def test_the_article_with_the_most_prose_is_the_main_one():
    story = " ".join(f"Line {i} of the real story, told at length." for i in range(20))
    page = f"""<body><main><article><p>Teaser, short.</p></article>
    <article><h1>Story</h1><p>{story}</p></article><article><p>Another teaser, short.</p></article></main></body>"""
    text = " ".join(c.text for c in OutlineTextSplitter(doc_type="html", output="text", content="main").split(page))
    assert "Line 19" in text and "Teaser" not in text


def test_include_and_exclude_selectors():
    include = OutlineTextSplitter(doc_type="html", output="text", include=["footer", ".cookie-banner"]).split(PAGE)
    assert [c.text for c in include] == ["We use cookies to improve things.", "Copyright footer text."]
    exclude = OutlineTextSplitter(doc_type="html", output="text", content="main", exclude=["h2 ~ p"]).split(PAGE)
    text = " ".join(c.text for c in exclude)
    assert "second part, long" not in text and "Second part" in text and ARTICLE in text
    everything_but = OutlineTextSplitter(doc_type="html", output="text", exclude=["header", "footer"]).split(PAGE)
    text = " ".join(c.text for c in everything_but)
    assert "Home link" not in text and "Copyright" not in text and "pull quote" in text


def test_bad_content_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="content"):
        OutlineTextSplitter(doc_type="html", content="article")
    with pytest.raises(ValueError, match="content"):
        OutlineTextSplitter(doc_type="markdown", content="main")
    with pytest.raises(ValueError, match="include"):
        OutlineTextSplitter(doc_type="html", include="main")
    with pytest.raises(ValueError, match="exclude"):
        OutlineTextSplitter(doc_type="html", exclude=["main >>> p"]).split(PAGE)
    # under "auto" content applies to the formats that can choose it, as on the command line
    # (SplitterOptions.for_format): this Python file is split whole, as source
    whole = OutlineTextSplitter(doc_type="auto").split_file(__file__)
    assert OutlineTextSplitter(doc_type="auto", content="main").split_file(__file__) == whole


def test_the_command_line_takes_content(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nSome notes.\n", encoding="utf-8")
    assert cli_main(["split", str(tmp_path), "--content", "main", "--output", "text", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "The headline" in out and "Home link" not in out and "Some notes." in out
    assert cli_main(["split", str(notes), "--doc-type", "markdown", "--content", "main"]) == 2
    assert "content" in capsys.readouterr().err


def corpus_figures(content: str) -> tuple[float, float]:
    """Over html-web: the share of the expected main-content words (html-web-expected,
    as a multiset) found in the chunks, and the share of the chunks' words that are
    expected words."""
    splitter = OutlineTextSplitter(doc_type="html", output="text", content=content)
    expected_total = chunk_total = shared = 0
    for path in corpus_files("html-web", "*.html"):
        expected_path = path.parent.parent / "html-web-expected" / path.name
        expected = words(extract_text(expected_path.read_text(encoding="utf-8")))
        got = words(" ".join(c.text for c in splitter.split(path.read_text(encoding="utf-8"))))
        expected_total += sum(expected.values())
        chunk_total += sum(got.values())
        shared += sum((expected & got).values())
    return shared / expected_total, shared / chunk_total


def test_main_content_of_real_pages_matches_readability():
    recall, precision = corpus_figures("main")
    assert recall >= 0.97 and precision >= 0.85, (recall, precision)
    recall_all, precision_all = corpus_figures("all")
    assert recall_all == 1.0 and precision_all < precision
