"""Golden record of the seed-style calls with separators on every real page (issue 15:
`separators=["h2", "h3", "p"]` looped on real pages): for each page of
`../shared/corpora/html-web` and `html-spec`, each separator set and each splitter class,
the number of chunks and a digest of their boundaries, in `tests/snapshots/separators.json`.
Regenerate after a change that moves boundaries on purpose, and review the diff:

    python -m tests.separator_pages
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from outline_splitter import HTMLTextSplitter, OutlineTextSplitter, TextChunk

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
GOLDEN = Path(__file__).resolve().parent / "snapshots" / "separators.json"
FOLDERS = ("html-web", "html-spec")
SEPARATOR_SETS = (("h2", "h3", "p"), ("p",), ("div",), ("li",))
CHUNK_SIZE, MAX_CHUNK_SIZE = 400, 600


def seed_splitter(separators: tuple[str, ...]) -> HTMLTextSplitter:
    """The seed's own call: sizes in characters, readable text."""
    return HTMLTextSplitter(chunk_size=CHUNK_SIZE, max_chunk_size=MAX_CHUNK_SIZE, separators=list(separators))


def outline_splitter(separators: tuple[str, ...]) -> OutlineTextSplitter:
    """The same in `OutlineTextSplitter`: sizes in cl100k tokens, source slices."""
    return OutlineTextSplitter(
        doc_type="html", chunk_size=CHUNK_SIZE, max_chunk_size=MAX_CHUNK_SIZE, separators=list(separators)
    )


def case_key(page: Path, separators: tuple[str, ...], splitter: str) -> str:
    return f"{page.parent.name}/{page.name} {splitter} {','.join(separators)}"


def record(chunks: list[TextChunk]) -> list[object]:
    """[chunk count, digest of every (start, end, count)]."""
    boundaries = ";".join(f"{c.start_pos},{c.end_pos},{c.token_count}" for c in chunks)
    return [len(chunks), hashlib.sha256(boundaries.encode()).hexdigest()[:16]]


def pages(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file())


def golden_records() -> Iterator[tuple[str, list[object]]]:
    for folder in FOLDERS:
        for page in pages(CORPORA / folder):
            html = page.read_text(encoding="utf-8")
            for separators in SEPARATOR_SETS:
                yield case_key(page, separators, "seed"), record(seed_splitter(separators).split_chunks(html))
                yield case_key(page, separators, "outline"), record(outline_splitter(separators).split(html))


def main() -> None:
    if not CORPORA.is_dir():
        sys.exit(f"{CORPORA} is missing: the golden record is made from ../shared/corpora")
    golden = dict(golden_records())
    GOLDEN.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(golden)} records to {GOLDEN}")


if __name__ == "__main__":
    main()
