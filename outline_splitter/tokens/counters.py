"""Span counters of a document: `span_counter_for`, and `DocumentCounters`, which
encodes the text a document's view counts (its source, or HTML's rendering) beside its
detection.

The one encode of a document (the token index, `index.py`) needs nothing but the text,
and tiktoken releases the GIL while it encodes (as tree-sitter does while it parses), so
the split starts the encode on an encode thread and the detector runs meanwhile; the
view takes the index when it is made. Where a second core is free, the encode's wall time
(about one tiktoken pass) then hides behind detection; the CPU time is the same.

Only tokenizers that say their encode is safe on another thread and lets go of the GIL
(`encodes_beside_python`) are encoded so: a user's callable may be neither. A text shorter
than `_BESIDE_FROM` characters is encoded in place: starting a thread costs more than
such an encode saves.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor

from outline_splitter.tokens.base import SpanCounter, Tokenizer
from outline_splitter.tokens.fast import FastTokenizer

_BESIDE_FROM = 4096


def span_counter_for(tokenizer: Tokenizer, text: str) -> SpanCounter:
    """The counter of spans of `text` for `tokenizer` (an index, or a `FastTokenizer`)."""
    make = getattr(tokenizer, "span_counter", None)
    if make is not None:
        counter: SpanCounter = make(text)
        return counter
    return FastTokenizer(tokenizer, text)


# The threads the encodes run on, started on first use and kept: tiktoken's encoder keeps
# its regular expression's caches per thread, and on a new thread each document's encode
# took a third more CPU than in place (and starting the thread 57 us more); on a kept one,
# a tenth. (Dropped in a forked child, where its threads do not exist.)
_encoders: list[ThreadPoolExecutor] = []


def _encoder() -> ThreadPoolExecutor:
    if not _encoders:
        workers = max(2, os.cpu_count() or 1)
        _encoders.append(ThreadPoolExecutor(workers, thread_name_prefix="outline-splitter encode"))
    return _encoders[0]


os.register_at_fork(after_in_child=_encoders.clear)


class DocumentCounters:
    """Span counters of the texts of one document. With `beside`, the counter of `counted`
    (the text its view counts: the source, or HTML's rendering of it) is made on an encode
    thread from construction on (where the tokenizer allows it); any other text is encoded
    when asked."""

    def __init__(self, tokenizer: Tokenizer, counted: str, beside: bool) -> None:
        self._tokenizer = tokenizer
        self._counted = counted
        self._pending: Future[SpanCounter] | None = None
        if beside and len(counted) >= _BESIDE_FROM and getattr(tokenizer, "encodes_beside_python", False):
            self._pending = _encoder().submit(span_counter_for, tokenizer, counted)

    def counter_for(self, text: str) -> SpanCounter:
        """The span counter of `text`: `counted`'s is the one started at construction,
        handed over once (this object keeps no reference to it: the view may drop it)."""
        if text is not self._counted or self._pending is None:
            return span_counter_for(self._tokenizer, text)
        pending, self._pending = self._pending, None
        return pending.result()  # (an error of the encode is raised here, in the splitting thread)
