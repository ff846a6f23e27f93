"""The scaling benchmark (`python -m benchmarks.scale`, `make bench-scale`).

1. Synthetic documents of 1, 4 and 16 MB of each pathological kind: CPU seconds (the
   least of `--repeat` runs, the sizes taking turns) and peak memory per MB, and
   time(16 MB) / time(1 MB) (linear is 16; the bar is 20). Each run is a fresh
   subprocess, so its peak RSS (`ru_maxrss`, less the RSS before the document was made)
   is that document's alone and a pathological case cannot hang the run (`--timeout`).
2. `split_many` on the shared corpora repeated to `--docs` documents: wall seconds with
   one worker and with two, their ratio, and a check that both give the same chunks.
3. The parent's peak RSS while `split_many` streams a generator of `--short` short texts.

Results: printed; a whole run (no `--kinds`, `--skip` or `--no-docs`) also writes them to
`benchmarks/results/scale.{json,md}` and into the Scaling section of `docs/benchmarks.md`
(which `make bench` keeps): a partial run never writes over the tracked figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from outline_splitter.bench.corpora import SHARED_CORPORA, SHARED_FOLDERS, extensions_for, missing_shared_corpora
from outline_splitter.bench.harness import DOCS, ROOT, machine
from outline_splitter.bench.harness import TRACKED_RESULTS as RESULTS

SIZES_MB = (1, 4, 16)
LINEAR_BAR = 20.0  # time(16 MB) / time(1 MB) at most this (16 is linear)
MEMORY_BAR = 10.0  # peak memory at most this many times the input
DOUBLING_BAR = 2.2  # a doubling kind's time and memory grow at most this much per doubling
SCALING_HEADING = "## Scaling"
WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu")


def _words(count: int, offset: int = 0) -> str:
    return " ".join(WORDS[(offset + i) % len(WORDS)] for i in range(count))


def _repeat_to(size: int, make: Callable[[int], str]) -> str:
    """`make(0) + make(1) + ...` until `size` characters (ASCII: bytes), cut there."""
    parts: list[str] = []
    total = 0
    for number in itertools.count():
        if total >= size:
            break
        part = make(number)
        parts.append(part)
        total += len(part)
    return "".join(parts)[:size]


def prose(size: int) -> str:
    """Sentences wrapped at about 80 columns, no blank line, no heading: one paragraph."""
    return _repeat_to(size, lambda n: f"{_words(9, n).capitalize()} number {n}.{chr(10) if n % 2 else ' '}")


def markdown_list(size: int) -> str:
    """One Markdown list of short items."""
    return _repeat_to(size, lambda n: f"- item {n}: {_words(6, n)}\n")


def tiny_paragraphs(size: int) -> str:
    """Paragraphs of one short sentence (100,000 of them at 16 MB)."""
    return _repeat_to(size, lambda n: f"Paragraph {n} {_words(30, n)}"[:165] + ".\n\n")


def one_line(size: int) -> str:
    """Words and no newline at all."""
    return _repeat_to(size, lambda n: f"{_words(12, n)} {n} ")


def nested_divs(size: int) -> str:
    """`<div>`s nested inside each other (10,000 deep at 16 MB), text in each."""
    depth = max(1, 10_000 * size // (16 * 2**20))
    body = max(0, size // depth - 40)
    filler = _repeat_to(body, lambda n: f"{_words(8, n)}. ")
    return "<html><body>" + f"<div><p>{filler}</p>" * depth + "</div>" * depth + "</body></html>"


def _one_liner(n: int) -> str:
    return f"def f_{n}(x): return x * {n} + {n % 7}\n"


def python_one_liners(size: int) -> str:
    """A Python module of one-line functions, cut at its last whole line (a file cut
    mid-line ends in a syntax error: `python_cut_mid_line`)."""
    text = _repeat_to(size, _one_liner)
    return text[: text.rfind("\n") + 1]


def python_cut_mid_line(size: int) -> str:
    """`python_one_liners` cut in the middle of its last line, as a truncated file is: it
    ends in a syntax error, which the code detector takes as tree-sitter recovered it in
    the last window (parsed whole, tree-sitter's tree of it, some 50 times its text, was
    alive at once)."""
    text = python_one_liners(size)
    return text[: text.index("(", text.rfind("def ")) + 1]  # "def f_N(": a parenthesis left open


def _python_error_at(size: int, share: float) -> str:
    """`python_one_liners` with the function about `share` of the way through cut short
    after its opening parenthesis (a syntax error, and what follows it parses)."""
    broken = int(share * size / len(_one_liner(size // 40)))

    def line(n: int) -> str:
        return f"def f_{n}(\n" if n == broken else _one_liner(n)

    text = _repeat_to(size, line)
    return text[: text.rfind("\n") + 1]


def python_error_early(size: int) -> str:
    """A syntax error a twentieth of the way into `python_one_liners`: its window, grown
    to the end of the file, made the rest one tree some 50 times its text."""
    return _python_error_at(size, 0.05)


def python_error_middle(size: int) -> str:
    """A syntax error halfway through `python_one_liners`."""
    return _python_error_at(size, 0.5)


def wide_table(size: int) -> str:
    """A Markdown table with 2,000 rows at 16 MB (wide rows, 8 columns)."""
    rows = max(2, 2000 * size // (16 * 2**20))
    cell = max(1, size // rows // 8 - 3)
    header = "| " + " | ".join(f"col {i}" for i in range(8)) + " |\n|" + "---|" * 8 + "\n"
    lines = []
    for row in range(rows):
        cells = [_repeat_to(cell, lambda n, row=row: f"{row}{_words(3, n)} ") for _ in range(8)]
        lines.append("| " + " | ".join(cells) + " |\n")
    return header + "".join(lines)


def nested_json_arrays(size: int) -> str:
    """`[[[...]]]`: arrays nested half the size deep (400,000 at 0.8 MB)."""
    return "[" * (size // 2) + "]" * (size // 2)


def _record(n: int) -> dict[str, Any]:
    """A user record as an API exports it: scalars, a nested object, a short array and
    a text of a few sentences."""
    return {
        "id": n,
        "name": f"user number {n}",
        "email": f"user{n}@example.com",
        "active": n % 2 == 0,
        "score": n * 0.37 + 1e16 * (n % 3 == 0),  # `1e+16` every third record
        "address": {"street": f"{n} Main Street", "city": WORDS[n % len(WORDS)].title(), "zip": f"{10000 + n % 9000}"},
        "tags": list(WORDS[: n % 4]),
        "bio": f"{_words(12, n).capitalize()}. " * (n % 5),
    }


def _json_records(size: int, indent: int | None) -> str:
    """An array of `_record`s, as `json.dumps` writes it, of about `size` bytes (the
    records' lengths vary: a first guess of their count is corrected once)."""
    count = max(1, size // len(json.dumps(_record(1), indent=indent)))
    count = max(1, count * size // len(_records_text(count, indent)))
    return _records_text(count, indent)


def _records_text(count: int, indent: int | None) -> str:
    """`json.dumps` of the first `count` records, one record at a time: the text whole
    is what the peak memory of a split counts, never the records' objects nor the
    million pieces `json.dumps` of them all joins (with an indent, 13 times the text)."""
    if indent is None:
        return "[" + ", ".join(json.dumps(_record(n)) for n in range(count)) + "]"
    pad = " " * indent
    records = (pad + json.dumps(_record(n), indent=indent).replace("\n", "\n" + pad) for n in range(count))
    return "[\n" + ",\n".join(records) + "\n]"


def one_line_json(size: int) -> str:
    """A JSON array of records on one line (`json.dumps` without an indent)."""
    return _json_records(size, None)


def pretty_json(size: int) -> str:
    """The same records indented by two spaces, as an export or a config is."""
    return _json_records(size, 2)


@dataclass(frozen=True)
class Kind:
    """A synthetic kind: its name, doc type, generator `size in bytes -> text`, the
    sizes it is measured at (other than `SIZES_MB`: a kind whose memory per MB allows
    no 16 MB, measured at doublings instead), and the options it is split with beyond
    the budget (a Markdown parser)."""

    name: str
    doc_type: str
    make: Callable[[int], str]
    sizes_mb: tuple[float, ...] = SIZES_MB
    options: tuple[tuple[str, str], ...] = ()

    @property
    def doubling(self) -> bool:
        return self.sizes_mb != SIZES_MB


_PULLDOWN = (("markdown_parser", "pulldown-cmark"),)


KINDS: tuple[Kind, ...] = (
    Kind("prose, no structure", "text", prose),
    Kind("one giant Markdown list", "markdown", markdown_list),
    Kind("100,000 tiny paragraphs", "markdown", tiny_paragraphs),
    Kind("one 16 MB line", "text", one_line),
    Kind("10,000 nested <div>s", "html", nested_divs),
    Kind("Python, one function per line", "python", python_one_liners),
    Kind("2,000-row table", "markdown", wide_table),
    Kind("Python cut mid-line (syntax error)", "python", python_cut_mid_line),
    Kind("Python, a syntax error early", "python", python_error_early),
    Kind("Python, a syntax error in the middle", "python", python_error_middle),
    Kind("[[[...]]] nested JSON arrays", "json", nested_json_arrays, (0.2, 0.4, 0.8)),
    Kind("JSON records on one line", "json", one_line_json, (2.5, 5, 10)),
    Kind("JSON records, indented", "json", pretty_json, (5, 10, 20)),
    Kind("one giant Markdown list, pulldown-cmark", "markdown", markdown_list, options=_PULLDOWN),
    Kind("100,000 tiny paragraphs, pulldown-cmark", "markdown", tiny_paragraphs, options=_PULLDOWN),
    Kind("2,000-row table, pulldown-cmark", "markdown", wide_table, options=_PULLDOWN),
)


# -- one synthetic document (run in a subprocess) ------------------------------------------


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def measure_one(kind_name: str, megabytes: float, chunk_size: int) -> dict[str, Any]:
    """Split one synthetic document in this process: CPU seconds, peak RSS over the
    baseline (imports, a warm-up split), chunk count."""
    from outline_splitter import OutlineTextSplitter

    kind = next(k for k in KINDS if k.name == kind_name)
    splitter = OutlineTextSplitter(doc_type=kind.doc_type, chunk_size=chunk_size, **dict(kind.options))
    splitter.split(kind.make(20_000))  # load the grammar and the tokenizer
    baseline = _rss_mb()
    text = kind.make(int(megabytes * 2**20))
    started = time.process_time()
    chunks = splitter.split(text)
    seconds = time.process_time() - started
    return {"seconds": seconds, "peak_mb": _rss_mb() - baseline, "chunks": len(chunks), "bytes": len(text)}


@dataclass
class SyntheticRow:
    kind: str
    doc_type: str
    seconds: dict[float, float | None]  # MB -> CPU s (None: failed or timed out)
    peak_ratio: dict[float, float | None]  # MB -> peak memory / input size
    chunks: dict[float, int | None]
    failures: dict[float, str]
    peak_mb: dict[float, float | None] = field(default_factory=dict)  # MB -> peak memory
    sizes: tuple[float, ...] = SIZES_MB

    @property
    def growth(self) -> float | None:
        first, last = self.seconds.get(SIZES_MB[0]), self.seconds.get(SIZES_MB[-1])
        return last / first if first and last is not None else None

    def per_doubling(self, values: dict[float, float | None]) -> float | None:
        """The largest growth of `values` per doubling of the size, from one measured
        size to the next (a doubling kind's bar is 2.2)."""
        known = {mb: v for mb, v in values.items() if v}
        steps = [(known[b] / known[a]) ** (1 / math.log2(b / a)) for a, b in pairwise(sorted(known))]
        return max(steps) if steps else None


def _run_one(kind: Kind, megabytes: float, chunk_size: int, timeout: float) -> tuple[dict[str, Any] | None, str]:
    """`measure_one` in a fresh process: its result, or None and why not."""
    command = [sys.executable, "-m", "benchmarks.scale", "--one", kind.name, str(megabytes), str(chunk_size)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, f"timed out: more than {timeout:.0f} s"
    if done.returncode != 0:
        return None, (done.stderr.strip().splitlines() or ["failed"])[-1][:200]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result, ""


def run_synthetic(
    kind: Kind, chunk_size: int, timeout: float, echo: Callable[[str], None], repeat: int = 3
) -> SyntheticRow:
    """Each size of `kind` split `repeat` times, each in a fresh process, the sizes taking
    turns round after round: a size's least CPU time counts and its largest peak. This
    VM's speed drifts by a third within a minute (the 16 MB nested `<div>`s took 1.58 s
    and 2.14 s in two runs), which one run per size read as superlinear growth."""
    row = SyntheticRow(kind.name, kind.doc_type, {}, {}, {}, {}, sizes=kind.sizes_mb)
    sizes = list(kind.sizes_mb)
    for _ in range(repeat):
        for megabytes in list(sizes):
            result, failure = _run_one(kind, megabytes, chunk_size, timeout)
            if result is None:
                row.seconds[megabytes] = row.peak_ratio[megabytes] = row.chunks[megabytes] = None
                row.failures[megabytes] = failure
                echo(f"  {kind.name} {megabytes} MB: {failure}")
                # not run again, nor (after a timeout) a larger size, which takes longer still
                timed_out = failure.startswith("timed out")
                sizes = [mb for mb in sizes if mb < megabytes or (mb > megabytes and not timed_out)]
                continue
            seconds, ratio = result["seconds"], result["peak_mb"] / (result["bytes"] / 2**20)
            row.seconds[megabytes] = min(seconds, row.seconds.get(megabytes) or seconds)
            row.peak_ratio[megabytes] = max(ratio, row.peak_ratio.get(megabytes) or ratio)
            row.chunks[megabytes] = result["chunks"]
            row.peak_mb[megabytes] = max(result["peak_mb"], row.peak_mb.get(megabytes) or 0.0)
            echo(f"  {kind.name} {megabytes} MB: {seconds:.2f} s, peak {result['peak_mb']:.0f} MB")
    return row


# -- split_many on the corpora -------------------------------------------------------------


def corpus_paths(shared: Path = SHARED_CORPORA) -> list[Path]:
    """The shared corpora's files (the harness's folders)."""
    paths: list[Path] = []
    for folder, doc_type in SHARED_FOLDERS.items():
        extensions = extensions_for(doc_type)
        paths += sorted(p for p in (shared / folder).rglob("*") if p.is_file() and p.suffix.lower() in extensions)
    return paths


def _fingerprint(results: Iterator[Any]) -> tuple[list[tuple[tuple[int, int, int], ...]], int]:
    """Each result's chunk spans (start, end, tokens) and the total chunk count."""
    spans = []
    for result in results:
        if not result.ok:
            raise RuntimeError(result.describe())
        spans.append(tuple((c.start_pos, c.end_pos, c.token_count) for c in result.chunks))
    return spans, sum(len(s) for s in spans)


def run_throughput(docs: int, chunk_size: int, echo: Callable[[str], None]) -> dict[str, Any]:
    """Wall seconds of `split_many` over `docs` corpus files (repeated) with 1 and 2
    workers; the chunks must be the same."""
    from outline_splitter import split_many

    files = corpus_paths()
    items = [files[i % len(files)] for i in range(docs)]
    megabytes = sum(path.stat().st_size for path in items) / 1e6
    seconds: dict[int, float] = {}
    fingerprints = {}
    for workers in (1, 2):
        started = time.perf_counter()
        fingerprints[workers], chunks = _fingerprint(split_many(items, workers=workers, chunk_size=chunk_size))
        seconds[workers] = time.perf_counter() - started
        echo(f"  split_many workers={workers}: {docs} docs, {megabytes:.0f} MB, {seconds[workers]:.1f} s")
    if fingerprints[1] != fingerprints[2]:
        raise RuntimeError("split_many with 2 workers gave other chunks than with 1")
    return {
        "docs": docs,
        "files": len(files),
        "megabytes": megabytes,
        "chunks": chunks,
        "seconds_1": seconds[1],
        "seconds_2": seconds[2],
        "ratio": seconds[2] / seconds[1],
    }


def measure_stream(count: int) -> dict[str, Any]:
    """The parent's RSS after the first 1,000 results and at the end, while split_many
    (2 workers) streams a generator of `count` short texts (run in a subprocess)."""
    from outline_splitter import split_many

    texts = (f"# Note {n}\n\nA short note, number {n}, {_words(8, n)}.\n" for n in range(count))
    early = 0.0
    chunks = 0
    started = time.perf_counter()
    for result in split_many(texts, workers=2):
        chunks += len(result.chunks)
        if result.index == 1000:
            early = _rss_mb()
    return {
        "count": count,
        "chunks": chunks,
        "early_mb": early,
        "final_mb": _rss_mb(),
        "seconds": time.perf_counter() - started,
    }


def run_stream(count: int, timeout: float) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.scale", "--stream-one", str(count)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- report --------------------------------------------------------------------------------


def _cell(value: float | None, digits: int = 2) -> str:
    return "failed" if value is None else f"{value:.{digits}f}"


def report(rows: Sequence[SyntheticRow], throughput: dict[str, Any] | None, stream: dict[str, Any] | None,
           chunk_size: int, when: str) -> str:  # fmt: skip
    """The Scaling section of docs/benchmarks.md."""
    lines = [
        SCALING_HEADING,
        "",
        f"`make bench-scale` (`python -m benchmarks.scale`), measured {when} on {machine()}, at {chunk_size} tokens.",
        "",
        "### Synthetic documents",
        "",
        "CPU seconds to split one document of each size (the least of the runs, each in a fresh process,"
        " the sizes taking turns); **s/MB** at 16 MB; **16/1**: time(16 MB) / time(1 MB)"
        f" (16 is linear; the bar is {LINEAR_BAR:.0f}); **peak/input**: the largest, over the sizes, of the"
        f" process's peak RSS growth over the input size (the input included; the bar is {MEMORY_BAR:.0f}).",
        "",
        "| kind | doc type | 1 MB s | 4 MB s | 16 MB s | s/MB | 16/1 | peak/input | chunks at 16 MB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        if row.sizes != SIZES_MB:
            continue  # in the doubling table
        last = row.seconds.get(SIZES_MB[-1])
        ratios = [r for r in row.peak_ratio.values() if r is not None]
        lines.append(
            f"| {row.kind} | {row.doc_type} | "
            + " | ".join(_cell(row.seconds.get(mb)) for mb in SIZES_MB)
            + f" | {_cell(None if last is None else last / SIZES_MB[-1], 3)} | {_cell(row.growth, 1)}"
            f" | {_cell(max(ratios) if ratios else None, 1)} | {row.chunks.get(SIZES_MB[-1]) or '-'} |"
        )
    lines += _doubling_table([row for row in rows if row.sizes != SIZES_MB])
    for row in rows:
        for megabytes, why in row.failures.items():
            lines.append(f"\n- {row.kind}, {megabytes} MB: {why}")
    if throughput is not None:
        lines += [
            "",
            "### split_many on the corpora",
            "",
            f"{throughput['docs']} documents (the {throughput['files']} files of the shared corpora repeated,"
            f" {throughput['megabytes']:.0f} MB, {throughput['chunks']} chunks), wall seconds:"
            f" 1 worker {throughput['seconds_1']:.1f} s, 2 workers {throughput['seconds_2']:.1f} s,"
            f" ratio **{throughput['ratio']:.2f}** (the bar is 0.6 on 2 cores; both runs gave the same chunks).",
        ]
    if stream is not None:
        lines += [
            "",
            f"Streaming a generator of {stream['count']} short texts through 2 workers ({stream['seconds']:.0f} s):"
            f" the parent's peak RSS was {stream['early_mb']:.0f} MB after 1,000 results and"
            f" {stream['final_mb']:.0f} MB at the end (growth {stream['final_mb'] - stream['early_mb']:.1f} MB;"
            " the bar is 50 MB).",
        ]
    return "\n".join(lines) + "\n"


def _doubling_table(rows: Sequence[SyntheticRow]) -> list[str]:
    """The rows of the kinds measured at doublings of their own sizes: each size's CPU
    seconds and peak memory, the largest growth of each per doubling (the bar is
    `DOUBLING_BAR`) and the largest peak over the input."""
    if not rows:
        return []
    lines = [
        "",
        "Kinds measured at doublings of their own sizes (their memory per MB allows no 16 MB): CPU seconds and"
        " peak MB at each size, **time x** and **memory x**: the largest growth per doubling"
        f" (the bar is {DOUBLING_BAR}), **peak/input** as above.",
        "",
        "| kind | doc type | sizes (MB) | s | peak MB | time x | memory x | peak/input |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        ratios = [r for r in row.peak_ratio.values() if r is not None]
        lines.append(
            f"| {row.kind} | {row.doc_type} | {' / '.join(f'{mb:g}' for mb in row.sizes)}"
            f" | {' / '.join(_cell(row.seconds.get(mb)) for mb in row.sizes)}"
            f" | {' / '.join(_cell(row.peak_mb.get(mb), 0) for mb in row.sizes)}"
            f" | {_cell(row.per_doubling(row.seconds))} | {_cell(row.per_doubling(row.peak_mb))}"
            f" | {_cell(max(ratios) if ratios else None, 1)} |"
        )
    return lines


def write_docs(section: str, docs: Path = DOCS) -> None:
    """Put `section` in docs/benchmarks.md in place of its Scaling section (or at the end)."""
    page = docs.read_text(encoding="utf-8") if docs.is_file() else "# Benchmarks\n"
    head, _, _ = page.partition(f"\n{SCALING_HEADING}\n")
    docs.write_text(head.rstrip("\n") + "\n\n" + section, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunk-size", type=int, default=512, metavar="N", help="tokens per chunk (default 512)")
    parser.add_argument("--kinds", nargs="+", metavar="WORD", help="only synthetic kinds whose name has one of these")
    parser.add_argument("--docs", type=int, default=8000, metavar="N", help="documents for split_many (default 8000)")
    parser.add_argument("--short", type=int, default=100_000, metavar="N", help="short texts streamed (default 100000)")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="S", help="seconds per synthetic document")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs of each synthetic size (default 3)")
    parser.add_argument("--skip", nargs="+", default=[], choices=("synthetic", "throughput", "stream"))
    parser.add_argument(
        "--no-docs", action="store_true", help="print only: write neither docs/benchmarks.md nor benchmarks/results"
    )
    parser.add_argument("--one", nargs=3, metavar=("KIND", "MB", "CHUNK_SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--stream-one", type=int, metavar="N", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one[0], float(args.one[1]), int(args.one[2]))))
        return 0
    if args.stream_one:
        print(json.dumps(measure_stream(args.stream_one)))
        return 0

    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    kinds = [k for k in KINDS if not args.kinds or any(w.lower() in k.name.lower() for w in args.kinds)]
    rows = [
        run_synthetic(kind, args.chunk_size, args.timeout, print, args.repeat)
        for kind in ([] if "synthetic" in args.skip else kinds)
    ]
    missing = missing_shared_corpora()
    if missing and "throughput" not in args.skip:
        # the split_many figures need the shared corpora; a partial section is not written over the tracked one
        print(f"{', '.join(map(str, missing))} not here: split_many's throughput is skipped and nothing is written")
    measured = "throughput" not in args.skip and not missing
    throughput = run_throughput(args.docs, args.chunk_size, print) if measured else None
    stream = None if "stream" in args.skip else run_stream(args.short, args.timeout)
    section = report(rows, throughput, stream, args.chunk_size, when)
    print("\n" + section)
    if missing and "throughput" not in args.skip:
        return 0
    if args.no_docs or args.kinds or args.skip:
        print("a partial run (--kinds, --skip or --no-docs): tracked results and docs left as they are")
        return 0
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {"when": when, "rows": [asdict(r) for r in rows], "throughput": throughput, "stream": stream}
    (RESULTS / "scale.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    (RESULTS / "scale.md").write_text(section, encoding="utf-8")
    write_docs(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
