"""`TokenIndex`: exact token counts of any span of a document from one encode of it.

tiktoken splits text into pieces with a regular expression and encodes each piece on
its own. Some positions are piece boundaries in every scan that covers them, whatever
the scan's start or end ("sync points"): right after a line break when the next
character is not white space, and right after a letter or digit when the next
character is white space, right after an ASCII letter when the next character is no
letter, and right after an ASCII digit when the next character is an ASCII non-digit (no
piece of the cl100k pattern runs from a letter or digit into white space, nor from a line
break into a non-space, nor from a letter into anything but letters: a run of letters is
possessive; and a piece holding a digit holds digits only. The last two rules give markup,
minified code and number lists, `class="a"`, `f(x);`, `[97980687,98151207]`, the sync
points their few spaces do not). Between two sync points the tokens of
any span are the tokens of the whole document there, so

    count(a, b) = encode(text[a:s1]) + (whole-document tokens in [s1, s2)) + encode(text[s2:b])

with s1 the first sync point at or after `a` and s2 the last at or before `b`: only the
two short edges are encoded again. Should a position thought to be a sync point not be a
token boundary of the whole encoding, the count falls back to a plain encode, so a wrong
theory costs time, never exactness (and the tests compare against plain encodes).
"""

from __future__ import annotations

import contextlib
import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

import numpy as np

from outline_splitter.tokens.base import ESTIMATE_MARGIN
from outline_splitter.tokens.sanitize import sanitize

if TYPE_CHECKING:
    import tiktoken

# Pre-tokenizer patterns for which the sync-point argument above was checked (by the
# property tests in tests/test_tokenizers.py).
_VERIFIED_PATTERNS = frozenset(
    {  # cl100k_base
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",  # noqa: E501
    }
)
SYNC_POINT = re.compile(r"(?<=[\r\n])(?=\S)|(?<=[^\W_])(?=\s)|(?<=[A-Za-z])(?=[\W\d_])|(?<=[0-9])(?=[\x00-/:-\x7f])")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_DIGITS = frozenset("0123456789")
_BLOCK = 256
_SHORT_EDGE = 24


# A span's edge: (its sync point, the whole-document token there or None, the tokens of
# the text between the span's start or end and that sync point)
_Edge = tuple[int, "int | None", int]


def supports_index(encoding: tiktoken.Encoding) -> bool:
    """Whether `encoding`'s pre-tokenizer is one the sync-point argument holds for."""
    return getattr(encoding, "_pat_str", None) in _VERIFIED_PATTERNS


@lru_cache(maxsize=8)
def _token_byte_lengths(encoding: tiktoken.Encoding) -> np.ndarray[tuple[int], np.dtype[np.int64]]:
    ranks: dict[bytes, int] | None = getattr(encoding, "_mergeable_ranks", None)
    lengths = np.zeros(encoding.n_vocab, dtype=np.int64)
    if ranks is not None:
        for token_bytes, rank in ranks.items():
            lengths[rank] = len(token_bytes)
    else:  # pragma: no cover - every tiktoken release so far has _mergeable_ranks
        for rank in range(encoding.n_vocab):
            with contextlib.suppress(KeyError):
                lengths[rank] = len(encoding.decode_single_token_bytes(rank))
    return lengths


