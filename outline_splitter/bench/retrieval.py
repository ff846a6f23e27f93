"""`outline-splitter bench --retrieval` (`make bench-retrieval`): what each splitter does to
retrieval, on Chroma's chunking benchmark or on a user's folder and questions.

Each splitter setting (`retrieval_peers.CONTENDERS`) chunks every corpus at each of its
chunk sizes; every chunk and every question is embedded with the user's model (by
default all-MiniLM-L6-v2, offline, vectors cached on disk by model and text); each
question takes the `top_k` chunks (5, as the report) nearest by cosine similarity among
all the corpora's chunks, and is scored by `retrieval_metrics`: recall, precision and IoU
of what it took, precision_Ω of the chunks (model-free). The figures are means over the
questions, in percent, with the chunks' mean cl100k_base tokens, since the scores depend
on size first: compare rows of near-equal size. The table goes to the terminal and
`retrieval.md`, the rows to `retrieval.json`, and recall against IoU (one line per
splitter across its sizes) to `retrieval.png`, in `--output-dir`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from outline_splitter.bench.corpora import SHARED_CORPORA
from outline_splitter.bench.peers import Unavailable, quiet_peers
from outline_splitter.bench.questions import Question, load_corpus, load_questions
from outline_splitter.bench.retrieval_metrics import Placed, precision_omega, retrieval_scores
from outline_splitter.bench.retrieval_peers import CONTENDERS, Contender, SpanChunker
from outline_splitter.embeddings import MINILM, Embedder, embedder, unit_rows
from outline_splitter.tokens import load_encoding

CHROMA_EVAL = SHARED_CORPORA / "chroma-eval"
TOP_K = 5
# Vectors are kept across runs and output folders (a folder a model, a file a name).
RESULTS_CACHE = Path("bench-results") / "embeddings"
Echo = Callable[[str], None]


@dataclass(frozen=True)
class RetrievalRow:
    """One splitter setting at one chunk size: its chunks and its mean scores (percent)."""

    splitter: str
    size: int
    unit: str
    chunks: int
    mean_tokens: float
    recall: float
    precision: float
    precision_omega: float
    iou: float
    embed_seconds: float
    embedded: int


@dataclass(frozen=True)
class Benchmark:
    """The corpora (id -> text), the questions, their vectors and the model."""

    texts: dict[str, str]
    questions: list[Question]
    question_vectors: np.ndarray[Any, Any]
    embed: Embedder
    top_k: int = TOP_K


def benchmark(texts: dict[str, str], questions: list[Question], embed: Embedder, top_k: int = TOP_K) -> Benchmark:
    """The benchmark of these corpora and questions with this model (questions embedded once)."""
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, not {top_k}")
    vectors = unit_rows(embed([question.text for question in questions]))
    return Benchmark(texts, questions, vectors, embed, top_k)


def nearest(bench: Benchmark, chunk_vectors: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Each question's `top_k` chunks, nearest first (ties: the earlier chunk)."""
    similarity = bench.question_vectors @ unit_rows(chunk_vectors).T
    return np.argsort(-similarity, axis=1, kind="stable")[:, : bench.top_k]


def evaluate(bench: Benchmark, chunker: SpanChunker, name: str, size: int, unit: str = "tokens") -> RetrievalRow:
    """The row of one splitter setting: chunk, embed, retrieve, score."""
    chunks = [Placed(corpus, start, end) for corpus, text in bench.texts.items() for start, end in chunker(text)]
    texts = [bench.texts[chunk.corpus][chunk.start : chunk.end] for chunk in chunks]
    encoding = load_encoding("cl100k_base")
    tokens = [len(ids) for ids in encoding.encode_ordinary_batch(texts)] if texts else [0]
    seconds, embedded = bench.embed.seconds, bench.embed.texts
    top = nearest(bench, bench.embed(texts))
    scores = [
        retrieval_scores(question.references, [chunks[index] for index in row])
        for question, row in zip(bench.questions, top)
    ]
    omega = [precision_omega(question.references, chunks) for question in bench.questions]
    return RetrievalRow(
        splitter=name,
        size=size,
        unit=unit,
        chunks=len(chunks),
        mean_tokens=statistics.fmean(tokens),
        recall=100 * statistics.fmean(score.recall for score in scores),
        precision=100 * statistics.fmean(score.precision for score in scores),
        precision_omega=100 * statistics.fmean(omega),
        iou=100 * statistics.fmean(score.iou for score in scores),
        embed_seconds=bench.embed.seconds - seconds,
        embedded=bench.embed.texts - embedded,
    )


