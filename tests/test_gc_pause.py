"""`split` pauses the cyclic garbage collector (`outline_splitter.gc_pause`) and always
turns it back on."""

from __future__ import annotations

import gc

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.gc_pause import paused_gc


def test_the_collector_is_paused_while_splitting_and_on_again_after():
    seen: list[bool] = []

    def count(text: str) -> int:
        seen.append(gc.isenabled())
        return len(text.split())

    assert gc.isenabled()
    OutlineTextSplitter(doc_type="text", chunk_size=4, tokenizer=count).split("one two three.\n\nfour five six.")
    assert seen and not any(seen)
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_split_that_raises():
    def broken(text: str) -> int:
        raise RuntimeError("no")

    with pytest.raises(ValueError, match="tokenizer"):
        OutlineTextSplitter(doc_type="text", chunk_size=4, tokenizer=broken).split("one two three four five")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off():
    gc.disable()
    try:
        with paused_gc():
            with paused_gc():
                pass
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
