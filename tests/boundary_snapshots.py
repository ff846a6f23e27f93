"""Boundary snapshots: every chunk's `(start_pos, end_pos, token_count)` for the shared
corpora and a fixed set of stdlib modules, at 128 and 512 tokens, stored under
`tests/snapshots/` so that any change that moves a boundary shows up in review as a diff.

Regenerate them (after a change that moves boundaries on purpose) with

    make snapshots        # = .venv/bin/python -m tests.boundary_snapshots

`tests/test_boundary_snapshots.py` compares the stored files with a fresh split.
"""

from __future__ import annotations

import hashlib
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from outline_splitter import OutlineTextSplitter

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
BUDGETS = (128, 512)
# A fixed dozen of the stdlib modules the code tests read: a snapshot of a module is
# only compared where the interpreter's copy has the same bytes as the one snapshotted.
STDLIB_SNAPSHOT_MODULES = (
    "argparse", "bisect", "csv", "dataclasses", "email/message", "fractions",
    "heapq", "shlex", "statistics", "textwrap", "typing", "xml/dom/minidom",
)  # fmt: skip


@dataclass(frozen=True)
class SnapshotCase:
    """One document split one way: `name` is its snapshot file, relative to SNAPSHOTS."""

    name: str
    path: Path
    doc_type: str
    output: str | None = None


def corpus_cases() -> Iterator[SnapshotCase]:
    """Every file of ../shared/corpora (HTML in both outputs)."""
    for path in sorted(CORPORA.rglob("*")):
        if not path.is_file():
            continue
        relative = path.relative_to(CORPORA).as_posix()
        if path.suffix == ".md":
            yield SnapshotCase(f"corpora/{relative}.txt", path, "markdown")
        elif path.suffix == ".html":
            for output in ("html", "text"):
                yield SnapshotCase(f"corpora/{relative}.{output}.txt", path, "html", output)


def stdlib_cases() -> Iterator[SnapshotCase]:
    """The fixed stdlib modules of this interpreter."""
    root = Path(sysconfig.get_paths()["stdlib"])
    for name in STDLIB_SNAPSHOT_MODULES:
        yield SnapshotCase(f"stdlib/{name.replace('/', '.')}.py.txt", root / f"{name}.py", "python")


def render_snapshot(case: SnapshotCase) -> str:
    """The snapshot text of one case: a header naming the input's digest, then per
    budget one `start end tokens` line per chunk."""
    data = case.path.read_bytes()
    text = data.decode("utf-8")
    lines = [f"# {case.path.name} sha256={hashlib.sha256(data).hexdigest()[:16]}"]
    for budget in BUDGETS:
        splitter = OutlineTextSplitter(doc_type=case.doc_type, chunk_size=budget, output=case.output)
        lines.append(f"## chunk_size={budget}")
        lines.extend(f"{c.start_pos} {c.end_pos} {c.token_count}" for c in splitter.split(text))
    return "\n".join(lines) + "\n"


def stored_digest(snapshot: str) -> str:
    """The input digest a stored snapshot was made from."""
    return snapshot.split("sha256=", 1)[1].split()[0]


def input_digest(case: SnapshotCase) -> str:
    return hashlib.sha256(case.path.read_bytes()).hexdigest()[:16]


def main() -> None:
    cases = [*corpus_cases(), *stdlib_cases()]
    if not CORPORA.is_dir():
        sys.exit(f"{CORPORA} is missing: snapshots are made from ../shared/corpora")
    for case in cases:
        target = SNAPSHOTS / case.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_snapshot(case), encoding="utf-8")
    print(f"wrote {len(cases)} snapshots under {SNAPSHOTS}")


if __name__ == "__main__":
    main()
