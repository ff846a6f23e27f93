"""HTML's hooks into the splitter (see `registry.FORMATS`): the view of each output mode,
the CSS selectors of `never_break_within` and `separators`, and the `content` option
(`html_content`).

Selectors run on selectolax's lexbor DOM, which keeps no source positions. To tie its
elements to the outline's nodes, the source is parsed once with an attribute holding
each node's number added to the node's start tag; a matching element names its node.
The attribute's name is drawn at random per parse and checked absent from the page, so
a page cannot forge it: an attribute of the input that looks like it (even the name an
earlier call used) is an ordinary attribute.
"""

from __future__ import annotations

import re
import secrets
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from outline_splitter.detectors.html_content import Matcher, select_content
from outline_splitter.detectors.html_scan import tag_spans
from outline_splitter.detectors.html_text import rendered_text
from outline_splitter.kinds import HEADING, SECTION
from outline_splitter.nodes import Node, Trait
from outline_splitter.packing.sentences import Span
from outline_splitter.packing.text_view import RenderedView
from outline_splitter.packing.view import ChunkView, Level, SourceView, fits, word_bounds
from outline_splitter.registry import FormatHooks
from outline_splitter.tokens.base import SpanCounter

_NODE_ATTRIBUTE_PREFIX = "data-outline-node-"


def _node_attribute(text: str) -> str:
    """An attribute name that occurs nowhere in `text` (HTML folds attribute names to
    lower case, so the check is on the lower-cased page)."""
    lowered = text.lower()
    while True:
        name = _NODE_ATTRIBUTE_PREFIX + secrets.token_hex(8)
        if name not in lowered:
            return name


def counted_text(text: str, output: str) -> str:
    """The text the view of `output` counts (`FormatHooks.counted_text`): the rendering's
    in text output (the same object the view reads: `rendered_text` keeps it)."""
    return rendered_text(text).text if output == "text" else text


def html_view(text: str, root: Node, counter_for: Callable[[str], SpanCounter], output: str) -> ChunkView:
    """`"html"`: chunks are slices of the source. `"text"`: chunks are the readable text
    of their span (`outline_splitter.detectors.html_text`), counted in tokens of that text."""
    if output == "text":
        rendered = rendered_text(text)
        return RenderedView(rendered, counter_for(rendered.text))
    return MarkupSourceView(text, counter_for(text))


# Markup, comments and white space (no-break spaces too) at the start of a span.
# (The repeat is possessive: nothing follows it that could make it give back, so it keeps
# no backtracking state per piece, an eighth of the time over the tags of a page.)
_MARKUP = re.compile(r"(?:[\s\xa0]+|<!--.*?(?:-->|\Z)|<[A-Za-z!?/][^>]*>?|&(?:nbsp|#160|#[xX][aA]0);)*+", re.DOTALL)


# The words of markup: each tag whole (its attributes hold spaces), and each run of other
# non-space characters. A tag ends at the next `>` or `<`, which keeps each attempt, and so
# the scan, linear. White space is spelled out (what `\s` and `str.isspace` match): a set
# of characters is tested faster than the category, which scripts and stylesheets are
# cut at word level with (a fifth of the scan's time).
_SPACES = re.escape("".join(chr(code) for code in range(0x3001) if chr(code).isspace()))
_MARKUP_WORD = re.compile(rf"<[^<>]*>|[^{_SPACES}<]+|<")


