"""Structured data (JSON, YAML): the outline of a tree-sitter syntax tree of mappings,
sequences and scalars, shared by `json_data.py` and `yaml_data.py`.

Nodes: an `object` (a mapping) holds `member`s, an `array` (a sequence) holds `item`s;
a member is its `key` (with the colon, and a YAML value's anchor or tag: what stands
before the value) and its value; a YAML item is its `dash` and its value; a JSON item is
its value (a leaf, or the value's node inside it). A member or item spans its trailing
comma, and so does its value's node: a value is weighed with the comma after it, so a
value that fills a chunk to the last token is broken where its comma would not fit, and
a chunk never starts with a comma. The brace or bracket that opens an object or array
is an `open` node. What leads is glued to what follows it (`key`, `dash`, `open`, a
document's `marker` `---`, a `comment`), so a key never ends a chunk while its value
starts the next where the two fit together; a broken member or item ends its last
chunk (`SELF_CONTAINED`), as a broken code definition does. A value that fits is never
cut so that its key keeps it company: a string is no `PROSE` (which the packer cuts at
sentences for what leads it) and a block scalar is `SELF_CONTAINED` (a definition that
fits is not cut at lines for it either); where the two fit only apart, the key ends a
chunk and its value starts the next.

Each member and item has a `Label.key`, its JSONPath segment (`.name`, `["a.b"]`,
`[3]`), and the document `$`: chunk metadata joins those of the nodes that hold a
chunk's start into `metadata["key_path"]`.

Where the parser gives up (an `ERROR` node), the text is an `invalid` leaf, cut at lines
like plain text: invalid data still gives chunks. The walk keeps its own stack (`[` *
50,000 is a valid input).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node as SyntaxNode

from outline_splitter.detectors.code.offsets import ByteToChar
from outline_splitter.kinds import COMMENT, DOCUMENT
from outline_splitter.nodes import NO_CHILDREN, Label, Node, Trait, apply_traits, check_outline

OBJECT = "object"
ARRAY = "array"
MEMBER = "member"
ITEM = "item"
KEY = "key"
DASH = "dash"
OPEN = "open"
MARKER = "marker"
STRING = "string"
SCALAR = "scalar"
BLOCK_SCALAR = "block_scalar"
INVALID = "invalid"
YAML_DOCUMENT = "yaml_document"

TRAITS: dict[str, Trait] = {
    **dict.fromkeys((KEY, DASH, OPEN, MARKER, COMMENT), Trait.LEADS),
    **dict.fromkeys((MEMBER, ITEM), Trait.SELF_CONTAINED),
    BLOCK_SCALAR: Trait.LINES | Trait.SELF_CONTAINED,  # one that fits is never cut for its key
    INVALID: Trait.LINES,
}
# Every kind these detectors make: what `never_break_within` and `separators` may name.
KINDS = frozenset({DOCUMENT, YAML_DOCUMENT, OBJECT, ARRAY, SCALAR, STRING, *TRAITS})

ROOT_KEY = "$"
# A key written after a dot (RFC 9535's member-name shorthand); any other in brackets.
_NAME = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\u0080-\U0010ffff]*")


def key_segment(key: str) -> str:
    """The JSONPath segment of a member named `key`: `.name`, or `["key with.dot"]`."""
    if _NAME.fullmatch(key):
        return "." + key
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


def index_segment(index: int) -> str:
    """The JSONPath segment of the `index`-th item of an array: `[3]`."""
    return f"[{index}]"


@dataclass(frozen=True)
class Grammar:
    """The node types of one tree-sitter grammar, by role. `key_text` turns a key (its
    node type and source text) into the key's name (None: the member adds no segment, as YAML's merge
    key `<<`, whose members the parsed document holds in the mapping itself)."""

    mappings: frozenset[str]
    sequences: frozenset[str]
    pairs: frozenset[str]
    items: frozenset[str]  # a sequence entry with a marker of its own (YAML's `- `)
    wrappers: frozenset[str]  # nodes around a value, with its anchor and tag (YAML)
    strings: frozenset[str]
    line_scalars: frozenset[str]
    key_text: Callable[[str, str], str | None]


# a value, its parent, its label and where its node ends if past the value (its comma)
_Task = tuple[SyntaxNode, Node, Label | None, int | None]


class DataOutline:
    """One outline built from a syntax tree (see the module docstring)."""

    def __init__(self, grammar: Grammar, text: str, to_char: ByteToChar, base: int = 0, shift: int = 0) -> None:
        self.grammar = grammar
        self.text = text
        self.to_char = to_char
        self.base = base  # the byte offset of the parsed bytes in the bytes `to_char` reads
        self.shift = shift  # the character offset in `text` of the text `to_char` reads

    def at(self, byte: int) -> int:
        return self.to_char(self.base + byte) + self.shift

    def add(self, parent: Node, node: Node) -> Node:
        if parent.children is NO_CHILDREN:
            parent.children = [node]
        else:
            parent.children.append(node)
        return node

    def content(self, syntax: SyntaxNode) -> SyntaxNode:
        """The value inside wrapper nodes (YAML's `block_node`, `flow_node`): the last
        named child that is no anchor, tag or comment; the wrapper itself if none."""
        wrappers = self.grammar.wrappers
        while syntax.type in wrappers:
            inner = [c for c in syntax.named_children if c.type not in _PROPERTIES and not c.is_extra]
            if not inner:
                return syntax
            syntax = inner[-1]
        return syntax

    def top(self, parent: Node, children: list[SyntaxNode], labelled: bool) -> None:
        """Build the nodes of a document's top-level `children` (values, comments, what
        the parser gave up on) under `parent`; with `labelled`, its values are numbered as
        items (JSON values one after another, JSON Lines)."""
        index = 0
        for child in children:
            if not child.is_named or child.start_byte == child.end_byte:
                continue
            span = (self.at(child.start_byte), self.at(child.end_byte))
            if child.is_extra:
                self.add(parent, Node(COMMENT, *span))
            elif child.is_error:
                self.add(parent, Node(INVALID, *span))
            else:
                self.build(child, parent, Label(key=index_segment(index)) if labelled else None)
                index += 1

    def build(self, value: SyntaxNode, parent: Node, label: Label | None) -> None:
        """Build the node of `value` (and everything below it) under `parent`."""
        stack: list[_Task] = [(value, parent, label, None)]
        while stack:
            stack.extend(reversed(self.value(*stack.pop())))

    def value(self, syntax: SyntaxNode, parent: Node, label: Label | None, end: int | None) -> list[_Task]:
        """Make the node of one value under `parent`, up to `end` (a byte offset) if given;
        return the tasks of its parts."""
        content = self.content(syntax)
        kind = self.kind_of(content)
        span = self.at(content.start_byte), self.at(content.end_byte if end is None else end)
        node = self.add(parent, Node(kind, *span, NO_CHILDREN, label=label))
        if kind == OBJECT:
            return self.entries(content, node, mapping=True)
        if kind == ARRAY:
            return self.entries(content, node, mapping=False)
        return []

    def kind_of(self, content: SyntaxNode) -> str:
        grammar = self.grammar
        kind = content.type
        if content.is_error:
            return INVALID
        if kind in grammar.mappings:
            return OBJECT
        if kind in grammar.sequences:
            return ARRAY
        if kind in grammar.strings:
            return STRING
        return BLOCK_SCALAR if kind in grammar.line_scalars else SCALAR

    def entries(self, content: SyntaxNode, node: Node, mapping: bool) -> list[_Task]:
        """The members of an object or the items of an array, in order, with its comments
        and its opening brace or bracket; the tasks of their values."""
        grammar = self.grammar
        tasks: list[_Task] = []
        children = content.children
        index = 0
        for i, child in enumerate(children):
            if child.start_byte == child.end_byte:
                continue  # a token the parser supposed missing
            after = children[i + 1] if i + 1 < len(children) else None
            end = after.end_byte if after is not None and after.type == "," else child.end_byte
            if not child.is_named:
                if i == 0 and child.type in ("{", "["):
                    self.add(node, Node(OPEN, self.at(child.start_byte), self.at(child.end_byte)))
                continue
            if child.is_extra:
                self.add(node, Node(COMMENT, self.at(child.start_byte), self.at(child.end_byte)))
            elif child.is_error:
                self.add(node, Node(INVALID, self.at(child.start_byte), self.at(child.end_byte)))
            elif child.type in grammar.pairs and mapping:
                tasks += self.member(child, node, end)
            elif child.type in grammar.pairs:
                tasks += self.pair_item(child, node, index, end)
                index += 1
            elif child.type in grammar.items:
                tasks += self.dashed_item(child, node, index)
                index += 1
            elif mapping:  # a value where a pair belongs: no key to name it by
                tasks += self.item(child, node, None, end)
            else:
                tasks += self.item(child, node, Label(key=index_segment(index)), end)
                index += 1
        return tasks

    def member(self, pair: SyntaxNode, parent: Node, end: int) -> list[_Task]:
        """A member: its key (up to its value), and the task of its value."""
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        name = None
        if key is not None:
            key = self.content(key)
            name = self.grammar.key_text(key.type, self.text[self.at(key.start_byte) : self.at(key.end_byte)])
        label = Label(key=key_segment(name)) if name is not None else None
        member = self.add(parent, Node(MEMBER, self.at(pair.start_byte), self.at(end), NO_CHILDREN, label=label))
        content = self.content(value) if value is not None else None
        key_end = self.at(content.start_byte) if content is not None else self.at(pair.end_byte)
        self.add(member, Node(KEY, member.start, key_end))
        separated = end if end > pair.end_byte else None  # its comma goes with its value
        return [(content, member, None, separated)] if content is not None else []

    def pair_item(self, pair: SyntaxNode, parent: Node, index: int, end: int) -> list[_Task]:
        """A pair where a sequence's item belongs (YAML's `[a: b, c]`): the item is a
        mapping of that one pair, so the member's key path is `[0].a`."""
        label = Label(key=index_segment(index))
        item = self.add(parent, Node(ITEM, self.at(pair.start_byte), self.at(end), NO_CHILDREN, label=label))
        return self.member(pair, item, end)

    def item(self, value: SyntaxNode, parent: Node, label: Label | None, end: int) -> list[_Task]:
        """An item without a marker (a JSON array's): a leaf, or its value's node inside it."""
        content = self.content(value)
        item = self.add(parent, Node(ITEM, self.at(value.start_byte), self.at(end), NO_CHILDREN, label=label))
        if self.kind_of(content) in (OBJECT, ARRAY):
            return [(content, item, None, end if end > value.end_byte else None)]
        return []

    def dashed_item(self, entry: SyntaxNode, parent: Node, index: int) -> list[_Task]:
        """An item with a marker (YAML's `- `): its dash (up to its value) and its value."""
        label = Label(key=index_segment(index))
        span = self.at(entry.start_byte), self.at(entry.end_byte)
        item = self.add(parent, Node(ITEM, *span, NO_CHILDREN, label=label))
        values = [c for c in entry.named_children if not c.is_extra]
        content = self.content(values[-1]) if values else None
        dash_end = self.at(content.start_byte) if content is not None else item.end
        self.add(item, Node(DASH, item.start, dash_end))
        return [(content, item, None, None)] if content is not None else []


# YAML's node properties: they stand before a value, with its key or dash.
_PROPERTIES = frozenset({"anchor", "tag"})


def finish(root: Node, text: str) -> Node:
    """Apply the traits; a tree that is not a well-formed outline after all (which a
    parser's recovery from an error should never give) is one `invalid` leaf instead."""
    try:
        check_outline(root, len(text))
    except ValueError:
        root = unread_document(text)
    return apply_traits(root, TRAITS)


def unread_document(text: str) -> Node:
    """The document `text` as one `invalid` leaf: read without a parser, cut as plain
    text at lines."""
    return Node(DOCUMENT, 0, len(text), [Node(INVALID, 0, len(text))], label=Label(key=ROOT_KEY))
