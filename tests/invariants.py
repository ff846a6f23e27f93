"""The invariants of DESIGN.md, asserted on any split; shared by every test module."""

from __future__ import annotations

from bisect import bisect_right

from outline_splitter import TextChunk
from outline_splitter.detectors.html_scan import CDATA, scan
from outline_splitter.detectors.html_text import BLANK, ExtractedText, extract_text, is_character_reference
from outline_splitter.tokens import Tokenizer


def assert_source_chunks(
    text: str, chunks: list[TextChunk], tokenizer: Tokenizer, chunk_size: int, overlap: int = 0
) -> None:
    """Source-mode invariants: offsets exact, chunks in order and disjoint, every
    non-space character covered, no chunk over budget (recounted with a plain encode),
    indexes consecutive, overlaps taken from the neighbours and within `overlap` tokens."""
    cursor = 0
    for i, chunk in enumerate(chunks):
        assert chunk.text == text[chunk.start_pos : chunk.end_pos], f"chunk {i}: text is not the source slice"
        assert chunk.start_pos >= cursor, f"chunk {i} starts at {chunk.start_pos}, before the previous end {cursor}"
        assert chunk.text.strip(), f"chunk {i} is blank"
        gap = text[cursor : chunk.start_pos]
        assert not gap.strip(), f"non-space text lost before chunk {i}: {gap[:80]!r}"
        recount = tokenizer.count(chunk.text)
        assert recount == chunk.token_count, f"chunk {i}: token_count {chunk.token_count}, plain encode {recount}"
        assert_within_budget(i, chunk, chunk_size)
        assert chunk.metadata["index"] == i
        cursor = chunk.end_pos
    assert not text[cursor:].strip(), f"non-space text lost at the end: {text[cursor:][:80]!r}"
    assert_overlaps(chunks, tokenizer, overlap)
    assert_line_numbers(text, chunks)


def assert_within_budget(i: int, chunk: TextChunk, chunk_size: int, source: str | None = None) -> None:
    """No chunk over `chunk_size`, but a single character, which no cut can make smaller
    (one character can be several tokens: docs/design.md, "Invariants"), or in HTML text
    mode (`source` given) the text of one character reference (`&NotSubset;` decodes to
    two characters, six tokens, that no chunk edge can part)."""
    indivisible = len(chunk.text) == 1 or (
        source is not None and is_character_reference(source[chunk.start_pos : chunk.end_pos])
    )
    assert chunk.token_count <= chunk_size or indivisible, (
        f"chunk {i} has {chunk.token_count} tokens > {chunk_size}: {chunk.text[:40]!r}"
    )


def assert_line_numbers(text: str, chunks: list[TextChunk]) -> None:
    """`start_line` / `end_line` are the 1-based lines of each chunk's first and last
    characters, counting `\\r\\n`, a lone `\\r` and `\\n` as one line end each (counted
    here by `str.count` between consecutive positions, none of them inside a `\\r\\n`)."""
    line, cursor = 1, 0

    def line_at(position: int) -> int:
        nonlocal line, cursor
        line += text.count("\n", cursor, position) + text.count("\r", cursor, position)
        line -= text.count("\r\n", cursor, position)
        cursor = position
        return line

    for i, chunk in enumerate(chunks):
        first, last = line_at(chunk.start_pos), line_at(max(chunk.start_pos, chunk.end_pos - 1))
        assert (chunk.metadata["start_line"], chunk.metadata["end_line"]) == (first, last), f"chunk {i}: lines"


def assert_overlaps(chunks: list[TextChunk], tokenizer: Tokenizer, overlap: int) -> None:
    """`start_overlap` ends the previous chunk, `end_overlap` starts the next one, and
    neither passes `overlap` tokens (both empty when `overlap` is 0)."""
    for i, chunk in enumerate(chunks):
        if i == 0 or overlap == 0:
            assert not chunk.start_overlap, f"chunk {i} has a start overlap with no neighbour or no overlap"
        else:
            assert chunks[i - 1].text.endswith(chunk.start_overlap)
            assert tokenizer.count(chunk.start_overlap) <= overlap
        if i == len(chunks) - 1 or overlap == 0:
            assert not chunk.end_overlap, f"chunk {i} has an end overlap with no neighbour or no overlap"
        else:
            assert chunks[i + 1].text.startswith(chunk.end_overlap)
            assert tokenizer.count(chunk.end_overlap) <= overlap


def assert_same_output(first: list[TextChunk], second: list[TextChunk]) -> None:
    assert [c.model_dump() for c in first] == [c.model_dump() for c in second]


def assert_text_chunks(html: str, chunks: list[TextChunk], tokenizer: Tokenizer, chunk_size: int) -> None:
    """HTML text-mode invariants: each chunk's text is the readable text of its source
    span in the whole page's rendering, and reads as the span rendered alone
    (`extract_text(html[start_pos:end_pos])`) does but for white space, which a span
    starting inside a `pre` folds (and not checked for a span that starts inside a CDATA
    section in foreign content: `_inside_cdata`); chunks in order and disjoint, every visible character
    of the page in some chunk (zero-width characters are as blank as spaces: a chunk
    edge may drop them), exact token counts within budget, indexes consecutive."""
    cursor = 0
    visible: list[str] = []
    whole = ExtractedText(html)
    cdata = [(start, end) for kind, start, end, _ in scan(html) if kind == CDATA]
    for i, chunk in enumerate(chunks):
        assert chunk.start_pos >= cursor, f"chunk {i} starts at {chunk.start_pos}, before the previous end {cursor}"
        assert chunk.text, f"chunk {i} is empty"
        lo, hi = whole.span(chunk.start_pos, chunk.end_pos)
        assert chunk.text == whole.text[lo:hi], (
            f"chunk {i}: text is not the page's text of its span [{chunk.start_pos}, {chunk.end_pos})"
        )
        if not _inside_cdata(cdata, chunk.start_pos):
            assert chunk.text.split() == extract_text(html[chunk.start_pos : chunk.end_pos]).split(), (
                f"chunk {i}: text does not read as its span [{chunk.start_pos}, {chunk.end_pos}) alone"
            )
        recount = tokenizer.count(chunk.text)
        assert recount == chunk.token_count, f"chunk {i}: token_count {chunk.token_count}, plain encode {recount}"
        assert_within_budget(i, chunk, chunk_size, html)
        assert chunk.metadata["index"] == i
        visible.append(_visible(chunk.text))
        cursor = chunk.end_pos
    expected = _visible(extract_text(html))
    assert "".join(visible) == expected, "visible text lost or repeated"
    assert_line_numbers(html, chunks)


def _inside_cdata(sections: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` lies inside the content of a CDATA section in `svg` or `math`:
    a span starting there, alone, is out of foreign content and reads the section's
    `]]>` (and any `<` in it) as HTML (`html_text`'s module docstring), so it cannot read
    as the whole page does; only the page's text of the span is checked there."""
    i = bisect_right(sections, (position, 1 << 62)) - 1
    return i >= 0 and sections[i][0] <= position < sections[i][1]


_INVISIBLE = {ord(c): None for c in BLANK}


def _visible(text: str) -> str:
    """`text` without white space and the characters the renderer counts as blank."""
    return "".join(text.split()).translate(_INVISIBLE)
