"""Cutting a leaf that does not fit: by sentences, then lines, then words, then tokens.

Each level is used only for the parts the level above left too large, so a boundary
never falls inside a sentence while a sentence boundary would have fit. Line-oriented
leaves (code, preformatted text) are cut at line ends first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from outline_splitter.packing.view import ESTIMATE_SLACK, ChunkView, fits

Span = tuple[int, int]

# A sentence ends with terminal punctuation (and any closing quotes or brackets),
# followed by white space and then something that can start a sentence: a capital, a
# digit, an opening quote or bracket, or a non-Latin letter. "e.g. this" is not cut.
_SENTENCE_END = re.compile(r"""[.!?…。！？]+["'”’)\]]*\s+(?=["'“‘(\[]?[^\sa-z])""")
_CJK_SENTENCE_END = re.compile(r"[。！？]")
_LINE_END = re.compile(r"\r\n?|\n")
_WORD = re.compile(r"\S+")


def _split_at(pattern: re.Pattern[str], source: str, start: int, end: int) -> Iterator[Span]:
    cursor = start
    for match in pattern.finditer(source, start, end):
        if match.end() > cursor:
            yield cursor, match.end()
            cursor = match.end()
    if cursor < end:
        yield cursor, end


def sentences(source: str, start: int, end: int) -> Iterator[Span]:
    return _split_at(_SENTENCE_END, source, start, end)


def lines(source: str, start: int, end: int) -> Iterator[Span]:
    return _split_at(_LINE_END, source, start, end)


def words(source: str, start: int, end: int) -> Iterator[Span]:
    for match in _WORD.finditer(source, start, end):
        yield match.span()


Level = Callable[[str, int, int], Iterator[Span]]
PROSE_LEVELS: tuple[Level, ...] = (sentences, lines, words)
LINE_LEVELS: tuple[Level, ...] = (lines, sentences, words)


def split_leaf(view: ChunkView, start: int, end: int, limit: int, levels: tuple[Level, ...]) -> list[Span]:
    """Trimmed spans covering every non-space character of `[start, end)`, each of at
    most `limit` tokens, cut at the coarsest level that lets each part fit.

    With a close estimate, the parts of a level come back already joined, as the greedy
    packer would join them: each span runs over the most parts whose estimate is surely
    under the limit (found by galloping over the part ends, checked by one exact count),
    so a long script or stylesheet costs a few estimates per chunk, not a count per line."""
    if not levels:
        return cut_by_tokens(view, start, end, limit)
    parts = list(levels[0](view.source, start, end))
    if len(parts) <= 1:
        return split_leaf(view, start, end, limit, levels[1:])
    if view.close_estimate(start, start) is None:
        out: list[Span] = []
        for a, b in parts:
            a, b = view.trim(a, b)
            if a < b:
                out.extend([(a, b)] if fits(view, a, b, limit) else split_leaf(view, a, b, limit, levels[1:]))
        return out
    return _joined_parts(view, parts, limit, levels)


def _joined_parts(view: ChunkView, parts: list[Span], limit: int, levels: tuple[Level, ...]) -> list[Span]:
    out: list[Span] = []

    def surely_fits(first: int, last: int) -> bool:
        rough = view.close_estimate(parts[first][0], parts[last][1])
        return rough is not None and rough + ESTIMATE_SLACK <= limit

    i = 0
    while i < len(parts):
        if surely_fits(i, i):
            step, last = 1, i  # gallop, then bisect, to the last part that still surely fits
            while last + step < len(parts) and surely_fits(i, last + step):
                last += step
                step *= 2
            high = min(last + step, len(parts))  # the first part known not to fit, or the end
            while high - last > 1:
                middle = (last + high) // 2
                if surely_fits(i, middle):
                    last = middle
                else:
                    high = middle
            a, b = view.trim(parts[i][0], parts[last][1])
            if last == i or view.count(a, b, limit) <= limit:
                if a < b:
                    out.append((a, b))
                i = last + 1
                continue
        a, b = view.trim(*parts[i])  # alone: it fits, or it is cut at the next level
        if a < b:
            out.extend([(a, b)] if fits(view, a, b, limit) else split_leaf(view, a, b, limit, levels[1:]))
        i += 1
    return out


def cut_by_tokens(view: ChunkView, start: int, end: int, limit: int) -> list[Span]:
    """The last resort: prefixes that fit, each trimmed by the view (a cut never splits
    a surrogate pair). With a close estimate, a prefix ends where the estimate comes
    `ESTIMATE_SLACK` tokens under the limit, confirmed by one exact count (each exact
    count of a long line of minified script encodes the whole span); without one, or if
    the count refutes it, the longest prefix that fits is found by binary search."""
    out: list[Span] = []
    source = view.source
    while start < end:
        if view.count(start, end, limit) <= limit:
            piece = view.trim(start, end)
            if piece[0] < piece[1]:
                out.append(piece)
            break
        cut = _estimated_cut(view, start, end, limit)
        if cut is None:
            low, high = start + 1, end  # the answer is in [low, high)
            while high - low > 1:
                middle = (low + high) // 2
                if view.count(start, middle, limit) <= limit:
                    low = middle
                else:
                    high = middle
            cut = low
        if cut < end and "\udc00" <= source[cut] <= "\udfff" and cut - 1 > start:
            cut -= 1
        piece = view.trim(start, cut)
        if piece[0] < piece[1]:
            out.append(piece)
        start = max(cut, piece[1])
    return out


def _estimated_cut(view: ChunkView, start: int, end: int, limit: int) -> int | None:
    """The furthest cut whose close estimate is `ESTIMATE_SLACK` tokens under `limit`, if
    an exact count confirms that it fits; None otherwise."""
    first = view.close_estimate(start, start + 1)
    if first is None or first + ESTIMATE_SLACK > limit:
        return None
    low, high = start + 1, end  # estimates are monotone in the end: bisect on them alone
    while high - low > 1:
        middle = (low + high) // 2
        estimate = view.close_estimate(start, middle)
        if estimate is not None and estimate + ESTIMATE_SLACK <= limit:
            low = middle
        else:
            high = middle
    return low if view.count(start, low, limit) <= limit else None
