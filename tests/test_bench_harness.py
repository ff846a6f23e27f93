"""The harness on a tiny hand-made corpus: figures add up over documents, and splitters
that are unavailable, fail or run too long become rows with the reason."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pytest

from outline_splitter.bench import harness
from outline_splitter.bench.corpora import SHARED_FOLDERS, Corpus, Document, missing_shared_corpora, shared_corpus
from outline_splitter.bench.harness import report, run_corpus
from outline_splitter.bench.peers import OUTLINE, PEERS, Peer

DOCS = (
    Document(Path("one.md"), "# One\n\nA first sentence. A second one.\n\n- a\n- b\n"),
    Document(Path("two.md"), "# Two\n\n```\ncode\n```\n\n| x | y |\n|---|---|\n| 1 | 2 |\n"),
)
OUTLINE_PEER = next(peer for peer in PEERS if peer.name == OUTLINE)


def by_paragraph(budget: int, doc_type: str, encoding: object):
    return lambda text: [part for part in text.split("\n\n") if part.strip()]


def test_figures_add_up_over_the_documents():
    corpus = Corpus("tiny", "markdown", DOCS)
    rows = run_corpus(corpus, [OUTLINE_PEER, Peer("paragraphs", None, by_paragraph)], [64], echo=lambda _: None)
    whole, paragraphs = rows
    assert whole.status == "ok" and whole.chunks == 2  # each document fits in one chunk
    assert whole.exact_spans == 2 and whole.over_budget == 0
    assert whole.kept_whole == {"list": [1, 1], "table": [1, 1], "fence": [1, 1]}
    assert whole.peak_mb is not None
    assert paragraphs.chunks == 6
    assert paragraphs.exact_spans == 6
    # "# One" and "# Two" each end a chunk whose body is in the next one
    assert paragraphs.heading_orphans == 2
    assert paragraphs.mid_sentence == [0, 4]  # two boundaries per document, none inside a sentence
    assert "| paragraphs | 64 |" in report(rows, [corpus])


def test_unavailable_failing_and_slow_splitters_become_rows_with_reasons():
    def fails(budget: int, doc_type: str, encoding: object):
        def split(text: str) -> list[str]:
            raise RuntimeError("boom")

        return split

    def slow(budget: int, doc_type: str, encoding: object):
        def split(text: str) -> list[str]:
            time.sleep(30)
            return [text]

        return split

    corpus = Corpus("tiny", "no-such-type", DOCS)
    peers = [OUTLINE_PEER, Peer("fails", None, fails), Peer("slow", None, slow)]
    rows = run_corpus(corpus, peers, [32, 64], memory=False, echo=lambda _: None, timeout=1.0)
    assert [(row.splitter, row.budget, row.status) for row in rows] == [
        (OUTLINE, 64, "skipped"),
        ("fails", 64, "failed"),
        ("slow", 64, "failed"),
    ]  # the largest budget runs first; the others are not tried after a failure
    assert rows[0].reason.startswith("doc type not available")
    assert "RuntimeError: boom" in rows[1].reason
    assert "timed out" in rows[2].reason


def test_the_time_is_the_best_of_the_repeated_passes_each_in_a_fresh_child(tmp_path):
    seen = tmp_path / "pids"

    def first_child_slow(budget: int, doc_type: str, encoding: object):
        def split(text: str) -> list[str]:
            import os

            pids = seen.read_text().split() if seen.exists() else []
            if str(os.getpid()) not in pids:
                seen.write_text(" ".join([*pids, str(os.getpid())]))
            if pids[:1] in ([], [str(os.getpid())]):
                time.sleep(0.3)  # the first child's passes are slow, the later children's are not
            return [text]

        return split

    corpus = Corpus("tiny", "markdown", DOCS)
    peer = Peer("first child slow", None, first_child_slow)
    (once,) = run_corpus(corpus, [peer], [64], memory=False, echo=lambda _: None, repeats=1)
    seen.unlink()
    (best,) = run_corpus(corpus, [peer], [64], memory=False, echo=lambda _: None, repeats=3)
    assert once.seconds >= 0.6 and best.seconds < 0.3
    assert len(seen.read_text().split()) == 3  # three children, so nothing cached carries over
    assert best.chunks == once.chunks == 2


def test_no_run_starts_after_the_deadline():
    corpus = Corpus("tiny", "markdown", DOCS)
    rows = run_corpus(corpus, [OUTLINE_PEER], [32, 64], memory=False, echo=lambda _: None, deadline=0.0)
    assert [(row.budget, row.status) for row in rows] == [(64, "skipped")]
    assert "time budget" in rows[0].reason


def test_the_default_corpora_have_plain_text_split_as_text(tmp_path):
    from outline_splitter.bench.corpora import FORMS, PLAIN_TEXT_CORPUS, PLAIN_TEXT_PAGES, default_corpora

    pages = tmp_path / PLAIN_TEXT_PAGES
    pages.mkdir()
    (pages / "b.html").write_text("<p>Second page.</p>", encoding="utf-8")
    (pages / "a.html").write_text("<h1>Title</h1><p>One. Two.</p><p>Three.</p>", encoding="utf-8")
    corpora = {corpus.name: corpus for corpus in default_corpora(tmp_path)}
    plain = corpora[PLAIN_TEXT_CORPUS]
    assert plain.doc_type == "text" and len(plain.documents) == 2 * len(FORMS)
    texts = [document.text for document in plain.documents]
    assert texts[0] == "Title\n\nOne. Two.\n\nThree." and texts[1] == "Second page."
    assert texts[len(FORMS) * 2 - 1] == "second page." and "\n" not in texts[3]
    assert PLAIN_TEXT_CORPUS not in {corpus.name for corpus in default_corpora(tmp_path / "none")}


def test_the_harness_names_the_shared_corpora_that_are_missing(tmp_path: Path, monkeypatch):
    assert missing_shared_corpora(tmp_path) == [tmp_path / folder for folder in SHARED_FOLDERS]
    (tmp_path / "markdown").mkdir()
    assert tmp_path / "markdown" not in missing_shared_corpora(tmp_path)
    monkeypatch.setattr(harness, "default_corpora", lambda: [Corpus("tiny", "markdown", DOCS)])
    monkeypatch.setattr(harness, "missing_shared_corpora", lambda: [tmp_path / "html-web"])
    parser = argparse.ArgumentParser()
    harness.add_arguments(parser)
    args = parser.parse_args(["--splitters", "outline-splitter", "--budgets", "64", "--no-memory"])
    args.output_dir = tmp_path / "out"
    said: list[str] = []
    assert harness.run(args, echo=said.append) == 0
    assert any(line.startswith(f"{tmp_path / 'html-web'} is not here") for line in said)
    assert (tmp_path / "out" / "latest.json").is_file()


def test_a_benchmark_of_one_shared_corpus_stops_with_a_message_where_it_is_missing(tmp_path: Path):
    (tmp_path / "markdown").mkdir()
    assert shared_corpus("markdown", tmp_path) == tmp_path / "markdown"
    with pytest.raises(SystemExit, match=r"html-web is not here"):
        shared_corpus("html-web", tmp_path)


def test_a_partial_scale_run_writes_nothing_tracked(tmp_path, monkeypatch, capsys):
    """`python -m benchmarks.scale --kinds ...` (how one measures one kind) leaves the tracked
    results and docs as they are: a partial table must not replace the whole one."""
    from benchmarks import scale

    results = tmp_path / "results"
    monkeypatch.setattr(scale, "RESULTS", results)
    monkeypatch.setattr(scale, "write_docs", lambda section: pytest.fail("docs/benchmarks.md rewritten"))
    assert scale.main(["--kinds", "no such kind", "--skip", "throughput", "stream"]) == 0
    assert not results.exists()
    assert "left as they are" in capsys.readouterr().out
