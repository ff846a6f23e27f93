"""YAML: mappings, sequences, members and items from tree-sitter-yaml (the grammar
tree-sitter-language-pack ships), with exact offsets (see `data_tree.py`).

A stream of several documents is read as a sequence (`$[0]`, `$[1]`, ...: what
`yaml.safe_load_all` gives), each a `yaml_document`; a single document is the value of
`$`. What stands before a document's value (`---`, directives, comments) is its
`marker`, glued to the value. A key's name is the scalar it spells; the merge key `<<`
names nothing (the members it merges are the mapping's own in the parsed document).
"""

from __future__ import annotations

import re

from tree_sitter import Node as SyntaxNode

from outline_splitter.detectors.code import grammar_parser
from outline_splitter.detectors.code.offsets import ByteToChar, encode_source
from outline_splitter.detectors.data_tree import (
    INVALID,
    KINDS,
    MARKER,
    ROOT_KEY,
    YAML_DOCUMENT,
    DataOutline,
    Grammar,
    finish,
    index_segment,
)
from outline_splitter.kinds import COMMENT, DOCUMENT
from outline_splitter.nodes import NO_CHILDREN, Label, Node

# the grammar of its own wheel, tree-sitter-yaml (a core dependency)
GRAMMAR = "tree_sitter_yaml:language"

__all__ = ["KINDS", "detect_yaml"]

MERGE_KEY = "<<"
# What stands before a document's `---`: part of its marker, never its value.
_DIRECTIVES = frozenset({"yaml_directive", "tag_directive", "reserved_directive"})


# A double-quoted scalar's escapes (YAML 1.2, 5.7), and its line folding.
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)|[ \t]*\r?\n[ \t]*", re.DOTALL)
_ESCAPED = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
    "P": "\u2029",
}  # fmt: skip


def _unescape(match: re.Match[str]) -> str:
    escape = match.group(1)
    if escape is None:
        return " "  # a line break inside the scalar folds into a space
    if len(escape) > 1:
        return chr(int(escape[1:], 16))
    return _ESCAPED.get(escape, escape)


def _key_text(kind: str, raw: str) -> str | None:
    """A YAML key's name: a quoted scalar unquoted, a plain one as written (a complex
    key, such as a flow mapping, as written too); None for the merge key."""
    if kind == "double_quote_scalar":
        return _ESCAPE.sub(_unescape, raw[1:-1])
    if kind == "single_quote_scalar":
        return raw[1:-1].replace("''", "'")
    name = raw.strip(" \t\r\n")  # YAML's white space: a no-break space is part of the key
    return None if name == MERGE_KEY and kind == "plain_scalar" else name


YAML = Grammar(
    mappings=frozenset({"block_mapping", "flow_mapping"}),
    sequences=frozenset({"block_sequence", "flow_sequence"}),
    pairs=frozenset({"block_mapping_pair", "flow_pair"}),
    items=frozenset({"block_sequence_item"}),
    wrappers=frozenset({"block_node", "flow_node"}),
    strings=frozenset({"plain_scalar", "double_quote_scalar", "single_quote_scalar"}),
    line_scalars=frozenset({"block_scalar"}),
    key_text=_key_text,
)


def detect_yaml(text: str) -> Node:
    """Outline of a YAML stream: `document` (`$`) holding its document's value, or one
    `yaml_document` item per document if it has several."""
    data = encode_source(text)
    stream = grammar_parser("yaml", GRAMMAR).parse(data).root_node
    outline = DataOutline(YAML, text, ByteToChar(text))
    root = Node(DOCUMENT, 0, len(text), NO_CHILDREN, label=Label(key=ROOT_KEY))
    documents = [c for c in stream.children if _is_document(c)]
    index = 0
    for child in stream.children:
        span = (outline.at(child.start_byte), outline.at(child.end_byte))
        if _is_document(child):
            part = root
            if len(documents) > 1:
                part = outline.add(root, Node(YAML_DOCUMENT, *span, NO_CHILDREN, label=Label(key=index_segment(index))))
                index += 1
            _document(outline, child, part)
        elif child.is_extra and span[0] < span[1]:
            outline.add(root, Node(COMMENT, *span))
        elif child.type == "document" and span[0] < span[1]:
            outline.add(root, Node(MARKER, *span))  # a `...` line alone
        elif child.is_named and span[0] < span[1]:
            outline.add(root, Node(INVALID, *span))
    return finish(root, text)


def _is_document(syntax: SyntaxNode) -> bool:
    """Whether a `document` of the parser's is one of the stream's documents: it opens
    with `---` or holds a value; a `...` line alone (YAML 1.2's document suffix, after a
    document that already ended) is none."""
    if syntax.type != "document":
        return False
    return any(c.type == "---" or (c.is_named and not c.is_extra) for c in syntax.children)


def _document(outline: DataOutline, document: SyntaxNode, parent: Node) -> None:
    """A document's marker (what stands before its value), its value, and the comments
    and errors after it."""
    cursor = outline.at(document.start_byte)
    seen_value = False
    for child in document.named_children:
        start, end = outline.at(child.start_byte), outline.at(child.end_byte)
        if start >= end or (not seen_value and (child.is_extra or child.type in _DIRECTIVES)):
            continue  # a comment or directive before the value is part of its marker
        if child.is_error:
            outline.add(parent, Node(INVALID, start, end))
        elif child.is_extra:
            outline.add(parent, Node(COMMENT, start, end))
        elif not seen_value:
            seen_value = True
            value_start = outline.at(outline.content(child).start_byte)
            if outline.text[cursor:value_start].strip():
                outline.add(parent, Node(MARKER, cursor, value_start))
            outline.build(child, parent, None)
        else:  # a second value in one document: the parser's recovery; as plain text
            outline.add(parent, Node(INVALID, start, end))
        cursor = max(cursor, end)
