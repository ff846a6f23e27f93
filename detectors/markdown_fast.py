"""Markdown's block structure from pulldown-cmark (through `pyromark`), as the tokens
markdown-it-py would give for it, for the Markdown detector's faster backend.

markdown-it-py stays the reference (`detectors/markdown.py`): this module makes, from
pulldown-cmark's events and their byte ranges, the block tokens the detector reads of
markdown-it's (type, tag, line map, a heading's inline source, a fence's info string, an
HTML block's lines, an ordered list's start), with the line maps markdown-it gives, so
that the detector builds the same outline from either (`tests/test_markdown_backends.py`
compares them on the corpora and on every CommonMark and GFM spec example). Where the two
parsers read a document differently and the tokens cannot be mapped, `block_tokens`
returns None and the detector parses that document with markdown-it-py instead: see
`_fallback` and docs/design.md for each difference.

Importing this module fails where pyromark is not installed (the `markdown-fast` extra),
and the detector then uses markdown-it-py alone.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate
from typing import Any, Literal

import pyromark
from markdown_it.token import Token

from outline_splitter.detectors.lines import LINE_END, line_starts

# Tables as markdown-it's `table` rule reads them; front matter is read here as
# mdit-py-plugins' front_matter reads it (pulldown-cmark's YAML blocks close differently).
_OPTIONS = pyromark.Options.ENABLE_TABLES

# Documents longer than this go to markdown-it-py, whose windows of about this size keep
# memory bounded (pulldown-cmark holds a whole document's block tree: a 16 MB list took
# 103 MB at its peak here, the reference's windows 17 MB).
MAX_CHARS = 1 << 20

# markdown-it's `maxNesting` (20 in the CommonMark preset) leaves what is nested deeper as
# text; a document whose blocks nest this deep goes to markdown-it-py.
_MAX_DEPTH = 18

# An ATX heading's closing sequence (markdown-it's heading rule: a run of `#` after a space).
_ATX_OPEN = re.compile(r"[ \t]*#{1,6}")
_BLOCKQUOTE_PREFIX = re.compile(r"[ \t]*(?:>[ \t]?)+")
_FRONT_MATTER_START = re.compile(r"-{3,}")


# A line of `=` inside a paragraph, past its first line: the reference's Setext rule
# (`markdown._setext_headings`) makes it a heading's underline even where it is a lazy
# continuation line (`> foo\nbar\n===`), which CommonMark and pulldown-cmark keep as text.
_EQUALS_LINE = re.compile(rb"[\r\n][ \t>]*=+[ \t]*(?:\r\n?|\n|$)")


# Characters the two parsers read differently: pulldown-cmark takes a line of form feeds
# or vertical tabs for a blank line, markdown-it for a paragraph; a lone carriage return
# ends a line for markdown-it (and CommonMark) but not always for pulldown-cmark (it does
# not end a fence's info string).
_LONE_CR = re.compile("\r(?!\n)")
# A list marker alone on its line (an empty list item): after a link reference
# definition pulldown-cmark reads it as a paragraph, markdown-it as an item.
_EMPTY_ITEM = re.compile(r"\n[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]*(?:\r?\n|\r?$)")
# A link reference definition with its destination, then a line indented further that
# starts no title: the two read that line differently.
_DEFINITION_GOES_ON = re.compile(r"\n([ \t>]*)\[[^\]\n]*\]:[ \t]*\S[^\n]*\n\1[ \t]+[^\s\"'(]")
# A tab before a list marker or `>`: the two count its columns differently there.
_TAB_MARKER = re.compile(r"^[ \t>]*\t[ \t]*(?:[-+*]|\d{1,9}[.)]|>)(?:[ \t]|\r?$)", re.MULTILINE)


class Fallback(Exception):
    """The document is one the two parsers read differently: markdown-it-py parses it."""


def block_tokens(text: str) -> Iterator[list[Token]] | None:
    """markdown-it's block tokens for `text` (inline tokens only after a heading's
    opening, with its inline source; line maps in the document's lines), a batch at a
    time; None where the document must be parsed by markdown-it-py (see the module
    docstring), and `Fallback` is raised while they come where that shows only then.

    A list's or block quote's end line is the one its closing token's `meta["end_line"]`
    gives where it has one (as for a list that goes on from one of the reference's
    windows to the next): a batch is handed on once its tokens are settled, and a list
    or quote may hold many batches, so that only some of a long document's tokens are
    alive at once, as with the reference's windows."""
    if len(text) > MAX_CHARS:
        return None
    if text[-1:] in (" ", "\t") and text.rstrip(" \t")[-1:] in ("\n", "\r", ""):
        return None  # a last line of white space with no line end: not blank to markdown-it-py
    if not _read_alike(text):
        return None
    return _tokens(text)


