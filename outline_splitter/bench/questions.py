"""Questions with the exact text that answers them, for the retrieval benchmark.

The format is Chroma's chunking evaluation's (`questions_df.csv`): a `question`, its
`references` (a JSON list of `{"start_index", "end_index"}` character spans, `content`
optional) and the `corpus_id` of the file the spans point into. A CSV file holds one
question a row, with `references` as JSON text; a JSONL file (`.jsonl`) one JSON object a
line, with `references` a list. `corpus_id` (or `file`) names a file of the corpus folder
by its path under the folder, with or without its extension.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from outline_splitter.bench.retrieval_metrics import Placed


@dataclass(frozen=True)
class Question:
    """A question and the spans of the corpus that answer it."""

    text: str
    references: tuple[Placed, ...]


def load_questions(path: Path) -> list[Question]:
    """The questions of a CSV or JSONL file; a `ValueError` names the file and the row
    that is not a question with at least one span."""
    with path.open(encoding="utf-8", newline="") as file:
        if path.suffix.lower() == ".jsonl":
            rows: Iterable[Mapping[str, Any]] = [json.loads(line) for line in file if line.strip()]
        else:
            rows = list(csv.DictReader(file))
    questions = []
    for number, row in enumerate(rows, 1):
        try:
            questions.append(_question(row))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: question {number} is not a question with its references ({exc})") from None
    if not questions:
        raise ValueError(f"{path} holds no question")
    return questions


def _question(row: Mapping[str, Any]) -> Question:
    corpus = str(row.get("corpus_id") or row["file"])
    references = row["references"]
    if isinstance(references, str):
        references = json.loads(references)
    spans = tuple(Placed(corpus, int(span["start_index"]), int(span["end_index"])) for span in references)
    if not spans or any(not 0 <= span.start <= span.end for span in spans):
        raise ValueError("references must be spans with 0 <= start_index <= end_index")
    return Question(str(row["question"]), spans)


def load_corpus(folder: Path, questions: Iterable[Question]) -> dict[str, str]:
    """The text of each corpus the questions name, read from `folder`; a `ValueError`
    names a corpus with no file, or a span past its file's end."""
    texts: dict[str, str] = {}
    for question in questions:
        for span in question.references:
            if span.corpus not in texts:
                texts[span.corpus] = _corpus_file(folder, span.corpus).read_text(encoding="utf-8")
            if span.end > len(texts[span.corpus]):
                message = f"a reference of {question.text!r} ends at {span.end}, past the end of {span.corpus!r}"
                raise ValueError(message)
    return texts


def _corpus_file(folder: Path, corpus: str) -> Path:
    exact = folder / corpus
    if exact.is_file():
        return exact
    matches = sorted(path for path in exact.parent.glob(f"{Path(corpus).name}.*") if path.is_file())
    if len(matches) != 1:
        found = "no file" if not matches else f"{len(matches)} files"
        raise ValueError(f"corpus {corpus!r}: {found} named so in {folder}")
    return matches[0]
