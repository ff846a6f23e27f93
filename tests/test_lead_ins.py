"""Lead-ins stay with what they introduce: a paragraph ending in a colon, an HTML `dt`,
a caption. A golden measure over the Markdown and HTML specification corpora at 256 and
512 tokens: at most 1% of chunks end with a lead-in cut from its block where both fit."""

from __future__ import annotations

import pytest

from benchmarks.lead_ins import LeadInScore, corpus_cases, score_lead_ins
from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.markdown import detect_markdown
from outline_splitter.nodes import Trait
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks

FILLER = "Some opening prose that takes most of the budget of one chunk, word after word. " * 2


@pytest.mark.parametrize(
    "lead_in", ["The optional parameters are:", "**Optional parameters:**", "Run this: `cargo build`:"]
)
def test_a_paragraph_ending_in_a_colon_stays_with_the_code_after_it(lead_in, cl100k):
    text = f"{FILLER}\n\n{lead_in}\n\n```sh\nscarb build --release\nscarb test\n```\n"
    chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=48).split(text)
    assert_source_chunks(text, chunks, cl100k, 48)
    holder = next(c for c in chunks if lead_in in c.text)
    assert "scarb test" in holder.text


def test_only_a_paragraph_that_ends_with_a_colon_leads():
    text = "Note: this is a statement.\n\nThe steps:\n\n1. one\n2. and two:\n"
    paragraphs = [n for n in detect_markdown(text).expand_all().walk() if n.kind == "paragraph"]
    assert [Trait.LEADS in p.traits for p in paragraphs] == [False, True, False, True]


def test_an_html_definition_term_and_a_lead_in_paragraph_stay_with_what_follows(cl100k):
    term = "<dt>timeZone</dt>"
    definition = "<dd>The time zone to use, as an IANA name such as Europe/Paris or UTC.</dd>"
    html = f"<p>{FILLER}</p>\n<dl>\n{term}\n{definition}\n</dl>\n<p>The steps are taken:</p>\n<ol><li>one</li></ol>"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=40).split(html)
    assert_source_chunks(html, chunks, cl100k, 40)
    assert any(term in c.text and definition in c.text for c in chunks)
    assert any("taken:" in c.text and "<li>one" in c.text for c in chunks)


def test_a_plain_text_lead_in_stays_with_its_paragraph(cl100k):
    text = f"{FILLER}\n\nThe reasons are these:\n\nFirst, it is short. Second, it is plain.\n"
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=40).split(text)
    assert_source_chunks(text, chunks, cl100k, 40)
    assert chunks[-1].text.startswith("The reasons are these:")


@pytest.mark.parametrize("budget", [256, 512])
def test_lead_ins_are_not_cut_from_their_blocks_on_the_corpora(budget, cl100k):
    assert corpus_files("markdown", "*.md") and corpus_files("html-spec", "*.html")  # skip or fail if missing
    score = LeadInScore()
    cut: list[str] = []
    pairs_seen = 0
    for text, doc_type, pairs in corpus_cases():
        found = list(pairs(text))
        pairs_seen += len(found)
        chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=budget).split(text)
        cut += score_lead_ins(text, chunks, iter(found), cl100k.count, budget, score)
    assert pairs_seen > 500  # the corpora have what this measures
    assert score.cut_rate <= 0.01, "\n".join(cut[:10])
