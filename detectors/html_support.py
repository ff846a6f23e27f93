"""HTML's hooks into the splitter (see `registry.FORMATS`): the view of each output mode,
the CSS selectors of `never_break_within` and `separators`, and the `content` option
(`html_content`).

Selectors run on selectolax's lexbor DOM, which keeps no source positions. To tie its
elements to the outline's nodes, the source is parsed once with an attribute holding
each node's number added to the node's start tag; a matching element names its node.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from outline_splitter.detectors.html_content import Matcher, select_content
from outline_splitter.detectors.html_text import rendered_text
from outline_splitter.nodes import HEADING, SECTION, Node, Trait
from outline_splitter.packing.text_view import RenderedView
from outline_splitter.packing.view import ChunkView, SourceView, word_bounds
from outline_splitter.registry import FormatHooks
from outline_splitter.tokens import Tokenizer, span_counter_for

_NODE_ATTRIBUTE = "data-outline-node"


def html_view(text: str, root: Node, tokenizer: Tokenizer, output: str) -> ChunkView:
    """`"html"`: chunks are slices of the source. `"text"`: chunks are the readable text
    of their span (`outline_splitter.detectors.html_text`), counted in tokens of that text."""
    if output == "text":
        rendered = rendered_text(text)
        return RenderedView(rendered, span_counter_for(tokenizer, rendered.text))
    return MarkupSourceView(text, span_counter_for(tokenizer, text))


# Markup, comments and white space (no-break spaces too) at the start of a span.
_MARKUP = re.compile(r"(?:[\s\xa0]+|<!--.*?(?:-->|\Z)|<[A-Za-z!?/][^>]*>?|&(?:nbsp|#160|#[xX][aA]0);)*", re.DOTALL)


# The words of markup: each tag whole (its attributes hold spaces), and each run of other
# non-space characters. A tag ends at the next `>` or `<`, which keeps each attempt, and so
# the scan, linear.
_MARKUP_WORD = re.compile(r"<[^<>]*>|[^\s<]+|<")


class MarkupSourceView(SourceView):
    """HTML's source view: a span of tags, comments and white space alone shows
    nothing (`blank_side`), and belongs with the chunk before it if it starts with an
    end tag, else with the chunk after it. A tag is a word of its own: cuts fall between tags
    or at white space, never inside a tag."""

    def words(self, start: int, end: int) -> tuple[Sequence[int], Sequence[int]]:
        return word_bounds(self.source, start, end, _MARKUP_WORD)

    def blank_side(self, start: int, end: int) -> int:
        markup = _MARKUP.match(self.source, start, end)
        if markup is None or markup.end() < end:
            return 0
        return -1 if self.source.startswith("</", start) else 1


def mark_html_nodes(text: str, root: Node, never_break_within: Sequence[str], separators: Sequence[str]) -> None:
    """Give the element nodes that match `never_break_within` the `NEVER_BREAK` trait,
    and those that match `separators` the `SEPARATOR` trait. A separator heading that opens a section of the
    outline marks that section, so the heading's group is its section."""
    elements: list[Node] = []
    parents: dict[int, Node] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if "tag" in node.meta:
            elements.append(node)
        for child in reversed(node.children):
            parents[id(child)] = node
            stack.append(child)
    document = _numbered_dom(text, elements)
    for number in _matches(document, never_break_within, "never_break_within"):
        elements[number].traits |= Trait.NEVER_BREAK
    for number in _matches(document, separators, "separators"):
        node = elements[number]
        parent = parents.get(id(node))
        if (
            node.kind == HEADING
            and parent is not None
            and parent.kind == SECTION
            and "tag" not in parent.meta
            and parent.children[0] is node
        ):
            node = parent
        node.traits |= Trait.SEPARATOR


def select_html_content(text: str, root: Node, content: str, include: Sequence[str], exclude: Sequence[str]) -> None:
    """Mark what `content` (`"all"` or `"main"`), `include` and `exclude` leave out."""
    select_content(text, root, rendered_text(text), content, include, exclude, lambda nodes: _matcher(text, nodes))


def _matcher(text: str, elements: list[Node]) -> Matcher:
    document = _numbered_dom(text, elements)
    return lambda selectors, argument: _matches(document, selectors, argument)


HTML_HOOKS = FormatHooks(view=html_view, mark=mark_html_nodes, select=select_html_content)


def _numbered_dom(text: str, elements: list[Node]) -> Any:
    from selectolax.lexbor import LexborHTMLParser

    pieces: list[str] = []
    cursor = 0
    for number, node in enumerate(elements):
        at = node.start + 1 + len(node.meta["tag"])
        pieces.append(text[cursor:at])
        pieces.append(f' {_NODE_ATTRIBUTE}="{number}"')
        cursor = at
    pieces.append(text[cursor:])
    return LexborHTMLParser("".join(pieces))


def _matches(document: Any, selectors: Sequence[str], argument: str) -> set[int]:
    numbers: set[int] = set()
    for selector in selectors:
        try:
            found = document.css(selector)
        except Exception as exc:  # selectolax raises its own errors for a bad selector
            raise ValueError(f"{argument}: {selector!r} is not a valid CSS selector ({exc})") from exc
        for element in found:
            number = element.attributes.get(_NODE_ATTRIBUTE)
            if number is not None and number.isdigit():
                numbers.add(int(number))
    return numbers
