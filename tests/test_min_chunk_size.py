"""`min_chunk_size`: no tiny chunk left where a join with a neighbour fits (issue 10)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.kinds import DOCUMENT, PARAGRAPH
from outline_splitter.nodes import Node, Trait
from outline_splitter.packing import SourceView
from outline_splitter.packing.atoms import Atom, collect_atoms
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.small_chunks import merge_small_chunks
from outline_splitter.tokens import resolve_tokenizer, span_counter_for
from tests.conftest import corpus_files
from tests.invariants import assert_source_chunks
from tests.strategies import markdown_document


def _small_and_stuck(splitter: OutlineTextSplitter, text: str) -> tuple[int, int, int]:
    """Chunks; those under `min_chunk_size`; those of them that a join with either
    neighbour (the source span from one to the other) would still fit the budget."""
    chunks = splitter.split(text)
    small = mergeable = 0
    for i, chunk in enumerate(chunks):
        if chunk.token_count >= splitter.min_chunk_size or len(chunks) == 1:
            continue
        small += 1
        for j in (i - 1, i + 1):
            if 0 <= j < len(chunks):
                first, second = sorted((chunk, chunks[j]), key=lambda c: c.start_pos)
                mergeable += splitter.tokenizer.count(text[first.start_pos : second.end_pos]) <= splitter.chunk_size
                break
    return len(chunks), small, mergeable


def test_a_tiny_last_chunk_is_balanced_away_and_min_chunk_size_keeps_that_split():
    paragraph = " ".join(["word"] * 62) + "."
    text = f"{paragraph}\n\n{paragraph}\n\nA short tail here."
    # greedy filling would give [126, 5]; balanced splits already avoid the tiny tail, and
    # min_chunk_size keeps that split (the tail's join with the first chunk cannot fit)
    assert [c.token_count for c in OutlineTextSplitter(doc_type="text", chunk_size=128).split(text)] == [63, 68]
    merged = OutlineTextSplitter(doc_type="text", chunk_size=128, min_chunk_size=16).split(text)
    assert [c.token_count for c in merged] == [63, 68]
    assert merged[1].text == f"{paragraph}\n\nA short tail here."


def test_a_merge_stays_within_chunk_size_whatever_max_chunk_size_allows(cl100k):
    # max_chunk_size caps what the user keeps whole (never_break_within, separator
    # groups); a min_chunk_size merge is an ordinary chunk, held to chunk_size
    text = "word " * 120 + "\n\n" + "tail words."
    assert 120 < cl100k.count(text.strip()) <= 130  # the join would fit the cap, not the budget
    for cap in (None, 130, 1000):
        splitter = OutlineTextSplitter(doc_type="text", chunk_size=120, max_chunk_size=cap, min_chunk_size=10)
        chunks = splitter.split(text)
        assert len(chunks) == 2 and chunks[1].token_count >= 10  # (the tail takes words to reach it)
        assert_source_chunks(text, chunks, cl100k, 120)


def test_only_a_node_kept_whole_passes_chunk_size(cl100k):
    code = "```\n" + "".join(f"line {i}\n" for i in range(30)) + "```"
    paragraph = " ".join(["word"] * 60) + "."
    text = f"{code}\n\n{paragraph}\n\nA short tail."
    size, cap = 64, 4 * cl100k.count(code)
    splitter = OutlineTextSplitter(chunk_size=size, max_chunk_size=cap, min_chunk_size=16, never_break_within=["code"])
    chunks = splitter.split(text)
    assert_source_chunks(text, chunks, cl100k, cap)
    assert chunks[0].text == code and chunks[0].token_count > size  # kept whole past chunk_size
    assert size < cl100k.count(f"{paragraph}\n\nA short tail.") <= cap  # a merge up to the cap would fit ...
    assert all(chunk.token_count <= size for chunk in chunks[1:])  # ... yet no other chunk passes chunk_size


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=markdown_document(), chunk_size=st.sampled_from([8, 16, 32, 64]), data=st.data())
def test_min_chunk_size_never_passes_chunk_size(cl100k, text, chunk_size, data):
    minimum = data.draw(st.integers(1, chunk_size))
    cap = data.draw(st.integers(chunk_size, 4 * chunk_size))
    splitter = OutlineTextSplitter(chunk_size=chunk_size, max_chunk_size=cap, min_chunk_size=minimum)
    assert_source_chunks(text, splitter.split(text), cl100k, chunk_size)


@pytest.mark.parametrize(
    ("folder", "doc_type", "output", "share"),
    # the 1%: a tiny chunk between two full ones (a tag run, a cut leaf's last
    # piece) takes atoms, or words of prose (lines of code), from a neighbour
    [
        ("markdown", "markdown", None, 0.01),
        ("html-spec", "html", "html", 0.01),
        ("html-web", "html", "html", 0.01),
        ("html-web", "html", "text", 0.01),
    ],
)
def test_min_chunk_size_64_leaves_tiny_chunks_only_where_no_join_fits(folder, doc_type, output, share):
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=256, output=output, min_chunk_size=64)
    total = small = mergeable = 0
    for path in corpus_files(folder, "*.md" if doc_type == "markdown" else "*.html"):
        chunks, tiny, joinable = _small_and_stuck(splitter, path.read_text(encoding="utf-8"))
        total, small, mergeable = total + chunks, small + tiny, mergeable + joinable
    print(f"{folder} {output}: {small} of {total} chunks under 64 tokens, {mergeable} of them joinable")
    if output != "text":  # (text-mode spans are HTML, whose count says nothing of the text's)
        assert mergeable <= 0.001 * total
    assert small < share * total


def test_a_tag_run_between_two_full_chunks_takes_the_first_words_of_the_prose_it_opens():
    para = " ".join(f"w{i}" for i in range(124)) + "."
    text = f"<p>{para}</p><div class='box'><p>{para}</p></div>"
    assert [c.token_count for c in OutlineTextSplitter(doc_type="html", chunk_size=256).split(text)][1] < 16
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=256, min_chunk_size=64).split(text)
    assert all(64 <= c.token_count <= 256 for c in chunks)
    assert "".join(c.text for c in chunks).replace(" ", "") == text.replace(" ", "")
    second = chunks[1]
    assert second.text.startswith("<div class='box'><p>w0 ")
    # the cut falls between two words, not inside one
    assert text[second.end_pos - 1].isalnum() and text[second.end_pos] == " "


def test_a_tiny_chunk_between_two_code_blocks_takes_whole_lines():
    def fence(name: str) -> str:
        return "```py\n" + "".join(f"{name}_{j} = compute({j}, {j + 1})\n" for j in range(22)) + "```\n"

    text = fence("value") + "\n" + " ".join(["tail"] * 12) + ".\n\n" + fence("other")
    assert min(c.token_count for c in OutlineTextSplitter(doc_type="markdown", chunk_size=256).split(text)) < 64
    chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=256, min_chunk_size=64).split(text)
    assert all(64 <= c.token_count <= 256 for c in chunks)
    for chunk in chunks:
        assert chunk.start_pos == 0 or text[chunk.start_pos - 1] == "\n"
        assert chunk.end_pos == len(text) or text[chunk.end_pos] == "\n"


def test_taking_atoms_from_the_chunk_before_leaves_no_heading_at_its_end():
    """`min_chunk_size`'s takes obey the cut rules of the plan (`rules.may_cut_between`):
    a small chunk that takes the last paragraph of the chunk before takes the heading that
    leads it too, rather than leave the heading at that chunk's end."""
    blocks = ["One " * 20 + "end.", "Heading", "Two " * 12 + "end.", "Tiny."]
    text = "\n\n".join(blocks)
    root, cursor = Node(DOCUMENT, 0, len(text)), 0
    for block in blocks:
        traits = Trait.LEADS if block == "Heading" else Trait.NONE
        root.children.append(Node(PARAGRAPH, cursor, cursor + len(block), traits=traits))
        cursor += len(block) + 2
    view = SourceView(text, span_counter_for(resolve_tokenizer("cl100k_base"), text))
    atoms = [atom for atom in collect_atoms(root, view, 30, 30) if isinstance(atom, Atom)]
    assert len(atoms) == 4
    spans = [PackedSpan(atoms[:3], view.count(atoms[0].start, atoms[2].end)), PackedSpan(atoms[3:], 2)]
    # joined they are over 39 tokens; the last paragraph alone would bring the tiny one to 16
    assert view.count(atoms[0].start, atoms[3].end) > 39 >= spans[0].token_count
    assert view.count(atoms[2].start, atoms[3].end) >= 16
    merged = [text[span.start : span.end] for span in merge_small_chunks(spans, view, 39, 16)]
    assert merged == [blocks[0], "\n\n".join(blocks[1:])]
