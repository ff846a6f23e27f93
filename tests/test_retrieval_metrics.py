"""The retrieval benchmark's scores (outline_splitter/bench/retrieval_metrics.py): by hand
on small spans, and against the figures Chroma's report published for its benchmark."""

from __future__ import annotations

import statistics

import pytest
from langchain_text_splitters import RecursiveCharacterTextSplitter

from outline_splitter.bench.questions import load_corpus, load_questions
from outline_splitter.bench.retrieval_metrics import (
    Placed,
    located,
    merged,
    precision_omega,
    retrieval_scores,
    without,
)
from outline_splitter.tokens import load_encoding
from tests.conftest import corpus_files

# The separators of the report's RecursiveTokenChunker (LangChain's recursive splitter with
# sentence ends added), its chunk size counted in cl100k_base tokens.
REPORT_SEPARATORS = ["\n\n", "\n", ".", "?", "!", " ", ""]


def test_spans_merge_and_subtract():
    assert merged([(5, 9), (0, 3), (3, 4), (8, 12)]) == [(0, 4), (5, 12)]
    assert without([(0, 10)], (3, 5)) == [(0, 3), (5, 10)]
    assert without([(0, 10), (20, 30)], (0, 25)) == [(25, 30)]


def test_scores_by_hand():
    references = [Placed("a", 10, 20), Placed("a", 40, 50)]
    retrieved = [Placed("a", 0, 15), Placed("b", 10, 20), Placed("a", 45, 60)]
    scores = retrieval_scores(references, retrieved)
    # found: 10-15 and 45-50 (10 characters) of the 20 wanted, in 15 + 10 + 15 held
    assert scores.recall == pytest.approx(10 / 20)
    assert scores.precision == pytest.approx(10 / 40)
    # union: the 40 held and the 10 missed (15-20, 40-45)
    assert scores.iou == pytest.approx(10 / 50)


def test_precision_omega_by_hand():
    references = [Placed("a", 10, 20)]
    chunks = [Placed("a", 0, 12), Placed("a", 12, 30), Placed("a", 30, 40), Placed("b", 0, 100)]
    # the two chunks meeting the reference hold all of it, in 30 characters
    assert precision_omega(references, chunks) == pytest.approx(10 / 30)
    # a reference no chunk holds: its text counts against the chunks
    assert precision_omega([Placed("a", 10, 20), Placed("a", 50, 60)], chunks) == pytest.approx(10 / 40)
    # a chunk that only touches a reference covers it (the report's rule)
    assert precision_omega([Placed("a", 30, 35)], [Placed("a", 20, 30), Placed("a", 30, 40)]) == pytest.approx(5 / 20)


def test_chunks_are_located_in_order():
    text = "ab ab ab cd"
    # overlapping chunks, and a repeated text found after the previous chunk's start
    spans = [(p.start, p.end) for p in located(text, ["ab ab", "ab ab", "ab cd"], "t")]
    assert spans == [(0, 5), (3, 8), (6, 11)]
    with pytest.raises(ValueError, match="chunk 1"):
        located(text, ["ab", "zz"], "t")


@pytest.fixture(scope="module")
def chroma_eval():
    folder = corpus_files("chroma-eval", "questions_df.csv")[0].parent
    questions = load_questions(folder / "questions_df.csv")
    return questions, load_corpus(folder, questions)


def _mean_omega(questions, chunks):
    return 100 * statistics.fmean(precision_omega(question.references, chunks) for question in questions)


def test_precision_omega_of_langchain_recursive_200_is_the_reports(chroma_eval):
    questions, texts = chroma_eval
    encoding = load_encoding("cl100k_base")
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=200,
        chunk_overlap=0,
        separators=REPORT_SEPARATORS,
        length_function=lambda text: len(encoding.encode_ordinary(text)),
    )
    chunks = [place for corpus, text in texts.items() for place in located(text, splitter.split_text(text), corpus)]
    assert len(questions) == 472
    assert _mean_omega(questions, chunks) == pytest.approx(29.9, abs=0.5)


def test_precision_omega_of_token_text_400_is_the_reports(chroma_eval):
    questions, texts = chroma_eval
    encoding = load_encoding("cl100k_base")
    chunks = []
    for corpus, text in texts.items():
        tokens = encoding.encode_ordinary(text)
        _, starts = encoding.decode_with_offsets(tokens)
        bounds = [*starts, len(text)]
        chunks += [Placed(corpus, bounds[i], bounds[min(i + 400, len(tokens))]) for i in range(0, len(tokens), 400)]
    assert _mean_omega(questions, chunks) == pytest.approx(12.5, abs=0.5)
