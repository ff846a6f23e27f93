"""CPU time of packing and chunk assembly (what every format pays after detection, on
the main thread), beside the whole split and its other steps, as ratios to one tiktoken
pass, 512 tokens.

For each document the outline and the view (with its token index, encoded in place)
are made once, outside the timing; "pack" then times `pack_outline`, the overlaps and
`Assembly` making the chunks from them, and "split" the whole `split`. Beside them,
"index" times the token index made in place (the encode and its offsets), "detect" the
detector with its check, "mark" the traits the options add; "in place" is a split that
encodes on its own thread (`encode_in_background=False`), less those four steps (the
view, the collector's pause, the calls between the steps), and "threads" what the split
costs beyond that one: the hand-over to the encode threads and the extra CPU of two
threads at work at once. Each figure is each document's best CPU time of `--repeat`
turns (`benchmarks.timing`).

    python -m benchmarks.pack_speed [--corpus markdown] [--budget 512] [--repeat 5]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial

from benchmarks.timing import best_per_document
from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.assembly import Assembly
from outline_splitter.bench.corpora import default_corpora, missing_shared_corpora
from outline_splitter.gc_pause import paused_gc
from outline_splitter.packing.overlap import overlaps
from outline_splitter.registry import resolve_doc_type
from outline_splitter.tokens import load_encoding
from outline_splitter.tokens.counters import DocumentCounters, span_counter_for

CORPORA = ("markdown", "html-web", "plain-text", "stdlib")


def packer(splitter: OutlineTextSplitter, text: str) -> Callable[[], list[TextChunk]]:
    """A call that packs `text` and makes its chunks, its outline and view made already."""
    options = splitter.options
    fmt = resolve_doc_type(options.doc_type)
    output = options.output_for(fmt)
    counters = DocumentCounters(splitter.tokenizer, text, False, fmt.detector_speed)
    root = splitter._outline(text, fmt)
    view = splitter._view(text, root, fmt, output, counters)

    def run() -> list[TextChunk]:
        with paused_gc():  # (as `split` runs it)
            spans = splitter._pack(root, view, 0)
            edges = overlaps(spans, view, options.chunk_overlap, options.overlap_across_sections)
            assembly = Assembly(text, root, view, ("", ""), (fmt.name, output if len(fmt.outputs) > 1 else None))
            return assembly.chunks(assembly.leaves(spans, edges))

    return run


def _pack(packers: dict[str, Callable[[], list[TextChunk]]], text: str) -> list[TextChunk]:
    return packers[text]()


def step_runs(splitter: OutlineTextSplitter) -> dict[str, Callable[[str], object]]:
    """The split's steps before packing, each a call on a document's text: "index" (its
    token index, made in place), "detect" and "detect+mark" (the mark's share is the
    difference: it changes the outline it is given, so it is timed on a fresh one)."""
    fmt = resolve_doc_type(splitter.options.doc_type)
    return {
        "index": partial(span_counter_for, splitter.tokenizer),
        "detect": partial(splitter._detect, fmt=fmt),
        "detect+mark": partial(splitter._outline, fmt=fmt),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", choices=CORPORA, help="one of them (default: all four)")
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if missing_shared_corpora():
        raise SystemExit(f"{missing_shared_corpora()[0]} is not here: this benchmark reads the shared corpora")
    encoding = load_encoding("cl100k_base")
    for corpus in default_corpora():
        if corpus.name not in (args.corpus or CORPORA):
            continue
        splitter = OutlineTextSplitter(doc_type=corpus.doc_type, chunk_size=args.budget)
        in_place = OutlineTextSplitter(doc_type=corpus.doc_type, chunk_size=args.budget, encode_in_background=False)
        texts = [document.text for document in corpus.documents]
        packers = {text: packer(splitter, text) for text in texts}
        runs: dict[str, Callable[[str], object]] = {
            "floor": encoding.encode_ordinary,
            "split": splitter.split,
            "split in place": in_place.split,
            "pack": partial(_pack, packers),
            **step_runs(splitter),
        }
        best = best_per_document(runs, texts, args.repeat)
        floor = best["floor"]
        steps = {
            "index": best["index"],
            "detect": best["detect"],
            "mark": max(0.0, best["detect+mark"] - best["detect"]),
            "pack+assembly": best["pack"],
        }
        steps["in place"] = best["split in place"] - sum(steps.values())
        steps["threads"] = best["split"] - best["split in place"]
        shares = " + ".join(f"{name} {cpu / floor:.2f}" for name, cpu in steps.items())
        print(
            f"{corpus.name:<10} {len(texts):>4} docs {corpus.megabytes:6.2f} MB  tiktoken {floor:.3f} s  "
            f"split {best['split'] / floor:.2f}x = {shares}"
        )


if __name__ == "__main__":
    main()
