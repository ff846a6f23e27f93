"""HTML: an outline of a web page or a specification, with exact source offsets.

The tokens come from `html_scan` (one regular expression, positions for free); the tree
follows the HTML parser's rules for what real pages leave out or get wrong: a block
start tag closes an open `p`; `li`, `dt`/`dd`, `tr`, `td`/`th`, `thead`/`tbody`/`tfoot`,
`option` close an open sibling of their kind; an end tag closes the elements opened
after its own (they end where it starts) and does not reach out of a table cell; a stray
end tag is ignored; what is open at the end runs to the end of the document.

Block elements (`html_tags.BLOCK`) are nodes; inline elements are not (a paragraph is a
leaf whose sentences the packer may cut). Kinds: `heading` (meta `level`, `title`),
`section` for sectioning elements (`section`, `article`, `main`, `nav`, `aside`, and
ecmarkup's `emu-clause`, `emu-annex`, `emu-intro`; `title` from their first heading),
`paragraph`, `list` (`ul`, `ol`, `dl`, `menu`, `select`), `list_item` (`li`, `dt`,
`dd`, `option`), `table`, `table_row`, `pre`, `blockquote`, `caption`,
`thematic_break`; any other block keeps its tag name as kind (`div`, `figure`, `td`,
`emu-alg`, `script`, ...). Inside an element, a heading that is not the element's title
opens a section running to the next heading of its level or higher, as in Markdown.

Every element node has meta `tag`; one with an `id` attribute has meta `id` and
`anchor` (a chunk's `section_id` starts at the nearest one); the others have meta
`part` (`emu-table-2`: the second `emu-table` among its siblings), which names the
broken-down parts below that id.
"""

from __future__ import annotations

import re
from itertools import compress
from operator import itemgetter

from outline_splitter import kinds
from outline_splitter.detectors.html_scan import END, START, tokens
from outline_splitter.detectors.html_tags import BLOCK, CLOSES_P, HEADINGS, SCOPE_LIMITS, SECTIONING, TABLE_PARTS, VOID
from outline_splitter.detectors.html_text import extract_text
from outline_splitter.nodes import SHARED_TRAITS, Label, Node, Trait, TraitBit, leads_in

PRE = "pre"
CAPTION = "caption"
# How the packer treats each kind this detector makes (elements whose line breaks
# matter get `LINES` by tag, see `_LINE_ORIENTED`).
TRAITS: dict[str, Trait] = {
    **SHARED_TRAITS,
    PRE: Trait.LINES | Trait.VERBATIM,
    CAPTION: Trait.LEADS,
    # a <header> holds the title and byline of what follows it
    kinds.HEADER: Trait.LEADS,
}

_KINDS = {
    "p": kinds.PARAGRAPH,
    "ul": kinds.LIST,
    "ol": kinds.LIST,
    "dl": kinds.LIST,
    "menu": kinds.LIST,
    "select": kinds.LIST,
    "li": kinds.LIST_ITEM,
    "dt": kinds.LIST_ITEM,
    "dd": kinds.LIST_ITEM,
    "option": kinds.LIST_ITEM,
    "table": kinds.TABLE,
    "tr": kinds.TABLE_ROW,
    "pre": PRE,
    "listing": PRE,
    "xmp": PRE,
    "blockquote": kinds.BLOCKQUOTE,
    "caption": CAPTION,
    "emu-caption": CAPTION,
    "hr": kinds.THEMATIC_BREAK,
}
# Leaves whose line breaks mean something: cut at line ends first.
_LINE_ORIENTED = frozenset({"pre", "listing", "xmp", "script", "style", "emu-alg", "emu-grammar", "emu-eqn"})
_UNNAMED = frozenset({"html", "head", "body"})
_HEAD_CONTENT = frozenset({"title", "script", "style", "noscript", "template"})
# An id on a tag inside a heading (`<h2><span class="mw-headline" id="History">`).
_INNER_ID = re.compile(
    r"""<[A-Za-z][^>]*?[\s/]id[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE
)
# Edit links and permalink signs that pages put in their headings.
_CHROME = re.compile(
    r"\[\s*(?:edit|edit source|modifier|bearbeiten|editar|modifica)[^\]]{0,20}\]|[¶§#]\s*$", re.IGNORECASE
)
# Elements that hold a heading for what follows them in their parent (a post's header).
_HEADING_HOLDERS = frozenset({"header", "hgroup"})
_HOLDS_HEADING = _HEADING_HOLDERS | {"div"}  # the tags of what `_heading_in` may find a heading in
_ID = re.compile(r"""[\s/]id[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)

# Start tags that close an open element of the same family: (the family, where the
# search for it stops).
_CLOSES_SIBLING: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "li": (frozenset({"li"}), frozenset({"ul", "ol", "menu", "table", "td", "th"} | SECTIONING)),
    "dt": (frozenset({"dt", "dd"}), frozenset({"dl", "table", "td", "th"} | SECTIONING)),
    "dd": (frozenset({"dt", "dd"}), frozenset({"dl", "table", "td", "th"} | SECTIONING)),
    "tr": (frozenset({"tr"}), frozenset({"table", "thead", "tbody", "tfoot"})),
    "td": (frozenset({"td", "th"}), frozenset({"table", "tr", "thead", "tbody", "tfoot"})),
    "th": (frozenset({"td", "th"}), frozenset({"table", "tr", "thead", "tbody", "tfoot"})),
    "thead": (frozenset({"thead", "tbody", "tfoot"}), frozenset({"table"})),
    "tbody": (frozenset({"thead", "tbody", "tfoot"}), frozenset({"table"})),
    "tfoot": (frozenset({"thead", "tbody", "tfoot"}), frozenset({"table"})),
    "option": (frozenset({"option"}), frozenset({"select", "optgroup", "datalist"})),
    "optgroup": (frozenset({"option", "optgroup"}), frozenset({"select", "datalist"})),
}
# Rows and cells close what is open inside the table part that holds them.
_TABLE_CONTEXT = {
    "tr": frozenset({"thead", "tbody", "tfoot", "table"}),
    "td": frozenset({"tr", "table"}),
    "th": frozenset({"tr", "table"}),
    "thead": frozenset({"table"}),
    "tbody": frozenset({"table"}),
    "tfoot": frozenset({"table"}),
}
_P = frozenset({"p"})
_P_LIMITS = frozenset({"table", "td", "th", "caption", "template", "html", "li", "dd", "dt"} | SECTIONING)


