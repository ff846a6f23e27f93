"""Run every splitter on the same corpora in one process and report the figures.

`outline-splitter bench` (or `python -m benchmarks`, or `make bench`) prints one table per
corpus and writes `latest.json`, `latest.md` and `latest.png` to `bench-results/` (in the
current folder; a checkout ignores it), or where `--output-dir` says. Only `--update-docs`
(`make bench-docs`, in a source checkout, on the default corpora) writes the tracked
`benchmarks/results/latest.*` and `docs/benchmarks.md`. Each splitter splits the whole
corpus once per budget in each of `REPEATS` fresh child processes, each child timing one
tiktoken pass over the corpus just before; the figures are the best split over the best
tiktoken pass: on a shared machine one pass varies by a third from run to run, its speed
drifts over minutes, and a child never inherits what a splitter cached in another. At
the largest budget it runs once more under `tracemalloc` on the corpus's largest
document for the peak memory.
The corpora (`outline_splitter/bench/corpora.py`): ../shared/corpora's Markdown, HTML spec and web
pages, plain text (the readable text of its html-web-expected pages, as
`benchmarks/plain_text.py` makes it, split as `text`), JSON and YAML (the data files
installed packages ship and the tests' realistic documents) and 40 stdlib modules.

Each run happens in a forked child of the harness (same interpreter, same loaded
modules), so that a splitter that takes minutes on one document (some do, on long web
pages) can be stopped at `--timeout` seconds and reported as such: `make bench` has to
finish in minutes. Budgets run largest first; after a timeout the smaller budgets, which
are slower still, are not tried.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import platform
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from outline_splitter.bench import figures, retrieval
from outline_splitter.bench.corpora import Corpus, default_corpora, folder_corpus, missing_shared_corpora
from outline_splitter.bench.ground_truth import Structure, chunk_stream, structure_for
from outline_splitter.bench.peers import OUTLINE, PEERS, Chunker, Peer, Unavailable, quiet_peers
from outline_splitter.tokens import load_encoding

BUDGETS = (128, 256, 512)
TIMEOUT_SECONDS = 30.0
# `make bench` must finish within 10 minutes on 2 cores, installs included: past this
# many seconds of harness time the remaining runs are skipped (with that reason).
MAX_SECONDS = 480.0
# Passes timed per splitter and budget (the best counts), each in a fresh child; a pass
# longer than REPEAT_BELOW seconds is not repeated: it is far above the noise of the
# short passes, and repeating it would spend the harness's time on the slowest peers.
REPEATS = 3
REPEAT_BELOW = 2.0
# The source checkout this package is in (an installed wheel has no benchmarks/ or docs/ beside it).
ROOT = Path(__file__).resolve().parents[2]
TRACKED_RESULTS = ROOT / "benchmarks" / "results"
DOCS = ROOT / "docs" / "benchmarks.md"
RESULTS = Path("bench-results")

# The integrity figures shown for each doc type (ground-truth unit kinds).
UNIT_KINDS: dict[str, tuple[str, ...]] = {
    "markdown": ("list", "table", "fence"),
    "html": ("list", "table", "pre"),
    "python": ("definition", "comment"),
    "json": ("object", "item"),
    "jsonl": ("object", "item"),
    "yaml": ("object", "item"),
}
UNIT_LABELS = {"definition": "defs whole", "comment": "comments attached", "pre": "pre whole"}
# Figures that need paragraphs and headings, which source code has not.
PROSE_TYPES = ("markdown", "html", "text")

Echo = Callable[[str], None]


@dataclass
class Row:
    """The figures of one splitter on one corpus at one budget (see `figures`)."""

    splitter: str
    corpus: str
    doc_type: str
    budget: int
    status: str  # "ok", "skipped" or "failed"
    reason: str = ""
    seconds: float = 0.0
    mb_per_s: float = 0.0
    tiktoken_ratio: float = 0.0
    cpu_ratio: float = 0.0  # CPU seconds (every thread of the process) over one tiktoken pass
    peak_mb: float | None = None
    chunks: int = 0
    mean_fill: float = 0.0
    over_budget: int = 0
    worst_overshoot: float = 0.0
    exact_spans: int = 0
    kept_whole: dict[str, list[int]] = field(default_factory=dict)  # kind -> [kept, eligible]
    mid_sentence: list[int] = field(default_factory=lambda: [0, 0])  # [cuts, boundaries located]
    heading_orphans: int = 0


def tiktoken_seconds(corpus: Corpus, encode: Callable[[str], list[int]]) -> float:
    """The seconds of one `encode_ordinary` over every document (the best is taken over
    the children that each time one: `_CorpusRun.best_seconds`)."""
    start = time.perf_counter()
    for document in corpus.documents:
        encode(document.text)
    return time.perf_counter() - start


def split_corpus(chunker: Chunker, corpus: Corpus) -> tuple[tuple[float, float], list[list[str]]]:
    """Wall-clock and CPU seconds (the process's, every thread's) of splitting every
    document once, and the chunks; after one untimed call on the start of the first
    document (lazy imports, compiled patterns, first-use caches are not what a
    long-running service pays per document)."""
    if corpus.documents:
        chunker(corpus.documents[0].text[:2000])
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    outputs = [chunker(document.text) for document in corpus.documents]
    return (time.perf_counter() - start, time.process_time() - start_cpu), outputs


def peak_megabytes(chunker: Chunker, corpus: Corpus) -> float:
    """Peak memory: the peak Python heap (tracemalloc) while splitting the corpus's
    largest document, in MB (10**6 bytes). The largest document sets the peak of a
    document-by-document run, at a fraction of its cost under tracemalloc's slowdown.
    Allocations of native extensions (Rust, C) outside Python's allocator are not seen."""
    largest = max(corpus.documents, key=lambda document: len(document.text))
    gc.collect()
    tracemalloc.start()
    try:
        chunker(largest.text)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def measure(
    row: Row,
    corpus: Corpus,
    structures: Sequence[Structure],
    outputs: Sequence[Sequence[str]],
    count: Callable[[str], int],
    emits_text: bool = False,
) -> None:
    """Fill `row`'s chunk and structure figures from the chunks of every document
    (`emits_text`: the chunks are readable text, never markup to parse)."""
    counts: list[int] = []
    kinds = UNIT_KINDS.get(corpus.doc_type, ())
    kept = {kind: [0, 0] for kind in kinds}
    for document, structure, chunks in zip(corpus.documents, structures, outputs, strict=True):
        chunks = [chunk for chunk in chunks if chunk.strip()]
        counts.extend(count(chunk) for chunk in chunks)
        row.exact_spans += figures.exact_spans(document.text, chunks)
        streams = [chunk_stream(corpus.doc_type, chunk, markup=not emits_text) for chunk in chunks]
        for kind in kinds:
            whole, eligible = figures.kept_whole(structure.units, kind, streams, row.budget)
            kept[kind][0] += whole
            kept[kind][1] += eligible
        if corpus.doc_type in PROSE_TYPES:
            ends = figures.chunk_ends(structure.stream, streams)
            cuts, located = figures.mid_sentence_cuts(structure.sentences, ends)
            row.mid_sentence[0] += cuts
            row.mid_sentence[1] += located
            row.heading_orphans += figures.heading_orphans(streams, structure.headings)
    row.chunks = len(counts)
    row.mean_fill = figures.mean_fill(counts, row.budget)
    row.over_budget, row.worst_overshoot = figures.over_budget(counts, row.budget)
    row.kept_whole = kept


