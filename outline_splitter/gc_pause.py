"""Splitting with Python's cyclic garbage collector paused.

A long document makes hundreds of thousands of short-lived objects (markdown-it tokens,
outline nodes, atoms), none of them in a reference cycle, and each allocation counts
towards the collector's next pass over everything alive: on a megabyte of Setext
headings half of the detector's time was collection, and the share grew with the size
(time(2n) / time(n) up to 2.6 instead of 2). Reference counting frees all of it as
before; only the cycle search waits until the split returns.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, then turn it back on if it was
    on. Nested or concurrent blocks are safe: the collector runs again once the block
    that found it on has ended, so at worst one thread's split runs with it on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
