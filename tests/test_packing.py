"""Packing rules, each on a small document whose right answer is plain."""

from __future__ import annotations

import itertools
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.kinds import GAP
from outline_splitter.nodes import Node
from outline_splitter.packing.atoms import Atom, Piece, TrimmedNode, WholeNode
from outline_splitter.packing.leaf import _last_fitting, lines
from outline_splitter.packing.view import SourceView
from outline_splitter.tokens import span_counter_for
from tests.invariants import assert_source_chunks

STEPS = "## Steps\n\n" + "".join(f"{i}. Do the step number {i} with care.\n" for i in range(1, 9))


def chunk_of(chunks, needle):
    return next(c for c in chunks if needle in c.text)


def test_a_list_that_fits_is_never_cut(cl100k):
    intro = "# Guide\n\n" + "Some words to fill the first part of the budget. " * 6 + "\n\n"
    text = intro + STEPS + "\nAfter the list.\n"
    list_tokens = cl100k.count(STEPS)
    chunks = OutlineTextSplitter(chunk_size=list_tokens + 4).split(text)
    assert_source_chunks(text, chunks, cl100k, list_tokens + 4)
    holder = chunk_of(chunks, "1. Do the step")
    assert "8. Do the step" in holder.text and "## Steps" in holder.text


def test_an_oversized_list_is_cut_between_items_and_starts_a_chunk(cl100k):
    text = "Lead paragraph.\n\n" + STEPS
    size = cl100k.count(STEPS) // 2 + 2
    chunks = OutlineTextSplitter(chunk_size=size).split(text)
    assert_source_chunks(text, chunks, cl100k, size)
    assert chunks[0].text == "Lead paragraph."  # the broken section begins its own chunk
    for chunk in chunks[1:]:
        assert chunk.text.splitlines()[-1].endswith("with care."), "a list item was cut"


def test_a_heading_is_never_left_at_the_end_of_a_chunk(cl100k):
    body = "This sentence is the body of a section. " * 5
    text = "".join(f"## Part {i}\n\n{body}\n\n" for i in range(6))
    for size in (40, 60, 90, 130):
        chunks = OutlineTextSplitter(chunk_size=size).split(text)
        assert_source_chunks(text, chunks, cl100k, size)
        for chunk in chunks[:-1]:
            assert not chunk.text.splitlines()[-1].startswith("## "), (size, chunk.text)


def test_a_heading_takes_the_first_sentences_of_a_paragraph_too_big_to_join(cl100k):
    text = "## Title\n\n" + " ".join(f"Sentence number {i} is here." for i in range(12))
    size = cl100k.count(text) - 5
    chunks = OutlineTextSplitter(chunk_size=size).split(text)
    assert_source_chunks(text, chunks, cl100k, size)
    assert chunks[0].text.startswith("## Title\n\nSentence number 0")
    assert all(c.text.endswith("is here.") for c in chunks)


def test_a_long_paragraph_is_cut_at_sentences_then_words_then_tokens(cl100k):
    sentences = " ".join(f"Sentence {i} has a few plain words." for i in range(30))
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=25).split(sentences)
    assert_source_chunks(sentences, chunks, cl100k, 25)
    assert all(c.text.endswith("words.") for c in chunks)

    long_sentence = "word " * 200
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=10).split(long_sentence)
    assert_source_chunks(long_sentence, chunks, cl100k, 10)
    assert all(c.text.startswith("word") and c.text.endswith("word") for c in chunks)

    one_word = "x" * 3000
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=16).split(one_word)
    assert_source_chunks(one_word, chunks, cl100k, 16)
    assert "".join(c.text for c in chunks) == one_word


def test_code_fences_are_cut_at_lines(cl100k):
    code = "```python\n" + "".join(f"value_{i} = compute({i}, 'text')\n" for i in range(60)) + "```\n"
    chunks = OutlineTextSplitter(chunk_size=60).split(code)
    assert_source_chunks(code, chunks, cl100k, 60)
    for chunk in chunks:
        for line in chunk.text.splitlines():
            assert line.startswith(("```", "value_")) and (line.endswith("')") or line.startswith("```"))


