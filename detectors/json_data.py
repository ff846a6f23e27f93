"""JSON and JSON Lines: objects, arrays, members and items from tree-sitter-json (the
grammar tree-sitter-language-pack ships), with exact offsets (see `data_tree.py`).

tree-sitter-json (0.24.8, the latest on PyPI) reads no `+` in a number's exponent (RFC
8259: `exp = e [ minus / plus ] 1*DIGIT`; `json.dumps(1e28)` writes `1e+28`): it stops
at the `e`. Such a `+` is read as a `0` (`1e028`, a number of the same length and the
same value), so the tree has the number whole; the text and its offsets are the source's.

A JSON text of several values one after another is read as a sequence (`$[0]`, `$[1]`,
...), as JSON Lines is: there each non-blank line is one record, parsed on its own, so a
broken record is an `invalid` leaf that leaves its neighbours alone, and a file of any
length has only one line's syntax tree alive at a time.
"""

from __future__ import annotations

import json
import re

from outline_splitter.detectors.code import grammar_parser
from outline_splitter.detectors.code.offsets import ByteToChar, encode_source
from outline_splitter.detectors.data_tree import (
    INVALID,
    KINDS,
    ROOT_KEY,
    TRAITS,
    DataOutline,
    Grammar,
    finish,
    index_segment,
)
from outline_splitter.detectors.json_windows import WINDOWED_FROM, windowed_outline
from outline_splitter.kinds import DOCUMENT
from outline_splitter.nodes import NO_CHILDREN, Label, Node, apply_traits, check_outline

# the grammar of its own wheel, tree-sitter-json (a core dependency)
GRAMMAR = "tree_sitter_json:language"

__all__ = ["KINDS", "detect_json", "detect_json_lines"]

# A `+` that signs a number's exponent (a digit, `e` or `E`, then `+` and a digit). In a
# string or a comment it changes no node of the tree either.
_EXPONENT_PLUS = re.compile(rb"(?<=[0-9][eE])\+(?=[0-9])")


def _readable(data: bytes) -> bytes:
    """`data` as tree-sitter-json reads numbers right: each exponent's `+` a `0`."""
    return _EXPONENT_PLUS.sub(b"0", data) if b"e+" in data or b"E+" in data else data


def _key_text(kind: str, raw: str) -> str:
    """A JSON key's name: the string it spells (its raw text within the quotes if it
    does not decode)."""
    try:
        name = json.loads(raw)
    except ValueError:
        return raw.strip('"')
    return name if isinstance(name, str) else raw


JSON = Grammar(
    mappings=frozenset({"object"}),
    sequences=frozenset({"array"}),
    pairs=frozenset({"pair"}),
    items=frozenset(),
    wrappers=frozenset(),
    strings=frozenset({"string"}),
    line_scalars=frozenset(),
    key_text=_key_text,
)


def _root(text: str) -> Node:
    return Node(DOCUMENT, 0, len(text), NO_CHILDREN, label=Label(key=ROOT_KEY))


def detect_json(text: str, windowed_from: int = WINDOWED_FROM) -> Node:
    """Outline of a JSON text: `document` (`$`) holding its value (or its values, as
    items, if it has several). A text over `windowed_from` characters that is one object
    or array is read in windows (`json_windows.py`): the same outline, its top-level
    members or items built only where they are broken."""
    if len(text) > windowed_from:
        container = windowed_outline(text, JSON, _value_node)
        if container is not None:
            root = _root(text)
            root.children = [container]
            check_outline(root, len(text))
            return apply_traits(root, TRAITS)
    data = _readable(encode_source(text))
    children = grammar_parser("json", GRAMMAR).parse(data).root_node.children
    root = _root(text)
    values = sum(1 for c in children if c.is_named and not c.is_extra and not c.is_error)
    DataOutline(JSON, text, ByteToChar(text)).top(root, children, labelled=values > 1)
    return finish(root, text)


def _value_node(text: str, start: int, end: int, node_end: int) -> Node:
    """The node of the one JSON value `text[start:end]` (and everything below it), parsed
    alone, spanning to `node_end` (past its comma)."""
    part = text[start:end]
    data = _readable(encode_source(part))
    value = grammar_parser("json", GRAMMAR).parse(data).root_node.named_children[0]
    holder = Node(DOCUMENT, start, node_end)
    DataOutline(JSON, text, ByteToChar(part, data), shift=start).build(value, holder, None)
    node = holder.children[0]
    node.end = node_end
    return node


def detect_json_lines(text: str) -> Node:
    """Outline of JSON Lines: `document` (`$`) holding one item per non-blank line
    (`$[0]`, `$[1]`, ...), each parsed on its own."""
    data = _readable(encode_source(text))
    parser = grammar_parser("json", GRAMMAR)
    outline = DataOutline(JSON, text, ByteToChar(text))
    root = _root(text)
    index, start = 0, 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        if line.strip():
            outline.base = start
            tree = parser.parse(line).root_node
            values = [c for c in tree.children if c.is_named and not c.is_extra]
            label = Label(key=index_segment(index))
            if tree.has_error or len(values) != 1:
                span = outline.at(len(line) - len(line.lstrip())), outline.at(len(line.rstrip()))
                outline.add(root, Node(INVALID, *span, label=label))
            else:
                outline.build(values[0], root, label)
            index += 1
        start = end + 1
    return finish(root, text)