def _read_alike(text: str) -> bool:
    """Whether `text` has none of the characters and lines the two parsers read
    differently that a search finds (the patterns above; literals first, for speed)."""
    if "\x0b" in text or "\x0c" in text or ("\r" in text and _LONE_CR.search(text) is not None):
        return False
    lines = "\n" + text  # (each line then starts after a "\n": faster than a `^` pattern)
    if _EMPTY_ITEM.search(lines) is not None or ("]:" in text and _DEFINITION_GOES_ON.search(lines) is not None):
        return False
    return "\t" not in text or _TAB_MARKER.search(text) is None


def _byte_line_starts(data: bytes) -> list[int]:
    """The byte offset of each line's start, plus `len(data)`: `lines.line_starts` in
    bytes (the same line ends: `\\r\\n`, `\\r`, `\\n`)."""
    if b"\r" in data:
        starts = [0]
        starts.extend(match.end() for match in _BYTE_LINE_END.finditer(data))
    else:
        starts = list(accumulate(map(len, data.split(b"\n")), lambda total, n: total + n + 1, initial=0))
        starts.pop()
    if starts[-1] != len(data):
        starts.append(len(data))
    return starts


_BYTE_LINE_END = re.compile(LINE_END.pattern.encode())


def _front_matter_end(text: str, starts: list[int]) -> int | None:
    """The line after the front matter that mdit-py-plugins' front_matter rule finds at
    the document's start (a line that starts with three `-` or more, closed by a line of
    as many `-` or more, or by `...`), or None: that rule, ported."""
    opening = _FRONT_MATTER_START.match(text)
    if opening is None:
        return None
    markers = opening.end()
    for number in range(1, len(starts) - 1):
        line = text[starts[number] : starts[number + 1]].rstrip("\r\n")
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        if stripped is line and line.startswith("...") and not line[3:].strip(" \t"):
            return number + 1
        if stripped[0] != "-" or _indent(line) >= 4:  # (an indented code line closes nothing)
            continue
        run = len(stripped) - len(stripped.lstrip("-"))
        if run >= markers and not stripped[run:].strip(" \t"):
            return number + 1
    return None


def _indent(line: str) -> int:
    """The columns of a line's leading white space, tabs to multiples of four."""
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


def _tokens(text: str) -> Iterator[list[Token]]:
    """markdown-it's block tokens (see `block_tokens`); raises `Fallback`."""
    blocks = _Blocks()
    if text.startswith("---"):
        starts = line_starts(text)
        end = _front_matter_end(text, starts)
        if end is not None:
            blocks.out.append(_token("front_matter", "", 0, map=[0, end]))
            blocks.first_line = end
            text = text[starts[end] :]
    return blocks.read(text)


def _token(
    kind: str,
    tag: str,
    nesting: Literal[-1, 0, 1],
    map: list[int] | None = None,
    content: str = "",
    info: str = "",
    attrs: dict[str, str | int | float] | None = None,
) -> Token:
    """A markdown-it token with the fields the detector reads set (type, tag, nesting,
    map, content, info, attrs, meta), made without the dataclass's `__init__` and its
    other fields (a third of the time of making each token)."""
    token = _NEW(Token)
    token.type, token.tag, token.nesting, token.map = kind, tag, nesting, map
    token.content, token.info, token.attrs, token.meta = content, info, attrs if attrs is not None else {}, {}
    return token


_NEW = object.__new__