def run_contenders(bench: Benchmark, contenders: Sequence[Contender], doc_type: str, echo: Echo) -> list[RetrievalRow]:
    """Every contender at each of its sizes; one that cannot run here is named and skipped."""
    encoding = load_encoding("cl100k_base")
    rows = []
    for contender in contenders:
        for size in contender.sizes:
            try:
                chunker = contender.build(size, doc_type, encoding)
            except Unavailable as exc:
                echo(f"{contender.name}: skipped ({exc})")
                break
            row = evaluate(bench, chunker, contender.name, size, contender.unit)
            echo(_line(row))
            rows.append(row)
    return rows


COLUMNS = ("splitter", "size", "chunks", "mean tokens", "recall", "precision", "precision_Ω", "IoU", "embed s")


def _cells(row: RetrievalRow) -> list[str]:
    size = f"{row.size}" + (" chars" if row.unit == "characters" else "")
    return [
        row.splitter,
        size,
        f"{row.chunks}",
        f"{row.mean_tokens:.0f}",
        f"{row.recall:.1f}",
        f"{row.precision:.2f}",
        f"{row.precision_omega:.1f}",
        f"{row.iou:.2f}",
        f"{row.embed_seconds:.0f}",
    ]


def _line(row: RetrievalRow) -> str:
    return "  ".join(f"{name}={cell}" for name, cell in zip(COLUMNS, _cells(row)))


def table(rows: Sequence[RetrievalRow]) -> str:
    """The rows as a Markdown table, smallest chunks first."""
    ordered = sorted(rows, key=lambda row: row.mean_tokens)
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cells(row)) + " |" for row in ordered]
    return "\n".join(lines)


def plot(rows: Sequence[RetrievalRow], path: Path, title: str) -> bool:
    """Recall against IoU, one line per splitter through its sizes (each point labelled
    with its mean tokens); False when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(figsize=(9, 6))
    for splitter in dict.fromkeys(row.splitter for row in rows):
        points = sorted((row for row in rows if row.splitter == splitter), key=lambda row: row.mean_tokens)
        axes.plot([p.iou for p in points], [p.recall for p in points], marker="o", label=splitter)
        for point in points:
            axes.annotate(
                f"{point.mean_tokens:.0f}",
                (point.iou, point.recall),
                fontsize=7,
                xytext=(3, 3),
                textcoords="offset points",
            )
    axes.set_xlabel("IoU (%)")
    axes.set_ylabel("recall (%)")
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The retrieval mode's options (with the harness's --corpus, --doc-type, --splitters, --output-dir)."""
    group = parser.add_argument_group("retrieval (--retrieval)")
    group.add_argument(
        "--retrieval",
        action="store_true",
        help="score retrieval (recall, precision, precision_Ω, IoU) on Chroma's chunking benchmark, or on --corpus"
        " with --questions",
    )
    group.add_argument(
        "--questions",
        type=Path,
        metavar="FILE",
        help="CSV or JSONL of questions (question, references as JSON character spans, corpus_id: a file of --corpus)",
    )
    group.add_argument(
        "--model",
        default=MINILM,
        help=f"the embedding model: a sentence-transformers name or folder, loaded offline (default {MINILM})",
    )
    group.add_argument(
        "--cache-dir", type=Path, metavar="DIR", help=f"keep the vectors here (default: {RESULTS_CACHE}/)"
    )
    group.add_argument(
        "--corpora", nargs="+", metavar="ID", help="only the questions on these corpora (corpus_id), and their files"
    )
    group.add_argument("--top-k", type=int, default=TOP_K, metavar="N", help=f"chunks retrieved per question ({TOP_K})")


