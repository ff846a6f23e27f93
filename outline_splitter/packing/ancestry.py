"""The chain of nodes above an atom, shared by every atom below the same node.

The outline's depth is the input's to choose (50,000 nested elements or list items), so
an atom's ancestors are not a tuple copied per level, which costs time and memory
quadratic in the depth: each `Ancestry` holds one node and a link to the chain above
it, and carries what the packer asks of the whole chain (is any node `NEVER_BREAK`,
which is the innermost section, which nodes are `VERBATIM`) so that no question walks it.
"""

from __future__ import annotations

from collections.abc import Iterator

from outline_splitter.nodes import Node, Trait


class Ancestry:
    """`node` with the chain above it (`parent`, `None` above the root). `sealed` says
    whether `node` or a node above it is `NEVER_BREAK`; `section` is the innermost
    link whose node is a `SECTION` and `verbatim` the innermost whose node is
    `VERBATIM` (this one or one above, `None` if there is none)."""

    __slots__ = ("node", "parent", "sealed", "section", "verbatim")

    def __init__(self, node: Node, parent: Ancestry | None) -> None:
        self.node = node
        self.parent = parent
        traits = node.traits
        self.sealed: bool = Trait.NEVER_BREAK in traits or (parent is not None and parent.sealed)
        above_section = parent.section if parent is not None else None
        self.section: Ancestry | None = self if Trait.SECTION in traits else above_section
        above_verbatim = parent.verbatim if parent is not None else None
        self.verbatim: Ancestry | None = self if Trait.VERBATIM in traits else above_verbatim

    def verbatim_nodes(self) -> Iterator[Node]:
        """The `VERBATIM` nodes of the chain, innermost first."""
        link = self.verbatim
        while link is not None:
            yield link.node
            link = link.parent.verbatim if link.parent is not None else None

    def __repr__(self) -> str:
        return f"Ancestry({self.node!r})"
