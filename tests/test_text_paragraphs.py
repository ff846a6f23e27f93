"""Plain text's deferred paragraphs (`Trait.PARAGRAPHS`): a text that does not fit is cut
at its blank lines without a node per paragraph, where the paragraph nodes would be cut."""

from __future__ import annotations

import re
from itertools import combinations_with_replacement, pairwise

from hypothesis import example, given
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.lines import BLANK_LINES, blank_lines, blocks
from outline_splitter.detectors.text import detect_text
from outline_splitter.packing import SourceView
from outline_splitter.packing.atoms import Atom, collect_atoms
from outline_splitter.tokens import resolve_tokenizer, span_counter_for
from tests.invariants import assert_source_chunks

_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def test_many_short_paragraphs_make_few_atoms_and_no_nodes(cl100k):
    text = "x\n\n" * 13333
    root = detect_text(text)
    view = SourceView(text, span_counter_for(resolve_tokenizer("cl100k_base"), text))
    atoms = [atom for atom in collect_atoms(root, view, 512, 512) if isinstance(atom, Atom)]
    assert root.expand is not None and not root.children, "the paragraphs were built"
    assert len(atoms) < 13333 / 8
    assert all(_BLANK_LINE.fullmatch(text, a.end, b.start) for a, b in pairwise(atoms))
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=512).split(text)
    assert_source_chunks(text, chunks, cl100k, 512)
    assert all(chunk.metadata["kinds"] == ["paragraph"] for chunk in chunks)
    sizes = [chunk.token_count for chunk in chunks]
    assert min(sizes) > 0.9 * max(sizes), f"unbalanced: {sizes}"


def test_the_outline_still_has_one_node_per_paragraph():
    text = "One.\n\nTwo\nlines.\n \t\n\n  Three.\n\n"
    outline = OutlineTextSplitter(doc_type="text").outline(text)
    assert [(c.kind, text[c.start : c.end]) for c in outline.children] == [
        ("paragraph", "One."),
        ("paragraph", "Two\nlines."),
        ("paragraph", "Three."),
    ]


def test_a_text_that_fits_is_one_chunk_of_paragraphs():
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=64).split("One.\n\nTwo.")
    assert [(c.text, c.metadata["kinds"]) for c in chunks] == [("One.\n\nTwo.", ["paragraph"])]


def test_chunks_end_at_blank_lines_and_a_lead_in_keeps_its_paragraph(cl100k):
    paragraphs = []
    for i in range(60):
        words = " ".join(f"w{i}x{j}" for j in range(i % 7 + 2))
        paragraphs.append(f"Paragraph {i} is as follows:" if i % 5 == 4 else f"Paragraph {i}: {words}.")
    text = "\n\n".join(paragraphs)
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=48).split(text)
    assert_source_chunks(text, chunks, cl100k, 48)
    assert len(chunks) > 5
    for before, after in pairwise(chunks):
        assert _BLANK_LINE.fullmatch(text, before.end_pos, after.start_pos), (before.text, after.text)
        assert not before.text.endswith("follows:"), before.text


def test_a_paragraph_over_the_budget_is_cut_at_sentences_among_short_ones(cl100k):
    long = " ".join(f"Sentence {i} of the long paragraph says a few words." for i in range(30))
    text = "Short one.\n\n" + long + "\n\nShort two.\n\nShort three."
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    inside = [c for c in chunks if long.find(c.text) >= 0]
    assert len(inside) >= 4
    assert all(c.text.startswith("Sentence") and c.text.endswith("words.") for c in inside)


def test_windows_line_ends_are_no_blank_lines():
    # `\r\n` once backtracked into two line ends: every line of a Windows text was a paragraph
    lines = [f"line {n} of a paragraph" for n in range(6)]
    unix = "\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:])
    windows = unix.replace("\n", "\r\n")
    two = ["\r\n".join(lines[:3]), "\r\n".join(lines[3:])]
    assert [windows[a:b] for a, b in blocks(windows, 0, len(windows))] == two
    assert [unix[a:b] for a, b in blocks(unix, 0, len(unix))] == [part.replace("\r\n", "\n") for part in two]
    assert [windows[p.start : p.end] for p in detect_text(windows).expanded_children()] == two


@given(st.lists(st.sampled_from(["\n", "\r\n", "\r", " ", "\t", "\x0b", "\x0c", "\x1c", "\u2028", "a"]), max_size=24))
@example(["a", "\n", "\x0b", "\x0c", "\n", "\x1c", "a"])
def test_blank_lines_are_the_matches_of_the_blank_line_pattern(pieces):
    # (a span without a carriage return is searched by a pattern of its own)
    text = "".join(pieces)
    for start, end in combinations_with_replacement(range(len(text) + 1), 2):
        expected = [match.span() for match in BLANK_LINES.finditer(text, start, end)]
        assert [match.span() for match in blank_lines(text, start, end)] == expected, (start, end)
