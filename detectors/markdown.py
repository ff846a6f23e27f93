"""Markdown: markdown-it-py's block tokens and their line maps, turned into an outline.

ATX and Setext headings open sections that nest by level (a section runs to the next
heading of the same or a higher level). Inside them: paragraphs, lists and list items
(nested), fenced and indented code, GFM tables and their rows, block quotes, HTML
blocks, thematic breaks and front matter. markdown-it-py gives line numbers; offsets
come from this module's own line table, built with the same line-end rule (`\\r\\n`,
`\\r`, `\\n`), so they are exact in the original string whatever its line ends.
Only the block pass runs: inline parsing is not needed for an outline. markdown-it's
Setext rule is off too, because it re-scans every paragraph's lines before the
paragraph rule scans them again (a quarter of the block pass); `_setext_headings` finds
the same headings in the tokens that remain (a tests compares the two on the corpus).
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from outline_splitter.detectors.lines import line_starts
from outline_splitter.detectors.markdown_titles import html_heading, plain_title
from outline_splitter.nodes import (
    BLOCKQUOTE,
    CODE,
    DOCUMENT,
    FRONT_MATTER,
    HEADING,
    HTML_BLOCK,
    LIST,
    LIST_ITEM,
    PARAGRAPH,
    SECTION,
    SHARED_TRAITS,
    TABLE,
    TABLE_ROW,
    THEMATIC_BREAK,
    Label,
    Node,
    Trait,
    apply_traits,
    mark_lead_ins,
)

# How the packer treats each kind this detector makes.
TRAITS: dict[str, Trait] = dict(SHARED_TRAITS)

# Block tokens that open a node, by token type.
_CONTAINER_KINDS = {
    "paragraph_open": PARAGRAPH,
    "bullet_list_open": LIST,
    "ordered_list_open": LIST,
    "list_item_open": LIST_ITEM,
    "blockquote_open": BLOCKQUOTE,
    "table_open": TABLE,
    "tr_open": TABLE_ROW,
    "heading_open": HEADING,
}
# Tokens that are a whole node by themselves.
_LEAF_KINDS = {
    "fence": CODE,
    "code_block": CODE,
    "hr": THEMATIC_BREAK,
    "html_block": HTML_BLOCK,
    "front_matter": FRONT_MATTER,
}
# Every kind this detector makes: what `never_break_within` and `separators` may name.
KINDS = frozenset({DOCUMENT, SECTION, HEADING, *_CONTAINER_KINDS.values(), *_LEAF_KINDS.values()})
_SLUG_DROP = re.compile(r"[^\w\- ]")

# A fence's info string starts with its language: "rust", "cairo, noplayground", "js{1,3}".
_INFO_WORD = re.compile(r"[\s,{]")


# A Setext underline: a run of "=" or of "-" and trailing blanks, after up to three
# spaces (a paragraph's content lines have their container's prefix removed already; a
# source line inside a container may also carry block quote markers and indentation).
_EQUALS_UNDERLINE = re.compile(r" {0,3}=+[ \t]*")
_DASH_UNDERLINE = re.compile(r" {0,3}-+[ \t]*(?:\r\n?|\n)?")
_NESTED_DASH_UNDERLINE = re.compile(r"[ \t>]*-+[ \t]*(?:\r\n?|\n)?")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
    # Inline content is never needed: headings' titles are their inline source made plain.
    md.disable(["inline", "text_join", "lheading"])
    return md


def _setext_headings(tokens: list[Token], text: str, starts: list[int]) -> list[Token]:
    """The token stream with Setext headings restored. Without the lheading rule,
    `Title\n---` parses as a paragraph interrupted by a thematic break, and
    `Title\n===` as a paragraph whose last line is the underline; both become
    heading tokens again here, as the lheading rule would have made them."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type != "paragraph_open" or token.map is None:
            out.append(token)
            i += 1
            continue
        first, last = token.map
        lines = tokens[i + 1].content.split("\n")
        underline = None
        if "=" in tokens[i + 1].content:  # (most paragraphs have none: no line to match)
            underline = next((k for k in range(1, len(lines)) if _EQUALS_UNDERLINE.fullmatch(lines[k])), None)
        if underline is not None:
            out.extend(_heading_tokens(token, "h1", first, first + underline + 1, lines[:underline]))
            if first + underline + 1 < last:  # the lines after the underline stay a paragraph
                rest = tokens[i : i + 3]
                rest[0].map = rest[1].map = [first + underline + 1, last]
                rest[1].content = "\n".join(lines[underline + 1 :])
                tokens[i : i + 3] = rest
                continue
            i += 3
            continue
        following = tokens[i + 3] if i + 3 < len(tokens) else None
        if (
            following is not None
            and following.type == "hr"
            and following.map is not None
            and following.map[0] == last
            and following.level == token.level
            and (_NESTED_DASH_UNDERLINE if token.level else _DASH_UNDERLINE).fullmatch(
                text, starts[last], starts[min(last + 1, len(starts) - 1)]
            )
        ):
            out.extend(_heading_tokens(token, "h2", first, last + 1, lines))
            i += 4
            continue
        out.extend(tokens[i : i + 3])
        i += 3
    return out