class _Blocks:
    """pulldown-cmark's events of a document turned into markdown-it's block tokens."""

    def __init__(self) -> None:
        self.out: list[Token] = []
        self.first_line = 0  # the document's line that the parsed text starts on
        self.data = b""
        self.starts: list[int] = []  # byte offsets of the parsed text's lines, and its end
        # the open blocks: (the token each opened or None, pulldown-cmark's name of it)
        self.stack: list[tuple[Token | None, str]] = [(None, "")]
        self.depth = 0  # open containers
        self.quotes = 0  # open block quotes
        # A tight list item's text comes with no paragraph around it, where markdown-it
        # opens one: its opening token, and the first and last byte of its text.
        self.tight: Token | None = None
        self.tight_start = self.tight_end = 0
        # Lists and items closed since the last block started (their line maps):
        # markdown-it ends them where the next block starts (blank lines after them are
        # theirs), at the first line after them that is not blank (a link reference
        # definition's: it makes no event), or where the block quote around them ends;
        # pulldown-cmark's ranges sometimes end further on.
        self.pending: list[tuple[list[int], Token]] = []  # (line map, closing token)
        self.limit = 0  # that first line that is not blank
        self.items = 0  # open list items (their tokens wait for their end lines)
        self.settled = 0  # how many tokens of `out` have their end lines
        # for each open block quote, the last end line of the blocks inside it (-1: none)
        self.quote_inner: list[int] = []

    def read(self, text: str) -> Iterator[list[Token]]:
        """Read `text`'s events: block events open and close tokens, inline events only
        matter as the text of a tight list item. Yields the tokens in batches of some
        `_BATCH` once they are settled (no list item open, no end line to come)."""
        try:
            self.data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no Rust string holds it
            raise Fallback from None
        self.starts = _byte_line_starts(self.data)
        stack = self.stack
        opened: Any
        closed: Any
        for event, span in pyromark.events_with_range(text, options=_OPTIONS, merge_text=True):
            if event.__class__ is dict:
                opened = event.get("Start")
                if opened is not None:
                    name, value = (opened, None) if opened.__class__ is str else next(iter(opened.items()))
                    if name not in _INLINE and stack[-1][1] != "Heading":
                        self.open(name, value, span)
                        if self.settled > _BATCH:
                            batch, self.out = self.out[: self.settled], self.out[self.settled :]
                            self.settled = 0
                            yield batch
                        continue
                else:
                    closed = event.get("End")
                    if closed is not None:
                        name = closed if closed.__class__ is str else next(iter(closed))
                        if name not in _INLINE and (name == "Heading" or stack[-1][1] != "Heading"):
                            self.close(name, span)
                            continue
            elif event == "Rule":
                self.rule(span)
                continue
            if stack[-1][1] == "Item":  # text of a tight list item
                self.inline(span)
        if self.pending:
            self.settle(len(self.starts) - 1)
        yield self.out

    def line_of(self, offset: int) -> int:
        """The line of the byte at `offset` in the parsed text."""
        return bisect_right(self.starts, offset) - 1

    def blank(self, line: int) -> bool:
        """Whether the parsed text's `line` holds only white space after the marks of
        the block quotes open (as markdown-it reads a line inside them)."""
        source = self.data[self.starts[line] : self.starts[line + 1]]
        for _ in range(self.quotes):
            source = source.lstrip(b" \t")
            if source[:1] != b">":
                break
            source = source[1:]
        return not source.strip(b" \t\r\n")

    def settle(self, line: int) -> None:
        """End the lists and items closed since the last block at `line` (of the
        parsed text), or before, at `limit`."""
        line = self.first_line + min(line, self.limit)
        for line_map, closing in self.pending:
            line_map[1] = line
            closing.meta = {"end_line": line}
        self.pending.clear()
        self.inside(line)

    def inside(self, line: int) -> None:
        """A block inside the innermost open block quote ends at `line`."""
        if self.quote_inner and line > self.quote_inner[-1]:
            self.quote_inner[-1] = line

    def block_starts(self, line: int) -> None:
        """A block starts on `line` (of the parsed text): a tight item's text has ended,
        and the lists and items closed before it end."""
        if self.tight is not None:
            self.close_tight()
        if self.pending:
            self.settle(line)

    def rule(self, span: Any) -> None:
        line = self.line_of(span["start"])
        self.block_starts(line)
        line += self.first_line
        self.out.append(_token("hr", "hr", 0, map=[line, line + 1]))
        self.inside(line + 1)

    def inline(self, span: Any) -> None:
        """An inline event of a tight list item's text: the paragraph markdown-it opens
        around that text starts here or goes on."""
        if self.tight is None:
            line = self.first_line + self.line_of(span["start"])
            self.tight = _token("paragraph_open", "p", 1, map=[line, line + 1])
            self.out.append(self.tight)
            self.tight_start, self.tight_end = span["start"], span["end"]
        elif span["end"] > self.tight_end:
            self.tight_end = span["end"]

    def close_tight(self) -> None:
        token, start, end = self.tight, self.tight_start, self.tight_end
        assert token is not None and token.map is not None
        self.tight = None
        token.map[1] = self.first_line + self.line_of(end - 1) + 1
        self.inside(token.map[1])
        if (
            token.map[1] - token.map[0] > 1
            and self.data.find(b"=", start, end) >= 0
            and _EQUALS_LINE.search(self.data, start, end)
        ):
            raise Fallback
        self.out.append(_token("paragraph_close", "p", -1))

    def close(self, name: str, span: Any) -> None:
        if self.tight is not None:
            self.close_tight()
        token, kind = self.stack.pop()
        if kind in _CONTAINERS:
            self.depth -= 1
        if token is None:
            if kind == "Heading":
                self.out.append(_token("heading_close", "", -1))
            return
        closing = _token(token.type.replace("_open", "_close"), token.tag, -1)
        self.out.append(closing)
        line_map = token.map
        assert line_map is not None
        if kind == "Item":
            self.items -= 1
            if not self.pending:
                self.limit = len(self.starts) - 1
            self.pending.append((line_map, closing))
            line = self.line_of(span["end"] - 1) + 1  # the first line after the item not blank
            while line < self.limit and self.blank(line):
                line += 1
            self.limit = line
        elif kind == "List":
            self.pending.append((line_map, closing))
        elif kind == "BlockQuote":
            if self.pending:
                self.settle(line_map[1] - self.first_line)
            self.quotes -= 1
            line = self.quote_end(line_map[1], self.quote_inner.pop())
            line_map[1] = line
            closing.meta = {"end_line": line}
            self.inside(line)

    def quote_end(self, end: int, inner: int) -> int:
        """A block quote's end line as markdown-it gives it, from pulldown-cmark's `end`
        and the last end line of the blocks inside (`inner`, -1 for none): where the
        quote holds no block, or two blank lines or more after its last one,
        markdown-it's search for the next block (`skipEmptyLines`) runs on past the
        quote's end over blank lines, and the quote ends where that search stops; a quote
        ends no sooner than one inside it."""
        end = max(end, inner)
        if inner >= 0 and end - inner < 2:
            return end
        stop, last = end - self.first_line, len(self.starts) - 1
        while stop < last and self.blank(stop):
            stop += 1
        return self.first_line + stop

    def open(self, name: str, value: Any, span: Any) -> None:
        if self.depth >= _MAX_DEPTH:
            raise Fallback
        data, starts, last = self.data, self.starts, len(self.starts) - 1
        start, end = span["start"], span["end"]
        first = self.line_of(start)
        stop = min(self.line_of(end - 1) + 1 if end > start else first + 1, last)
        self.block_starts(first)
        if not self.items:  # every token so far has its end line
            self.settled = len(self.out)
        line_map = [self.first_line + first, self.first_line + stop]
        token: Token | None = None
        if name == "Paragraph":
            if stop - first > 1 and data.find(b"=", start, end) >= 0 and _EQUALS_LINE.search(data, start, end):
                raise Fallback
            token = _token("paragraph_open", "p", 1, map=line_map)
        elif name == "Heading":
            if (
                stop - first > 1
                and stop < last
                and b"=" in data[starts[stop - 1] : starts[stop]]
                and not self.blank(stop)
            ):
                # a `=` Setext heading with a line right after it: where markdown-it's
                # paragraph would have gone on, the reference's underline rule leaves
                # the lines after it a paragraph
                raise Fallback
            tag = f"h{value['level'][1]}"
            content = _heading_content(data[start:end].decode("utf-8"), self.quotes)
            self.out.append(_token("heading_open", tag, 1, map=line_map))
            self.out.append(_token("inline", "", 0, content=content))
        elif name == "Item":
            token = _token("list_item_open", "li", 1, map=line_map)
            self.items += 1
        elif name == "List":
            if value is None:
                token = _token("bullet_list_open", "ul", 1, map=line_map)
            else:
                attrs: dict[str, str | int | float] = {"start": value} if value != 1 else {}
                token = _token("ordered_list_open", "ol", 1, attrs=attrs, map=line_map)
        elif name == "BlockQuote":
            token = _token("blockquote_open", "blockquote", 1, map=line_map)
            self.quotes += 1
            self.quote_inner.append(-1)
        elif name == "CodeBlock":
            if value == "Indented":
                self.out.append(_token("code_block", "code", 0, map=line_map))
            else:  # markdown-it's info string: the rest of the opening line, as written
                opening = data[start : starts[first + 1]].decode("utf-8").rstrip("\r\n")
                info = opening[len(opening) - len(opening.lstrip(opening[:1])) :]
                self.out.append(_token("fence", "code", 0, map=line_map, info=info))
        elif name == "HtmlBlock":
            content = data[starts[first] : starts[stop]].decode("utf-8")
            self.out.append(_token("html_block", "", 0, map=line_map, content=content))
        elif name == "Table":
            token = _token("table_open", "table", 1, map=line_map)
        elif name == "TableHead" or name == "TableRow":
            token = _token("tr_open", "tr", 1, map=line_map)
        elif name != "TableCell":
            raise Fallback  # a block this module does not know
        if token is not None:
            self.out.append(token)
        if name in _CONTAINERS:
            self.depth += 1
        if name not in _ENDED_LATER:
            self.inside(line_map[1])
        self.stack.append((token, name))


