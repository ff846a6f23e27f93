"""The public data models: `OutlineNode` (pass one's result) and `TextChunk` (pass two's)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from outline_splitter.nodes import Label, Node, Trait


class OutlineNode(BaseModel):
    """A node of a document's outline, with exact half-open character offsets.

    `source[node.start:node.end]` is the node's text; children are ordered, do not
    overlap and lie inside their parent. `meta` holds the node's label (`title`,
    `level`, `id`, `symbol`, ...) and its format's own keys; `traits` names how the
    packer treats it (`Trait` members, e.g. `["LEADS", "TITLE"]`). `str(node)` prints the tree as an indented
    outline, one node a line, for debugging.
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
        """Convert a detector's `Node` tree into validated `OutlineNode`s."""
        return cls(
            kind=node.kind,
            start=node.start,
            end=node.end,
            children=[cls.from_node(child) for child in node.children],
            meta=node.public_meta(),
            traits=[trait.name for trait in Trait if trait.value and trait in node.traits and trait.name],
        )

    def to_node(self) -> Node:
        """The plain `Node` tree the packer works on."""
        label, meta = Label.from_meta(self.meta)
        traits = Trait.NONE
        for name in self.traits:
            if name not in Trait.__members__:
                raise ValueError(f"trait {name!r} of node {self.kind!r} is not one of {', '.join(Trait.__members__)}")
            traits |= Trait[name]
        children = [c.to_node() for c in self.children]
        return Node(self.kind, self.start, self.end, children, meta, traits=traits, label=label)

    def render(self, source: str | None = None, width: int = 60) -> str:
        """The tree as an indented outline; with `source`, each line shows the node's text."""
        lines: list[str] = []

        def visit(node: OutlineNode, depth: int) -> None:
            label = node.meta.get("title") or node.meta.get("symbol") or node.meta.get("language") or ""
            line = f"{'  ' * depth}{node.kind} [{node.start}, {node.end})"
            if label:
                line += f" {label!r}"
            if source is not None and not node.children:
                snippet = " ".join(source[node.start : node.end].split())
                line += f": {snippet[:width]!r}"
            lines.append(line)
            for child in node.children:
                visit(child, depth + 1)

        visit(self, 0)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class TextChunk(BaseModel):
    """One chunk of a split document.

    - `text`: the chunk's text. In source mode `text == source[start_pos:end_pos]`; in
      HTML text mode it is the readable text of that span of HTML.
    - `start_pos`, `end_pos`: half-open character offsets of the span in the input.
    - `token_count`: exact number of tokens of `text` under the splitter's tokenizer.
    - `start_overlap`, `end_overlap`: text shared with the previous / next chunk when
      `chunk_overlap > 0` (the end of the previous chunk, the start of the next); `text`
      itself never includes them.
    - `metadata`: `index`, `heading_path`, `kinds` and the other keys in `docs/usage.md`.

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
    metadata: dict[str, Any] = Field(default_factory=dict)
