"""YAML read as the YAML 1.2 specification reads it (issue 56): directives, document
markers, flow pairs, keys spelled over several lines, comments and empty collections.
Each chunk's key path resolves in the document PyYAML parses (`check`)."""

from __future__ import annotations

import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.data_tree import INVALID
from outline_splitter.nodes import Node
from tests.test_data_formats import check

STYLES = (None, '"', "'", "|", ">")


def kinds(node: Node) -> set[str]:
    found = {node.kind}
    for child in node.children:
        found |= kinds(child)
    return found


def outline(text: str) -> Node:
    return OutlineTextSplitter(doc_type="yaml").outline(text)


def test_a_directive_is_part_of_the_documents_marker() -> None:
    for text in (
        "%YAML 1.2\n---\nkey: value\nother: 2\n",
        "%TAG !e! tag:yaml.org,2002:\n%FOO bar # reserved\n---\nkey: !e!str value\nother: 2\n",
    ):
        root = outline(text)
        assert INVALID not in kinds(root), text
        paths = [chunk.metadata["key_path"] for chunk in check("yaml", text, 4)]
        assert "$.key" in paths and "$.other" in paths


def test_a_document_end_marker_alone_is_no_document() -> None:
    # `...` after a document that already ended is a suffix, not an empty document:
    # the stream holds two documents, "a" and "b" (YAML 1.2, 9.2; PyYAML refuses it)
    text = "a\n...\n# c\n...\nb\n"
    root = outline(text)
    assert [child.meta.get("key") for child in root.children if child.kind == "yaml_document"] == ["[0]", "[1]"]
    chunks = OutlineTextSplitter(doc_type="yaml", chunk_size=4).split(text)
    assert chunks[-1].text == "b" and chunks[-1].metadata["key_path"] == "$[1]"
    check("yaml", "---\na\n...\n# c\n...\n---\nb\n", 4)  # PyYAML reads this one


def test_a_pair_in_a_flow_sequence_is_an_item_of_one_pair() -> None:
    # `[a: b, c]` is `[{a: b}, c]` (YAML 1.2, 7.4.1): the pair is item 0, `c` item 1
    text = "[name: first entry of the list, second, third]\n"
    root = outline(text)
    items = root.children[0].children[1:]
    assert [item.meta.get("key") for item in items] == ["[0]", "[1]", "[2]"]
    assert items[0].children[0].meta.get("key") == ".name"
    chunks = check("yaml", text, 8)
    assert [chunk.metadata["key_path"] for chunk in chunks if chunk.text.startswith("second")] == ["$[1]"]
    check("yaml", "- [a: 1, ? b : 2, c]\n- x\n", 4)


def test_a_key_spelled_over_lines_is_named_by_its_value() -> None:
    text = "? explicit key # empty value\n? |\n  block key\n: - one\n  - two\n? a\n  true\n: null\n"
    chunks = check("yaml", text, 4)
    assert '$["block key\\n"]' in [chunk.metadata["key_path"] for chunk in chunks]
    assert '$["a true"]' in [chunk.metadata["key_path"] for chunk in chunks]


_LONG_KEYS = st.text(st.sampled_from("ab c\n\t'\"\\:#-é"), min_size=1, max_size=200)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_LONG_KEYS, st.integers(), min_size=1, max_size=4), st.sampled_from(STYLES), st.integers(8, 40))
def test_keys_in_every_scalar_style_resolve(value: dict[str, int], style: str | None, width: int) -> None:
    # PyYAML writes a long key after `? ` and folds it at `width`, in the style asked for.
    # A block scalar's indentation digit counts from its mapping's indentation, which a
    # key's text does not hold: its lines' least indentation stands in (docs/usage.md)
    assume(style not in ("|", ">") or not any(key[:1].isspace() for key in value))
    text = yaml.safe_dump(value, default_style=style, width=width, allow_unicode=True)
    check("yaml", text, 8)
