"""Plain text: a document of paragraphs separated by blank lines.

Sentences and words are not nodes: the packer cuts a paragraph into them only when the
paragraph does not fit. Paragraphs are nodes only on demand (`Trait.PARAGRAPHS`): a
text that fits is one atom, and one that does not is cut at its blank lines as a leaf,
so 100,000 short paragraphs cost a few regular-expression passes, not a node each.
"""

from __future__ import annotations

from outline_splitter.detectors.lines import blocks
from outline_splitter.kinds import DOCUMENT, PARAGRAPH
from outline_splitter.nodes import SHARED_TRAITS, Node, Trait, apply_traits, mark_lead_ins

TRAITS: dict[str, Trait] = dict(SHARED_TRAITS)
# Every kind this detector makes: what `never_break_within` and `separators` may name.
KINDS = frozenset({DOCUMENT, PARAGRAPH})


def detect_text(text: str) -> Node:
    """Outline of plain text: `document` with one `paragraph` child per block of
    non-blank lines (the paragraph keeps its own line breaks), deferred."""

    def paragraphs() -> list[Node]:
        root = Node(DOCUMENT, 0, len(text), [Node(PARAGRAPH, a, b) for a, b in blocks(text, 0, len(text))])
        return mark_lead_ins(apply_traits(root, TRAITS), text).children

    return Node(DOCUMENT, 0, len(text), expand=paragraphs, traits=Trait.PARAGRAPHS)
