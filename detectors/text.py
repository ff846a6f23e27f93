"""Plain text: a document of paragraphs separated by blank lines.

Sentences and words are not nodes: the packer cuts a paragraph into them only when the
paragraph does not fit, so a long article costs one regular-expression pass here.
"""

from __future__ import annotations

import re

from outline_splitter.nodes import DOCUMENT, PARAGRAPH, SHARED_TRAITS, Node, Trait, apply_traits, mark_lead_ins

TRAITS: dict[str, Trait] = dict(SHARED_TRAITS)
# Every kind this detector makes: what `never_break_within` and `separators` may name.
KINDS = frozenset({DOCUMENT, PARAGRAPH})

_BLANK_LINES = re.compile(r"(?:\r\n?|\n)[ \t\f\v]*(?:\r\n?|\n)\s*")


def detect_text(text: str) -> Node:
    """Outline of plain text: `document` with one `paragraph` child per block of
    non-blank lines (the paragraph keeps its own line breaks)."""
    root = Node(DOCUMENT, 0, len(text))
    start = 0
    for match in _BLANK_LINES.finditer(text):
        if text[start : match.start()].strip():
            root.children.append(Node(PARAGRAPH, start, match.start()))
        start = match.end()
    if text[start:].strip():
        root.children.append(Node(PARAGRAPH, start, len(text)))
    return mark_lead_ins(apply_traits(root, TRAITS), text)