def _heading_tokens(paragraph: Token, tag: str, first: int, last: int, lines: list[str]) -> list[Token]:
    opening = Token("heading_open", tag, 1, map=[first, last], level=paragraph.level, block=True)
    content = "\n".join(lines).strip()
    inline = Token("inline", "", 0, map=[first, last - 1], level=paragraph.level + 1, content=content)
    return [opening, inline, Token("heading_close", tag, -1, level=paragraph.level, block=True)]


def detect_markdown(text: str) -> Node:
    """Outline of a Markdown document (see the module docstring)."""
    starts = line_starts(text)
    tokens = _setext_headings(_parser().parse(text), text, starts)
    last_line = len(starts) - 1

    def offset(line: int) -> int:
        return starts[min(line, last_line)]

    root = Node(DOCUMENT, 0, len(text))
    sections: list[tuple[int, Node]] = [(0, root)]  # (heading level, section)
    slugs: dict[str, int] = {}
    # for each open block token, the innermost open block with a node (None: none yet)
    parents: list[Node | None] = []
    for index, token in enumerate(tokens):
        if token.nesting == -1:
            parents.pop()
            continue
        if token.type == "inline":
            continue
        parent = parents[-1] if parents else None
        if token.map is None:
            if token.nesting == 1:
                parents.append(parent)
            continue
        start, end = offset(token.map[0]), offset(token.map[1])
        html = html_heading(token.content) if token.type == "html_block" and parent is None else None
        if (token.type == "heading_open" and parent is None) or html is not None:
            label = _heading_label(token, tokens[index + 1]) if html is None else Label(title=html[1], level=html[0])
            level = label.level or 1
            while sections[-1][0] >= level:
                sections.pop()[1].end = start
            label.id = _unique_slug(label.title or "", slugs)
            section = Node(SECTION, start, len(text), label=label)
            sections[-1][1].children.append(section)
            sections.append((level, section))
            heading = Node(HEADING, start, end, label=label)
            section.children.append(heading)
            if html is None:  # an HTML block has no closing token
                parents.append(heading)
            continue
        kind = _CONTAINER_KINDS.get(token.type) or _LEAF_KINDS.get(token.type)
        if kind is None:  # thead/tbody and other wrappers: transparent
            if token.nesting == 1:
                parents.append(parent)
            continue
        node = Node(kind, start, end, meta=_block_meta(token))
        if token.type == "heading_open":
            node.label = _heading_label(token, tokens[index + 1])
        (parent or sections[-1][1]).children.append(node)
        if token.nesting == 1:
            parents.append(node)
    for table in (n for n in root.walk() if n.kind == TABLE):
        _join_header_delimiter(table)
        if table.children:  # a GFM table's first row is its header row
            table.children[0].traits |= Trait.CONTEXT
    return mark_lead_ins(apply_traits(root, TRAITS), text)


def _heading_label(token: Token, inline: Token) -> Label:
    return Label(title=plain_title(inline.content), level=int(token.tag[1]))


def _unique_slug(title: str, seen: dict[str, int]) -> str:
    """The heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    to hyphens, and `-1`, `-2`... on repeats."""
    slug = _SLUG_DROP.sub("", title.lower()).replace(" ", "-") or "section"
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return f"{slug}-{count}" if count else slug


def _block_meta(token: Token) -> dict[str, object]:
    if token.type == "ordered_list_open":
        return {"ordered": True, "list_start": int(token.attrs.get("start", 1) or 1)}
    if token.type == "bullet_list_open":
        return {"ordered": False}
    if token.type == "fence":
        return {"language": _INFO_WORD.split(token.info.strip())[0], "fenced": True}
    if token.type == "code_block":
        return {"fenced": False}
    return {}


def _join_header_delimiter(table: Node) -> None:
    """A GFM table's delimiter row belongs to no token: give it to the header row, so
    that a cut between rows never leaves it alone."""
    rows = table.children
    for row, following in itertools.pairwise(rows):
        if following.start > row.end:
            row.end = following.start
