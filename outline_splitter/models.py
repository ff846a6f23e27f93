"""The public data models: `OutlineNode` (pass one's result) and `TextChunk` (pass two's)."""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from typing import Annotated, Any, NoReturn, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from outline_splitter.nodes import Label, Node, Trait

MAX_OUTLINE_DEPTH = 96
"""How many levels below its root an `OutlineNode` tree goes. A node at this depth has
no children: its descendants are flattened into it (its offsets, and so their text,
are kept). Pydantic refuses JSON nested past 200 levels (an `OutlineNode` level is two:
the object and its `children` list), so a deeper tree could be dumped but not read
back; the packer itself works on the detector's `Node` tree, at any depth."""


class OutlineNode(BaseModel):
    """A node of a document's outline, with exact half-open character offsets.

    `source[node.start:node.end]` is the node's text; children are ordered, do not
    overlap and lie inside their parent. `meta` holds the node's label (`title`,
    `level`, `id`, `symbol`, ...) and its format's own keys; `traits` names how the
    packer treats it (`Trait` members, e.g. `["LEADS", "TITLE"]`). `str(node)` prints the tree as an indented
    outline, one node a line, for debugging. The tree goes at most `MAX_OUTLINE_DEPTH`
    levels deep (deeper levels are flattened into their ancestor at that depth).
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    children: list[OutlineNode] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)
    traits: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _children_ordered_inside(self) -> OutlineNode:
        if self.end < self.start:
            raise ValueError(f"end ({self.end}) is before start ({self.start})")
        cursor = self.start
        for child in self.children:
            if child.start < cursor or child.end > self.end:
                raise ValueError(
                    f"child {child.kind!r} [{child.start}, {child.end}) overlaps a sibling "
                    f"or lies outside [{self.start}, {self.end})"
                )
            cursor = child.end
        return self

    @classmethod
    def from_node(cls, node: Node) -> OutlineNode:
        """Convert a detector's `Node` tree into validated `OutlineNode`s, flattened below
        `MAX_OUTLINE_DEPTH` (built bottom-up from a pre-order list: no recursion)."""
        order: list[tuple[Node, int]] = []  # each node (before its descendants) and its parent's index
        stack: list[tuple[Node, int, int]] = [(node, 0, -1)]
        while stack:
            current, depth, parent = stack.pop()
            if depth < MAX_OUTLINE_DEPTH:
                stack.extend((child, depth + 1, len(order)) for child in reversed(current.children))
            order.append((current, parent))
        children: list[list[OutlineNode]] = [[] for _ in order]  # filled last child first
        for index in range(len(order) - 1, 0, -1):
            current, parent = order[index]
            children[parent].append(cls._one(current, children[index][::-1]))
        return cls._one(node, children[0][::-1])

    @classmethod
    def _one(cls, node: Node, children: list[OutlineNode]) -> OutlineNode:
        return cls(
            kind=node.kind,
            start=node.start,
            end=node.end,
            children=children,
            meta=node.public_meta(),
            traits=[trait.name for trait in Trait if trait.value and trait in node.traits and trait.name],
        )

    def to_node(self) -> Node:
        """The plain `Node` tree the packer works on."""
        root = self._plain()
        stack = [(self, root)]
        while stack:
            model, node = stack.pop()
            node.children = [child._plain() for child in model.children]
            stack.extend(zip(model.children, node.children))
        return root

    def _plain(self) -> Node:
        """This node alone as a `Node` (its children are set by `to_node`)."""
        label, meta = Label.from_meta(self.meta)
        traits = Trait.NONE
        for name in self.traits:
            if name not in Trait.__members__:
                raise ValueError(f"trait {name!r} of node {self.kind!r} is not one of {', '.join(Trait.__members__)}")
            traits |= Trait[name]
        return Node(self.kind, self.start, self.end, None, meta, traits=traits, label=label)

    def render(self, source: str | None = None, width: int = 60) -> str:
        """The tree as an indented outline; with `source`, each line shows the node's text."""
        lines: list[str] = []
        stack: list[tuple[OutlineNode, int]] = [(self, 0)]
        while stack:
            node, depth = stack.pop()
            label = node.meta.get("title") or node.meta.get("symbol") or node.meta.get("language") or ""
            line = f"{'  ' * depth}{node.kind} [{node.start}, {node.end})"
            if label:
                line += f" {label!r}"
            if source is not None and not node.children:
                snippet = " ".join(source[node.start : node.end].split())
                line += f": {snippet[:width]!r}"
            lines.append(line)
            stack.extend((child, depth + 1) for child in reversed(node.children))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class Metadata(dict[str, Any]):
    """A chunk's metadata: a `dict` (read, copied, serialized and compared as one) that
    cannot be changed, since a chunk is made once with it. Setting, deleting or updating a
    key raises `TypeError`; `{**chunk.metadata, key: value}` is a changed copy, and
    `chunk.model_copy(update={"metadata": ...})` a chunk with it. (The values are as
    they were made: a list in it is the chunk's own, not to be changed either.)"""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Metadata], tuple[dict[str, Any]]]:
        # (pickle would otherwise rebuild it key by key through __setitem__)
        return Metadata, (dict(self),)

    def __deepcopy__(self, memo: dict[int, Any]) -> Metadata:
        return Metadata(deepcopy(dict(self), memo))

    def _refuse(self) -> NoReturn:
        raise TypeError(
            "a chunk's metadata is read-only: make a changed copy ({**chunk.metadata, ...}) "
            "or a new chunk (chunk.model_copy(update={'metadata': ...}))"
        )

    def __setitem__(self, key: str, value: Any) -> NoReturn:
        self._refuse()

    def __delitem__(self, key: str) -> NoReturn:
        self._refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._refuse()

    def setdefault(self, key: str, default: Any = None) -> NoReturn:
        self._refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    def pop(self, key: str, *default: Any) -> NoReturn:
        self._refuse()

    def popitem(self) -> NoReturn:
        self._refuse()

    def clear(self) -> NoReturn:
        self._refuse()


