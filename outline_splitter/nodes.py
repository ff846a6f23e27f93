"""The outline node that detectors build and the packer walks.

`Node` is a plain slotted object, not a pydantic model: a long page yields tens of
thousands of them and a slotted object is built about six times faster. The public
`OutlineNode` (see `models.py`) is made from it once, when a user asks for the outline.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Node kinds shared by detectors and the packer. A detector may use other kinds; the
# packer only gives special treatment to the ones named in the sets below.
DOCUMENT = "document"
SECTION = "section"
HEADING = "heading"
PARAGRAPH = "paragraph"
LIST = "list"
LIST_ITEM = "list_item"
CODE = "code"
TABLE = "table"
TABLE_ROW = "table_row"
BLOCKQUOTE = "blockquote"
HTML_BLOCK = "html_block"
THEMATIC_BREAK = "thematic_break"
FRONT_MATTER = "front_matter"
SENTENCE = "sentence"

# A node of these kinds is glued to the sibling that follows it: a chunk never ends
# with one while the content it introduces goes to the next chunk. A "header" is the
# signature (with comments, decorators, docstring) of a code definition being split.
LEADING_KINDS = frozenset({HEADING, "comment", "decorator", "caption", "header"})

# A leaf of these kinds is cut at line ends before sentences: its line breaks mean
# something (source code, preformatted text).
LINE_ORIENTED_KINDS = frozenset({CODE, "pre", "statement", "definition", "comment"})

# When a node of these kinds has to be broken, its last chunk also ends with it: the
# tail of a long section does not share a chunk with the next section.
SELF_CONTAINED_KINDS = frozenset({SECTION, "definition"})

# Blocks of code inside a document: an overlap never starts inside one.
CODE_BLOCK_KINDS = frozenset({CODE, "pre"})


class Node:
    """One element of a document's outline.

    `start`/`end` are half-open character offsets into the source string, so
    `source[node.start:node.end]` is the node's text. Children are ordered, do not
    overlap, and lie inside their parent. `meta` holds what a detector knows about the
    node: `title` and `level` for sections and headings, `language` for code, `id`
    for elements with an identifier, `symbol` and `context` for code definitions,
    `split` (`"lines"`) for leaves whose line breaks matter.

    A detector may defer a node's children: `expand`, a function returning them, is
    called only when the packer has to break the node (`expanded_children`). A source
    file's functions mostly fit, so their statements are never built. `walk` and
    `check_outline` see the children built so far.
    """

    __slots__ = ("kind", "start", "end", "children", "meta", "expand")

    def __init__(
        self,
        kind: str,
        start: int,
        end: int,
        children: list[Node] | None = None,
        meta: dict[str, Any] | None = None,
        expand: Callable[[], list[Node]] | None = None,
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.children: list[Node] = children if children is not None else []
        self.meta: dict[str, Any] = meta if meta is not None else {}
        self.expand = expand

    def expanded_children(self) -> list[Node]:
        """The children, built first if they were deferred (and then checked as
        `check_outline` checks a detector's outline)."""
        if self.expand is not None:
            expand, self.expand = self.expand, None
            self.children = expand()
            check_outline(self, self.end)
        return self.children

    def expand_all(self) -> Node:
        """Build every deferred part of the subtree; returns this node."""
        stack = [self]
        while stack:
            stack.extend(stack.pop().expanded_children())
        return self

    def __repr__(self) -> str:
        return f"Node({self.kind!r}, {self.start}, {self.end}, children={len(self.children)})"

    def walk(self) -> list[Node]:
        """All nodes of the subtree in document order, this one first."""
        out: list[Node] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out


def check_outline(root: Node, length: int) -> None:
    """Raise `ValueError` unless `root` is a well-formed outline of a text of `length`.

    Well-formed: every node has `0 <= start <= end <= length`, children are ordered and
    do not overlap, and every child lies inside its parent. Third-party detectors are
    checked with this before their outline is packed.
    """
    stack = [root]
    if not (0 <= root.start <= root.end <= length):
        raise ValueError(f"outline root spans [{root.start}, {root.end}) outside [0, {length})")
    while stack:
        node = stack.pop()
        cursor = node.start
        for child in node.children:
            if child.start < cursor or child.end < child.start or child.end > node.end:
                raise ValueError(
                    f"outline node {child.kind!r} [{child.start}, {child.end}) is out of order "
                    f"or outside its parent {node.kind!r} [{node.start}, {node.end})"
                )
            cursor = child.end
            stack.append(child)
