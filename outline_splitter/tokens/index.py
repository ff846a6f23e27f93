"""`TokenIndex`: exact token counts of any span of a document from one encode of it.

Between two sync points (`sync.py`) the tokens of any span are the tokens of the whole
document there, so

    count(a, b) = count(text[a:s1]) + (whole-document tokens in [s1, s2)) + count(text[s2:b])

with s1 the first sync point at or after `a` and s2 the last at or before `b`: only the
two short edges are encoded again, with the tokenizer's own count of a string (the one
definition of a string's tokens, `sanitize.as_encoded`). Should a position thought to be
a sync point fall inside a token of the whole encoding, the count falls back to a plain
encode, so a wrong theory costs time, never exactness (and the tests compare against
plain encodes).

The index holds the whole document's tokens as their start and end offsets in the
tokenizer's units (`positions.py`), 2 bytes a token (`sorted_offsets.py`): tiktoken's
tokens tile the UTF-8 bytes, a Hugging Face tokenizer's leave the white space between
them out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import index as same_int
from operator import sub

from outline_splitter.tokens.base import ESTIMATE_MARGIN
from outline_splitter.tokens.positions import Offsets, SameOffsets
from outline_splitter.tokens.sorted_offsets import SortedOffsets
from outline_splitter.tokens.sync import SyncRule

_SHORT_EDGE = 24
# How many short edges' counts a cache shared by a tokenizer's documents holds before it
# starts again (some 100 bytes an edge)
_SHARED_EDGES = 1 << 14
# Up to how many bounds `estimates` searches one at a time rather than in numpy (the two
# cost about the same at 16 to 24)
_FEW_BOUNDS = 16

# A span's edge: (its sync point, the whole-document token there or None, the tokens of
# the text between the span's start or end and that sync point)
_Edge = tuple[int, "int | None", int]


class TokenIndex:
    """Exact token counts of spans of one document, from the offsets of its tokens.

    `starts` and `ends` are the whole document's tokens' offsets (non-decreasing, in the
    units of `offsets`); `count_text` is the tokenizer's count of a string; `rule`
    names the positions at which a span's tokens agree with the document's;
    `short_counts`, `count_text`'s counts of short strings, kept by the tokenizer for
    all its documents (a new document's edges are mostly ones seen before: ".", " the")."""

    def __init__(
        self,
        text: str,
        starts: SortedOffsets,
        ends: SortedOffsets,
        offsets: Offsets,
        rule: SyncRule,
        count_text: Callable[[str], int],
        short_counts: dict[str, int] | None = None,
    ) -> None:
        self.text = text
        self._starts = starts
        self._find_start = starts.find
        self._start_at = starts.item
        self._end_at = ends.item
        self.total = len(starts)
        self._same_offsets = isinstance(offsets, SameOffsets)  # (most text: no call per position)
        self._offset: Callable[[int], int] = offsets.offset
        self._position: Callable[[int], int] = offsets.position
        if isinstance(offsets, SameOffsets):
            # SameOffsets' two maps as C calls, not Python methods: the packer asks them
            # tens of thousands of times a document
            self._offset, self._position = same_int, partial(min, offsets.length)
        self._is_sync_inside = rule.is_sync
        self._sync_pattern = rule.pattern
        self._count_text = count_text
        self._short_counts: dict[str, int] = {} if short_counts is None else short_counts
        self._left_edges: dict[int, _Edge] = {}
        self._right_edges: dict[int, _Edge] = {}
        self._last_reach = (-1, 0, 0, 0)  # (start, tokens, first token, reach) of the last `reach` call

    def _token_at(self, pos: int) -> int | None:
        """Index of the first whole-document token at or after `pos`, unless a token
        runs across `pos`."""
        offset = self._offset(pos)
        i = self._find_start(offset)
        if i > 0 and self._end_at(i - 1) > offset:
            return None
        return i

    def _is_sync(self, pos: int) -> bool:
        if pos <= 0 or pos >= len(self.text):
            return True
        return self._is_sync_inside(self.text, pos)

    def _sync_at_or_after(self, pos: int, end: int) -> int | None:
        if self._is_sync(pos):
            return pos
        match = self._sync_pattern.search(self.text, pos, min(end + 1, len(self.text)))
        if match is None or match.start() > end:
            return end if end == len(self.text) else None
        return match.start()

    def _sync_at_or_before(self, pos: int, start: int) -> int | None:
        # Walking back is cheaper than a regular expression here: the nearest sync point
        # is usually within a word or two.
        text = self.text
        if pos >= len(text):
            return pos
        is_sync = self._is_sync_inside
        for candidate in range(pos, max(start, 1) - 1, -1):
            if is_sync(text, candidate):
                return candidate
        return 0 if start <= 0 else None

    def _edge_count(self, edge: str) -> int:
        """Tokens of a span's edge. Short edges repeat (`">"`, `"</p"`, `"   "`) and a
        call into a tokenizer costs microseconds however short the text, so they are cached."""
        if len(edge) > _SHORT_EDGE:
            return self._count_text(edge)
        count = self._short_counts.get(edge)
        if count is None:
            if len(self._short_counts) >= _SHARED_EDGES:
                self._short_counts.clear()
            count = self._short_counts[edge] = self._count_text(edge)
        return count

    def estimate(self, start: int, end: int) -> int:
        """Whole-document tokens that start inside `[start, end)`: the count give or
        take the tokens of the two edge pieces."""
        return self._find_start(self._offset(end)) - self._find_start(self._offset(start))

    def estimates(self, bounds: Sequence[int]) -> list[int]:
        """`estimate(a, b)` of each two consecutive `bounds` (ascending), for many spans at
        once: the index of the first token at or after each bound, and their differences."""
        if not self._same_offsets:
            bounds = [self._offset(position) for position in bounds]
        if len(bounds) <= _FEW_BOUNDS:
            # a search each, in C calls: numpy's own calls cost more than a few searches
            # (the runs a plan weighs are mostly of a dozen atoms)
            firsts = list(map(self._find_start, bounds))
            return list(map(sub, firsts[1:], firsts))
        # searched in numpy (`bisect` makes a Python int per step), and the differences
        # too: as Python ints the indexes took 40 bytes a bound
        first_tokens = self._starts.find_all(bounds)
        found: list[int] = (first_tokens[1:] - first_tokens[:-1]).tolist()  # (np.diff: its Python code cost more)
        return found

    def reach(self, start: int, tokens: int) -> int:
        """The furthest end `e` with `estimate(start, e) <= tokens` (`start` if `tokens` is
        negative): one search, where finding it by estimates would take a dozen. The
        packer asks again and again from the same start (with other `tokens` too), so the
        last answer and the start's first token are kept."""
        last_start, last_tokens, first, last_reach = self._last_reach
        if start == last_start:
            if tokens == last_tokens:
                return last_reach
        else:
            first = self._find_start(self._offset(start))
        if tokens < 0:
            reach = start
        elif first + tokens >= self.total:
            reach = len(self.text)
        else:
            reach = self._position(self._start_at(first + tokens))
        self._last_reach = (start, tokens, first, reach)
        return reach

    def count(self, start: int, end: int, limit: int | None = None) -> int:
        """Exact tokens of `text[start:end]`; a span far over `limit` may get an
        estimate instead, which is then above `limit` too."""
        if end <= start:
            return 0
        if limit is not None:
            rough = self.estimate(start, end)
            if rough > limit + ESTIMATE_MARGIN:
                return rough
        left = self._edge(start, end, left=True)
        right = self._edge(end, start, left=False) if left is not None else None
        if left is None or right is None or right[0] <= left[0] or left[1] is None or right[1] is None:
            return self._count_text(self.text[start:end])
        return left[2] + (right[1] - left[1]) + right[2]

    def _edge(self, position: int, bound: int, left: bool) -> _Edge | None:
        """A span's left edge at `position` (its first sync point at or after it, None
        past `bound`, the span's end) or right edge (its last sync point at or before it,
        None before `bound`, the span's start): the sync point, the whole-document token
        starting there (None if one runs across it), and the tokens of the text between
        the two. Spans share their starts and ends (a chunk's start is tried with many
        ends), so each edge is worked out once."""
        edges = self._left_edges if left else self._right_edges
        known = edges.get(position)
        if known is not None and (known[0] <= bound if left else known[0] >= bound):
            return known
        sync = self._sync_at_or_after(position, bound) if left else self._sync_at_or_before(position, bound)
        if sync is None:
            return None
        outside = self.text[position:sync] if left else self.text[sync:position]
        edge = (sync, self._token_at(sync), self._edge_count(outside) if outside else 0)
        edges[position] = edge
        return edge
