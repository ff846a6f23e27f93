"""The format registry, including third-party detectors from entry points."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from outline_splitter import OutlineNode, OutlineTextSplitter, registry
from outline_splitter.kinds import DOCUMENT, PARAGRAPH
from outline_splitter.nodes import Node


def detect_lines(text: str) -> Node:
    """A third-party detector: one paragraph per line."""
    root = Node(DOCUMENT, 0, len(text))
    cursor = 0
    for line in text.splitlines(keepends=True):
        root.children.append(Node(PARAGRAPH, cursor, cursor + len(line)))
        cursor += len(line)
    return root


def detect_public_model(text: str) -> OutlineNode:
    return OutlineNode(kind=DOCUMENT, start=0, end=len(text))


def detect_broken(text: str) -> Node:
    return Node(DOCUMENT, 0, len(text) + 5)


@pytest.fixture
def plugins(monkeypatch):
    entries = [
        EntryPoint("lines", "tests.test_registry:detect_lines", registry.ENTRY_POINT_GROUP),
        EntryPoint("model", "tests.test_registry:detect_public_model", registry.ENTRY_POINT_GROUP),
        EntryPoint("broken", "tests.test_registry:detect_broken", registry.ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: [e for e in entries if e.group == group])
    registry._formats_by_name.cache_clear()
    yield
    registry._formats_by_name.cache_clear()


def test_entry_point_detectors_are_doc_types(plugins):
    assert {"lines", "model", "broken"} <= set(registry.doc_types())
    chunks = OutlineTextSplitter(doc_type="lines", chunk_size=3).split("one two\nthree\n")
    assert [c.text for c in chunks] == ["one two", "three"]
    assert [c.text for c in OutlineTextSplitter(doc_type="model").split("a b")] == ["a b"]


def test_a_detector_whose_outline_is_malformed_is_refused(plugins):
    with pytest.raises(ValueError, match="outside"):
        OutlineTextSplitter(doc_type="broken").split("text")


def test_built_in_formats_cannot_be_shadowed(plugins, monkeypatch):
    entry = EntryPoint("markdown", "tests.test_registry:detect_lines", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [entry])
    registry._formats_by_name.cache_clear()
    assert registry.resolve_doc_type("markdown").detector == "outline_splitter.detectors.markdown:detect_markdown"


def test_every_extension_maps_to_a_known_doc_type():
    for fmt in registry.FORMATS:
        for extension in fmt.extensions:
            assert registry.doc_type_for_path(f"file{extension}") == fmt.name
            assert registry.doc_type_for_path(f"FILE{extension.upper()}") == fmt.name


def test_every_reference_the_registry_holds_loads_through_the_one_loader():
    """Each built-in format's detector, kinds and hooks are `"module:attribute"` references
    that `load_reference` imports; no other module imports one by hand."""
    import ast
    from pathlib import Path

    from outline_splitter.references import load_reference

    for fmt in registry.FORMATS:
        assert callable(load_reference(fmt.detector))
        assert fmt.kinds is None or all(isinstance(kind, str) for kind in load_reference(fmt.kinds))
        assert fmt.hooks is None or isinstance(load_reference(fmt.hooks), registry.FormatHooks)
    root = Path(registry.__file__).resolve().parent
    for path in [*root.rglob("*.py"), *(root.parent / "detectors").rglob("*.py")]:
        source = path.read_text(encoding="utf-8")
        if path.name != "references.py" and '.partition(":")' in source:
            tree = ast.parse(source)
            calls = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "import_module"]
            assert not calls, f"{path.name} loads a module:attribute reference of its own"
