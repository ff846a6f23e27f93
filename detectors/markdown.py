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
from collections.abc import Callable, Iterator
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from outline_splitter import kinds
from outline_splitter.detectors import markdown_outline as md_outline
from outline_splitter.detectors import markdown_windows as md_windows
from outline_splitter.detectors.lines import line_starts
from outline_splitter.detectors.markdown_titles import html_heading, plain_title
from outline_splitter.nodes import NO_CHILDREN, Label, Node, Trait

# Block tokens that open a node, by token type.
_CONTAINER_KINDS = {
    "paragraph_open": kinds.PARAGRAPH,
    "bullet_list_open": kinds.LIST,
    "ordered_list_open": kinds.LIST,
    "list_item_open": kinds.LIST_ITEM,
    "blockquote_open": kinds.BLOCKQUOTE,
    "table_open": kinds.TABLE,
    "tr_open": kinds.TABLE_ROW,
    "heading_open": kinds.HEADING,
}
# Tokens that are a whole node by themselves.
_LEAF_KINDS = {
    "fence": kinds.CODE,
    "code_block": kinds.CODE,
    "hr": kinds.THEMATIC_BREAK,
    "html_block": kinds.HTML_BLOCK,
    "front_matter": kinds.FRONT_MATTER,
}
# Every kind this detector makes: what `never_break_within` and `separators` may name.
KINDS = frozenset({kinds.DOCUMENT, kinds.SECTION, kinds.HEADING, *_CONTAINER_KINDS.values(), *_LEAF_KINDS.values()})

# A Setext underline: a run of "=" or of "-" and trailing blanks, after up to three
# spaces (a paragraph's content lines have their container's prefix removed already; a
# source line inside a container may also carry block quote markers and indentation).
_EQUALS_UNDERLINE = re.compile(r" {0,3}=+[ \t]*")
_DASH_UNDERLINE = re.compile(r" {0,3}-+[ \t]*(?:\r\n?|\n)?")
_NESTED_DASH_UNDERLINE = re.compile(r"[ \t>]*-+[ \t]*(?:\r\n?|\n)?")


@lru_cache(maxsize=2)
def _parser(front_matter: bool = True) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    if front_matter:
        md.use(front_matter_plugin)
    # Inline content is never needed: headings' titles are their inline source made plain.
    md.disable(["inline", "text_join", "lheading"])
    return md


def _token_windows(text: str, starts: list[int]) -> Iterator[list[Token]]:
    """The block tokens of `text`, Setext headings restored, one window of whole
    top-level blocks at a time (line maps are the document's), cut where
    `markdown_windows` says (markdown-it's tokens take some ten times the text they stand
    for: 100,000 paragraphs of 16 MB are 300,000 tokens, so only one window's are alive at
    once). Where a window ends inside a list, the next window's list (from that item on)
    continues it: its opening token is left out, and its closing token carries the list's
    last line (`meta["end_line"]`). Front matter is read at the document's start only."""
    cut_list: Token | None = None  # the opening token of a list the last window ended inside
    first = 0  # the window's first line
    for tokens, cut in md_windows.windows(text, starts, _parse_window(text, starts), _tops, _items):
        kept = tokens if cut.at is None else tokens[: cut.at]
        next_cut_list = tokens[0] if cut.in_list else None
        del tokens  # (only one window's tokens are to be alive while the next is parsed)
        yield _setext_headings(_continue_list(kept, cut_list, first), text, starts)
        del kept
        cut_list, first = next_cut_list, cut.line


def _parse_window(text: str, starts: list[int]) -> Callable[[int, int, bool], list[Token]]:
    """How a window of lines `first` to `end` (to the end of `text` if `last`) is parsed:
    markdown-it's block tokens, their line maps the document's."""

    def parse(first: int, end: int, last: bool) -> list[Token]:
        window = text[starts[first] :] if last else text[starts[first] : starts[end]]
        tokens = _parser(front_matter=first == 0).parse(window)
        if first:  # (the first window's line maps are the document's: no new list per token)
            for token in tokens:
                if token.map is not None:
                    token.map = [token.map[0] + first, token.map[1] + first]
        return tokens

    return parse


