"""The figures of the benchmark, one function each; the docstring is the definition.

Per-document figures return a numerator and a denominator, so that the harness sums
both over a corpus before dividing (a corpus figure weighs every chunk, unit or boundary
the same, not every document).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from outline_splitter.bench.ground_truth import Unit


def throughput(seconds: float, megabytes: float) -> float:
    """MB/s: the corpus's UTF-8 size in MB (10**6 bytes) over the wall-clock seconds of
    splitting every document once (`time.perf_counter`, one process, nothing else
    running). `inf` for zero seconds."""
    return megabytes / seconds if seconds > 0 else float("inf")


def tiktoken_ratio(seconds: float, tiktoken_seconds: float) -> float:
    """How many times one tiktoken pass the split costs: the seconds of splitting the
    corpus over the seconds of one `encode_ordinary` of every document of the corpus
    (the harness's fastest, timed beside the split). An exact splitter must count every token at least once, so 1.0 is
    the floor it can approach."""
    return seconds / tiktoken_seconds if tiktoken_seconds > 0 else float("inf")


def mean_fill(token_counts: Sequence[int], budget: int) -> float:
    """Mean fill: the mean over chunks of (the chunk's cl100k tokens / the budget).
    Higher means fewer, fuller chunks; above 1.0 only through over-budget chunks."""
    return sum(token_counts) / (budget * len(token_counts)) if token_counts else 0.0


def over_budget(token_counts: Sequence[int], budget: int) -> tuple[int, float]:
    """(chunks over budget, worst overshoot): how many chunks have more cl100k tokens
    (counted with a plain `encode_ordinary` of the chunk text) than the budget, and the
    largest `tokens / budget - 1` among them (0.0 when none is over)."""
    over = [count for count in token_counts if count > budget]
    return len(over), (max(over) / budget - 1.0 if over else 0.0)


def exact_spans(document: str, chunks: Sequence[str]) -> int:
    """How many chunks map to an exact source span: the chunk's text occurs verbatim in
    the document at or after where the previous mapped chunk started (document order;
    overlap allowed). A chunk whose text was rewritten (whitespace trimmed inside,
    markup turned into text, a header added) does not map."""
    mapped = 0
    cursor = 0
    for chunk in chunks:
        found = document.find(chunk, cursor)
        if found >= 0:
            mapped += 1
            cursor = found
    return mapped


def kept_whole(units: Sequence[Unit], kind: str, chunk_streams: Sequence[str], budget: int) -> tuple[int, int]:
    """(kept whole, eligible) for the units of one `kind` (list, table, fence, pre,
    definition, comment): eligible units are those whose source fits the budget (cl100k
    tokens <= budget), so a splitter could keep them in one chunk; a unit is kept whole
    when its squashed text lies inside the squashed text of a single chunk.

    For `comment` units (a definition's leading comment lines and decorators with its
    header line) this is *comment attachment*: the comments stay in the definition's chunk."""
    eligible = [unit for unit in units if unit.kind == kind and unit.tokens <= budget and unit.text]
    if not eligible:
        return 0, 0
    # NUL never occurs in a squashed unit, so a match cannot span two chunks.
    joined = "\0".join(chunk_streams)
    return sum(1 for unit in eligible if unit.text in joined), len(eligible)


def chunk_ends(stream: str, chunk_streams: Sequence[str], tail: int = 40) -> list[int]:
    """Where each chunk but the last ends in the document's `stream` (squashed text):
    the end of the first match of the chunk's last `tail` characters at or after the
    previous end. Chunks that cannot be found there (text rewritten) are left out."""
    ends: list[int] = []
    cursor = 0
    for chunk in chunk_streams[:-1]:
        needle = chunk[-tail:]
        if not needle:
            continue
        found = stream.find(needle, cursor)
        if found < 0:
            continue
        cursor = found + len(needle)
        ends.append(cursor)
    return ends


def mid_sentence_cuts(sentences: Sequence[tuple[int, int]], boundaries: Sequence[int]) -> tuple[int, int]:
    """(cuts inside a sentence, boundaries located): a boundary between two chunks is a
    mid-sentence cut when it falls strictly inside a sentence of a paragraph, that is
    `start < boundary < end` for a sentence span in the squashed stream (sentences from
    the parser's paragraphs, cut by `ground_truth.SENTENCE_END`). Boundaries between
    sentences, between paragraphs, or outside paragraphs (headings, lists, code) are not
    cuts. `sentences` must be sorted and disjoint."""
    starts = [start for start, _ in sentences]
    cuts = 0
    for boundary in boundaries:
        i = bisect.bisect_left(starts, boundary) - 1
        if i >= 0 and sentences[i][0] < boundary < sentences[i][1]:
            cuts += 1
    return cuts, len(boundaries)


def heading_orphans(chunk_streams: Sequence[str], headings: set[str]) -> int:
    """Chunks that end with a heading whose body is in the next chunk: a chunk, not the
    last, whose squashed text ends with the squashed text of one of the document's
    headings (Markdown: the heading's source line; HTML: the `h1`-`h6` text)."""
    lengths = sorted({len(heading) for heading in headings})
    return sum(
        1
        for chunk in chunk_streams[:-1]
        if any(chunk[-length:] in headings for length in lengths if length <= len(chunk))
    )