# Blocks whose end line is known only after them (see `settle` and `quote_end`).
_ENDED_LATER = frozenset({"Item", "List", "BlockQuote"})
# Tokens in a batch (`block_tokens`): a few hundred KB of them.
_BATCH = 2048
# pulldown-cmark's blocks that hold others (markdown-it's levels)
_CONTAINERS = frozenset({"Item", "List", "BlockQuote", "Table", "TableHead", "TableRow"})
# Inline start/end events: no block, nothing to open or close.
_INLINE = frozenset(
    {
        "Emphasis",
        "Strong",
        "Strikethrough",
        "Superscript",
        "Subscript",
        "Link",
        "Image",
    }
)


def _heading_content(source: str, quotes: int) -> str:
    """The inline source of a heading, as markdown-it's tokens give it: an ATX heading's
    line without its `#` run and closing sequence; a Setext heading's lines before the
    underline, without the block quote markers that a line inside `quotes` block quotes
    starts with."""
    lines = LINE_END.split(source.rstrip("\r\n"))
    if len(lines) == 1:
        line = lines[0]
        opening = _ATX_OPEN.match(line)
        if opening is None:
            raise Fallback
        rest = line[opening.end() :]
        # markdown-it: spaces at the end go, then a `#` run that a space precedes
        rest = rest.rstrip(" \t")
        trimmed = rest.rstrip("#")
        if len(trimmed) < len(rest) and (not trimmed or trimmed[-1] in " \t"):
            rest = trimmed
        return rest.strip()
    underline = lines[-1].strip(" \t>")
    if underline[0] == "-" and len(underline) < 3:
        raise Fallback  # the reference finds `-` underlines by markdown-it's rule `hr`: three or more
    body = lines[:-1]
    if quotes:
        body = [body[0], *(_BLOCKQUOTE_PREFIX.sub("", line, count=1) for line in body[1:])]
    return "\n".join(body).strip()
