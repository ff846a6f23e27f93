"""Deferred children (`Node.expand`): built only when the packer breaks the node."""

from __future__ import annotations

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.kinds import DOCUMENT, PARAGRAPH
from outline_splitter.nodes import Node
from outline_splitter.packing import SourceView, pack_outline
from outline_splitter.tokens import resolve_tokenizer, span_counter_for


def _outline(text: str, calls: list[int]) -> Node:
    """One paragraph per blank-line block, each with its lines as deferred children."""
    root = Node(DOCUMENT, 0, len(text))
    cursor = 0
    for block in text.split("\n\n"):
        start, end = cursor, cursor + len(block)

        def lines(start: int = start, block: str = block) -> list[Node]:
            calls.append(start)
            out, offset = [], start
            for line in block.split("\n"):
                out.append(Node("line", offset, offset + len(line)))
                offset += len(line) + 1
            return out

        root.children.append(Node(PARAGRAPH, start, end, expand=lines))
        cursor = end + 2
    return root


def _pack(text: str, root: Node, size: int) -> list[str]:
    view = SourceView(text, span_counter_for(resolve_tokenizer("cl100k_base"), text))
    return [text[s.start : s.end] for s in pack_outline(root, view, size, size)]


def test_children_are_built_only_for_nodes_that_do_not_fit():
    text = "short one\n\n" + "\n".join(f"line {i} of a long block" for i in range(20))
    calls: list[int] = []
    chunks = _pack(text, _outline(text, calls), 40)
    assert calls == [text.index("line 0")]  # the short paragraph fit: never expanded
    assert all(chunk.startswith(("short", "line")) for chunk in chunks)
    assert len(chunks) > 2


def test_a_malformed_expansion_is_rejected():
    node = Node(PARAGRAPH, 0, 10, expand=lambda: [Node("line", 5, 20)])
    with pytest.raises(ValueError, match="outside its parent"):
        node.expanded_children()


def test_the_public_outline_is_fully_built():
    source = "def f(x):\n    if x:\n        return 1\n    return 2\n"
    outline = OutlineTextSplitter(doc_type="python").outline(source)
    function = outline.children[0]
    assert function.kind == "definition" and function.children, "the definition's parts are shown"


def test_a_nodes_meta_is_made_when_first_read():
    node = Node(PARAGRAPH, 0, 1)
    assert node.public_meta() == {} and node._meta is None  # (no dict for a node without meta)
    node.meta["tag"] = "p"
    assert node.meta == {"tag": "p"} and node.public_meta() == {"tag": "p"}
    given = {"language": "rust"}
    assert Node(PARAGRAPH, 0, 1, meta=given).meta is given
