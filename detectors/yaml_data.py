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
    unread_document,
)
from outline_splitter.detectors.yaml_depth import MAX_BLOCK_DEPTH, block_depth
from outline_splitter.kinds import COMMENT, DOCUMENT
from outline_splitter.nodes import NO_CHILDREN, Label, Node

# the grammar of its own wheel, tree-sitter-yaml (a core dependency)
GRAMMAR = "tree_sitter_yaml:language"

__all__ = ["KINDS", "detect_yaml"]

MERGE_KEY = "<<"
# What stands before a document's `---`: part of its marker, never its value.
_DIRECTIVES = frozenset({"yaml_directive", "tag_directive", "reserved_directive"})


# A double-quoted scalar's escapes (YAML 1.2, 5.7: an escaped line break joins its lines),
# and the line breaks that fold (7.3).
_ESCAPE = re.compile(
    r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|\r?\n[ \t]*|.)|[ \t]*(?:\r?\n[ \t]*)+", re.DOTALL
)
_ESCAPED = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
    "P": "\u2029",
}  # fmt: skip
# Line breaks with the white space around them, in a flow scalar (plain or quoted).
_BREAKS = re.compile(r"[ \t]*(?:\r?\n[ \t]*)+")
# A block scalar's header: `|` or `>`, an indentation digit and a chomping sign in either order.
_HEADER = re.compile(r"([|>])([1-9]?)([+-]?)([1-9]?)")


def _fold(match: re.Match[str]) -> str:
    """Flow line folding (YAML 1.2, 6.5): one line break is a space, and each empty line
    after it a line feed."""
    breaks = match.group().count("\n")
    return " " if breaks == 1 else "\n" * (breaks - 1)


def _unescape(match: re.Match[str]) -> str:
    escape = match.group(1)
    if escape is None:
        return _fold(match)
    if escape[0] in "\r\n":
        return ""
    if len(escape) > 1:
        return chr(int(escape[1:], 16))
    return _ESCAPED.get(escape, escape)


def _block_text(raw: str) -> str:
    """The string a block scalar spells (YAML 1.2, 8.1): its lines without their
    indentation, literal (`|`) or folded (`>`), and its chomping of final line breaks."""
    header, _, body = raw.partition("\n")
    match = _HEADER.match(header)
    style, chomp = (match.group(1), match.group(3)) if match else ("|", "")
    lines = body.split("\n")
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    lines = [line[indent:].rstrip("\r") for line in lines]
    text = "\n".join(lines).rstrip("\n")
    if style == ">":
        text = _folded(text)
    trailing = len("\n".join(lines)) - len(text)
    if chomp == "-" or not text:
        return text
    return text + ("\n" * max(trailing, 1) if chomp == "+" else "\n")


def _folded(text: str) -> str:
    """A folded block scalar's lines (YAML 1.2, 8.1.3): the break between two lines that
    are not more indented is a space, or the empty lines between them; a more-indented
    line keeps its breaks."""
    lines = text.split("\n")
    out, previous, empty = [], "", 0
    for line in lines:
        if not line:
            empty += 1
            continue
        if previous and previous[0] not in " \t" and line[0] not in " \t":
            out.append(" " if empty == 0 else "\n" * empty)
        elif out or empty:
            out.append("\n" * (empty + (1 if out else 0)))
        out.append(line)
        previous, empty = line, 0
    return "".join(out)


def _key_text(kind: str, raw: str) -> str | None:
    """A YAML key's name: the string its scalar spells (a quoted one unquoted, a block
    or multi-line one folded); a complex key, such as a flow mapping, as written; None
    for the merge key."""
    if kind == "double_quote_scalar":
        return _ESCAPE.sub(_unescape, raw[1:-1])
    if kind == "single_quote_scalar":
        return _BREAKS.sub(_fold, raw[1:-1]).replace("''", "'")
    if kind == "block_scalar":
        return _block_text(raw)
    name = _BREAKS.sub(_fold, raw.strip(" \t\r\n"))  # YAML's white space: a no-break space is part of the key
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
    `yaml_document` item per document if it has several; one nested too deep for the
    parser (`yaml_depth.py`) as plain text."""
    if block_depth(text) > MAX_BLOCK_DEPTH:
        return finish(unread_document(text), text)
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
    _lift_trailing_comments(root, text)
    return finish(root, text)


def _lift_trailing_comments(root: Node, text: str) -> None:
    """Move each comment that ends a block collection (where the parser puts the
    comments before the next member of an outer one) out to stand before what follows
    it, so that it leads that member instead of ending the one before; the nodes it
    leaves end at their last part. A comment indented deeper than the line after it
    stays (it is the block's own, such as an entry commented out). Children are handled
    before their parents, without recursion (nesting may be deep)."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(node.children)
    for node in reversed(order):
        if any(_trails(child, text) for child in node.children):
            node.children = [part for child in node.children for part in _without_trailing_comments(child, text)]


# The indentation of the next line that holds neither a comment nor only white space.
_NEXT_CONTENT = re.compile(r"\n([ \t]*)[^\s#]")


def _trails(node: Node, text: str) -> bool:
    """Whether `node`'s last part is a comment that ends it and leads what follows."""
    if len(node.children) < 2 or node.children[-1].kind != COMMENT or node.children[-1].end != node.end:
        return False
    comment = node.children[-1]
    following = _NEXT_CONTENT.search(text, comment.end)
    column = comment.start - text.rfind("\n", 0, comment.start) - 1
    return following is not None and column <= len(following.group(1))


def _without_trailing_comments(node: Node, text: str) -> list[Node]:
    """`node` ended at its last part that is no comment leading what follows, then those
    comments."""
    comments = []
    while _trails(node, text):
        comments.append(node.children.pop())
    if comments:
        node.end = node.children[-1].end
    return [node, *reversed(comments)]


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
