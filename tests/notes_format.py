"""A tiny third-party format, as a package outside this project would write it (the
"How to add a format" example in docs/design.md).

Blocks are separated by blank lines. A block that starts with `NOTE:` is a `note`, which
leads the block after it; a block fenced by `~~~` lines is `verbatim`, cut at line ends
when it does not fit; any other block is prose.
"""

from __future__ import annotations

import re

from outline_splitter.kinds import DOCUMENT
from outline_splitter.nodes import Node, Trait, apply_traits

NOTE = "note"
VERBATIM = "verbatim"
PROSE = "prose"
# The format's kind -> traits table: all the packer knows of these nodes.
TRAITS: dict[str, Trait] = {
    NOTE: Trait.LEADS,
    VERBATIM: Trait.LINES | Trait.VERBATIM,
    PROSE: Trait.PROSE,
}
_BLOCK = re.compile(r"~~~\n.*?\n~~~|(?:[^\n]+\n?)+", re.DOTALL)


def detect_notes(text: str) -> Node:
    """The outline: a document of `note`, `verbatim` and `prose` blocks."""
    root = Node(DOCUMENT, 0, len(text))
    for match in _BLOCK.finditer(text):
        block = match.group()
        kind = VERBATIM if block.startswith("~~~") else NOTE if block.startswith("NOTE:") else PROSE
        root.children.append(Node(kind, match.start(), match.end()))
    return apply_traits(root, TRAITS)