# ("ok", (wall, cpu, tiktoken seconds), chunks) | ("skipped" | "failed", reason, None): a
# child times one tiktoken pass just before the split, as the machine's speed drifts
# over the minutes a corpus's runs take (a corpus's first pass differed by 60% between
# two runs of the harness an hour apart)
Outcome = tuple[str, Any, Any]


def _attempt(peer: Peer, budget: int, corpus: Corpus, encoding: Any) -> Outcome:
    try:
        chunker = peer.build(budget, corpus.doc_type, encoding)
        floor = tiktoken_seconds(corpus, encoding.encode_ordinary)
        seconds, outputs = split_corpus(chunker, corpus)
        return "ok", (*seconds, floor), outputs
    except Unavailable as exc:
        return "skipped", str(exc), None
    except Exception as exc:  # a peer's own failure is a result, not the harness's crash
        return "failed", _reason(exc), None


def _prepare(peer: Peer, corpus: Corpus, budget: int, encoding: Any) -> tuple[Outcome, None] | None:
    """Build `peer` once in this process: None when it can run, else the outcome that says why not."""
    try:
        peer.build(budget, corpus.doc_type, encoding)
        return None
    except Unavailable as exc:
        return ("skipped", str(exc), None), None
    except Exception as exc:
        return ("failed", _reason(exc), None), None


