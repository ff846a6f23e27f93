"""`outline-splitter bench --retrieval` on a user's folder and questions, with a
deterministic embedding (nothing downloads), and the embedding cache."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from outline_splitter.bench import harness
from outline_splitter.bench.questions import load_corpus, load_questions
from outline_splitter.embeddings import HashedWords, embedder

TOPICS = {
    "volcano": "Volcanic eruptions push lava and magma and ash from the crater of the mountain. ",
    "bread": "Bakers knead dough with flour water yeast and salt before the oven bakes the bread. ",
    "orbit": "Satellites orbit the planet while the telescope tracks comets and distant galaxies. ",
}


@pytest.fixture
def folder(tmp_path):
    """Two files of paragraphs, each paragraph on one topic and over 140 tokens; the
    questions (CSV and JSONL) ask about one paragraph each."""
    documents = tmp_path / "docs"
    (documents / "notes").mkdir(parents=True)
    paragraphs = {topic: sentence * 12 for topic, sentence in TOPICS.items()}
    first = paragraphs["volcano"] + "\n\n" + paragraphs["bread"]
    (documents / "first.txt").write_text(first, encoding="utf-8")
    (documents / "notes" / "second.md").write_text(paragraphs["orbit"], encoding="utf-8")
    questions = [
        ("Which mountain crater erupts lava and magma?", "first", first.index("Volcanic"), len(paragraphs["volcano"])),
        ("What do bakers knead with flour and yeast?", "first", first.index("Bakers"), len(paragraphs["bread"])),
        ("What does the telescope track in orbit?", "notes/second", 0, len(paragraphs["orbit"])),
    ]
    rows = [
        {"question": q, "corpus_id": corpus, "references": [{"start_index": s, "end_index": s + n}]}
        for q, corpus, s, n in questions
    ]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    lines = ["question,references,corpus_id"]
    for row in rows:
        references = json.dumps(row["references"]).replace('"', '""')
        lines.append(f'"{row["question"]}","{references}",{row["corpus_id"]}')
    (tmp_path / "questions.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_csv_and_jsonl_questions_are_the_same(folder):
    from_csv = load_questions(folder / "questions.csv")
    assert from_csv == load_questions(folder / "questions.jsonl")
    texts = load_corpus(folder / "docs", from_csv)
    assert set(texts) == {"first", "notes/second"}
    named = [question.references[0].corpus for question in from_csv]
    assert named == ["first", "first", "notes/second"]
    assert texts["notes/second"].startswith("Satellites")


@pytest.mark.parametrize("questions", ["questions.csv", "questions.jsonl"])
def test_retrieval_on_a_users_folder(folder, questions, tmp_path):
    out = tmp_path / "out"
    argv = ["--retrieval", "--corpus", str(folder / "docs"), "--questions", str(folder / questions)]
    argv += ["--model", "hashed-words-256", "--splitters", "outline-splitter", "--top-k", "1", "--output-dir", str(out)]
    argv += ["--cache-dir", str(tmp_path / "vectors")]
    lines: list[str] = []
    parser = harness.argparse.ArgumentParser()
    harness.add_arguments(parser)
    assert harness.run(parser.parse_args(argv), lines.append) == 0
    rows = json.loads((out / "retrieval.json").read_text())["rows"]
    assert {row["splitter"] for row in rows} == {"outline-splitter", "outline-splitter overlap 12.5%"}
    plain = [row for row in rows if row["splitter"] == "outline-splitter"]
    assert [row["size"] for row in plain] == [140, 190, 260]
    # the one nearest chunk of each question is on its paragraph's topic, and cut inside it
    for row in plain:
        assert row["recall"] > 40 and row["precision"] > 95, row
        assert 0 < row["iou"] <= min(row["recall"], row["precision"]) and row["precision_omega"] > 90
    assert (out / "retrieval.md").read_text().count("| outline-splitter") == 6
    assert (tmp_path / "vectors").is_dir() and not (out / "embeddings").exists()
    # the plot needs matplotlib, which the bench extra installs (`make test` does not)
    assert (out / "retrieval.png").is_file() == (importlib.util.find_spec("matplotlib") is not None)


def test_corpus_and_questions_go_together(folder, tmp_path):
    parser = harness.argparse.ArgumentParser()
    harness.add_arguments(parser)
    lines: list[str] = []
    args = parser.parse_args(["--retrieval", "--corpus", str(folder / "docs"), "--output-dir", str(tmp_path)])
    assert harness.run(args, lines.append) == 2
    assert "--questions" in lines[-1]
    (folder / "bad.jsonl").write_text(
        json.dumps({"question": "q", "corpus_id": "missing", "references": [{"start_index": 0, "end_index": 1}]})
    )
    argv = ["--retrieval", "--corpus", str(folder / "docs"), "--questions", str(folder / "bad.jsonl")]
    argv += ["--model", "hashed-words-8", "--cache-dir", str(tmp_path / "vectors"), "--output-dir", str(tmp_path)]
    assert harness.run(parser.parse_args(argv), lines.append) == 2
    assert "'missing'" in lines[-1]


def test_a_question_without_spans_is_refused(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"question": "q", "corpus_id": "a", "references": []}) + "\n")
    with pytest.raises(ValueError, match="question 1"):
        load_questions(path)


def test_the_cache_keeps_vectors_by_model_and_text(tmp_path):
    seen: list[str] = []

    def model(texts: list[str]) -> np.ndarray:
        seen.extend(texts)
        return HashedWords(16)(texts)

    first = embedder(model, tmp_path)
    vectors = first(["a b", "c", "a b"])
    assert first.calls == 1 and first.texts == 2 and sorted(seen) == ["a b", "c"]
    again = embedder(model, tmp_path)
    assert np.array_equal(again(["c", "a b"]), vectors[[1, 0]])
    assert again.calls == 0 and len(seen) == 2
    # another model's vectors are its own
    other = embedder(HashedWords(16), tmp_path)
    other(["c"])
    assert other.calls == 1


def test_hashed_words_are_deterministic_unit_vectors():
    vectors = HashedWords(64)(["the cat sat", "the cat sat", ""])
    assert np.array_equal(vectors[0], vectors[1])
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0) and not vectors[2].any()
    with pytest.raises(ValueError, match="dimensions"):
        HashedWords(0)