def _end_tag_limits(name: str) -> frozenset[str]:
    if name in ("table", "template"):
        return frozenset({"html", "template"} - {name})
    if name in TABLE_PARTS:
        return frozenset({"table", "template", "html"})
    return SCOPE_LIMITS - {name}


_END_LIMITS = {name: _end_tag_limits(name) for name in BLOCK}


def _opening(name: str) -> tuple[str, Trait]:
    """The kind and traits of the node a block start tag `name` opens."""
    kind = kinds.SECTION if name in SECTIONING else _KINDS.get(name) or (kinds.HEADING if name in HEADINGS else name)
    # elements whose line breaks matter, a term that leads its definition
    traits = Trait.LINES if name in _LINE_ORIENTED else Trait.LEADS if name == "dt" else Trait.NONE
    kind_traits = TRAITS.get(kind)
    return kind, (traits | kind_traits if traits else kind_traits) if kind_traits is not None else traits


# Made once per tag, not per element: a node gets its traits when it opens (the kinds'
# table and the tag's own), not in a walk of the finished outline.
_OPENING = {name: _opening(name) for name in BLOCK}
_SECTION_TRAITS = TRAITS[kinds.SECTION]
_ALONE = {name: frozenset({name}) for name in BLOCK}  # what an end tag looks for
# How many open elements `find` searches one by one before it asks the tags' indexes.
_SEARCHED = 16


