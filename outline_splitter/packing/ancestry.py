"""The chain of nodes above an atom, shared by every atom below the same node.

The outline's depth is the input's to choose (50,000 nested elements or list items), so
an atom's ancestors are not a tuple copied per level, which costs time and memory
quadratic in the depth: each `Ancestry` holds one node and a link to the chain above
it, and carries what the packer asks of the whole chain (is any node `NEVER_BREAK`,
which is the innermost section, which nodes are `VERBATIM`) so that no question walks it.
"""

from __future__ import annotations

from collections.abc import Iterator

from outline_splitter.nodes import Node, TraitBit

# A header row is among the first children of its node (a caption may come before it).
HEADER_ROWS_WITHIN = 3

_SECTION, _VERBATIM, _HEADED = 1, 2, 4  # the bits of `Ancestry._own`


class Ancestry:
    """`node` with the chain above it (`parent`, `None` above the root). `sealed` says
    whether `node` or a node above it is `NEVER_BREAK`; `section` is the innermost
    link whose node is a `SECTION`, `verbatim` the innermost whose node is
    `VERBATIM` and `headed` the innermost whose node has a header row (a `CONTEXT`
    node among its first children) (this one or one above, `None` if there is none)."""

    __slots__ = ("_above_headed", "_above_section", "_above_verbatim", "_own", "depth", "node", "parent", "sealed")

    def __init__(self, node: Node, parent: Ancestry | None) -> None:
        self.node = node
        self.parent = parent
        self.depth: int = parent.depth + 1 if parent is not None else 1  # nodes in the chain
        traits: int = node.traits._value_
        self.sealed: bool = bool(traits & TraitBit.NEVER_BREAK) or (parent is not None and parent.sealed)
        # a link that is its own section (verbatim, headed link) says so in `_own`
        # rather than pointing at itself: a link that refers to itself is a reference
        # cycle, which kept the whole outline alive until the collector's next pass
        own = 0
        if traits & TraitBit.SECTION:
            own |= _SECTION
        if traits & TraitBit.VERBATIM:
            own |= _VERBATIM
        for child in node.children[:HEADER_ROWS_WITHIN]:  # a loop, not any(): this runs per node
            if child.traits._value_ & TraitBit.CONTEXT:
                own |= _HEADED
                break
        self._own = own
        if parent is None:
            self._above_section = self._above_verbatim = self._above_headed = None
            return
        above = parent._own
        self._above_section = parent if above & _SECTION else parent._above_section
        self._above_verbatim = parent if above & _VERBATIM else parent._above_verbatim
        self._above_headed = parent if above & _HEADED else parent._above_headed

    @property
    def section(self) -> Ancestry | None:
        return self if self._own & _SECTION else self._above_section

    @property
    def verbatim(self) -> Ancestry | None:
        return self if self._own & _VERBATIM else self._above_verbatim

    @property
    def headed(self) -> Ancestry | None:
        return self if self._own & _HEADED else self._above_headed

    def verbatim_nodes(self) -> Iterator[Node]:
        """The `VERBATIM` nodes of the chain, innermost first."""
        link = self.verbatim
        while link is not None:
            yield link.node
            link = link.parent.verbatim if link.parent is not None else None

    def headed_nodes(self) -> list[Node]:
        """The nodes of the chain that have a header row, outermost first."""
        nodes = []
        link = self.headed
        while link is not None:
            nodes.append(link.node)
            link = link.parent.headed if link.parent is not None else None
        return nodes[::-1]

    def __repr__(self) -> str:
        return f"Ancestry({self.node!r})"


def shared_depth_with(a: Node, a_above: Ancestry | None, b: Node, b_above: Ancestry | None) -> int:
    """How many nodes the chains `a_above` + `a` and `b_above` + `b` share from the root,
    without building a link for `a` or `b`."""
    a_depth = a_above.depth + 1 if a_above is not None else 1
    b_depth = b_above.depth + 1 if b_above is not None else 1
    if a is b:
        return a_depth
    for node, depth, other in ((a, a_depth, b_above), (b, b_depth, a_above)):
        link = other
        while link is not None and link.depth > depth:
            link = link.parent
        if link is not None and link.node is node:
            return depth  # one is an ancestor of the other
    return shared_depth(a_above, b_above)


def shared_depth(a: Ancestry | None, b: Ancestry | None) -> int:
    """How many nodes two chains share from the root: the depth of their innermost
    common node. Walks up from both only as far as they differ."""
    while a is not None and b is not None and a.node is not b.node:
        a_depth, b_depth = a.depth, b.depth
        if a_depth >= b_depth:
            a = a.parent
        if b_depth >= a_depth:
            b = b.parent
    return a.depth if a is not None and b is not None else 0