class TokenIndex:
    """Exact token counts of spans of one document under a tiktoken encoding."""

    def __init__(self, encoding: tiktoken.Encoding, text: str) -> None:
        self.text = sanitize(text)
        self._encode = encoding.encode_ordinary
        self._short_counts: dict[str, int] = {}
        self._left_edges: dict[int, _Edge] = {}
        self._right_edges: dict[int, _Edge] = {}
        # As a numpy array the tokens never become Python ints, which makes this encode
        # and the byte boundaries below cost less than a plain `encode_ordinary`.
        tokens = encoding.encode_to_numpy(self.text, disallowed_special=())
        # byte offset of each token boundary, 0 first and the text's byte length last; a
        # memoryview, which `bisect` searches faster than `searchsorted` finds one value,
        # and faster than a list of ints, which would also cost a copy and burden the GC
        boundaries = np.zeros(len(tokens) + 1, dtype=np.int64)
        np.cumsum(_token_byte_lengths(encoding)[tokens], out=boundaries[1:])
        self._boundaries = boundaries.data
        self.total = len(tokens)
        self._last_reach = (-1, 0, 0)  # (start, tokens, reach) of the last `reach` call
        self._ascii = self.text.isascii()
        if not self._ascii:
            # UTF-8 length of the text before each block of _BLOCK characters: a byte
            # offset is then one short encode away, and building this costs far less
            # than finding every non-ASCII run with a regular expression.
            text = self.text
            blocks = [text[i : i + _BLOCK] for i in range(0, len(text), _BLOCK)]
            self._block_ascii = [block.isascii() for block in blocks]
            self._block_bytes = list(accumulate((len(block.encode("utf-8")) for block in blocks), initial=0))

    def _byte_offset(self, pos: int) -> int:
        if self._ascii:
            return pos
        block, inside = divmod(pos, _BLOCK)
        if not inside or self._block_ascii[block]:
            return self._block_bytes[block] + inside
        return self._block_bytes[block] + len(self.text[pos - inside : pos].encode("utf-8"))

    def _char_at_byte(self, offset: int) -> int:
        """The last character position whose byte offset is at most `offset`."""
        if self._ascii:
            return min(offset, len(self.text))
        block = bisect_right(self._block_bytes, offset) - 1
        if block >= len(self._block_ascii):
            return len(self.text)
        inside = offset - self._block_bytes[block]
        base = block * _BLOCK
        if self._block_ascii[block]:
            return base + inside
        # a token may end inside a character: the partial character is not counted
        return base + len(self.text[base : base + _BLOCK].encode("utf-8")[:inside].decode("utf-8", "ignore"))

    def _token_at(self, pos: int) -> int | None:
        """Index of the whole-document token starting at `pos`, if one does."""
        offset = self._byte_offset(pos)
        i = bisect_left(self._boundaries, offset)
        if i < len(self._boundaries) and self._boundaries[i] == offset:
            return i
        return None

    def _is_sync(self, pos: int) -> bool:
        text = self.text
        if pos <= 0 or pos >= len(text):
            return True
        before, after = text[pos - 1], text[pos]
        if after.isspace():
            return before.isalnum()
        if before in _ASCII_LETTERS:
            return not after.isalpha()
        if before in _ASCII_DIGITS:
            return after < "\x80" and after not in _ASCII_DIGITS
        return before == "\n" or before == "\r"

    def _sync_at_or_after(self, pos: int, end: int) -> int | None:
        if self._is_sync(pos):
            return pos
        match = SYNC_POINT.search(self.text, pos, min(end + 1, len(self.text)))
        if match is None or match.start() > end:
            return end if end == len(self.text) else None
        return match.start()

    def _sync_at_or_before(self, pos: int, start: int) -> int | None:
        # Walking back is cheaper than a regular expression here: the nearest sync point
        # is usually within a word or two.
        is_sync = self._is_sync
        for candidate in range(pos, start - 1, -1):
            if is_sync(candidate):
                return candidate
        return None

    def _edge_count(self, edge: str) -> int:
        """Tokens of a span's edge. Short edges repeat (`">"`, `"</p"`, `"   "`) and a
        call into tiktoken costs microseconds however short the text, so they are cached."""
        if len(edge) > _SHORT_EDGE:
            return len(self._encode(edge))
        count = self._short_counts.get(edge)
        if count is None:
            count = self._short_counts[edge] = len(self._encode(edge))
        return count

    def estimate(self, start: int, end: int) -> int:
        """Whole-document tokens that start inside `[start, end)`: the count give or
        take the tokens of the two edge pieces."""
        return bisect_left(self._boundaries, self._byte_offset(end)) - bisect_left(
            self._boundaries, self._byte_offset(start)
        )

    def reach(self, start: int, tokens: int) -> int:
        """The furthest end `e` with `estimate(start, e) <= tokens` (`start` if `tokens` is
        negative): one search, where finding it by estimates would take a dozen. The
        packer asks again and again from the same start, so the last answer is kept."""
        last_start, last_tokens, last_reach = self._last_reach
        if start == last_start and tokens == last_tokens:
            return last_reach
        first = bisect_left(self._boundaries, self._byte_offset(start))
        if tokens < 0:
            reach = start
        elif first + tokens >= len(self._boundaries) - 1:
            reach = len(self.text)
        else:
            reach = self._char_at_byte(self._boundaries[first + tokens])
        self._last_reach = (start, tokens, reach)
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
            return len(self._encode(self.text[start:end]))
        return left[2] + (right[1] - left[1]) + right[2]

    def _edge(self, position: int, bound: int, left: bool) -> _Edge | None:
        """A span's left edge at `position` (its first sync point at or after it, None
        past `bound`, the span's end) or right edge (its last sync point at or before it,
        None before `bound`, the span's start): the sync point, the whole-document token
        starting there (None if none does), and the tokens of the text between the two.
        Spans share their starts and ends (a chunk's start is tried with many ends), so
        each edge is worked out once."""
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
