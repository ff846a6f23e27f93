"""Overlap everywhere there is text (issue 51): where no word break lies within
`chunk_overlap` tokens (a base64 or URL-encoded run, a long YAML value), the overlap is
cut at a character, as the chunk itself is, and keeps the budget exactly; a tag in an HTML
source is still never cut for it."""

from __future__ import annotations

import base64
import random
import re
import urllib.parse
from bisect import bisect_right
from collections.abc import Callable
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.tokens import TiktokenTokenizer
from tests.conftest import corpus_files

CL100K = TiktokenTokenizer.from_name("cl100k_base")

# one section each: every two neighbouring chunks may share text
DOCUMENTS: dict[str, Callable[[str], str]] = {
    "yaml": lambda run: f"name: demo\nimage: {run}\nafter: value\n",
    "text": lambda run: f"Intro words here.\n\n{run}\n\nOutro words.\n",
    "markdown": lambda run: f"# Doc\n\nIntro words here.\n\n{run}\n\nOutro words.\n",
}


def _base64(size: int) -> str:
    """A base64 run of `size` characters (of random bytes: no repeats for BPE to merge)."""
    rng = random.Random(size)
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(size * 3 // 4))).decode()[:size]


def _url_encoded(size: int) -> str:
    """A URL-encoded script of `size` characters, as a `javascript:` link or a data URI holds."""
    script = "".join(f"function f{i}(a, b) {{ return a + b * {i}; }}\n" for i in range(size // 20 + 1))
    return urllib.parse.quote(script)[:size]


def assert_overlap_everywhere(chunks: list[TextChunk], chunk_size: int, overlap: int) -> None:
    """Every two neighbours share text both ways, within `overlap` tokens of the real
    tokenizer; every chunk within `chunk_size`, its count exact."""
    assert len(chunks) > 2
    for chunk in chunks:
        assert chunk.token_count == CL100K.count(chunk.text) <= chunk_size
    for n, (before, after) in enumerate(pairwise(chunks)):
        assert after.start_overlap and before.end_overlap, f"chunks {n} and {n + 1} share nothing"
        assert before.text.endswith(after.start_overlap) and after.text.startswith(before.end_overlap)
        assert CL100K.count(after.start_overlap) <= overlap and CL100K.count(before.end_overlap) <= overlap


@pytest.mark.parametrize("run", [_base64, _url_encoded], ids=["base64", "url-encoded"])
@pytest.mark.parametrize(("chunk_size", "overlap"), [(64, 16), (128, 32), (256, 64), (128, 1)])
@pytest.mark.parametrize("doc_type", DOCUMENTS)
def test_an_overlap_inside_a_long_run_is_cut_at_a_character(doc_type, chunk_size, overlap, run):
    text = DOCUMENTS[doc_type](run(18_000))
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size, chunk_overlap=overlap).split(text)
    assert_overlap_everywhere(chunks, chunk_size, overlap)
    # the longest tail that fits: a character more would pass the budget (or the run's start)
    for before, after in pairwise(chunks):
        longer = before.text[-len(after.start_overlap) - 1 :]
        assert CL100K.count(longer) > overlap or longer[0].isspace() or longer == before.text


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(DOCUMENTS)),
    st.text(
        st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=%"),
        min_size=300,
        max_size=3000,
    ),
    st.sampled_from([32, 64, 96]),
    st.data(),
)
def test_runs_without_word_breaks_always_overlap(doc_type, run, chunk_size, data):
    overlap = data.draw(st.integers(1, chunk_size - 1), label="chunk_overlap")
    text = DOCUMENTS[doc_type]("A" + run)  # (a plain YAML scalar starts with a letter)
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size, chunk_overlap=overlap).split(text)
    if len(chunks) > 2:
        assert_overlap_everywhere(chunks, chunk_size, overlap)


_TAG = re.compile(r"<[^<>]*>")  # a tag as the HTML source view reads one (a word of its own)


def _cuts_a_held_tag(tags: list[tuple[int, int]], position: int, low: int, high: int) -> bool:
    """Whether `position` lies inside one of `tags` that lies whole in `[low, high)`."""
    i = bisect_right(tags, (position, position)) - 1
    return i >= 0 and tags[i][0] < position < tags[i][1] and low <= tags[i][0] and tags[i][1] <= high


def test_no_overlap_cuts_a_tag_its_chunk_holds_whole():
    """In an HTML source a tag is a word that shows nothing: an overlap is not cut inside
    one at a character (it is empty where such a tag leaves no word within reach), except
    inside a tag the chunk itself was cut in (one over the budget)."""
    checked = 0
    for path in corpus_files("html-web", "*.html")[::3]:
        html = path.read_text("utf-8")
        tags = [match.span() for match in _TAG.finditer(html)]
        chunks = OutlineTextSplitter(doc_type="html", chunk_size=128, chunk_overlap=32).split(html)
        for before, after in pairwise(chunks):
            if after.start_overlap:
                start = before.end_pos - len(after.start_overlap)
                assert not _cuts_a_held_tag(tags, start, before.start_pos, before.end_pos), after.start_overlap[:80]
            if before.end_overlap:
                end = after.start_pos + len(before.end_overlap)
                assert not _cuts_a_held_tag(tags, end, after.start_pos, after.end_pos), before.end_overlap[-80:]
            checked += 1
    assert checked > 1000
