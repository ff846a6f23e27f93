"""`min_chunk_size` on the bench corpora: the harness's chunk figures with a minimum set,
and how many chunks stay under it, so that a change to where the minimum is kept (the
plan, the greedy pass, `packing/small_chunks.py`) can be weighed on the same figures.

    python -m benchmarks.min_chunk_size [--pairs 128/32 512/128] [CORPUS ...]

For each corpus (HTML in both outputs) and each `chunk_size/min_chunk_size` pair, one
line: chunks, chunks under the minimum, mean fill, units kept whole, mid-sentence cuts
and heading orphans (`outline_splitter.bench.figures`, measured as `make bench` measures
them), and a digest of every chunk's `(start_pos, end_pos, token_count)`, which says
whether any boundary moved between two runs.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Sequence

from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import Corpus, default_corpora
from outline_splitter.bench.ground_truth import Structure, structure_for
from outline_splitter.bench.harness import Row, measure
from outline_splitter.tokens import load_encoding

PAIRS = ((128, 32), (512, 128))


def figures_line(corpus: Corpus, output: str | None, structures: Sequence[Structure], budget: int, minimum: int) -> str:
    """One line of figures for `corpus` split at `budget` tokens with `minimum` as `min_chunk_size`."""
    encoding = load_encoding("cl100k_base")
    splitter = OutlineTextSplitter(doc_type=corpus.doc_type, chunk_size=budget, min_chunk_size=minimum, output=output)
    digest = hashlib.sha256()
    small = 0
    texts: list[list[str]] = []
    for document in corpus.documents:
        chunks = splitter.split(document.text)
        texts.append([chunk.text for chunk in chunks])
        for chunk in chunks:
            digest.update(f"{chunk.start_pos} {chunk.end_pos} {chunk.token_count};".encode())
            small += chunk.token_count < minimum
    row = Row("outline-splitter", corpus.name, corpus.doc_type, budget, "ok")
    measure(row, corpus, structures, texts, lambda text: len(encoding.encode_ordinary(text)), output == "text")
    kept = " ".join(f"{kind} {whole}/{eligible}" for kind, (whole, eligible) in row.kept_whole.items())
    name = corpus.name + ("/text" if output == "text" else "")
    return (
        f"{name} {budget}/{minimum}: {row.chunks} chunks, {small} under {minimum}, fill {row.mean_fill:.4f}, "
        f"{kept or '-'}, mid-sentence {row.mid_sentence[0]}/{row.mid_sentence[1]}, "
        f"heading orphans {row.heading_orphans}, digest {digest.hexdigest()[:12]}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", help="corpus names (default: every bench corpus)")
    parser.add_argument("--pairs", nargs="+", default=[f"{a}/{b}" for a, b in PAIRS], help="chunk_size/min")
    args = parser.parse_args(argv)
    pairs = [tuple(int(part) for part in pair.split("/")) for pair in args.pairs]
    encoding = load_encoding("cl100k_base")
    for corpus in default_corpora():
        if args.corpora and corpus.name not in args.corpora:
            continue
        structures = [
            structure_for(corpus.doc_type, document.text, lambda text: len(encoding.encode_ordinary(text)))
            for document in corpus.documents
        ]
        for output in (None, "text") if corpus.doc_type == "html" else (None,):
            for budget, minimum in pairs:
                print(figures_line(corpus, output, structures, budget, minimum), flush=True)


if __name__ == "__main__":
    main()