def _reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:160] if lines else ''}"


def _child(conn: Any, peer: Peer, budget: int, corpus: Corpus, encoding: Any, memory: bool) -> None:
    # What the harness holds (every corpus's ground truth, every peer's library) is not a
    # splitter's to pay for: frozen, the collector's passes over the child's heap skip it,
    # for every splitter alike. (Unfrozen, each full collection walked it: a third of
    # outline-splitter's time on the stdlib corpus, whose chunks the collector tracks.)
    gc.freeze()
    outcome = _attempt(peer, budget, corpus, encoding)
    conn.send(outcome)
    if memory and outcome[0] == "ok":
        conn.send(peak_megabytes(peer.build(budget, corpus.doc_type, encoding), corpus))


def run_once(
    peer: Peer, budget: int, corpus: Corpus, encoding: Any, memory: bool, timeout: float
) -> tuple[Outcome, float | None]:
    """One timed split of the corpus (and, with `memory`, the tracemalloc pass) in a
    forked child stopped after `timeout` seconds; in this process where `fork` does not exist."""
    if "fork" not in multiprocessing.get_all_start_methods():
        here = _attempt(peer, budget, corpus, encoding)
        run_memory = memory and here[0] == "ok"
        return here, peak_megabytes(peer.build(budget, corpus.doc_type, encoding), corpus) if run_memory else None
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, peer, budget, corpus, encoding, memory), daemon=True)
    child.start()
    sender.close()
    peak: float | None = None
    try:
        if not receiver.poll(timeout):
            return ("failed", f"timed out: more than {timeout:.0f} s", None), None
        outcome = receiver.recv()
        if memory and outcome[0] == "ok" and receiver.poll(timeout):
            peak = receiver.recv()
        return outcome, peak
    except EOFError:  # the child died (a crash in native code)
        return ("failed", f"the splitter's process died (exit code {child.exitcode})", None), None
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        receiver.close()


def run_corpus(
    corpus: Corpus,
    peers: Sequence[Peer],
    budgets: Sequence[int],
    memory: bool = True,
    echo: Echo = print,
    timeout: float = TIMEOUT_SECONDS,
    deadline: float = float("inf"),
    repeats: int = REPEATS,
) -> list[Row]:
    """Every applicable splitter on `corpus` at every budget, the best of `repeats`
    passes; a splitter that is skipped or fails gets a row with the reason. No run starts
    after `deadline` (`time.perf_counter`)."""
    encoding = load_encoding("cl100k_base")

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    echo(f"\n== {corpus.name} ({corpus.doc_type}): {len(corpus.documents)} documents, {corpus.megabytes:.2f} MB")
    structures = [structure_for(corpus.doc_type, document.text, count) for document in corpus.documents]
    runs = _CorpusRun(corpus, encoding, count, structures, echo, memory, timeout, deadline, repeats)
    rows = [row for peer in peers if peer.applies_to(corpus.doc_type) for row in runs.rows(peer, budgets)]
    rows.sort(key=lambda r: (peers.index(next(p for p in peers if p.name == r.splitter)), r.budget))
    return rows


_SPENT: tuple[Outcome, None] = (("skipped", "the harness's time budget was spent", None), None)