def _sources(args: argparse.Namespace, echo: Echo) -> tuple[dict[str, str], list[Question]] | None:
    """The corpora and questions `args` name (Chroma's benchmark by default); None after
    saying why they cannot be read."""
    if (args.corpus is None) != (args.questions is None):
        echo("error: --corpus and --questions go together (a folder and the questions about its files)")
        return None
    folder, questions_file = args.corpus, args.questions
    if folder is None:
        folder, questions_file = CHROMA_EVAL, CHROMA_EVAL / "questions_df.csv"
    if not folder.is_dir() or not questions_file.is_file():
        echo(f"error: {folder} is not a folder or {questions_file} is not a file")
        return None
    try:
        questions = load_questions(questions_file)
        if args.corpora:
            questions = [q for q in questions if q.references[0].corpus in args.corpora]
            if not questions:
                raise ValueError(f"no question is on the corpora {', '.join(args.corpora)}")
        return load_corpus(folder, questions), questions
    except (OSError, ValueError) as exc:
        echo(f"error: {exc}")
        return None


def run(args: argparse.Namespace, output_dir: Path, echo: Echo = print) -> int:
    """The retrieval mode as `args` say, its results written to `output_dir`; returns the exit code."""
    quiet_peers()
    sources = _sources(args, echo)
    if sources is None:
        return 2
    contenders = [
        c for c in CONTENDERS if not args.splitters or any(w.lower() in c.name.lower() for w in args.splitters)
    ]
    if not contenders:
        echo("error: no splitter matches --splitters")
        return 2
    started = time.perf_counter()
    try:
        embed = embedder(args.model, args.cache_dir or RESULTS_CACHE)
        bench = benchmark(*sources, embed=embed, top_k=args.top_k)
    except (OSError, ValueError) as exc:
        echo(f"error: {exc}")
        return 2
    texts, questions = sources
    echo(f"{len(questions)} questions on {len(texts)} corpora, model {embed.name}, top {bench.top_k}")
    rows = run_contenders(bench, contenders, args.doc_type or "text", echo)
    corpora = ", ".join(texts)
    write(rows, output_dir, f"{embed.name}, top {bench.top_k}, {len(questions)} questions on {corpora}", echo)
    echo(f"done in {time.perf_counter() - started:.0f} s ({embed.calls} model calls, {embed.texts} texts embedded)")
    return 0


def write(rows: Sequence[RetrievalRow], output_dir: Path, title: str, echo: Echo) -> None:
    """The table to the terminal and retrieval.md, the rows to retrieval.json, the plot to retrieval.png."""
    output_dir.mkdir(parents=True, exist_ok=True)
    text = table(rows)
    echo(f"\n{text}")
    (output_dir / "retrieval.md").write_text(section(text, title), encoding="utf-8")
    payload = {"title": title, "rows": [asdict(row) for row in rows]}
    (output_dir / "retrieval.json").write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if plot(rows, output_dir / "retrieval.png", title):
        echo(f"wrote {output_dir / 'retrieval.png'}")


def section(text: str, title: str) -> str:
    """docs/benchmarks.md's Retrieval section: what is measured, the plot, the table."""
    return f"""## Retrieval

`outline-splitter bench --retrieval` (`make bench-retrieval`) scores what each splitter does to
retrieval on Chroma's chunking benchmark ("Evaluating Chunking Strategies for Retrieval"; five
corpora, 472 questions with the exact character spans that answer them; `../shared/corpora/chroma-eval`)
or on your folder (`--corpus DIR --questions FILE`): each question takes the {TOP_K} chunks nearest
it (cosine similarity of the model's vectors, among every corpus's chunks); **recall** is the share
of the answer's characters those chunks hold, **precision** the share of theirs that is answer,
**IoU** both at once, **precision_Ω** the precision of the chunks that meet the answer (the best
any model could do with these chunks); means over the questions, in percent
(`outline_splitter/bench/retrieval_metrics.py`, checked against the report's published
precision_Ω). The scores depend on chunk size first: compare rows of near-equal **mean tokens**.
**embed s**: the model's seconds for the chunks not already in the vector cache.

![recall against IoU](../benchmarks/results/retrieval.png)

{title}:

{text}
"""