# The window rules' kind of each top-level token type (`markdown_windows.OTHER` if none).
_WINDOW_KINDS = {
    "paragraph_open": md_windows.PARAGRAPH,
    "hr": md_windows.RULE,
    "bullet_list_open": md_windows.LIST,
    "ordered_list_open": md_windows.LIST,
    "table_open": md_windows.TABLE,
    "blockquote_open": md_windows.BLOCKQUOTE,
    "front_matter": md_windows.FRONT_MATTER,
}


def _tops(tokens: list[Token]) -> list[md_windows.Top]:
    """A window's top-level blocks, for the window rules."""
    return [
        md_windows.Top(_WINDOW_KINDS.get(token.type, md_windows.OTHER), token.map[0], i)
        for i, token in enumerate(tokens)
        if token.level == 0 and token.nesting >= 0 and token.map is not None
    ]


def _items(tokens: list[Token]) -> list[md_windows.Top]:
    """The items of the top-level list that a window starts with, for the window rules."""
    return [
        md_windows.Top(md_windows.OTHER, token.map[0], i)
        for i, token in enumerate(tokens)
        if token.type == "list_item_open" and token.level == 1 and token.map is not None
    ]


def _continue_list(tokens: list[Token], cut_list: Token | None, first: int) -> list[Token]:
    """A window's tokens after the last one ended inside the list `cut_list` opened (the
    tokens as they are if it did not): the window's first list is that list going on,
    so its opening token is left out and its closing token (if the list ends in this
    window) carries its last line. Should the window not start with a list of that kind,
    the list is closed where it was cut."""
    if cut_list is None:
        return tokens
    head = tokens[0] if tokens else None
    if head is None or head.type != cut_list.type or head.markup != cut_list.markup or head.level != 0:
        closing = Token(cut_list.type.replace("_open", "_close"), cut_list.tag, -1, meta={"end_line": first})
        return [closing, *tokens]
    rest = tokens[1:]
    close = next((token for token in rest if token.level == 0 and token.nesting == -1), None)
    if close is not None and head.map is not None:
        close.meta = {**close.meta, "end_line": head.map[1]}
    return rest


def _start_line(token: Token) -> int:
    return token.map[0] if token.map is not None else -1


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
        content = tokens[i + 1].content
        lines = content.split("\n") if "=" in content else []  # (most paragraphs have none: no lines made)
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
        if _dash_underlined(token, tokens[i + 3] if i + 3 < len(tokens) else None, text, starts):
            out.extend(_heading_tokens(token, "h2", first, last + 1, content.split("\n")))
            i += 4
            continue
        out.extend(tokens[i : i + 3])
        i += 3
    return out


def _dash_underlined(paragraph: Token, following: Token | None, text: str, starts: list[int]) -> bool:
    """Whether the token `following` a paragraph's is the `---` line right under it, at
    its level: a Setext underline that markdown-it-py read as a thematic break."""
    if following is None or following.type != "hr" or following.map is None:
        return False
    last = paragraph.map[1] if paragraph.map is not None else -1
    underline = _NESTED_DASH_UNDERLINE if paragraph.level else _DASH_UNDERLINE
    return (
        following.map[0] == last
        and following.level == paragraph.level
        and underline.fullmatch(text, starts[last], starts[min(last + 1, len(starts) - 1)]) is not None
    )


def _heading_tokens(paragraph: Token, tag: str, first: int, last: int, lines: list[str]) -> list[Token]:
    opening = Token("heading_open", tag, 1, map=[first, last], level=paragraph.level, block=True)
    content = "\n".join(lines).strip()
    inline = Token("inline", "", 0, map=[first, last - 1], level=paragraph.level + 1, content=content)
    return [opening, inline, Token("heading_close", tag, -1, level=paragraph.level, block=True)]


def detect_markdown(text: str) -> Node:
    """Outline of a Markdown document as markdown-it-py reads it (see the module docstring)."""
    starts = line_starts(text)
    return _build(text, starts, _with_next(_token_windows(text, starts)))


def _build(text: str, starts: list[int], tokens: Iterator[tuple[Token, Token | None]]) -> Node:
    """The outline of `text` from its block tokens, each with the one after it."""
    builder = _Builder(text, starts)
    builder.read(tokens)
    return builder.sections.root