@dataclass
class _CorpusRun:
    """What the runs of every splitter on one corpus share: its tokenizer (`encoding`,
    `count`), the documents' ground truth
    (`structures`), and the limits: whether to measure memory, each run's timeout, the
    harness's deadline and how many passes are timed."""

    corpus: Corpus
    encoding: Any
    count: Callable[[str], int]
    structures: list[Structure]
    echo: Echo
    memory: bool
    timeout: float
    deadline: float
    repeats: int = REPEATS

    def rows(self, peer: Peer, budgets: Sequence[int]) -> list[Row]:
        """`peer`'s rows, largest budget first; after one that is not ok (the same reason
        holds at the other budgets, or they are slower still), no other."""
        corpus = self.corpus
        # Built once here, untimed, so that its library is imported before the forks and
        # an unavailable splitter is skipped without one.
        spent = time.perf_counter() > self.deadline
        prepared = _SPENT if spent else _prepare(peer, corpus, max(budgets), self.encoding)
        rows: list[Row] = []
        for budget in sorted(budgets, reverse=True):
            row = Row(peer.name, corpus.name, corpus.doc_type, budget, "ok")
            rows.append(row)
            if prepared is None and time.perf_counter() > self.deadline:
                prepared = _SPENT
            measured = self.memory and budget == max(budgets)
            outcome, row.peak_mb = prepared or run_once(peer, budget, corpus, self.encoding, measured, self.timeout)
            if outcome[0] != "ok":
                row.status, row.reason = outcome[0], f"{outcome[1]} (at {budget} tokens)"
                self.echo(f"  {peer.name}: {row.status}: {row.reason}")
                break
            (row.seconds, cpu_seconds, floor), outputs = self.best_seconds(peer, budget, outcome[1]), outcome[2]
            row.mb_per_s = figures.throughput(row.seconds, corpus.megabytes)
            row.tiktoken_ratio = figures.tiktoken_ratio(row.seconds, floor)
            row.cpu_ratio = figures.tiktoken_ratio(cpu_seconds, floor)
            measure(row, corpus, self.structures, outputs, self.count, peer.emits_text)
            self.echo(f"  {peer.name} @ {budget}: {row.seconds:.2f} s, {row.chunks} chunks")
        return rows

    def best_seconds(self, peer: Peer, budget: int, first: tuple[float, float, float]) -> tuple[float, float, float]:
        """The (wall, CPU) seconds of the fastest of `first` and the further passes, each in
        a fresh child, and the fastest of their tiktoken passes; none after the deadline or
        after a pass of REPEAT_BELOW seconds."""
        passes = [first]
        while len(passes) < self.repeats and passes[0][0] <= REPEAT_BELOW and time.perf_counter() <= self.deadline:
            outcome, _ = run_once(peer, budget, self.corpus, self.encoding, False, self.timeout)
            if outcome[0] != "ok":
                break
            passes.append(outcome[1])
        wall, cpu, _ = min(passes)
        return wall, cpu, min(floor for _, _, floor in passes)


# -- reporting ----------------------------------------------------------------------


def _share(numerator: int, denominator: int) -> str:
    return f"{100 * numerator / denominator:.1f}%" if denominator else "-"


def table(rows: Sequence[Row], doc_type: str) -> str:
    """A Markdown table of `rows` (one corpus), skipped splitters listed below it."""
    header = _columns(doc_type)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cells(row, doc_type)) + " |" for row in rows if row.status == "ok"]
    skipped = {row.splitter: f"{row.status}: {row.reason}" for row in rows if row.status != "ok"}
    lines += [f"\n- {name}: {reason}" for name, reason in skipped.items()]
    return "\n".join(lines)


def _columns(doc_type: str) -> list[str]:
    """The table's column names for a corpus of `doc_type`: the figures of every corpus,
    then its kinds of unit kept whole, then (prose) the sentence and heading figures."""
    header = [
        "splitter",
        "budget",
        "s",
        "MB/s",
        "x tiktoken",
        "cpu x tiktoken",
        "peak MB",
        "chunks",
        "fill",
        "over",
        "worst",
        "exact span",
        *(UNIT_LABELS.get(kind, f"{kind}s whole") for kind in UNIT_KINDS.get(doc_type, ())),
    ]
    return header + (["mid-sentence", "heading orphans"] if doc_type in PROSE_TYPES else [])


def _cells(row: Row, doc_type: str) -> list[str]:
    """A row's cells, in `_columns`' order."""
    cells = [
        row.splitter,
        str(row.budget),
        f"{row.seconds:.2f}",
        f"{row.mb_per_s:.2f}",
        f"{row.tiktoken_ratio:.1f}",
        f"{row.cpu_ratio:.1f}",
        "-" if row.peak_mb is None else f"{row.peak_mb:.1f}",
        str(row.chunks),
        f"{row.mean_fill:.2f}",
        _share(row.over_budget, row.chunks),
        f"{100 * row.worst_overshoot:.0f}%",
        _share(row.exact_spans, row.chunks),
        *(_share(*row.kept_whole.get(kind, [0, 0])) for kind in UNIT_KINDS.get(doc_type, ())),
    ]
    return cells + ([_share(*row.mid_sentence), str(row.heading_orphans)] if doc_type in PROSE_TYPES else [])