class MarkupSourceView(SourceView):
    """HTML's source view: a span of tags, comments and white space alone shows
    nothing (`blank_side`), and belongs with the chunk before it if it starts with an
    end tag, else with the chunk after it. No cut falls inside a start or end tag that
    fits the budget, whatever sentence end or white space its attribute values hold: a
    tag is a word of its own, and a sentence or a line that ends inside one runs on to
    the next that does not (`parts`). A tag over the budget alone is cut as a leaf is
    (`leaf.split_leaf`): at the sentence ends and line ends inside it, and where those
    leave a part too large, by tokens (it is one word of this view)."""

    def __init__(self, source: str, counter: SpanCounter) -> None:
        super().__init__(source, counter)
        # the packer asks of one span again and again (balancing, then joining chunks)
        self._sides: dict[tuple[int, int], int] = {}
        self._tags: tuple[Sequence[int], Sequence[int]] | None = None  # `tag_spans`, once asked

    def words(self, start: int, end: int) -> tuple[Sequence[int], Sequence[int]]:
        starts, ends = word_bounds(self.source, start, end, _MARKUP_WORD)
        # (a tag whose quoted attribute value holds `<` or `>` is more than one match)
        inside = self._cuts_in_tags(starts, start, end, None)
        inside.discard(starts[0] if starts else start)
        if not inside:
            return starts, ends
        kept = [k for k, word_start in enumerate(starts) if word_start not in inside]
        return array("q", [starts[k] for k in kept]), array("q", [ends[k - 1] for k in kept[1:]] + [ends[-1]])

    def parts(self, level: Level, start: int, end: int, limit: int) -> list[Span]:
        parts = level(self.source, start, end)
        if len(parts) < 2:
            return parts
        cuts = [b for _, b in parts]
        inside = self._cuts_in_tags(cuts, start, end, limit)
        inside.discard(end)  # (the span's own end is no cut of the level's)
        if not inside:
            return parts
        return list(pairwise([start, *(cut for cut in cuts if cut not in inside)]))

    def _cuts_in_tags(self, cuts: Sequence[int], start: int, end: int, limit: int | None) -> set[int]:
        """The `cuts` (ascending, within `[start, end]`) that fall strictly inside a tag
        of at most `limit` tokens, or with `limit` None, inside a tag that lies whole in
        the span (one its edges cut was over a budget, and is cut as text)."""
        if self._tags is None:
            self._tags = tag_spans(self.source)
        tag_starts, tag_ends = self._tags
        first, last = bisect_right(tag_ends, start), bisect_left(tag_starts, end)  # the tags that reach inside
        inside: set[int] = set()
        for tag_start, tag_end in zip(tag_starts[first:last], tag_ends[first:last]):
            lo, hi = bisect_right(cuts, tag_start), bisect_left(cuts, tag_end)
            if lo < hi and (
                fits(self, tag_start, tag_end, limit) if limit is not None else start <= tag_start and tag_end <= end
            ):
                inside.update(cuts[lo:hi])
        return inside

    def blank_side(self, start: int, end: int) -> int:
        source = self.source
        if start < end:
            first = source[start]
            if first not in "<&" and not first.isspace():
                return 0  # it starts with text
        side = self._sides.get((start, end))
        if side is None:
            markup = _MARKUP.match(source, start, end)
            side = 0 if markup is None or markup.end() < end else -1 if source.startswith("</", start) else 1
            self._sides[start, end] = side
        return side


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
    for number in document.matches(never_break_within, "never_break_within"):
        elements[number].traits |= Trait.NEVER_BREAK
    for number in document.matches(separators, "separators"):
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
    return _numbered_dom(text, elements).matches


def check_html_selectors(selectors: Mapping[str, Sequence[str]]) -> None:
    """`ValueError` naming the option and the selector if one of an option's selectors
    does not parse (on an empty page: a selector's syntax does not depend on the page)."""
    from selectolax.lexbor import LexborHTMLParser

    empty = _NumberedDom(LexborHTMLParser(""), _NODE_ATTRIBUTE_PREFIX)
    for option, option_selectors in selectors.items():
        empty.matches(option_selectors, option)


HTML_HOOKS = FormatHooks(
    view=html_view,
    mark=mark_html_nodes,
    select=select_html_content,
    check=check_html_selectors,
    counted_text=counted_text,
    tags=tag_spans,
)


class _NumberedDom:
    """The page parsed by lexbor with each element node's number in `attribute`."""

    def __init__(self, document: Any, attribute: str) -> None:
        self.document = document
        self.attribute = attribute

    def matches(self, selectors: Sequence[str], argument: str) -> set[int]:
        """The numbers of the element nodes that match any of `selectors`."""
        numbers: set[int] = set()
        for selector in selectors:
            try:
                found = self.document.css(selector)
            except Exception as exc:  # selectolax raises its own errors for a bad selector
                raise ValueError(f"{argument}: {selector!r} is not a valid CSS selector ({exc})") from exc
            for element in found:
                number = element.attributes.get(self.attribute)
                if number is not None:  # absent on elements lexbor made up (html, body, ...)
                    numbers.add(int(number))
        return numbers


def _numbered_dom(text: str, elements: list[Node]) -> _NumberedDom:
    from selectolax.lexbor import LexborHTMLParser

    attribute = _node_attribute(text)
    pieces: list[str] = []
    cursor = 0
    for number, node in enumerate(elements):
        at = node.start + 1 + len(node.meta["tag"])
        pieces.append(text[cursor:at])
        pieces.append(f' {attribute}="{number}"')
        cursor = at
    pieces.append(text[cursor:])
    return _NumberedDom(LexborHTMLParser("".join(pieces)), attribute)
