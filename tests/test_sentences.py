"""Sentence ends in any letter case and script, and the golden measure on plain text:
at most 2% of boundaries inside a sentence that fits, mean fill at least 0.75."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.plain_text import SentenceScore, score_sentences
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import FORMS, plain_texts
from outline_splitter.packing.sentences import _CANDIDATE, _ends, _word_before, sentences
from tests.conftest import corpus_files


def _parts(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentences(text, 0, len(text))]


def test_lower_case_sentences_end():
    assert _parts("the market fell. investors sold! why? nobody knows") == [
        "the market fell.",
        "investors sold!",
        "why?",
        "nobody knows",
    ]


def test_abbreviations_initials_decimals_and_ellipses_end_no_sentence():
    text = "Dr. Smith met J. R. R. Tolkien at 3.14 p.m. today, e.g. at home vs. abroad (Fig. 2) and then... we left."
    assert _parts(text) == [text]


def test_abbreviations_that_also_end_sentences_end_one_before_a_capital():
    assert _parts("We sell fruit etc. The shop opens at 9. apples etc. are cheap.") == [
        "We sell fruit etc.",
        "The shop opens at 9.",
        "apples etc. are cheap.",
    ]


def test_an_ellipsis_before_a_capital_ends_a_sentence():
    assert _parts("We waited… Then it rained.") == ["We waited…", "Then it rained."]


def test_cjk_sentences_end_without_white_space():
    assert _parts("这是第一句。这是第二句！这是第三句？「引用。」然后") == [
        "这是第一句。",
        "这是第二句！",
        "这是第三句？",
        "「引用。」",
        "然后",
    ]


def test_hindi_and_arabic_sentences_end():
    assert _parts("यह पहला वाक्य है। यह दूसरा है।") == ["यह पहला वाक्य है।", "यह दूसरा है।"]
    assert _parts("هل هذا سؤال؟ نعم هذا سؤال.") == ["هل هذا سؤال؟", "نعم هذا سؤال."]


def test_closing_quotes_brackets_tags_and_citations_stay_with_their_sentence():
    text = 'he said "go." then (twice.) <b>bold.</b> a fact.[61] more.[n 8] end'
    assert _parts(text) == ['he said "go."', "then (twice.)", "<b>bold.</b>", "a fact.[61]", "more.[n 8]", "end"]


@given(st.text(alphabet="ab .!?。\n", max_size=60))
def test_sentences_cover_the_text_in_order(text):
    spans = sentences(text, 0, len(text))
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a < b for a, b in spans) or text == ""
    assert all(previous[1] == following[0] for previous, following in pairwise(spans))


@given(st.text(alphabet="aZé.1² '", max_size=30), st.data())
def test_the_word_before_a_full_stop_is_the_letters_and_stops_just_before_it(text, data):
    # (letters as str.isalpha says: "²" is alphanumeric, no letter; at most 10 characters,
    # none before the span's start)
    first = data.draw(st.integers(0, len(text)))
    start = data.draw(st.integers(0, first))
    word_start, word = _word_before(text, first, start)
    bound = max(start, first - 10)
    assert bound <= word_start <= first and word == text[word_start:first]
    assert all(character.isalpha() or character == "." for character in word)
    assert word_start == bound or not (text[word_start - 1].isalpha() or text[word_start - 1] == ".")


def test_abbreviations_are_read_at_the_span_start_and_after_quotes():
    assert _parts("(Dr. Who) ends. Mr. X said no.") == ["(Dr. Who) ends.", "Mr. X said no."]
    text = "I met Dr. Smith. It rained."
    assert sentences(text, 7, len(text)) == [(7, 10), (10, 17), (17, 27)]  # from "r. Smith": "r" is no title


def test_a_lower_case_paragraph_is_cut_at_sentences(cl100k):
    text = " ".join(f"the index fell {i} points on friday as traders sold their shares." for i in range(40))
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=64).split(text)
    assert len(chunks) > 3
    assert all(chunk.text.endswith("shares.") for chunk in chunks)


def test_a_heading_never_takes_words_of_a_paragraph_of_one_sentence():
    text = "# Title\n\nFirst paragraph,\nover two lines.\n\n- one\n- two\n"
    chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=8).split(text)
    assert not any(chunk.text.endswith("over two") for chunk in chunks)


@pytest.mark.parametrize("budget", [256, 512])
@pytest.mark.parametrize("form", FORMS)
def test_plain_text_boundaries_fall_between_sentences(budget, form, cl100k):
    pages = corpus_files("html-web-expected", "*.html")  # (skips outside CI where it is missing)
    assert len(pages) > 40
    splitter = OutlineTextSplitter(doc_type="text", chunk_size=budget)
    score = SentenceScore()
    inside: list[str] = []
    for text in plain_texts(form, pages[0].parent):
        inside += score_sentences(text, splitter.split(text), cl100k.count, budget, score)
    assert score.boundaries > 150
    assert score.inside_rate <= 0.02, "\n".join(inside[:10])
    assert score.mean_fill >= 0.75


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("He served in the U.S. Army for years. Then he left.", 2),
        ("She moved to the U.S. The next year was hard.", 2),
        ("Talks at the U.N. Security Council went on. It ended.", 2),
        ("The U.K. government said no. He agreed.", 2),
    ],
)
def test_capital_initials_before_a_name_end_no_sentence(text, parts):
    assert len(sentences(text, 0, len(text))) == parts


# Words (short and long, abbreviations in any letter case, dotted, with characters that
# `str.isalpha` and `\\w` read differently: "²"; that lower-case to ASCII: the Kelvin
# sign; that match an ASCII letter in any case but are none: the long s, the dotted
# capital I), what goes before them, and candidate ends.
_WORDS = ["a", "Z", "é", "Mr", "mR", "ST", "etc", "Fig", "approx", "Abcdefg", "x.abcdefgh", "e.g", "U.S", "ab²st"]
_WORDS += ["\u212ao", "\u017ft", "\u0130e", "1", "words"]
_PIECES = st.one_of(
    st.sampled_from(_WORDS), st.sampled_from([" ", "\n", "(", '"', ". ", ".", "… ", "! ", ".. ", ".\n"])
)


@settings(max_examples=500)
@example("x Mr. Smith. a ²st. b abcd²st. c x.abcdefgh. d \u017ft. A", 0)
@example("AbcdefgST. a", 7)
@given(st.lists(_PIECES, max_size=30).map("".join), st.integers(0, 60))
def test_the_candidates_the_pattern_vouches_for_are_the_ends_that_ends_reads(text, start):
    # the lookbehinds that spare most candidates `_ends` pick no end that it would not
    # (near the span's start too, where a word may begin before it)
    for source, first in ((text, min(start, len(text))), ("Lead text " + text, 0)):
        expected = [match.end() for match in _CANDIDATE.finditer(source, first) if _ends(source, match, first)]
        if not expected or expected[-1] < len(source):
            expected.append(len(source))
        assert sentences(source, first, len(source)) == list(zip([first, *expected], expected))
