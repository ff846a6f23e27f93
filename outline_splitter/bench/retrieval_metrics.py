"""The scores of Chroma's chunking evaluation ("Evaluating Chunking Strategies for
Retrieval", 2024): how much of the text a question needs the retrieved chunks hold
(recall), how much of what they hold is needed (precision), both at once (IoU), and the
best precision any retrieval of these chunks could reach (precision_Ω).

Spans are character ranges `(start, end)` into one corpus, as the benchmark's references
are (the report calls the measure token-level; its code counts characters, and so does
this module, so that its figures compare). Three rules of the report's code are kept,
because its published figures follow them:

- a chunk that only touches a reference (ends where it starts) counts as meeting it, with
  an empty intersection: for precision_Ω such a chunk is one of those covering the reference;
- precision's denominator adds up the lengths of the retrieved chunks, counting twice the
  text two overlapping chunks share, and chunks of another corpus count there too;
- recall's denominator adds up the references' lengths as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Span = tuple[int, int]


@dataclass(frozen=True)
class Placed:
    """A span in a named corpus: a chunk, or a reference of a question."""

    corpus: str
    start: int
    end: int


@dataclass(frozen=True)
class Scores:
    """One question's scores, each from 0 to 1."""

    recall: float
    precision: float
    iou: float


def merged(spans: Iterable[Span]) -> list[Span]:
    """The union of `spans` as sorted, disjoint spans (touching spans become one)."""
    union: list[Span] = []
    for start, end in sorted(spans):
        if union and start <= union[-1][1]:
            union[-1] = (union[-1][0], max(union[-1][1], end))
        else:
            union.append((start, end))
    return union


def length(spans: Iterable[Span]) -> int:
    """The spans' lengths added up (shared text counted once per span)."""
    return sum(end - start for start, end in spans)


def meeting(one: Span, other: Span) -> Span | None:
    """The intersection of two spans, empty when they only touch; `None` when apart."""
    start, end = max(one[0], other[0]), min(one[1], other[1])
    return (start, end) if start <= end else None


def without(spans: Sequence[Span], cut: Span) -> list[Span]:
    """`spans` with the characters of `cut` taken out."""
    rest: list[Span] = []
    for start, end in spans:
        if end < cut[0] or start > cut[1]:
            rest.append((start, end))
            continue
        if start < cut[0]:
            rest.append((start, cut[0]))
        if end > cut[1]:
            rest.append((cut[1], end))
    return rest


@dataclass
class _Coverage:
    """What a set of chunks holds of a question's references."""

    found: list[Span]
    missed: list[Span]
    covering: list[Span]


def _coverage(references: Sequence[Span], chunks: Iterable[Span]) -> _Coverage:
    found: list[Span] = []
    missed = list(references)
    covering: list[Span] = []
    for chunk in chunks:
        cuts = [cut for reference in references if (cut := meeting(chunk, reference)) is not None]
        for cut in cuts:
            missed = without(missed, cut)
        if cuts:
            found.extend(cuts)
            covering.append(chunk)
    return _Coverage(merged(found), missed, merged(covering))


def retrieval_scores(references: Sequence[Placed], retrieved: Sequence[Placed]) -> Scores:
    """Recall, precision and IoU of the chunks `retrieved` for one question whose answer
    is `references` (all in one corpus; retrieved chunks of other corpora hold nothing of it)."""
    if not references:
        raise ValueError("references must hold at least one span")
    corpus = references[0].corpus
    spans = [(reference.start, reference.end) for reference in references]
    coverage = _coverage(spans, [(chunk.start, chunk.end) for chunk in retrieved if chunk.corpus == corpus])
    needed = length(coverage.found)
    wanted = length(spans)
    held = length((chunk.start, chunk.end) for chunk in retrieved)
    union = held + length(coverage.missed)
    return Scores(
        recall=needed / wanted if wanted else 0.0,
        precision=needed / held if held else 0.0,
        iou=needed / union if union else 0.0,
    )


def precision_omega(references: Sequence[Placed], chunks: Sequence[Placed]) -> float:
    """The precision of retrieving exactly the chunks that meet the references (and
    nothing else): the best precision these chunks allow, whatever the embedding model.
    The text of a reference that no chunk holds counts against it."""
    if not references:
        raise ValueError("references must hold at least one span")
    corpus = references[0].corpus
    spans = [(reference.start, reference.end) for reference in references]
    low, high = min(start for start, _ in spans), max(end for _, end in spans)
    near = [(c.start, c.end) for c in chunks if c.corpus == corpus and c.end >= low and c.start <= high]
    coverage = _coverage(spans, near)
    if not coverage.found:
        return 0.0
    return length(coverage.found) / length(merged(coverage.covering + coverage.missed))


def located(text: str, chunks: Sequence[str], corpus: str) -> list[Placed]:
    """Where each chunk of `text` is, for splitters that give only the chunks' texts: each
    is searched for from just after the previous one's start (chunks come in order and may
    overlap). A `ValueError` names the first chunk that is not a slice of `text`."""
    places: list[Placed] = []
    cursor = 0
    for index, chunk in enumerate(chunks):
        start = text.find(chunk, cursor)
        if start < 0:
            raise ValueError(f"chunk {index} is not a slice of corpus {corpus!r}: {chunk[:60]!r}")
        places.append(Placed(corpus, start, start + len(chunk)))
        cursor = start + 1
    return places
