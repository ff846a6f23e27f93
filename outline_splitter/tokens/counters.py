"""Span counters of a document: `span_counter_for`, and `DocumentCounters`, which
encodes the text a document's view counts (its source, or HTML's rendering) beside its
detection.

The one encode of a document (the token index, `index.py`) needs nothing but the text,
and tiktoken releases the GIL while it encodes, so the encode and the detection run at
once: the detection goes to an encode thread and the splitting thread encodes
(`DocumentCounters.alongside`), a large text in two halves, the second on another encode
thread. The view takes the index when it is made. Where a second core is free, the encode's wall time
(about one tiktoken pass) then hides behind detection; the CPU time is the same.

Only tokenizers that say their encode is safe on another thread and lets go of the GIL
(`encodes_beside_python`) are encoded so: a user's callable may be neither. A text shorter
than `_BESIDE_FROM` characters is encoded in place: starting a thread costs more than
such an encode saves.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import partial
from typing import Any, Literal, TypeVar

from outline_splitter.tokens.base import SpanCounter, Tokenizer
from outline_splitter.tokens.fast import FastTokenizer
from outline_splitter.tokens.tiktoken_tokenizer import TiktokenTokenizer

_T = TypeVar("_T")
_BESIDE_FROM = 2048
# How a format's detector compares with one encode of its source, which decides how
# `DocumentCounters` encodes it: "slow" (Markdown, code: at least about as long), whole
# beside detection; "quick" (HTML markup: a quarter to two thirds of it), the same below
# `_HALVES_FROM` characters, and from there two halves at once, as detection would leave
# a core idle; "trivial" (plain text), two halves from `_HALVES_FROM` and in place below
# (a thread's hand-over cost more than it saved: plain text, 10 KB a text, was 2.0x one
# tiktoken pass in place, 2.3x beside, 2.0x in halves at a quarter more CPU). Texts over
# `_HALVES_UP_TO` are encoded a block at a time beside detection, so that their tokens'
# lengths are never all held at once.
DetectorSpeed = Literal["slow", "quick", "trivial"]
_HALVES_FROM = 1 << 16
_HALVES_UP_TO = 1 << 22


def span_counter_for(tokenizer: Tokenizer, text: str) -> SpanCounter:
    """The counter of spans of `text` for `tokenizer` (an index, or a `FastTokenizer`)."""
    make = getattr(tokenizer, "span_counter", None)
    if make is not None:
        counter: SpanCounter = make(text)
        return counter
    return FastTokenizer(tokenizer, text)


# The threads the encodes (and a slow detector's detections) run on, started on first use
# and kept: tiktoken's encoder keeps its regular expression's caches per thread, and on a
# new thread each document's encode took a third more CPU than in place (and starting the
# thread 57 us more); on a kept one, a tenth. (Dropped in a forked child, where its threads
# do not exist.)
_encoders: list[ThreadPoolExecutor] = []
# Set on the encode threads: a split made there (a detector that splits, on a detection
# sent there) does all its work in place, as one that waited for a busy thread of the
# pool could wait for ever.
_this_thread = threading.local()


def _mark_encoder_thread() -> None:
    _this_thread.encodes = True


def _on_encoder_thread() -> bool:
    return getattr(_this_thread, "encodes", False)


def _encoder() -> ThreadPoolExecutor:
    if not _encoders:
        workers = max(2, os.cpu_count() or 1)
        name = "outline-splitter encode"
        _encoders.append(ThreadPoolExecutor(workers, thread_name_prefix=name, initializer=_mark_encoder_thread))
    return _encoders[0]


os.register_at_fork(after_in_child=_encoders.clear)

# Up to this many characters the detection goes to an encode thread and the splitting
# thread encodes (no wait for a thread to begin: it costs a document, not a byte); above,
# the encode goes to encode threads and the splitting thread detects, as the detection's
# memory (tree-sitter's trees, malloc'd) then stays in this thread's malloc arena, which
# packing reuses: detected on another thread, 16 MB of Python peaked at 165.5 MB against
# 151.0 (`python -m benchmarks.scale --one "Python, one function per line" 16 512`; 151.9
# with MALLOC_ARENA_MAX=1).
_DETECTS_BESIDE_UP_TO = 1 << 19
# How long the split waits for an encode thread to have begun a long document's encode
# (all of them may be busy with other threads' documents): long enough for a thread
# switch, short beside such a split.
_BEGIN_WITHIN = 0.01


def _begun(encode: Callable[[str], _T], text: str) -> Future[_T]:
    """`encode(text)` on an encode thread, returned once that has begun (or after
    `_BEGIN_WITHIN` seconds): a thread needs the GIL to begin, and the detection that
    follows holds it (tree-sitter's parse throughout)."""
    begun = threading.Event()

    def once_begun() -> _T:
        begun.set()
        return encode(text)

    pending = _encoder().submit(once_begun)
    begun.wait(_BEGIN_WITHIN)
    return pending


class DocumentCounters:
    """Span counters of the texts of one document. With `beside`, the counter of `counted`
    (the text its view counts: the source, or HTML's rendering of it) is made while the
    document is detected (where the tokenizer allows it): up to `_DETECTS_BESIDE_UP_TO`
    characters by this thread while `alongside` runs the detection on an encode thread,
    above by encode threads from construction on; where `speed` (the detector's,
    `DetectorSpeed`) cuts a tiktoken encode of `counted` in two halves, the halves at once.
    Any other text is encoded when asked."""

    def __init__(self, tokenizer: Tokenizer, counted: str, beside: bool, speed: DetectorSpeed = "slow") -> None:
        self._tokenizer = tokenizer
        self._counted = counted
        self._made: SpanCounter | None = None
        self._beside = False
        self._started: list[Future[Any]] = []  # a long document's encode (whole, or its halves' sizes)
        # (tiktoken's encode of `counted` in two halves: the tokenizer and the halves)
        self._halved: tuple[TiktokenTokenizer, tuple[str, str]] | None = None
        if speed == "trivial" and len(counted) < _HALVES_FROM:
            return
        if not beside or len(counted) < _BESIDE_FROM or _on_encoder_thread():
            return
        if not getattr(tokenizer, "encodes_beside_python", False):
            return
        halves = speed != "slow" and _HALVES_FROM <= len(counted) <= _HALVES_UP_TO
        if halves and isinstance(tokenizer, TiktokenTokenizer):
            cut = tokenizer.halves(counted)
            self._halved = (tokenizer, cut) if cut is not None else None
        self._beside = len(counted) <= _DETECTS_BESIDE_UP_TO
        if self._beside:
            return
        if self._halved is not None:
            self._started = [_begun(self._halved[0].token_sizes, half) for half in self._halved[1]]
        else:
            self._started = [_begun(partial(span_counter_for, tokenizer), counted)]

    def alongside(self, detect: Callable[[], _T]) -> _T:
        """`detect()`; where `counted` is this thread's to encode beside it, `detect` runs on
        an encode thread meanwhile (and a second half of `counted`, where it is cut, on
        another). This thread's encode lets go of the GIL at once, so the threads begin
        without a wait: sent the encode, the split has to wait until a thread has begun it
        (a thread needs the GIL to begin, and the detection holds it, tree-sitter's parse
        throughout), milliseconds a document on a busy machine."""
        if not self._beside:
            return detect()
        self._beside = False
        halved = self._halved
        second = _encoder().submit(halved[0].token_sizes, halved[1][1]) if halved else None
        detecting = _encoder().submit(detect)
        try:
            self._made = self._encode_here(second)
        except BaseException:
            pending: list[Future[Any]] = [detecting] if second is None else [detecting, second]
            wait(pending)  # (nothing is left running once the split has failed)
            raise
        return detecting.result()

    def _encode_here(self, second: Future[list[Any]] | None) -> SpanCounter:
        """`counted`'s counter, encoded by this thread (its first half, where `second` encodes the other)."""
        if self._halved is None or second is None:
            return span_counter_for(self._tokenizer, self._counted)
        return self._of_halves(self._halved[0].token_sizes(self._halved[1][0]), second)

    def _of_halves(self, first: list[Any], second: Future[list[Any]]) -> SpanCounter:
        """`counted`'s index from its halves' token sizes (`first`'s, and `second`'s once encoded)."""
        assert self._halved is not None  # (only a tiktoken encode is halved)
        return self._halved[0].index_of_sizes(self._counted, [*first, *second.result()])

    def counter_for(self, text: str) -> SpanCounter:
        """The span counter of `text`: `counted`'s is the one made beside detection, handed
        over once (this object keeps no reference to it: the view may drop it)."""
        if text is self._counted and self._started:
            started, self._started = self._started, []
            if self._halved is None:
                counter: SpanCounter = started[0].result()  # (an error of the encode is raised here, in the split)
                return counter
            return self._of_halves(started[0].result(), started[1])
        if text is self._counted and self._made is not None:
            made, self._made = self._made, None
            return made
        return span_counter_for(self._tokenizer, text)