def test_never_break_within_keeps_a_node_whole_up_to_the_cap(cl100k):
    code = "```\n" + "".join(f"line {i}\n" for i in range(40)) + "```\n"
    text = "Intro.\n\n" + code
    tokens = cl100k.count(code.strip())
    kept = OutlineTextSplitter(chunk_size=tokens // 2, max_chunk_size=tokens, never_break_within=["code"]).split(text)
    assert code.strip() in [c.text for c in kept]
    assert max(c.token_count for c in kept) == tokens
    capped = OutlineTextSplitter(chunk_size=tokens // 2, max_chunk_size=tokens - 1, never_break_within=["code"])
    chunks = capped.split(text)
    assert_source_chunks(text, chunks, cl100k, tokens // 2)


def test_min_chunk_size_joins_small_chunks(cl100k):
    text = "# A\n\n" + "Long text in section A. " * 12 + "\n\nTiny.\n\n# B\n\nOther.\n"
    plain = OutlineTextSplitter(chunk_size=60).split(text)
    merged = OutlineTextSplitter(chunk_size=60, min_chunk_size=20).split(text)
    assert_source_chunks(text, merged, cl100k, 60)
    assert len(merged) <= len(plain)
    assert all(chunk.token_count >= 20 for chunk in merged)  # "# B Other." joins A's tail: no join stays
    # with hierarchy=True a join never crosses sections (it would put B's start in A's leaves)
    text = "# A\n\n" + "Long text in section A. " * 14 + "\n\nTiny.\n\n# B\n\nOther.\n"
    layered = OutlineTextSplitter(chunk_size=64, min_chunk_size=20, hierarchy=True).split(text)
    assert layered[-1].metadata["heading_path"] == ["B"] and layered[-1].token_count < 20


def test_overlap_records_neighbours_without_changing_text(cl100k):
    text = " ".join(f"Sentence {i} talks about something." for i in range(40))
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=30, chunk_overlap=8).split(text)
    assert_source_chunks(text, chunks, cl100k, 30, overlap=8)
    assert chunks[0].start_overlap == "" and chunks[-1].end_overlap == ""
    for before, after in itertools.pairwise(chunks):
        assert after.start_overlap and before.text.endswith(after.start_overlap)
        assert before.end_overlap and after.text.startswith(before.end_overlap)
        assert cl100k.count(after.start_overlap) <= 8 and cl100k.count(before.end_overlap) <= 8


def test_overlap_never_starts_inside_a_code_fence(cl100k):
    fence = "```\n" + "".join(f"call_{i}()\n" for i in range(12)) + "```"
    text = "Intro sentence here.\n\n" + fence + "\n\n" + "Closing words follow here. " * 20
    chunks = OutlineTextSplitter(chunk_size=70, chunk_overlap=20).split(text)
    assert_source_chunks(text, chunks, cl100k, 70, overlap=20)
    fence_start, fence_end = text.index("```"), text.index("```", 5) + 3
    for before, after in itertools.pairwise(chunks):
        if after.start_overlap:
            overlap_start = before.end_pos - len(after.start_overlap)
            assert not fence_start < overlap_start < fence_end


@pytest.mark.parametrize("doc_type", ["markdown", "text"])
def test_same_input_same_output(doc_type):
    text = (STEPS + "Some closing prose. " * 30) * 3
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=50, chunk_overlap=5)
    assert [c.model_dump() for c in splitter.split(text)] == [c.model_dump() for c in splitter.split(text)]


def test_sentences_end_after_closing_quotes_brackets_and_tags():
    from outline_splitter.packing.sentences import sentences

    text = 'He said "Go." Then (twice.) <b>Bold end.</b> <a href="x">Link</a> starts. e.g. this stays.'
    parts = [text[a:b].strip() for a, b in sentences(text, 0, len(text))]
    assert parts == [
        'He said "Go."',
        "Then (twice.)",
        "<b>Bold end.</b>",
        '<a href="x">Link</a> starts.',
        "e.g. this stays.",
    ]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab \r\n", max_size=40), data=st.data())
def test_lines_end_after_each_line_feed_crlf_or_lone_carriage_return(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    if start == end:
        return
    ends = [
        p
        for p in range(start + 1, end + 1)
        if text[p - 1] == "\n" or (text[p - 1] == "\r" and (p == end or text[p] != "\n"))
    ]
    if not ends or ends[-1] != end:
        ends.append(end)
    assert lines(text, start, end) == list(zip([start, *ends], ends))


class _CharView:
    """A view counting characters, whose `reach` may be honest, absent or misleading."""

    def __init__(self, source: str, reach: str) -> None:
        self.source = source
        self.mode = reach

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        return end - start

    def reach(self, start: int, tokens: int) -> int | None:
        if self.mode == "none":
            return None
        if self.mode == "lying":
            return len(self.source)  # claims everything fits
        return min(len(self.source), start + max(tokens, 0))


@pytest.mark.parametrize("reach", ["honest", "none", "lying"])
@settings(max_examples=100, deadline=None)
@given(lengths=st.lists(st.integers(1, 9), min_size=1, max_size=30), limit=st.integers(1, 60))
def test_last_fitting_finds_the_longest_run_that_fits_whatever_the_estimate(reach, lengths, limit):
    ends = list(itertools.accumulate(lengths))
    view = _CharView("x" * ends[-1], reach)
    found = _last_fitting(view, 0, ends, 0, limit)
    fitting = [i for i, end in enumerate(ends) if end <= limit]
    if reach == "honest" and fitting:  # a close estimate stops short by the margin at most
        assert found in fitting and ends[fitting[-1]] - ends[found] < 8 + max(lengths)
    else:
        assert found == (fitting[-1] if fitting else -1)


def test_an_atom_of_a_whole_node_is_two_slots_and_reads_its_span_off_the_node():
    # a file of one-line functions has an atom per line, all alive at the peak of its split
    node = Node(GAP, 3, 9)
    whole, trimmed, piece = WholeNode(node, None), TrimmedNode(4, 8, node, None), Piece(4, 6, node, None)
    assert sys.getsizeof(whole) <= 48
    assert (whole.start, whole.end, trimmed.start, trimmed.end) == (3, 9, 4, 8)
    for atom in (whole, trimmed, piece):
        assert sys.getsizeof(atom) <= 64 and not hasattr(atom, "__dict__") and isinstance(atom, Atom)
    assert not whole.piece and not trimmed.piece and piece.piece


def test_a_view_without_its_counter_still_gives_text_and_trims(cl100k):
    text = "  Some words.  \n"
    view = SourceView(text, span_counter_for(cl100k, text))
    view.drop_counter()
    assert view.text(*view.trim(0, len(text))) == "Some words."
    assert view.reach(0, 10) is None and view.estimates([0, len(text)]) is None
    with pytest.raises(AttributeError):
        view.count(0, len(text))
