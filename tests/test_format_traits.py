"""The seam between the passes: a format's traits decide how the packer treats its
nodes, so a third-party format gets the same rules as the built-in ones, and pass two
reads no kind names."""

from __future__ import annotations

import ast
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from outline_splitter import OutlineTextSplitter, registry
from tests.invariants import assert_source_chunks

PACKING = Path(__file__).resolve().parents[1] / "outline_splitter" / "packing"


@pytest.fixture
def notes_format(monkeypatch):
    entry = EntryPoint("notes", "tests.notes_format:detect_notes", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [entry] if group == entry.group else [])
    registry._formats_by_name.cache_clear()
    yield
    registry._formats_by_name.cache_clear()


def test_a_third_party_kind_that_leads_stays_with_what_follows(notes_format, cl100k):
    text = "Some opening prose that fills the chunk.\n\nNOTE: read this first.\n\nThe point of the note.\n"
    chunks = OutlineTextSplitter(doc_type="notes", chunk_size=14).split(text)
    assert_source_chunks(text, chunks, cl100k, 14)
    note = next(c for c in chunks if "NOTE:" in c.text)
    assert note.text.startswith("NOTE:") and "The point of the note." in note.text
    assert not chunks[0].text.endswith("first.")


def test_a_third_party_kind_cut_at_lines_is_cut_at_line_ends(notes_format, cl100k):
    body = "".join(f"value_{i} = compute({i}) + offset. Next {i}.\n" for i in range(12))
    text = f"Intro.\n\n~~~\n{body}~~~\n"
    chunks = OutlineTextSplitter(doc_type="notes", chunk_size=24).split(text)
    assert_source_chunks(text, chunks, cl100k, 24)
    inside = [c for c in chunks if c.start_pos > text.index("~~~")]
    assert len(inside) > 2
    for chunk in inside:  # each part of the verbatim block is whole lines
        assert text[chunk.start_pos - 1] == "\n" and text[chunk.end_pos] == "\n"


def test_overlap_does_not_start_inside_a_verbatim_block(notes_format):
    lines = "".join(f"line {i} of the block\n" for i in range(6))
    verbatim = OutlineTextSplitter(doc_type="notes", chunk_size=30, chunk_overlap=10).split(f"~~~\n{lines}~~~\n")
    prose = OutlineTextSplitter(doc_type="notes", chunk_size=30, chunk_overlap=10).split(f"{lines}\n")
    assert len(verbatim) > 1 and len(prose) > 1
    assert prose[1].start_overlap  # the same lines as prose share their tail
    assert all(chunk.start_overlap == "" for chunk in verbatim)


def _packing_trees() -> list[tuple[str, ast.Module]]:
    return [(path.name, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKING.glob("*.py"))]


def test_pass_two_reads_traits_not_kinds_or_meta():
    for name, tree in _packing_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "meta":
                pytest.fail(f"packing/{name}:{node.lineno} reads a node's meta")
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                if any(isinstance(o, ast.Attribute) and o.attr == "kind" for o in operands):
                    pytest.fail(f"packing/{name}:{node.lineno} decides by a node's kind")


def test_no_function_in_the_package_is_over_40_lines():
    long = []
    root = PACKING.parent  # rglob does not follow its detectors symlink: walk the folder itself
    for path in [*sorted(root.rglob("*.py")), *sorted((root.parent / "detectors").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 40:
                    long.append(f"{path.relative_to(PACKING.parents[1])}: {node.name} has {length} lines")
    assert not long, "\n".join(long)


def test_trait_bits_are_one_namespace_of_the_traits_values():
    """`TraitBit` holds every trait's bit, and no module keeps a copy of one
    (`_LEADS = Trait.LEADS.value`): the hot loops read `TraitBit`."""
    from outline_splitter.nodes import Trait, TraitBit

    bits = {name: value for name, value in vars(TraitBit).items() if name.isupper()}
    assert bits == {trait.name: trait.value for trait in Trait if trait.value}
    root = PACKING.parent
    for path in [*sorted(root.rglob("*.py")), *sorted((root.parent / "detectors").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            copied = (
                isinstance(node, ast.Attribute)
                and node.attr in ("value", "_value_")
                and isinstance(node.value, ast.Attribute)
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "Trait"
            )
            assert not copied or path.name == "nodes.py", f"{path.name}:{node.lineno} copies a trait's bit"
