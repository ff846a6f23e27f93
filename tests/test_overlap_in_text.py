"""`split(overlap_in_text=True)`, what the framework front ends give (issue 40): each chunk's
text is the source slice from its start overlap's start to its end overlap's end, within
`chunk_size`, and with the overlaps taken out the chunks are those of a split without it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.tokens import TiktokenTokenizer
from tests.invariants import assert_source_chunks
from tests.strategies import markdown_document, text_document

CL100K = TiktokenTokenizer.from_name("cl100k_base")


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(markdown_document().map(lambda t: ("markdown", t)), text_document().map(lambda t: ("text", t))),
    st.integers(16, 96),
    st.data(),
)
def test_the_overlap_is_in_the_text_and_within_the_budget(document, chunk_size, data):
    doc_type, text = document
    overlap = data.draw(st.integers(1, (chunk_size - 1) // 2 - 1))
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size, chunk_overlap=overlap)
    framed = splitter.split(text, overlap_in_text=True)
    for chunk in framed:
        assert chunk.text == text[chunk.start_pos : chunk.end_pos]
        assert chunk.token_count == CL100K.count(chunk.text) <= chunk_size
        own_start, own_end = chunk.metadata["own_start"], chunk.metadata["own_end"]
        assert chunk.start_pos <= own_start <= own_end <= chunk.end_pos
        assert chunk.text.startswith(chunk.start_overlap) and chunk.text.endswith(chunk.end_overlap)
        assert not text[chunk.start_pos + len(chunk.start_overlap) : own_start].strip()
    # without their overlaps, the chunks are a split at the reduced budget: every invariant holds
    own = [
        chunk.model_copy(
            update={
                "text": text[chunk.metadata["own_start"] : chunk.metadata["own_end"]],
                "start_pos": chunk.metadata["own_start"],
                "end_pos": chunk.metadata["own_end"],
                "token_count": CL100K.count(text[chunk.metadata["own_start"] : chunk.metadata["own_end"]]),
            }
        )
        for chunk in framed
    ]
    assert_source_chunks(text, own, CL100K, chunk_size - 2 * overlap, overlap)


def test_no_overlap_means_the_plain_split():
    text = "# A\n\n" + "Words and more words. " * 40
    splitter = OutlineTextSplitter(chunk_size=32)
    assert splitter.split(text, overlap_in_text=True) == splitter.split(text)


def test_an_overlap_that_leaves_no_room_is_refused_naming_it():
    from outline_splitter.integrations.framework import FrameworkSplitter

    try:
        FrameworkSplitter({"chunk_size": 20, "chunk_overlap": 10})
    except ValueError as error:
        assert "chunk_overlap must be below chunk_size / 2" in str(error)
    else:
        raise AssertionError("chunk_overlap=10 of chunk_size=20 leaves no room")
