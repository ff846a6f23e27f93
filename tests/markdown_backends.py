"""The Markdown detector's two backends side by side: markdown-it-py (the reference) and
pulldown-cmark through pyromark (`detectors/markdown_fast.py`), for
`tests/test_markdown_backends.py` and the full conformance run (`tests/conformance.py`)."""

from __future__ import annotations

from outline_splitter.detectors import markdown
from outline_splitter.nodes import Node

Signature = list[tuple[object, ...]]


def outline_signature(root: Node) -> Signature:
    """Everything the packer and the chunk metadata read of each node, in document order
    with its depth: kind, offsets, traits, every label field, meta, its class (a list item
    that may defer its paragraph), whether its children are deferred, their number."""
    out: Signature = []
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        label = node.label
        fields = None if label is None else tuple(getattr(label, name) for name in label.__slots__)
        meta = tuple(sorted(node._meta.items())) if node._meta else None
        out.append(
            (
                depth,
                node.kind,
                node.start,
                node.end,
                node.traits,
                fields,
                meta,
                type(node).__name__,
                node.expand is not None,
                len(node.children),
            )
        )
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return out


def difference(text: str) -> str | None:
    """Where the fast backend's outline of `text` first differs from the reference's
    (None if it does not, or hands the document to the reference)."""
    fast = markdown.detect_markdown_fast(text)
    if fast is None:
        return None
    expected = outline_signature(markdown.detect_markdown_reference(text))
    got = outline_signature(fast)
    for reference_node, fast_node in zip(expected, got):
        if reference_node != fast_node:
            return f"reference {reference_node} != pulldown-cmark {fast_node}"
    if len(expected) != len(got):
        return f"reference has {len(expected)} nodes, pulldown-cmark {len(got)}"
    return None