class TextChunk(BaseModel):
    """One chunk of a split document.

    - `text`: the chunk's text. In source mode `text == source[start_pos:end_pos]`; in
      HTML text mode it is the readable text of that span of HTML.
    - `start_pos`, `end_pos`: half-open character offsets of the span in the input.
    - `token_count`: exact number of tokens of `text` under the splitter's tokenizer.
    - `start_overlap`, `end_overlap`: text shared with the previous / next chunk when
      `chunk_overlap > 0` (the end of the previous chunk, the start of the next); `text`
      itself never includes them.
    - `metadata`: `index`, `heading_path`, `kinds` and the other keys in `docs/usage.md`,
      read-only (a `Metadata`: a chunk is made once with it; `model_copy(update=...)`
      makes a chunk with other metadata).

    A parent chunk (`hierarchy=True`, `metadata["role"] == "parent"`) is the exception:
    its `text` is its section's heading, opening text and reference lines, not a slice of
    the source, and `start_pos`/`end_pos` span its whole section.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    start_pos: int = Field(ge=0)
    end_pos: int = Field(ge=0)
    token_count: int = Field(ge=0)
    start_overlap: str = ""
    end_overlap: str = ""
    # (validated as the dict it is, then made read-only)
    metadata: Annotated[dict[str, Any], AfterValidator(Metadata)] = Field(default_factory=Metadata)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy of this chunk with the fields in `update` replaced (pydantic's
        `model_copy`, which does not validate them: new `metadata` is made read-only here)."""
        copied = super().model_copy(update=update, deep=deep)
        if update is not None and "metadata" in update and not isinstance(update["metadata"], Metadata):
            copied.__dict__["metadata"] = Metadata(update["metadata"])
        return copied
