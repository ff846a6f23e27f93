"""Cutting a leaf that does not fit: by sentences, then lines, then words, then tokens.

Each level is used only for the parts the level above left too large, so a boundary
never falls inside a sentence while a sentence boundary would have fit. Line-oriented
leaves (code, preformatted text) are cut at line ends first. Below sentences and lines,
words are not atoms one by one (a megabyte on one line has 200,000 of them): the
longest runs of whole words that fit are found by galloping search.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import pairwise

from outline_splitter.detectors.lines import line_starts
from outline_splitter.packing.even import even_pair
from outline_splitter.packing.sentences import Span, sentences
from outline_splitter.packing.view import ChunkView, Level, fits
from outline_splitter.search import last_holding
from outline_splitter.tokens.base import ESTIMATE_MARGIN

# How far under the limit the word-run search aims by the estimate alone: not a bound on
# the estimate's error (`ESTIMATE_MARGIN`) but a trade, since the answer is checked by one
# exact count: aiming closer gives fuller chunks and, rarely, a second search.
_WORD_RUN_AIM = 8


def lines(source: str, start: int, end: int) -> list[Span]:
    """The lines of `source[start:end]`, each with its line end (the last one may have none)."""
    if start == end:
        return [(start, end)]
    if source.find("\r", start, end) >= 0:
        starts = line_starts(source[start:end])
        return [(start + a, start + b) for a, b in pairwise(starts)]
    # one `str.find` per line, on the source itself: a third faster than a copy of the
    # span split into lines and their lengths added up (a script or stylesheet cut at lines)
    out: list[Span] = []
    find = source.find
    line_start, line_end = start, find("\n", start, end)
    while line_end >= 0:
        line_end += 1
        out.append((line_start, line_end))
        line_start, line_end = line_end, find("\n", line_end, end)
    if line_start < end:
        out.append((line_start, end))
    return out


PROSE_LEVELS: tuple[Level, ...] = (sentences, lines)
LINE_LEVELS: tuple[Level, ...] = (lines, sentences)


def split_leaf(view: ChunkView, start: int, end: int, limit: int, levels: tuple[Level, ...]) -> list[Span]:
    """Trimmed spans covering every non-space character of `[start, end)`, each of at
    most `limit` tokens, cut at the coarsest level that lets each part fit; below the
    given levels come runs of whole words, then tokens.

    With a close estimate, the parts of a level come back already joined, as the greedy
    packer would join them: each span runs over the most parts that surely fit (those
    ending within the estimate's reach), checked by one exact count, so a long script or
    stylesheet costs one search per chunk, not a count per line."""
    if not levels:
        return group_words(view, start, end, limit)
    parts = view.parts(levels[0], start, end, limit)
    if len(parts) <= 1:
        return split_leaf(view, start, end, limit, levels[1:])
    ends = [b for _, b in parts]
    out: list[Span] = []
    whole = 0  # how many of the last spans of `out` are runs of whole parts
    i = 0
    while i < len(parts):
        reach = view.reach(parts[i][0], limit - ESTIMATE_MARGIN)
        last = bisect_right(ends, reach, i) - 1 if reach is not None else i - 1
        if last >= i:
            a, b = view.trim(parts[i][0], ends[last])
            if last == i or view.count(a, b, limit) <= limit:
                if a < b:
                    out.append((a, b))
                    whole += 1
                i = last + 1
                continue
        a, b = view.trim(*parts[i])  # alone: it fits, or it is cut at the next level
        if a < b:
            alone = fits(view, a, b, limit)
            out.extend([(a, b)] if alone else split_leaf(view, a, b, limit, levels[1:]))
            whole = whole + 1 if alone else 0
        i += 1
    if whole >= 2:  # (the part ends inside the last two spans, found by bisection: `ends` ascends)
        inside = ends[bisect_right(ends, out[-2][0]) : bisect_left(ends, out[-1][1])]
        out[-2:] = even_pair(view, out[-2:], inside, limit)
    return out


def _last_fitting(view: ChunkView, start: int, ends: Sequence[int], first: int, limit: int) -> int:
    """The largest index `i >= first` with `count(start, ends[i]) <= limit`, or
    `first - 1` if none. Where there is a close estimate it answers alone, counting a
    span within `_WORD_RUN_AIM` of the limit as over (an exact count of a long span
    with no sync point is a full encode): the answer, a few tokens short of the fullest
    cut at most, is then checked by one exact count. Otherwise, or in the rare case the
    estimate misled, exact counts find it by galloping then bisecting, so a long run
    costs a logarithmic number of counts."""
    reach = view.reach(start, limit - _WORD_RUN_AIM)
    if reach is not None and ends[first] <= reach:
        low = bisect_right(ends, reach, first) - 1
        if view.count(start, ends[low], limit) <= limit:
            return low
    if view.count(start, ends[first], limit) > limit:
        return first - 1
    if reach is not None and ends[first] > reach:
        return first  # the estimate rules out anything longer

    def fits_to(i: int) -> bool:
        return view.count(start, ends[i], limit) <= limit

    return last_holding(fits_to, first, len(ends), gallop=True)[0]


def group_words(view: ChunkView, start: int, end: int, limit: int) -> list[Span]:
    """Runs of whole words, each as long as fits; a word too long alone is cut by tokens."""
    starts, ends = view.words(start, end)
    out: list[Span] = []
    i = 0
    while i < len(starts):
        last = _last_fitting(view, starts[i], ends, i, limit)
        if last < i:
            out.extend(cut_by_tokens(view, starts[i], ends[i], limit))
            i += 1
        else:
            a, b = view.trim(starts[i], ends[last])
            if a < b:
                out.append((a, b))
            i = last + 1
    return out


def splits_pair(source: str, position: int) -> bool:
    """Whether a cut at `position` falls inside a surrogate pair (a cut never does)."""
    return "\udc00" <= source[position] <= "\udfff"


def cut_by_tokens(view: ChunkView, start: int, end: int, limit: int) -> list[Span]:
    """The last resort: the longest prefixes that fit, each trimmed by the view (a cut
    never splits a surrogate pair; a single character over the limit still makes a
    piece of its own)."""
    out: list[Span] = []
    source = view.source
    while start < end:
        positions = range(start + 1, end + 1)
        cut = positions[max(_last_fitting(view, start, positions, 0, limit), 0)]
        if cut < end and splits_pair(source, cut) and cut - 1 > start:
            cut -= 1
        piece = view.trim(start, cut)
        if piece[0] < piece[1]:
            out.append(piece)
        start = cut
    return out