class _TreeBuilder:
    """The stack of open block elements and the rules that close them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.root = Node(kinds.DOCUMENT, 0, len(text), traits=TRAITS.get(kinds.DOCUMENT, Trait.NONE))
        self.stack: list[tuple[str, Node]] = []  # the open block elements, outermost first
        self.length = len(text)
        self.open_at: dict[str, list[int]] = {}  # tag -> the stack indexes where one is open
        self.inner_end: dict[int, int] = {}  # id(node) -> where its content ends (its end tag's start)
        self.headings: list[tuple[Node, Label]] = []

    def close_from(self, index: int, content_end: int, end: int) -> None:
        """Close `stack[index:]`: the inner ones end at `content_end`, `stack[index]` at `end`."""
        stack = self.stack
        if index == len(stack) - 1:  # (mostly: the innermost element alone)
            tag, node = stack.pop()
            self.open_at[tag].pop()
            node.end = end
            self.inner_end[id(node)] = content_end
            return
        open_at = self.open_at
        for tag, _ in stack[index:]:
            open_at[tag].pop()
        for _, node in stack[index + 1 :]:
            node.end = self.inner_end[id(node)] = content_end
        node = stack[index][1]
        node.end = end
        self.inner_end[id(node)] = content_end
        del stack[index:]

    def find(self, names: frozenset[str], limits: frozenset[str]) -> int:
        """The index of the innermost open element named in `names`, not past `limits`.

        The top of the stack is searched element by element (the answer is mostly
        there); below `_SEARCHED`, the tags' open indexes answer in time independent of
        the depth, so 20,000 nested elements are not searched at every tag. Mostly none
        of `names` is open at all (a block start tag looks for a `p` to close), which
        the indexes tell at once."""
        open_at = self.open_at
        for name in names:
            if open_at.get(name):
                break
        else:
            return -1
        stack = self.stack
        bottom = max(len(stack) - _SEARCHED, 0)
        for index in range(len(stack) - 1, bottom - 1, -1):
            tag = stack[index][0]
            if tag in names:
                return index
            if tag in limits:
                return -1
        if bottom == 0:
            return -1
        found = max((open_at[name][-1] for name in names if open_at.get(name)), default=-1)
        if found < 0 or any(open_at[limit][-1] > found for limit in limits if open_at.get(limit)):
            return -1
        return found

    def close_implied(self, name: str, start: int) -> None:
        """Close what the start tag `name` at `start` closes by the HTML parser's rules."""
        stack = self.stack
        if stack[-1][0] == "head" and name not in _HEAD_CONTENT:
            self.close_from(len(stack) - 1, start, start)
        if name in CLOSES_P and stack and self.open_at.get("p"):  # (mostly no `p` is open)
            index = self.find(_P, _P_LIMITS)
            if index >= 0:
                self.close_from(index, start, start)
        if name in HEADINGS and stack and stack[-1][0] in HEADINGS:
            self.close_from(len(stack) - 1, start, start)
        family = _CLOSES_SIBLING.get(name)
        if family is not None and stack:
            index = self.find(*family)
            if index >= 0:
                self.close_from(index, start, start)
            elif name in _TABLE_CONTEXT:  # a cell or row left open inside the part that holds it
                holder = self.find(_TABLE_CONTEXT[name], frozenset())
                if 0 <= holder < len(stack) - 1:
                    self.close_from(holder + 1, start, start)

    def open(self, name: str, start: int, end: int) -> None:
        text = self.text
        stack = self.stack
        if stack:
            # (`close_implied` has something to close: asked here, not in a call a start tag)
            top = stack[-1][0]
            if (
                top == "head"
                or name in _CLOSES_SIBLING
                or (name in CLOSES_P and self.open_at.get("p"))
                or (name in HEADINGS and top in HEADINGS)
            ):
                self.close_implied(name, start)
        kind, traits = _OPENING[name]
        node = Node(kind, start, self.length, None, {"tag": name}, None, traits)
        if "id" in text[start:end].lower():
            match = _ID.search(text, start, end)
            if match is not None:
                node.label = Label(id=next(group for group in match.groups() if group is not None), anchor=True)
        if name in HEADINGS:
            label = node.label = node.label or Label()
            label.level = int(name[1])
            self.headings.append((node, label))
        (stack[-1][1] if stack else self.root).children.append(node)
        if name in VOID:
            node.end = end
        else:
            opened = self.open_at.get(name)  # (not `setdefault`, which makes a list each time)
            if opened is None:
                self.open_at[name] = [len(stack)]
            else:
                opened.append(len(stack))
            stack.append((name, node))

    def close(self, name: str, start: int, end: int) -> None:
        stack = self.stack
        # (mostly the end tag of the innermost element, which `find` would answer first)
        index = len(stack) - 1 if stack and stack[-1][0] == name else self.find(_ALONE[name], _END_LIMITS[name])
        if index >= 0:
            self.close_from(index, start, end)


def detect_html(text: str) -> Node:
    """Outline of an HTML document or fragment (see the module docstring)."""
    builder = _TreeBuilder(text)
    open_element, close_element = builder.open, builder.close
    stack, open_at, inner_end = builder.stack, builder.open_at, builder.inner_end
    markup = tokens(text)
    # (the tokens of blocks picked in C: inline elements, comments, raw text make no node)
    for kind, start, end, name in compress(markup, map(BLOCK.__contains__, map(itemgetter(3), markup))):
        if kind == START:
            open_element(name, start, end)
        elif kind == END and name not in ("body", "html"):  # body and html stay open to the end
            if stack and stack[-1][0] == name:  # (mostly the innermost element's: `close_from` without a call)
                node = stack.pop()[1]
                open_at[name].pop()
                node.end = end
                inner_end[id(node)] = start
            else:
                close_element(name, start, end)
    for _, node in builder.stack:
        builder.inner_end[id(node)] = len(text)
    for heading, label in builder.headings:
        label.title = _title(text[heading.start : heading.end])
        if label.id is None:  # Wikipedia and many CMSs put the anchor on an element inside
            inner = _INNER_ID.search(text, heading.start, heading.end)
            if inner is not None:
                label.id = next(group for group in inner.groups() if group is not None)
                label.anchor = True
    _mark_header_rows(_finish(builder.root, builder.inner_end, text))
    return builder.root