class _Builder:
    """Nodes from block tokens, into the document's `sections`. `parents` holds, for each
    open block token, the innermost open block with a node (None: none yet)."""

    __slots__ = ("parents", "sections", "starts", "text")

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.sections = md_outline.Sections(len(text))
        self.parents: list[Node | None] = []

    def read(self, tokens: Iterator[tuple[Token, Token | None]]) -> None:
        """Make the nodes of `tokens` (each with the one after it in its window); a table's
        header row is marked once its rows are read."""
        starts, sections, parents = self.starts, self.sections, self.parents
        last_line = len(starts) - 1
        tables: list[Node] = []
        for token, following in tokens:
            if token.nesting == -1:
                closed = parents.pop()
                end_line = token.meta.get("end_line") if token.meta else None
                if end_line is not None and closed is not None:  # a list parsed in windows
                    closed.end = starts[min(end_line, last_line)]
                continue
            if token.type == "inline":
                continue
            parent = parents[-1] if parents else None
            if token.map is None:
                if token.nesting == 1:
                    parents.append(parent)
                continue
            start, end = starts[min(token.map[0], last_line)], starts[min(token.map[1], last_line)]
            html = html_heading(token.content) if token.type == "html_block" and parent is None else None
            if (token.type == "heading_open" and parent is None) or html is not None:
                label = _heading_label(token, following) if html is None else Label(title=html[1], level=html[0])
                heading = sections.heading(label, start, end)
                if html is None:  # an HTML block has no closing token
                    parents.append(heading)
                continue
            kind = _CONTAINER_KINDS.get(token.type) or _LEAF_KINDS.get(token.type)
            if kind is None:  # thead/tbody and other wrappers: transparent
                if token.nesting == 1:
                    parents.append(parent)
                continue
            self._block(token, following, kind, parent, start, end, tables)
        for table in tables:
            md_outline.finish_table(table)

    def _block(
        self,
        token: Token,
        following: Token | None,
        kind: str,
        parent: Node | None,
        start: int,
        end: int,
        tables: list[Node],
    ) -> None:
        """Make the node of a block `token` of `kind` over `[start, end)` in `parent` (None:
        its section) and open it where the token opens; a table goes to `tables` too. A list
        item's paragraph that `md_outline.defer_paragraph` defers makes no node: the item
        builds it when asked, and stands open for the paragraph's tokens in its place."""
        text, parents = self.text, self.parents
        holder = parent or self.sections.open[-1][1]
        if kind == kinds.PARAGRAPH and md_outline.defer_paragraph(text, holder, start, end):
            parents.append(holder)
            return
        # (a paragraph is a leaf: inline tokens make no nodes)
        traits = (
            md_outline.paragraph_traits(text, start, end)
            if kind == kinds.PARAGRAPH
            else md_outline.TRAITS.get(kind, Trait.NONE)
        )
        make = md_outline.ListItem if kind == kinds.LIST_ITEM else Node
        node = make(kind, start, end, NO_CHILDREN, _block_meta(token), traits=traits)
        if kind == kinds.TABLE:
            tables.append(node)
        if token.type == "heading_open":
            node.label = _heading_label(token, following)
        md_outline.add_child(holder, node)
        if token.nesting == 1:
            parents.append(node)


def _with_next(windows: Iterator[list[Token]]) -> Iterator[tuple[Token, Token | None]]:
    """Each token of each window, with the token after it in its window (None after the
    last): no window is held while the next one is parsed."""
    for tokens in windows:
        yield from zip(tokens, itertools.chain(itertools.islice(tokens, 1, None), (None,)))
        del tokens


def _heading_label(token: Token, inline: Token | None) -> Label:
    """The label of a heading from its opening token and the inline token after it."""
    return Label(title=plain_title(inline.content if inline is not None else ""), level=int(token.tag[1]))


def _block_meta(token: Token) -> dict[str, object] | None:
    if token.type == "ordered_list_open":
        return md_outline.list_meta(token.attrs.get("start", 1))
    if token.type == "bullet_list_open":
        return md_outline.list_meta(None)
    if token.type == "fence":
        return md_outline.code_meta(token.info)
    if token.type == "code_block":
        return md_outline.code_meta(None)
    return None  # (no dict: most nodes have no meta)
