"""Long buffers of one split in memory pages of their own.

glibc gives an allocation a memory map of its own only up to a threshold, which rises
with the size of the allocations freed before it; above that it serves one from its
heap, which keeps the memory once it is freed. A long buffer of a split (a source file's
bytes, a token index) that came from the heap stayed with the process under all that the
split made after it, and raised its peak: an anonymous map goes back to the system with
the buffer, and a page of it is memory only once written.
"""

from __future__ import annotations

import mmap

OWN_PAGES = 1 << 18
"""The bytes from which a buffer gets pages of its own (for a shorter one the system
calls would cost more than the memory they give back)."""


def own_pages(size: int) -> mmap.mmap:
    """`size` zero bytes in pages of their own."""
    return mmap.mmap(-1, size)
