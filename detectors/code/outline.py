"""A tree-sitter syntax tree turned into an outline, for any language of `languages.py`.

The outline of a source file: a `document` whose children are import groups, definitions,
statements and comments; a definition's children (built only if the packer has to
break it: `Node.expand`) are its `header` (the comments and
decorators attached to it, its signature, its docstring), then its members (methods,
nested classes, fields) or statements; a statement that spans several lines has the
statements of the blocks inside it as children (the branches of an `if`, the body of a
callback), so an oversized function can be cut between statements.

Attachment: the contiguous comment lines right above a definition (or statement), with
no blank line between (one blank line for a doc comment such as `/** */` or `///`), and
the decorators/attributes before it, are part of its span: a definition that fits is
one piece with what documents it. A comment that tree-sitter put at the end of the
previous node, dedented to that node's level, is taken out of it first (grammars attach
such comments to whatever node was open).

`LLM-REGION` in a comment starts a `region` node running to the next marker at the same
level, to a comment with `LLM-ENDREGION` (or `LLM-REGION-END`), or to the end of the
enclosing block.

Everything works on UTF-8 byte offsets of the tree; `ByteToChar` turns them into
character offsets when a node is made.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import cache, partial
from itertools import pairwise
from typing import Any, cast

from tree_sitter import Node as SyntaxNode

from outline_splitter.detectors.code.languages import Language
from outline_splitter.detectors.code.offsets import char_offsets
from outline_splitter.kinds import COMMENT, DOCUMENT, HEADER
from outline_splitter.nodes import NO_CHILDREN, Label, Node, Trait

DEFINITION = "definition"
STATEMENT = "statement"
DECORATOR = "decorator"
IMPORTS = "imports"
SIGNATURE = "signature"
DOCSTRING = "docstring"
REGION = "region"
# How the packer treats each kind: in source code every line break means something,
# comments and decorators (and a split definition's header and signature) lead what follows
# them, and a broken definition's last chunk ends with it.
TRAITS: dict[str, Trait] = {
    **dict.fromkeys((DOCUMENT, STATEMENT, IMPORTS, DOCSTRING, REGION), Trait.LINES),
    **dict.fromkeys((COMMENT, DECORATOR, HEADER, SIGNATURE), Trait.LEADS | Trait.LINES),
    DEFINITION: Trait.LINES | Trait.SELF_CONTAINED,
}
# Every kind this detector makes: what `never_break_within` and `separators` may name.
KINDS = frozenset(TRAITS)
_IMPORT = "import"
_LEADING = (COMMENT, DECORATOR)

# A node spanning fewer lines gets no children: cutting it at line ends is as good.
MIN_SPLIT_LINES = 4
_NEWLINE = ord("\n")
_LINE_SCAN = 1 << 10
_LINE_END_BLOCK = 1 << 16
# How deep to look for the body of a definition that has no `body` field (Go's
# type_declaration > type_spec > struct_type > field_declaration_list).
_BODY_SEARCH_DEPTH = 3
_DOC_COMMENT = re.compile(rb"\s*(?:/\*\*|///|//!|/\*!)")
# A line that could open a comment (`#`, `//`, `/*`, ` * `): the cheap test before the
# syntax tree is searched for comments at the end of a member.
_COMMENT_OPENER = re.compile(rb"[ \t]*[#/*]")
_REGION_END = re.compile(rb"LLM-(?:END-?REGION|REGION-?END)")
_REGION_START = re.compile(rb"LLM-REGION\b(?!-?END)")
_REGION_TITLE = re.compile(rb"LLM-REGION\b[\s:\-]*(.*?)[\s*/>-]*$", re.S)
_NAME_TYPES = frozenset(
    {
        "identifier", "type_identifier", "simple_identifier", "constant", "name", "field_identifier",
        "property_identifier", "qualified_identifier", "destructor_name", "operator_name",
        "package_identifier", "namespace_identifier",
    }
)  # fmt: skip


class DefinitionMeta(dict[str, Any]):
    """The `meta` of a document's definitions of one syntax type (`{"definition":
    "function_definition"}`), one dict they share, which also holds the document's
    `source` (an attribute, not an item: it is no part of the meta a user sees), where a
    `NamedDefinition` reads its symbol."""

    __slots__ = ("source",)

    def __init__(self, source: str, definition: str) -> None:
        super().__init__(definition=definition)
        self.source = source


class NamedDefinition(Node):
    """A definition node that is never broken into parts (it spans too few lines), whose
    label, the symbol it defines, is read off the source when asked: the symbol is where
    the node's start plus `name_from` to `name_to` is in the source its `DefinitionMeta`
    holds. A file of 480,000 one-line functions held a `Label` and a string for each,
    some 150 bytes a function until packing ended; two small offsets cost 16 (and ten
    slots make a 112-byte object where eleven made a 128-byte one)."""

    __slots__ = ("_name_from", "_name_to")

    def __init__(self, start: int, end: int, meta: DefinitionMeta, name_from: int, name_to: int) -> None:
        super().__init__(DEFINITION, start, end, NO_CHILDREN, meta, traits=TRAITS[DEFINITION])
        self._name_from = name_from
        self._name_to = name_to

    @property
    def label(self) -> Label:
        start = self.start
        source = cast(DefinitionMeta, self._meta).source
        return Label(symbol=source[start + self._name_from : start + self._name_to])

    @label.setter
    def label(self, label: Label | None) -> None:
        # (`Node.__init__` sets no label: this node's is its source's, nothing else)
        if label is not None:
            raise AttributeError("a NamedDefinition's label is read off its source")


class _Item:
    """One member of a block while the block is read: its kind and byte span. Rows are
    read from the tree only when an attachment question needs them."""

    __slots__ = ("_end_row", "_start_row", "end", "kind", "node", "start")

    def __init__(self, kind: str, node: SyntaxNode, start: int, end: int) -> None:
        self.kind = kind
        self.node = node
        self.start = start
        self.end = end
        self._start_row = -1
        self._end_row = -1

    @property
    def start_row(self) -> int:
        if self._start_row < 0:
            self._start_row = self.node.start_point[0]
        return self._start_row

    @start_row.setter
    def start_row(self, row: int) -> None:
        self._start_row = row

    @property
    def end_row(self) -> int:
        if self._end_row < 0:
            self._end_row = _last_row(self.node)
        return self._end_row

    @end_row.setter
    def end_row(self, row: int) -> None:
        self._end_row = row


def _line_ends(data: bytes) -> array[int]:
    """The offsets of the line ends (`\\n`) of `data`, ascending, in 4-byte ints where they
    fit. Found by numpy a block at a time: a match object per line took 14 ms for the 40
    stdlib modules of the benchmarks, this 1 ms (and no temporary as long as the file)."""
    import numpy as np  # (a detector's import loads no numpy: see tests/test_packaging.py)

    wide = len(data) >= 2**31
    line_ends = array("q" if wide else "i")
    dtype = np.int64 if wide else np.int32
    for at in range(0, len(data), _LINE_END_BLOCK):
        block = np.frombuffer(data, np.uint8, min(_LINE_END_BLOCK, len(data) - at), at)
        line_ends.frombytes((np.flatnonzero(block == _NEWLINE) + at).astype(dtype).tobytes())
    return line_ends


def _last_row(node: SyntaxNode) -> int:
    """The row of a node's last character (a Rust line comment ends after its newline)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def _unwrapped(node: SyntaxNode, transparent: frozenset[str]) -> SyntaxNode:
    """The node inside `node` that has its span, where `node` is of a `transparent` type
    and holds no other named node: such a wrapper adds no level to the outline."""
    while node.type in transparent and node.named_child_count == 1:
        inner = node.named_children[0]
        if inner.start_byte != node.start_byte or inner.end_byte != node.end_byte:
            break
        node = inner
    return node


def _type_kind(language: Language, syntax_type: str) -> str | None:
    """What a member of `syntax_type` is, where its type alone says; None for a wrapper
    (a definition where the node it wraps is one, a statement otherwise)."""
    for kind, types in ((COMMENT, language.comments), (DECORATOR, language.decorators), (_IMPORT, language.imports)):
        if syntax_type in types:
            return kind
    if syntax_type in language.wrappers:
        return None
    return DEFINITION if syntax_type in language.definitions else STATEMENT


@cache
def _kinds_by_type(language: Language) -> dict[str, str]:
    """The `_type_kind` of each syntax type of `language` met so far that is no wrapper:
    one dict look-up a member where the questions of `_type_kind` took a call and four."""
    return {}


class CodeOutline:
    """Builds the outline of one source text (see the module docstring)."""

    def __init__(self, language: Language, text: str, data: bytes) -> None:
        self.language = language
        self.text = text
        self.data = data
        self.char = char_offsets(text, data)
        self.ascii = text.isascii()  # (its byte offsets are its character offsets)
        self.line_ends: array[int] | None = None  # the offsets of b"\n" in `data`, built when first asked
        # the meta of all definitions of one type, shared rather than a copy each (a file
        # of 100,000 one-line functions made 100,000)
        self._definition_metas: dict[str, DefinitionMeta] = {}
        self._kinds = _kinds_by_type(language)

    def build(self, top_level: Iterable[SyntaxNode]) -> Node:
        """The outline of the file whose syntax tree's root has the children `top_level`
        (which may come from several trees: see `detect_code`)."""
        root = Node(DOCUMENT, 0, len(self.text), meta={"language": self.language.name}, traits=TRAITS[DOCUMENT])
        root.children = self._nodes(self._flattened(top_level), len(self.data), top_level=True)
        return root

    # -- members of a block ---------------------------------------------------------

    def _members(self, body: SyntaxNode) -> list[SyntaxNode]:
        """The named children of a body, with nested bodies flattened (`{` nested 500
        deep is a body in a body 500 times). A tree cursor walks them: it keeps its path
        in tree-sitter's own stack, where a stack of Python child lists cost a list per
        level and grew slower per level as it grew (PHP's `{` nested to 1 MB). A body
        that holds no body, most of them, gives its named children in one call."""
        bodies = self.language.bodies
        named = body.named_children
        for child in named:
            if child.type in bodies:
                break
        else:
            return named
        members: list[SyntaxNode] = []
        cursor = body.walk()
        depth = 0  # levels below `body`
        if cursor.goto_first_child():
            depth = 1
        while depth:
            node = cursor.node
            assert node is not None  # a cursor on a node always has one
            if node.is_named:
                if node.type not in bodies:
                    members.append(node)
                elif cursor.goto_first_child():
                    depth += 1
                    continue
            while depth and not cursor.goto_next_sibling():
                cursor.goto_parent()
                depth -= 1
        return members

    def _flattened(self, children: Iterable[SyntaxNode]) -> Iterator[SyntaxNode]:
        """The named ones of `children`, a body among them replaced by its `_members`."""
        bodies = self.language.bodies
        for child in children:
            if child.is_named:
                if child.type in bodies:
                    yield from self._members(child)
                else:
                    yield child

    def _items(self, members: Iterable[SyntaxNode], limit: int, top_level: bool = False) -> Iterator[_Item]:
        """Members as items, trailing comments taken out, leading ones attached. Inside a
        block, a one-line statement with no comment above it is left out: the text
        between nodes is cut at line ends anyway, so a node would add nothing but cost.
        Each item is yielded once nothing after it can change it, so that the syntax
        trees of a file parsed in windows are let go of one after the other."""
        leads: list[_Item] = []  # the leading items since the last other one
        for item in self._raw_items(members, limit, top_level):
            if item.kind in _LEADING:
                leads.append(item)
                continue
            while leads and self._attaches(leads[-1], item.start_row):
                lead = leads.pop()
                item.start, item.start_row = lead.start, lead.start_row
            yield from leads
            yield item
            leads = []
        yield from leads

    def _raw_items(self, members: Iterable[SyntaxNode], limit: int, top_level: bool) -> Iterator[_Item]:
        """The items of `_items` before leading ones are attached: each yielded once the
        next is made (a trailing comment on its last line may still stretch it)."""
        data = self.data
        kinds = self._kinds
        opens_comment = _COMMENT_OPENER.match
        last: _Item | None = None
        for member in members:
            start = member.start_byte
            if start >= limit:
                break
            end = member.end_byte
            kind = kinds.get(member.type) or self._kind(member)
            if kind == COMMENT and self._after_code(start):
                # a trailing comment belongs to the code on its line, not to what follows
                if last is not None and last.end_row == member.start_point[0]:
                    last.end = min(end, limit)
                continue
            last_line = data.rfind(b"\n", start, end) + 1  # (0: the member is one line)
            if not last_line and kind == STATEMENT and not top_level and (last is None or last.kind not in _LEADING):
                continue
            item = _Item(kind, member, start, end if end < limit else limit)
            if last is not None:
                yield last
            last = item
            # (only a member whose last line could open a comment may end in one)
            if last_line and kind != COMMENT and opens_comment(data, last_line, end):
                hoisted, content_end, content_row = self._trailing_comments(member)
                if hoisted:
                    item.end, item.end_row = min(item.end, content_end), content_row
                    for comment in hoisted:
                        if comment.end_byte <= limit:
                            yield last
                            last = _Item(COMMENT, comment, comment.start_byte, comment.end_byte)
        if last is not None:
            yield last

    def _after_code(self, start: int) -> bool:
        """Whether something other than white space comes before byte `start` on its line."""
        line = self.data.rfind(b"\n", 0, start) + 1
        return bool(self.data[line:start].strip())

    def _whole_lines(self, start: int, end: int) -> int | None:
        """The end of `[start, end)` stretched over a comment after it on its last line, if
        the span starts its line and nothing but that comment follows it there; else None
        (a chunk boundary in code falls at a line end)."""
        if self._after_code(start):
            return None
        line_end = self.data.find(b"\n", end)
        rest = self.data[end : len(self.data) if line_end < 0 else line_end].rstrip()
        if not rest.strip():
            return end
        return end + len(rest) if rest.lstrip().startswith((b"#", b"//", b"/*")) else None

    def _kind(self, member: SyntaxNode) -> str:
        """What `member` is; where its syntax type alone says, that type's kind is kept in
        `_kinds` (read there first: `kinds.get(member.type) or self._kind(member)`)."""
        kind = _type_kind(self.language, member.type)
        if kind is None:  # a wrapper: a definition where what it wraps is one
            return DEFINITION if self._definition_in(member) is not None else STATEMENT
        self._kinds[member.type] = kind
        return kind

    def _definition_in(self, node: SyntaxNode) -> SyntaxNode | None:
        """The definition `node` is, or wraps; `None` if it is none."""
        chain = self._unwrap(node)
        return chain[-1] if chain[-1].type in self.language.definitions else None

    def _unwrap(self, node: SyntaxNode) -> list[SyntaxNode]:
        """`node` and the nodes it wraps (an `export`, a declaration and its declarator,
        a decorated definition), outermost first."""
        chain = [node]
        while node.type in self.language.wrappers:
            inner = (
                node.child_by_field_name("definition")
                or node.child_by_field_name("declaration")
                or node.child_by_field_name("value")
            )
            if inner is None and node.named_child_count:
                inner = node.named_children[-1]
            if inner is None:
                break
            node = inner
            chain.append(node)
        return chain

    def _trailing_comments(self, member: SyntaxNode) -> tuple[list[SyntaxNode], int, int]:
        """Comments at the very end of `member` that are dedented to its column (so they
        introduce what follows), and the byte and row where its content ends before them."""
        comments = self.language.comments
        column = member.start_point[1]
        node = member
        while node.child_count:
            last = node.child(node.child_count - 1)
            if last is None:
                break
            if last.type not in comments:
                if not last.is_named:
                    break
                node = last
                continue
            hoisted: list[SyntaxNode] = []
            current: SyntaxNode | None = last
            while current is not None and current.type in comments and current.start_point[1] <= column:
                before = current.prev_sibling
                if before is not None and _last_row(before) >= current.start_point[0]:
                    break  # a comment on the same line as code belongs to that code
                hoisted.append(current)
                current = before
            if not hoisted:
                break
            hoisted.reverse()
            if current is None:
                return hoisted, max(node.start_byte, member.start_byte), node.start_point[0]
            return hoisted, max(current.end_byte, member.start_byte), _last_row(current)
        return [], member.end_byte, _last_row(member)

    def _attaches(self, lead: _Item, row: int) -> bool:
        """Whether `lead` (the item just above something starting on `row`) belongs to it."""
        gap = row - lead.end_row
        if lead.kind == DECORATOR:
            return gap <= 2
        line_start = self.data.rfind(b"\n", 0, lead.start) + 1
        if self.data[line_start : lead.start].strip():
            return False  # a trailing comment of the code on its line
        source = self.data[lead.start : lead.end]
        if b"LLM-REGION" in source or _REGION_END.search(source):
            return False
        return gap <= 1 or (gap == 2 and _DOC_COMMENT.match(source) is not None)

    # -- nodes ----------------------------------------------------------------------

    def _nodes(self, members: Iterable[SyntaxNode], limit: int, top_level: bool = False) -> list[Node]:
        """The outline nodes of a block's members, import groups and regions formed."""
        nodes: list[Node] = []
        markers: list[int] = []  # indexes into nodes of region markers (start or end)
        imports: list[_Item] = []  # the import statements in a row so far
        for item in self._items(members, limit, top_level):
            if item.kind == _IMPORT:
                imports.append(item)
                continue
            if imports:
                nodes.append(self._import_group(imports))
                imports = []
            if item.kind == COMMENT:
                if self.data.find(b"LLM-REGION", item.start, item.end) >= 0:
                    markers.append(len(nodes))
                nodes.append(self._node(COMMENT, item.start, item.end))
            elif item.kind == DECORATOR:
                nodes.append(self._node(DECORATOR, item.start, item.end))
            elif item.kind == DEFINITION:
                nodes.append(self._definition(item))
            else:
                nodes.append(self._statement(item.node, item.start, item.end))
        if imports:
            nodes.append(self._import_group(imports))
        return self._regions(nodes, markers) if markers else nodes

    def _regions(self, nodes: list[Node], markers: list[int]) -> list[Node]:
        """Group the nodes from each `LLM-REGION` marker to the next into a region."""
        out: list[Node] = nodes[: markers[0]]
        bounds = [*markers, len(nodes)]
        for first, following in pairwise(bounds):
            marker = nodes[first]
            source = self.text[marker.start : marker.end].encode("utf-8", "replace")
            if _REGION_START.search(source) is None:  # an end marker: closes, opens nothing
                out.extend(nodes[first:following])
                continue
            stop = following
            for position in range(first + 1, following):
                candidate = nodes[position]
                if candidate.kind == COMMENT and _REGION_END.search(
                    self.text[candidate.start : candidate.end].encode("utf-8", "replace")
                ):
                    stop = position + 1
                    break
            members = nodes[first:stop]
            title = _REGION_TITLE.search(source)
            label = Label(title=title.group(1).decode("utf-8", "replace").strip() if title else "")
            out.append(Node(REGION, members[0].start, members[-1].end, members, traits=TRAITS[REGION], label=label))
            out.extend(nodes[stop:following])
        return out

    def _node(self, kind: str, start: int, end: int, meta: dict[str, Any] | None = None) -> Node:
        if self.ascii:
            return Node(kind, start, end, NO_CHILDREN, meta, None, TRAITS[kind])
        return Node(kind, self.char(start), self.char(end), NO_CHILDREN, meta, None, TRAITS[kind])

    def _spans_lines(self, start: int, end: int) -> bool:
        """Whether `[start, end)` spans `MIN_SPLIT_LINES` lines or more: whether the
        `MIN_SPLIT_LINES - 1`-th line end from `start` comes before `end`, looked up in
        the table of line ends (counting them per statement was quadratic in the depth
        of nested blocks, each spanning the rest of the file). The table is an array of
        4-byte offsets: as a list of ints it cost 40 bytes a line, some 19 MB for a file
        of 480,000 one-line functions, alive beside its whole outline.

        The line ends in the first `_LINE_SCAN` bytes are counted first (one call, some
        lines of code): the table is built, and searched, only for a span longer than that
        whose first lines are longer still, such as a statement that nests blocks on one
        line (each level would count that line again). Most files never build it."""
        scanned = start + _LINE_SCAN
        if scanned > end:
            scanned = end
        if self.data.count(b"\n", start, scanned) >= MIN_SPLIT_LINES - 1:
            return True
        if scanned == end:
            return False
        line_ends = self.line_ends
        if line_ends is None:
            line_ends = self.line_ends = _line_ends(self.data)
        last = bisect_left(line_ends, start) + MIN_SPLIT_LINES - 2
        return last < len(line_ends) and line_ends[last] < end

    def _import_group(self, items: list[_Item]) -> Node:
        group = self._node(IMPORTS, items[0].start, items[-1].end)
        if len(items) > 1:
            group.children = [self._node(STATEMENT, item.start, item.end) for item in items]
        return group

    def _statement(self, node: SyntaxNode, start: int, end: int) -> Node:
        statement = self._node(STATEMENT, start, end)
        if self._spans_lines(node.start_byte, end):
            statement.expand = partial(self._statement_parts, node, start, end)
        return statement

    def _statement_parts(self, node: SyntaxNode, start: int, end: int) -> list[Node]:
        """A statement's children, built when it does not fit: the comment attached to
        it, then the members of the blocks inside it."""
        children = self._inner_blocks(node, end)
        opening = self.char(node.start_byte)
        if children and opening < children[0].start:
            # the line(s) that open the blocks (`for x in y:`, `} else {`) lead their first member
            children.insert(0, Node(HEADER, opening, children[0].start, traits=TRAITS[HEADER]))
        if children and start < node.start_byte:
            children.insert(0, self._node(COMMENT, start, node.start_byte))
        return children

    def _inner_blocks(self, node: SyntaxNode, limit: int) -> list[Node]:
        """The members of the blocks inside a statement (or expression), in order."""
        out: list[Node] = []
        node = _unwrapped(node, self.language.transparent)
        bodies = self.language.bodies
        comments = self.language.comments
        pending: list[SyntaxNode] = []  # comments before a block (Python: `if x:` then a comment line)
        covered = 0  # where the last statement made ends: its line may hold the next children
        for child in node.named_children:
            if child.start_byte >= limit:
                break
            if child.start_byte < covered:
                continue  # a trailing comment already in the statement of its line
            if child.type in comments:
                pending.append(child)
                continue
            if child.type in bodies:
                out.extend(self._nodes([*pending, *self._members(child)], min(child.end_byte, limit)))
            else:
                out.extend(self._node(COMMENT, c.start_byte, c.end_byte) for c in pending)
                end = self._whole_lines(child.start_byte, min(child.end_byte, limit))
                if end is not None and self._spans_lines(child.start_byte, end):
                    out.append(self._statement(child, child.start_byte, min(end, limit)))
                    covered = min(end, limit)
            pending = []
        out.extend(self._node(COMMENT, c.start_byte, c.end_byte) for c in pending)
        return out

    def _definition(self, item: _Item) -> Node:
        outer = item.node
        syntax_type = outer.type
        # (a type the kinds table holds is no wrapper: it wraps nothing)
        chain = [outer] if syntax_type in self._kinds else self._unwrap(outer)
        inner = chain[-1]
        if inner is not outer:
            syntax_type = inner.type
        metas = self._definition_metas
        meta = metas.get(syntax_type) or metas.setdefault(syntax_type, DefinitionMeta(self.text, syntax_type))
        symbol, name_at = self._symbol(chain)
        # with the comments attached above it: a short function under a long JSDoc block is
        # cut between the comment and its signature, not inside the comment
        broken = self._spans_lines(item.start, item.end)
        if not broken and symbol and self.text[name_at : name_at + len(symbol)] == symbol:
            # never broken into parts, so its label gets no `context`: it is read off the
            # text when asked, where the text holds the symbol as it is
            start = self.char(item.start)
            name_from, name_to = name_at - start, name_at - start + len(symbol)
            return NamedDefinition(start, self.char(item.end), meta, name_from, name_to)
        node = self._node(DEFINITION, item.start, item.end, meta)
        label = node.label = Label(symbol=symbol or None)
        if broken:
            # its start, not the node: a node whose expand holds it is a reference cycle
            node.expand = partial(self._definition_parts, node.start, label, item, chain)
        return node

    def _definition_parts(self, start: int, label: Label, item: _Item, chain: list[SyntaxNode]) -> list[Node]:
        """A definition's children, built when it does not fit: its header, then its
        members or statements (none if there is nothing inside to cut between); and
        its `context`, the header line(s) that chunks of its parts carry."""
        outer, inner = chain[0], chain[-1]
        body, members = self._body(inner)
        # the signature starts at the wrapper on the same line (`export class`, `const f =`),
        # at the definition itself below decorators on lines of their own
        signed = outer if inner.start_point[0] == outer.start_point[0] else inner
        label.context = self._signature(signed, members[0] if members else body)
        docstring = members[0] if members and self._is_docstring(members[0]) else None
        if docstring is not None:
            members = members[1:]
        children = self._nodes(members, item.end)
        if not children and docstring is None and item.start >= outer.start_byte:
            return []  # a leaf, cut at lines (one with comments above it is a header and the rest)
        # the header runs to the first member (or the comment above it), kept as a node or not
        header_end = self.char(min(members[0].start_byte, item.end) if members else item.end)
        if children:
            header_end = min(header_end, children[0].start)
        header = Node(HEADER, start, max(header_end, start), traits=TRAITS[HEADER])
        parts = self._header_parts(item.start, outer, docstring, header.end)
        if len(parts) > 1:
            header.children = parts
        return [header, *children]

    def _header_parts(self, start: int, outer: SyntaxNode, docstring: SyntaxNode | None, end: int) -> list[Node]:
        """The attached comments, the signature (decorators included: they must not be
        left behind when only the comments cannot come along) and the docstring of a
        definition whose header ends at character `end`."""
        parts: list[Node] = []
        if start < outer.start_byte:
            parts.append(self._node(COMMENT, start, outer.start_byte))
        signature_end = self.char(docstring.start_byte) if docstring is not None else end
        parts.append(Node(SIGNATURE, self.char(outer.start_byte), min(signature_end, end), traits=TRAITS[SIGNATURE]))
        if docstring is not None:
            parts.append(self._node(DOCSTRING, docstring.start_byte, docstring.end_byte))
        return parts

    def _body(self, definition: SyntaxNode) -> tuple[SyntaxNode | None, list[SyntaxNode]]:
        """A definition's body node (if any) and its members."""
        language = self.language
        if definition.type in language.containers:
            members = [
                child
                for index, child in enumerate(definition.children)
                if child.is_named
                and definition.field_name_for_child(index) not in ("name", "condition")
                and not child.type.endswith("_name")
            ]
            return None, [m for m in members if m.type not in language.bodies] + [
                inner for m in members if m.type in language.bodies for inner in self._members(m)
            ]
        body = definition.child_by_field_name("body") or self._find_body(definition)
        if body is None:
            return None, []
        if body.type not in language.bodies:
            return body, [body]  # an expression body (`def f = x + 1`)
        # comments between the signature and the body (Ruby keeps them outside the body)
        first_row = definition.start_point[0]
        leading = [
            child
            for child in definition.named_children
            if child.type in language.comments
            and child.end_byte <= body.start_byte
            and child.start_point[0] > first_row
        ]
        return body, [*leading, *self._members(body)]

    def _find_body(self, definition: SyntaxNode) -> SyntaxNode | None:
        bodies = self.language.bodies
        frontier = [definition]
        for _ in range(_BODY_SEARCH_DEPTH):
            following: list[SyntaxNode] = []
            for node in frontier:
                for child in node.named_children:
                    if child.type in bodies:
                        return child
                    following.append(child)
            frontier = following
        return None

    def _is_docstring(self, member: SyntaxNode) -> bool:
        if member.type not in self.language.docstrings:
            return False
        if member.type == "expression_statement":
            first = member.named_child(0)
            only_child = member.named_child_count == 1 and first is not None
            return only_child and first.type in ("string", "concatenated_string")
        return True

    def _symbol(self, chain: list[SyntaxNode]) -> tuple[str, int]:
        """The defined name, from the definition outwards through what wraps it: a `name`
        field (a declarator's, for `const f = () => ...`), a C declarator's identifier,
        an `impl`'s type; else the definition's first identifier-like child. With it, the
        character offset where the text holds it, if the text holds it as it is there."""
        name = None
        for node in reversed(chain):
            name = node.child_by_field_name("name")
            if name is None:
                declarator = node.child_by_field_name("declarator")
                for _ in range(8):
                    if declarator is None or declarator.type in _NAME_TYPES:
                        break
                    declarator = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
                name = declarator or node.child_by_field_name("type")
            if name is not None:
                break
        if name is None:
            for child in chain[-1].named_children:
                if child.type in _NAME_TYPES or child.type.endswith("_name"):
                    name = child
                    break
                name = child.child_by_field_name("name")
                if name is not None:
                    break
        if name is None:
            return "", 0
        at = name.start_byte
        if self.ascii:
            symbol = self.text[at : name.end_byte]
            if symbol.isidentifier():  # (the common case: one line, nothing to strip)
                return symbol, at
        first_line = self.data[at : name.end_byte].decode("utf-8", "replace").partition("\n")[0]
        symbol = first_line.strip()
        if symbol is first_line:  # (the common case: nothing to strip)
            return symbol, self.char(at)
        return symbol, self.char(at) + len(first_line) - len(first_line.lstrip())

    def _signature(self, definition: SyntaxNode, body: SyntaxNode | None) -> str:
        """The definition's header line(s), with the first line's indentation: the text
        from its start to its body (or first member), or its first line without one."""
        start = definition.start_byte
        line_start = self.data.rfind(b"\n", 0, start) + 1
        if not self.data[line_start:start].strip():
            start = line_start
        if body is not None and body.start_byte > definition.start_byte:
            end = body.start_byte
        else:
            newline = self.data.find(b"\n", definition.start_byte, definition.end_byte)
            end = newline if newline >= 0 else definition.end_byte
        return self.text[self.char(start) : self.char(end)].rstrip().rstrip("{").rstrip()
