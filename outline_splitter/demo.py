"""`python -m outline_splitter.demo [PATH] [CHUNK_SIZE]`: split a document (by default
the bundled sample) and print each chunk with its offsets, token count and headings."""

from __future__ import annotations

import sys
from pathlib import Path

from outline_splitter import OutlineTextSplitter

SAMPLE = Path(__file__).with_name("samples") / "sample.md"


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else SAMPLE
    chunk_size = int(argv[1]) if len(argv) > 1 else 96
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=chunk_size)
    chunks = splitter.split_file(path)
    print(f"{path.name}: {len(chunks)} chunks of at most {chunk_size} tokens ({splitter.tokenizer.name})\n")
    for chunk in chunks:
        headings = " > ".join(chunk.metadata["heading_path"]) or "(no heading)"
        span = f"[{chunk.start_pos}, {chunk.end_pos})"
        print(f"--- chunk {chunk.metadata['index']}  {span}  {chunk.token_count} tokens  {headings}")
        print(chunk.text)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