def _mark_header_rows(tables: list[Node]) -> None:
    """`CONTEXT` on each table's header: its `thead`, or a first row of `th` cells (in
    the table or its first `tbody`), so the parts of a broken table name their columns."""
    for table in tables:
        parts = [child for child in table.children if child.meta.get("tag") not in ("caption", "colgroup", "col")]
        first = parts[0] if parts else None
        if first is not None and first.meta.get("tag") == "tbody" and first.children:
            first = first.children[0]
        if first is None:
            continue
        if first.meta.get("tag") == "thead" or (
            first.meta.get("tag") == "tr" and first.children and all(c.meta.get("tag") == "th" for c in first.children)
        ):
            first.traits |= Trait.CONTEXT


def _finish(root: Node, inner_end: dict[int, int], text: str) -> list[Node]:
    """Sections from headings, section titles, `part` names and the lead-ins among the
    leaves (`nodes.mark_lead_ins`), in one walk; returns the tables."""
    tables: list[Node] = []
    stack = [root]
    prose, table, heading_kind = TraitBit.PROSE, kinds.TABLE, kinds.HEADING  # (names looked up once)
    while stack:
        node = stack.pop()
        children = node.children
        if not children:
            if node.traits._value_ & prose and leads_in(text, node.start, node.end):
                node.traits |= Trait.LEADS
            continue
        if node.kind == table:
            tables.append(node)
        tag = node.meta.get("tag")
        numbered = node is root or tag is not None  # (the children of a section made here were numbered)
        counts: dict[str, int] = {}
        heading = False  # whether a child stands for a heading (`_heading_in`)
        for child in children:
            child_tag = child.meta.get("tag")
            if numbered and child_tag is not None and child_tag not in _UNNAMED:
                label = child.label
                if label is None:
                    counts[child_tag] = count = counts.get(child_tag, 0) + 1
                    child.label = Label(part=f"{child_tag}-{count}")
                elif label.id is None:
                    counts[child_tag] = count = counts.get(child_tag, 0) + 1
                    label.part = f"{child_tag}-{count}"
            if not heading and (child.kind == heading_kind or child_tag in _HOLDS_HEADING):
                heading = _heading_in(child) is not None
        if heading and tag not in _HEADING_HOLDERS:  # a holder's heading titles its parent's section
            _sectionize(node, inner_end.get(id(node), node.end))
        stack.extend(node.children)
    return tables


def _sectionize(container: Node, content_end: int) -> None:
    """Group a heading and what follows it into a section, nesting by level. A sectioning
    element whose first child is a heading takes its title from it instead."""
    children = container.children
    first = 0
    title = _heading_in(children[0]) if container.kind == kinds.SECTION else None
    if title is not None:
        heading_label = _label(title)
        label = container.label = container.label or Label()
        label.title, label.level = heading_label.title, heading_label.level
        first = 1
    kept = children[:first]
    open_sections: list[tuple[int, Node]] = []
    for child in children[first:]:
        heading = _heading_in(child)
        if heading is not None:
            heading_label = _label(heading)
            level = heading_label.level or 0
            while open_sections and open_sections[-1][0] >= level:
                open_sections.pop()[1].end = child.start
            label = Label(heading_label.title, level, heading_label.id, anchor=heading_label.id is not None)
            section = Node(kinds.SECTION, child.start, content_end, [child], traits=_SECTION_TRAITS, label=label)
            (open_sections[-1][1].children if open_sections else kept).append(section)
            open_sections.append((level, section))
        else:
            (open_sections[-1][1].children if open_sections else kept).append(child)
    container.children = kept


def _title(html: str) -> str:
    """A heading's title: its visible text without edit links, white space folded."""
    return " ".join(_CHROME.sub(" ", extract_text(html)).split())


def _heading_in(child: Node) -> Node | None:
    """The heading `child` stands for in its parent's sections: itself, or the heading
    of a `header`/`hgroup` (or of a wrapper holding only a heading)."""
    if child.kind == kinds.HEADING:
        return child
    tag = child.meta.get("tag")
    if tag in _HEADING_HOLDERS:
        stack = list(reversed(child.children))
        while stack:
            node = stack.pop()
            if node.kind == kinds.HEADING:
                return node
            stack.extend(reversed(node.children))
    elif tag == "div" and len(child.children) == 1 and child.children[0].kind == kinds.HEADING:
        return child.children[0]
    return None


def _label(heading: Node) -> Label:
    """A heading's label (every heading element gets one when it opens)."""
    if heading.label is None:
        raise ValueError(f"heading at {heading.start} has no label")
    return heading.label
