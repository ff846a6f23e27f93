"""Markdown: pulldown-cmark's events (through `pyromark`) turned into an outline, the
reading of `markdown_parser="pulldown-cmark"` (the `markdown-fast` extra).

This is pulldown-cmark's own reading of the document, mapped onto the nodes, traits and
sections that markdown-it-py's detector (`markdown.py`) makes too
(`markdown_outline`): where the two parsers read a document differently, each outline
follows its own parser (docs/design.md lists the kinds of difference). A block's node
spans its lines, from the line its event's range starts on to the line after its last
line that holds more than white space and block quote marks, as markdown-it's line maps
give a block whole lines. The text of
a tight list item comes without a paragraph around it: its paragraph spans that text's
lines. Events are taken one at a time as pulldown-cmark makes them (none is held), so a
long document needs no windows (docs/scaling.md).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from operator import indexOf, itemgetter
from typing import Any

from outline_splitter import kinds
from outline_splitter.detectors.lines import line_starts
from outline_splitter.detectors.markdown_outline import (
    HEADING_TRAITS,
    TRAITS,
    ListItem,
    Sections,
    add_child,
    code_meta,
    defer_paragraph,
    finish_table,
    list_meta,
    paragraph_traits,
)
from outline_splitter.detectors.markdown_titles import html_heading
from outline_splitter.nodes import NO_CHILDREN, Label, Node, Trait

try:
    import pyromark
except ImportError as error:  # pragma: no cover - the extra is installed where tests run
    raise ImportError(
        "markdown_parser='pulldown-cmark' needs pyromark: pip install 'outline-splitter[markdown-fast]'"
    ) from error

# GFM tables and YAML front matter, as markdown-it-py's detector reads them (its table
# rule and mdit-py-plugins' front_matter).
_OPTIONS = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_YAML_STYLE_METADATA_BLOCKS
# Blocks that hold no block, by their start event's name: their kind. What they hold is
# passed over up to their end event.
_LEAVES = {
    "Paragraph": kinds.PARAGRAPH,
    "CodeBlock": kinds.CODE,
    "HtmlBlock": kinds.HTML_BLOCK,
    "TableHead": kinds.TABLE_ROW,
    "TableRow": kinds.TABLE_ROW,
    "MetadataBlock": kinds.FRONT_MATTER,
}
# Blocks that hold blocks, open until their end event: their kind.
_CONTAINERS = {"List": kinds.LIST, "Item": kinds.LIST_ITEM, "BlockQuote": kinds.BLOCKQUOTE, "Table": kinds.TABLE}
_MARKS = " \t>\r\n"  # what a line that ends a block may hold (`_Outline.lines`)
_SURROGATE = re.compile("[\ud800-\udfff]")
_event = itemgetter(0)


def detect_markdown(text: str) -> Node:
    """Outline of a Markdown document as pulldown-cmark reads it (see the module docstring)."""
    return _Outline(text).read()


def _parsed_text(text: str) -> tuple[str, list[int]]:
    """The text pulldown-cmark is given and its lines' starts in UTF-8 bytes (the unit of
    its ranges). A lone surrogate, which no Rust string holds, is given as U+FFFD: both
    take three bytes, so every offset stays where it is."""
    if text.isascii():
        return text, []
    if _SURROGATE.search(text) is not None:
        text = _SURROGATE.sub("\ufffd", text)
    data = text.encode("utf-8")
    return text, [0, *(match.end() for match in re.finditer(rb"\r\n?|\n", data))]


class _Outline:
    """The nodes of one document's events, made as each block's start event comes."""

    __slots__ = ("byte_starts", "last", "open", "parsed", "sections", "starts", "tight", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.parsed, self.byte_starts = _parsed_text(text)
        self.starts = line_starts(text)  # (in characters; the same in bytes for ASCII)
        self.byte_starts = self.byte_starts or self.starts
        self.last = len(self.starts) - 1
        self.sections = Sections(len(text))
        self.open: list[tuple[Node, str]] = []  # the open containers, innermost last
        self.tight: list[int] = []  # the first and last byte of a tight list item's text so far

    def read(self) -> Node:
        events: Iterator[tuple[Any, Any]] = pyromark.events_with_range(self.parsed, options=_OPTIONS, merge_text=True)
        for event, span in events:
            start = event.get("Start") if type(event) is dict else None
            if start is None:
                if "End" in event if type(event) is dict else False:
                    self.end(event["End"])
                elif event == "Rule":
                    self.add(Node(kinds.THEMATIC_BREAK, *self.lines(span)))
                elif self.open and self.open[-1][1] == "Item":  # a tight item's text
                    self.text_of_item(span)
                continue
            name = start if type(start) is str else next(iter(start))
            if name in _CONTAINERS or name in _LEAVES or name == "Heading":
                self.block(name, start, span, events)
        self.end_item_text()
        return self.sections.root

    def lines(self, span: dict[str, int]) -> tuple[int, int]:
        """The span of the lines of the bytes `span`, in characters: from its first line
        to the line after its last line that holds more than white space and `>` marks
        (a block's range may end past the marks of the block quote around it on the
        line after it)."""
        byte_starts, starts, text = self.byte_starts, self.starts, self.text
        start, end = span["start"], span["end"]
        first = bisect_right(byte_starts, start) - 1
        last = bisect_right(byte_starts, max(end - 1, start), first) - 1
        part = text[starts[last] : starts[last] + end - byte_starts[last]]
        while last > first and not part.strip(_MARKS):
            last -= 1
            part = text[starts[last] : starts[last + 1]]
        return starts[first], starts[min(last + 1, self.last)]

    def text_of_item(self, span: dict[str, int]) -> None:
        if self.tight:
            self.tight[1] = span["end"]
        else:
            self.tight = [span["start"], span["end"]]

    def end_item_text(self) -> None:
        """A tight item's text has ended (a block or the item's end follows): its paragraph."""
        if self.tight:
            begin, end = self.lines({"start": self.tight[0], "end": self.tight[1]})
            self.tight = []
            self.paragraph(begin, end)

    def block(self, name: str, start: Any, span: dict[str, int], events: Iterator[tuple[Any, Any]]) -> None:
        """The node of a block whose start event (`start`, named `name`) has come."""
        self.end_item_text()
        begin, end = self.lines(span)
        if name == "Heading":
            self.heading(start["Heading"]["level"], begin, end, events)
            return
        if name in _CONTAINERS:
            meta = list_meta(start["List"]) if name == "List" else None
            node: Node = (ListItem if name == "Item" else Node)(_CONTAINERS[name], begin, end, NO_CHILDREN, meta)
            self.add(node)
            self.open.append((node, name))
            return
        # (passes over what the block holds, up to its end event)
        indexOf(map(_event, events), {"End": "CodeBlock" if name == "CodeBlock" else start})
        if name == "Paragraph":
            self.paragraph(begin, end)
        elif name == "HtmlBlock" and not self.open and (found := html_heading(self.text[begin:end])) is not None:
            self.sections.heading(Label(title=found[1], level=found[0]), begin, end)
        else:
            kind = _LEAVES[name]
            code = start["CodeBlock"] if name == "CodeBlock" else None  # "Indented", or {"Fenced": info}
            meta = None if code is None else code_meta(None if code == "Indented" else code["Fenced"])
            self.add(Node(kind, begin, end, NO_CHILDREN, meta, traits=TRAITS.get(kind, Trait.NONE)))

    def heading(self, level: str, begin: int, end: int, events: Iterator[tuple[Any, Any]]) -> None:
        """A heading's node (at the top level, the section it opens), titled with the
        text of its inline events (`level`: pulldown-cmark's, `"H1"` to `"H6"`)."""
        words: list[str] = []
        closing = {"End": {"Heading": level}}
        for event, _ in events:
            if event == closing:
                break
            if type(event) is dict and ("Text" in event or "Code" in event):
                words.append(event["Text"] if "Text" in event else event["Code"])
        label = Label(title=" ".join("".join(words).split()), level=int(level[1]))
        if self.open:
            self.add(Node(kinds.HEADING, begin, end, NO_CHILDREN, traits=HEADING_TRAITS, label=label))
        else:
            self.sections.heading(label, begin, end)

    def paragraph(self, begin: int, end: int) -> None:
        """A paragraph's node, or none where the list item around it holds it deferred."""
        if not (self.open and defer_paragraph(self.text, self.open[-1][0], begin, end)):
            self.add(Node(kinds.PARAGRAPH, begin, end, NO_CHILDREN, traits=paragraph_traits(self.text, begin, end)))

    def add(self, node: Node) -> None:
        """`node` as the last child of the innermost open container (or section)."""
        add_child(self.open[-1][0] if self.open else self.sections.open[-1][1], node)

    def end(self, closed: Any) -> None:
        """An end event: a container's closes (a leaf's are passed over with it)."""
        name = closed if type(closed) is str else next(iter(closed))
        if name not in _CONTAINERS:
            return
        self.end_item_text()
        node, _ = self.open.pop()
        if name == "Table":
            finish_table(node)