def machine() -> str:
    """The CPU model, cores, OS and Python of this machine, in one line."""
    import os

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def report(rows: Sequence[Row], corpora: Sequence[Corpus], budgets: Sequence[int] | None = None) -> str:
    """One Markdown table per corpus (only `budgets` when given)."""
    parts = []
    for corpus in corpora:
        chosen = [
            r for r in rows if r.corpus == corpus.name and (budgets is None or r.budget in budgets or r.status != "ok")
        ]
        parts.append(
            f"### {corpus.name} ({corpus.doc_type}, {len(corpus.documents)} documents, "
            f"{corpus.megabytes:.2f} MB)\n\n{table(chosen, corpus.doc_type)}"
        )
    return "\n\n".join(parts)


def chart(rows: Sequence[Row], corpora: Sequence[Corpus], budget: int, path: Path) -> bool:
    """A PNG: per corpus, throughput (MB/s) and structures kept whole (all kinds
    together) at `budget`, each bar labelled with its value; a splitter that did not run
    shows why. False (and no file) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    shown = [c for c in corpora if any(r.corpus == c.name and r.budget == budget and r.status == "ok" for r in rows)]
    if not shown:
        return False
    per_corpus = [[r for r in rows if r.corpus == c.name and r.budget == budget] for c in shown]
    heights = [1.0 + 0.38 * len(chosen) for chosen in per_corpus]
    fig, axes = plt.subplots(
        len(shown), 2, figsize=(13, sum(heights)), squeeze=False, gridspec_kw={"height_ratios": heights}
    )
    for (speed, whole), corpus, chosen in zip(axes, shown, per_corpus, strict=True):
        _chart_corpus(speed, whole, corpus, chosen, budget)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def _chart_corpus(speed: Any, whole: Any, corpus: Corpus, chosen: list[Row], budget: int) -> None:
    """One corpus's two bar charts, on the axes `speed` and `whole`."""
    names = [r.splitter for r in chosen]
    colors = ["tab:green" if r.splitter == OUTLINE else "tab:gray" for r in chosen]
    integrity = []
    for r in chosen:
        pairs = [v for v in r.kept_whole.values() if v[1]]
        integrity.append(100 * sum(k for k, _ in pairs) / sum(e for _, e in pairs) if pairs else 0.0)
    speeds = [r.mb_per_s for r in chosen]
    for axis, values, title, unit in (
        (speed, speeds, f"{corpus.name}: MB/s at {budget} tokens (higher is faster)", ""),
        (whole, integrity, f"{corpus.name}: structures kept whole, % of those that fit", "%"),
    ):
        axis.barh(names, values, color=colors)
        axis.invert_yaxis()
        axis.set_title(title, fontsize=10)
        axis.set_xlim(0, 100 if unit else max(speeds) * 1.25)
        for y, (r, value) in enumerate(zip(chosen, values, strict=True)):
            label = f" {value:.1f}{unit}" if r.status == "ok" else f" {r.status}: {r.reason.split(' (')[0][:40]}"
            axis.text(value if r.status == "ok" else 0, y, label, va="center", fontsize=8)
    whole.set_yticklabels([])


def write_results(
    rows: Sequence[Row],
    corpora: Sequence[Corpus],
    budgets: Sequence[int],
    out: Path,
    docs: Path | None,
    echo: Echo = print,
) -> None:
    """`latest.json`, `latest.md`, `latest.png` in `out`, and the docs page when `docs` is given."""
    out.mkdir(parents=True, exist_ok=True)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    meta: dict[str, Any] = {
        "date": when,
        "machine": machine(),
        "budgets": list(budgets),
        "corpora": [
            {"name": c.name, "doc_type": c.doc_type, "documents": len(c.documents), "megabytes": c.megabytes}
            for c in corpora
        ],
    }
    (out / "latest.json").write_text(json.dumps({**meta, "rows": [asdict(r) for r in rows]}, indent=1) + "\n")
    full = report(rows, corpora)
    (out / "latest.md").write_text(f"# Benchmark results\n\n{when}; {meta['machine']}\n\n{full}\n")
    biggest = max(budgets)
    has_chart = chart(rows, corpora, biggest, out / "latest.png")
    echo(f"\nwrote {out / 'latest.json'}, {out / 'latest.md'}" + (f", {out / 'latest.png'}" if has_chart else ""))
    if docs is not None:
        docs.parent.mkdir(parents=True, exist_ok=True)
        docs.write_text(docs_page(rows, corpora, biggest, when, meta["machine"], has_chart))
        echo(f"wrote {docs}")


