"""Batches with the default worker count against one worker (`python -m benchmarks.batches`).

Three workloads, as issue 40 names them: 600 Markdown texts of 2-20 KB cut from the
corpus, a folder of 300 real files (the shared corpora's 195 and standard-library
modules) split by path, and the 8,000 corpus documents of `benchmarks.scale`. Each run is
a fresh process (`--one CASE WORKERS`), so worker start-up counts as a user sees it; the
two worker settings take turns, round after round, and the table gives each round's
ratio (default / one worker) of the whole process's wall time, since this shared VM's
speed drifts within seconds. Every run's chunks are fingerprinted and must agree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.scale import corpus_paths
from outline_splitter.bench.harness import ROOT
from outline_splitter.bench.stdlib_modules import STDLIB_MODULES

CASES = ("texts", "folder", "docs")
TEXTS = 600
TEXT_BYTES = (2_000, 20_000)
FOLDER_FILES = 300
DOCS = 8_000
CHUNK_SIZE = 512
# Where the folder case's files are copied (built once, reused by every run).
FOLDER = Path(tempfile.gettempdir()) / "outline-splitter-bench-folder"


def texts(count: int = TEXTS, seed: int = 40) -> list[str]:
    """`count` Markdown texts of 2-20 KB, consecutive slices of the corpus cut at line
    starts (the corpus repeated where it runs out)."""
    corpus = "\n".join(path.read_text(encoding="utf-8") for path in corpus_paths() if path.suffix == ".md")
    chooser = random.Random(seed)
    out: list[str] = []
    cursor = 0
    for _ in range(count):
        size = chooser.randint(*TEXT_BYTES)
        if cursor + size > len(corpus):
            cursor = 0
        end = corpus.find("\n", cursor + size)
        end = len(corpus) if end < 0 else end + 1
        out.append(corpus[cursor:end])
        cursor = end
    return out


def stdlib_files() -> list[Path]:
    """The standard library's modules: the benchmarks' 40 first, then the rest by name."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    named = [stdlib / f"{name}.py" for name in STDLIB_MODULES]
    rest = sorted(path for path in stdlib.glob("*.py") if path not in named)
    return named + rest


def folder(files: int = FOLDER_FILES) -> Path:
    """A folder of `files` real files: the shared corpora's, then stdlib modules."""
    sources = corpus_paths()
    sources += stdlib_files()[: max(0, files - len(sources))]
    if FOLDER.is_dir() and len(list(FOLDER.iterdir())) == files:
        return FOLDER
    shutil.rmtree(FOLDER, ignore_errors=True)
    FOLDER.mkdir(parents=True)
    for number, source in enumerate(sources[:files]):
        shutil.copyfile(source, FOLDER / f"{number:03d}-{source.name}")
    return FOLDER


def items(case: str, docs: int = DOCS) -> list[Any]:
    if case == "texts":
        return list(texts())
    if case == "folder":
        return sorted(folder().iterdir())
    files = corpus_paths()
    return [files[number % len(files)] for number in range(docs)]


def run_one(case: str, workers: int | None, docs: int = DOCS) -> dict[str, Any]:
    """One timed `split_many` of the case (this process), and its chunks' fingerprint."""
    from outline_splitter import split_many

    work = items(case, docs)
    digest = hashlib.blake2b(digest_size=8)
    chunks = 0
    started = time.perf_counter()
    for result in split_many(work, workers=workers, chunk_size=CHUNK_SIZE):
        if not result.ok:
            raise RuntimeError(result.describe())
        chunks += len(result.chunks)
        for chunk in result.chunks:
            digest.update(f"{result.index} {chunk.start_pos} {chunk.end_pos} {chunk.token_count};".encode())
    return {"seconds": time.perf_counter() - started, "chunks": chunks, "fingerprint": digest.hexdigest()}


def _timed(case: str, workers: str, docs: int) -> tuple[float, dict[str, Any]]:
    command = [sys.executable, "-m", "benchmarks.batches", "--docs", str(docs), "--one", case, workers]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - started, json.loads(done.stdout.strip().splitlines()[-1])


def paired(case: str, rounds: int, docs: int = DOCS, echo: Any = print) -> dict[str, Any]:
    """`rounds` pairs of whole-process runs, default workers and one worker taking turns."""
    ratios: list[float] = []
    walls: dict[str, list[float]] = {"default": [], "1": []}
    prints = set()
    for number in range(rounds):
        order = ("default", "1") if number % 2 == 0 else ("1", "default")
        got = {}
        for workers in order:
            wall, result = _timed(case, workers, docs)
            walls[workers].append(wall)
            prints.add(result["fingerprint"])
            got[workers] = wall
        ratios.append(got["default"] / got["1"])
        echo(
            f"  {case} round {number + 1}: default {got['default']:.2f} s, 1 worker {got['1']:.2f} s, "
            f"ratio {ratios[-1]:.2f}"
        )
    if len(prints) != 1:
        raise RuntimeError(f"{case}: the worker settings gave other chunks")
    return {
        "case": case,
        "docs": docs,
        "ratios": ratios,
        "median": statistics.median(ratios),
        "default_s": statistics.median(walls["default"]),
        "one_s": statistics.median(walls["1"]),
    }


def table(rows: Iterable[dict[str, Any]]) -> str:
    lines = [
        "| workload | 1 worker (s) | default (s) | default / 1: median | min-max |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    names = {
        "texts": f"{TEXTS} texts of 2-20 KB",
        "folder": f"{FOLDER_FILES}-file folder",
    }
    for row in rows:
        name = names.get(row["case"], f"{row['docs']:,} corpus documents")
        lines.append(
            f"| {name} | {row['one_s']:.2f} | {row['default_s']:.2f} | {row['median']:.2f} | "
            f"{min(row['ratios']):.2f}-{max(row['ratios']):.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batches", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    parser.add_argument("--rounds", type=int, default=4, metavar="N", help="pairs of runs per case (default 4)")
    parser.add_argument("--docs", type=int, default=DOCS, metavar="N", help=f"documents of the docs case ({DOCS})")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "WORKERS"), help="one run: WORKERS is 1, N or default")
    args = parser.parse_args(argv)
    if args.one:
        case, workers = args.one
        print(json.dumps(run_one(case, None if workers == "default" else int(workers), args.docs)))
        return 0
    rows = [paired(case, args.rounds, args.docs) for case in args.cases]
    print("\n" + table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
