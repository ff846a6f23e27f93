"""A large JSON text read in windows: its top-level object's members or array's items
found by one scan, each a node whose parts are built (from a parse of its text alone)
only when the packer breaks it, so that no syntax tree of the whole text, nor a node of
every value in it, is ever held (`json_data.py` reads a text over `WINDOWED_FROM`
characters so).

The scan is Python's `json` decoder (C speed), one top-level value at a time: each value
is decoded, its kinds of node noted (`unbuilt_kinds`: chunk metadata names them as if
they were built), and dropped. The outline is the one a parse of the whole text gives,
with the same offsets, labels and kinds. Where the text is not one object or array of
strict JSON (a comment, `NaN`, a trailing comma, a value after it), the scan gives up
and the whole text is parsed (None).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from outline_splitter.detectors.data_tree import (
    ARRAY,
    ITEM,
    KEY,
    MEMBER,
    OBJECT,
    OPEN,
    SCALAR,
    STRING,
    TRAITS,
    Grammar,
    index_segment,
    key_segment,
)
from outline_splitter.nodes import NO_CHILDREN, Label, Node, apply_traits

WINDOWED_FROM = 1 << 20  # characters: a text this long or shorter is parsed whole

# Builds the node of the value `text[start:end]` (whose node ends at `node_end`, past
# its comma) and everything below it.
ValueBuilder = Callable[[str, int, int, int], Node]

_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace (RFC 8259), as `json` reads it


class _Pairs(list[tuple[str, Any]]):
    """A decoded object's members in order, each one (duplicate keys too)."""


def _refuse(constant: str) -> None:
    raise ValueError(f"{constant} is no JSON value")  # NaN, Infinity: not to tree-sitter-json


_DECODER = json.JSONDecoder(object_pairs_hook=_Pairs, parse_constant=_refuse)


class DeferredEntry(Node):
    """A top-level member or item whose parts are built when it is broken; its
    `unbuilt_kinds` are those of its value's nodes, found by the scan."""

    __slots__ = ("unbuilt_kinds",)


def value_kinds(value: Any) -> set[str]:
    """The kinds of the nodes of a decoded value (an item of a scalar is a leaf)."""
    kinds: set[str] = set()
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, _Pairs):
            kinds.update((OBJECT, OPEN, MEMBER, KEY) if value else (OBJECT, OPEN))
            stack.extend(member for _, member in value)
        elif isinstance(value, list):
            kinds.update((ARRAY, OPEN, ITEM) if value else (ARRAY, OPEN))
            stack.extend(item for item in value if isinstance(item, list))
        else:
            kinds.add(STRING if isinstance(value, str) else SCALAR)
    return kinds


class _Scan:
    """The top-level entries of one text, as deferred nodes under its container."""

    def __init__(self, text: str, grammar: Grammar, build_value: ValueBuilder) -> None:
        self.text = text
        self.grammar = grammar
        self.build_value = build_value
        self.kinds: dict[frozenset[str], tuple[str, ...]] = {}  # one tuple per set of kinds

    def space(self, at: int) -> int:
        match = _SPACE.match(self.text, at)
        assert match is not None  # (the pattern matches the empty string)
        return match.end()

    def container(self) -> Node | None:
        """The node of the text's top-level object or array, its entries deferred."""
        text = self.text
        start = self.space(0)
        if text[start : start + 1] not in ("{", "["):
            return None
        mapping = text[start] == "{"
        node = Node(OBJECT if mapping else ARRAY, start, start, [Node(OPEN, start, start + 1)])
        end = self.entries(node, mapping, start + 1)
        if end is None or self.space(end) != len(text):
            return None
        node.end = end
        return node

    def entries(self, parent: Node, mapping: bool, at: int) -> int | None:
        """Add the entries from `at` to `parent`; where its closing bracket ends."""
        text, close = self.text, "}" if mapping else "]"
        at = self.space(at)
        if text.startswith(close, at):
            return at + 1
        index = 0
        while True:
            entry = self.member(at) if mapping else self.item(at, index)
            if entry is None:
                return None
            parent.children.append(entry)
            at = self.space(entry.end)
            if text.startswith(close, at):
                return at + 1
            if not text.startswith(",", at):
                return None
            entry.end = at + 1  # a member or item spans its comma
            at, index = self.space(at + 1), index + 1

    def decode(self, at: int) -> tuple[Any, int] | None:
        try:
            value, end = _DECODER.raw_decode(self.text, at)
        except (ValueError, RecursionError):
            return None
        return value, end

    def member(self, start: int) -> Node | None:
        """A member from `start`, up to its value's end (its comma is added after)."""
        key = self.decode(start) if self.text.startswith('"', start) else None
        if key is None:
            return None
        colon = self.space(key[1])
        if not self.text.startswith(":", colon):
            return None
        value_start = self.space(colon + 1)
        value = self.decode(value_start)
        if value is None:
            return None
        name = self.grammar.key_text(STRING, self.text[start : key[1]])
        label = Label(key=key_segment(name)) if name is not None else None
        return self.deferred(MEMBER, start, value[1], label, {KEY} | value_kinds(value[0]))

    def item(self, start: int, index: int) -> Node | None:
        """An item from `start`: a leaf if it holds no object or array."""
        value = self.decode(start)
        if value is None:
            return None
        label = Label(key=index_segment(index))
        if not isinstance(value[0], list):
            return Node(ITEM, start, value[1], NO_CHILDREN, label=label)
        return self.deferred(ITEM, start, value[1], label, value_kinds(value[0]))

    def deferred(self, kind: str, start: int, end: int, label: Label | None, kinds: set[str]) -> Node:
        node = DeferredEntry(kind, start, end, NO_CHILDREN, label=label)
        frozen = frozenset(kinds)
        node.unbuilt_kinds = self.kinds.setdefault(frozen, tuple(sorted(frozen)))
        node.expand = partial(self.parts, kind, start)
        return node

    def parts(self, kind: str, start: int) -> list[Node]:
        """The children of the entry of `kind` at `start` (built when it is broken), as
        the scan found it: its value's node spans the comma after it, if any."""
        value_start, value = start, self.decode(start)
        if kind == MEMBER and value is not None:
            value_start = self.space(self.space(value[1]) + 1)
            value = self.decode(value_start)
        assert value is not None  # (the scan decoded it before)
        after = self.space(value[1])
        end = after + 1 if self.text.startswith(",", after) else value[1]
        children = [Node(KEY, start, value_start)] if kind == MEMBER else []
        children.append(self.build_value(self.text, value_start, value[1], end))
        for child in children:
            apply_traits(child, TRAITS)
        return children


def windowed_outline(text: str, grammar: Grammar, build_value: ValueBuilder) -> Node | None:
    """The node of `text`'s top-level object or array, its members or items deferred
    (see the module docstring); None where the text is not one strict JSON container."""
    return _Scan(text, grammar, build_value).container()