def docs_page(
    rows: Sequence[Row], corpora: Sequence[Corpus], budget: int, when: str, where: str, has_chart: bool
) -> str:
    """`docs/benchmarks.md`: how to run, what each column means, the tables at `budget`."""
    picture = "![throughput and structure integrity](../benchmarks/results/latest.png)\n\n" if has_chart else ""
    return f"""# Benchmarks

`make bench` (or `outline-splitter bench`) runs outline-splitter and the splitters people
use today on the same documents, in one process, with the same tokenizer (cl100k_base),
the same budgets ({", ".join(str(b) for b in BUDGETS)} tokens) and no overlap, on the shared
corpora that are there (it names those that are not) and 40 standard-library modules; it
writes `latest.json`, `latest.md` (every budget) and `latest.png` to the untracked
`bench-results/`. `make bench-docs` writes this page and `benchmarks/results/latest.*`.
`outline-splitter bench --corpus DIR --doc-type T` runs it on your own folder (from a
wheel too, with the `bench` extra for the other splitters).

Measured {when} on {where}.

{picture}{_columns_section(budget)}
## Results at {budget} tokens

{report(rows, corpora, (budget,))}
{_kept_section("retrieval.md")}{_kept_section("scale.md")}"""


def _columns_section(budget: int) -> str:
    """`docs/benchmarks.md`'s section on what each column means."""
    return f"""## Columns

- **s**, **MB/s**: wall-clock seconds to split the whole corpus once, and its UTF-8 megabytes over them:
  the best of {REPEATS} passes (one where a pass takes over {REPEAT_BELOW:.0f} s), each in a fresh child
  process, so no splitter's cache carries over from one pass to the next.
- **x tiktoken**: those seconds over one tiktoken `encode_ordinary` pass over the same text, timed in
  each child just before its split (the fastest of those passes): the floor any exact splitter pays
  in CPU time is 1. (This machine's speed drifts over minutes, so a pass timed once per corpus was up
  to 60% off the splits timed later.)
- **cpu x tiktoken**: the process's CPU seconds (every thread's) over the same pass. Above x tiktoken
  where a splitter works on two cores at once (outline-splitter encodes a document beside its
  detection: `tokens/counters.py`), so on a machine whose cores are all busy, this is its figure.
- Each splitter runs in a child process with the harness's own objects frozen out of the garbage
  collector (`gc.freeze`): their cost is not the splitter's.
- **peak MB**: peak Python heap (tracemalloc) while splitting the corpus's largest document at {budget}
  tokens (native allocations of Rust or C extensions are not seen).
- **chunks**, **fill**: chunk count; mean of tokens / budget.
- **over**, **worst**: share of chunks over the budget (recounted with a plain encode), largest overshoot.
- **exact span**: share of chunks whose text occurs verbatim in the source, in order.
- **lists / tables / fences / pre / defs whole**: of the structures (found by markdown-it-py, selectolax
  or `ast`) that fit the budget, the share that lies whole inside one chunk.
- **comments attached**: of the definitions with a comment block or decorators right above them, the
  share whose comments, decorators and header line share one chunk (`ast` + `tokenize`).
- **mid-sentence**: share of chunk boundaries that fall inside a sentence of a paragraph.
- **heading orphans**: chunks that end with a heading whose body is in the next chunk.

Each figure is defined in one docstring in `outline_splitter/bench/figures.py`; ground truth in
`outline_splitter/bench/ground_truth.py`. Splitters that cannot run here are listed under their table
with the reason.
"""


def _kept_section(name: str) -> str:
    """A section another run last wrote to the tracked results, kept when this page is
    rewritten: scale.md (Scaling, `make bench-scale`: benchmarks/scale.py), retrieval.md
    (Retrieval, `outline-splitter bench --retrieval --update-docs`)."""
    path = TRACKED_RESULTS / name
    return "\n" + path.read_text(encoding="utf-8") if path.is_file() else ""


# -- command line -------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The harness's options (shared by `python -m benchmarks` and `outline-splitter bench`)."""
    parser.add_argument("--corpus", type=Path, help="benchmark this folder instead of the default corpora")
    parser.add_argument("--doc-type", help="the doc type of --corpus's files (markdown, html, python, text...)")
    parser.add_argument(
        "--budgets",
        type=int,
        nargs="+",
        default=list(BUDGETS),
        metavar="N",
        help=f"token budgets (default: {' '.join(map(str, BUDGETS))})",
    )
    parser.add_argument(
        "--splitters",
        nargs="+",
        metavar="NAME",
        help="only splitters whose name contains one of these words (case-insensitive)",
    )
    _add_limits(parser)
    _add_outputs(parser)
    retrieval.add_arguments(parser)


def _add_limits(parser: argparse.ArgumentParser) -> None:
    """The harness's options of what it measures and for how long."""
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass (peak memory)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT_SECONDS,
        metavar="SECONDS",
        help=f"stop a splitter that takes longer on a corpus at one budget (default {TIMEOUT_SECONDS:.0f})",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=MAX_SECONDS,
        metavar="SECONDS",
        help=f"start no run after this many seconds; the rest are listed as skipped (default {MAX_SECONDS:.0f})",
    )


def _add_outputs(parser: argparse.ArgumentParser) -> None:
    """The harness's options of where its results go."""
    parser.add_argument(
        "--output-dir", type=Path, default=RESULTS, help=f"where latest.* go (default: {RESULTS}/ in this folder)"
    )
    parser.add_argument(
        "--update-docs",
        action="store_true",
        help="write the tracked benchmarks/results/latest.* and docs/benchmarks.md of the source checkout instead"
        " (the default corpora only; `make bench-docs`)",
    )


def run(args: argparse.Namespace, echo: Echo = print) -> int:
    """Run the harness as `args` say; returns the exit code."""
    outputs = _outputs(args, echo)
    if args.retrieval:
        return 2 if outputs is None else retrieval.run(args, outputs[0], echo)
    quiet_peers()
    corpora = _corpora(args, echo) if outputs is not None else None
    if outputs is None or corpora is None:
        return 2
    output_dir, docs = outputs
    peers = [p for p in PEERS if not args.splitters or any(w.lower() in p.name.lower() for w in args.splitters)]
    budgets = sorted(set(args.budgets))
    if not peers or not budgets or min(budgets) < 1:
        echo("error: no splitter matches --splitters, or a budget is below 1")
        return 2
    started = time.perf_counter()
    rows: list[Row] = []
    for corpus in corpora:
        corpus_rows = run_corpus(
            corpus,
            peers,
            budgets,
            memory=not args.no_memory,
            echo=echo,
            timeout=args.timeout,
            deadline=started + args.max_seconds,
        )
        rows += corpus_rows
        echo(f"\n### {corpus.name}\n\n{table(corpus_rows, corpus.doc_type)}")
    write_results(rows, corpora, budgets, output_dir, docs, echo)
    echo(f"done in {time.perf_counter() - started:.0f} s")
    return 0


def _outputs(args: argparse.Namespace, echo: Echo) -> tuple[Path, Path | None] | None:
    """Where `args` have the results go, and the docs page (with `--update-docs`); None
    (after saying why) where they may not go there."""
    if args.update_docs:
        if args.corpus is not None:
            echo("error: --update-docs writes the default corpora's results; it does not take --corpus")
            return None
        if not DOCS.parent.is_dir() or not TRACKED_RESULTS.is_dir():
            echo(f"error: --update-docs needs a source checkout ({DOCS.parent} is not here)")
            return None
        return TRACKED_RESULTS, DOCS
    if _same_folder(args.output_dir, TRACKED_RESULTS):
        echo(f"error: {TRACKED_RESULTS} holds the tracked results: only --update-docs writes there")
        return None
    return args.output_dir, None


def _corpora(args: argparse.Namespace, echo: Echo) -> list[Corpus] | None:
    """The corpora `args` name (`--corpus`, else the default ones there are); None (after
    saying why) where `--corpus` is no folder or lacks `--doc-type`."""
    if args.corpus is None:
        corpora = default_corpora()
        for folder in missing_shared_corpora():
            echo(f"{folder} is not here: its corpus is skipped (../shared/corpora comes with the project's CI)")
        return corpora
    if not args.doc_type:
        echo("error: --corpus needs --doc-type")
        return None
    if not args.corpus.is_dir():
        echo(f"error: {args.corpus} is not a folder")
        return None
    return [folder_corpus(args.corpus, args.doc_type)]


def _same_folder(one: Path, other: Path) -> bool:
    return one.resolve() == other.resolve()


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m benchmarks`: the harness's command line; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
