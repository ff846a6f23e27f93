"""Markdown's outline from pulldown-cmark (through `pyromark`): the Markdown detector's
faster backend.

markdown-it-py stays the reference (`detectors/markdown.py`): this module makes, from
pulldown-cmark's events and their byte ranges, the outline the reference builds from
markdown-it's block tokens, each node as its block's event comes (no tokens between),
with the line spans markdown-it gives each block and the same nodes
(`detectors/markdown_outline.py` makes them for both), so that the two outlines are equal
(`tests/test_markdown_backends.py` compares them on the corpora and on every CommonMark
and GFM spec example). Where the two parsers read a document differently, `outline`
returns None and the detector parses that document with markdown-it-py instead: see
`Fallback` and docs/design.md for each difference.

Importing this module fails where pyromark is not installed (the `markdown-fast` extra),
and the detector then uses markdown-it-py alone.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate, chain, islice
from operator import indexOf
from typing import Any

import pyromark
from markdown_it.token import Token

from outline_splitter import kinds
from outline_splitter.detectors import markdown_windows as md_windows
from outline_splitter.detectors.lines import LINE_END, line_starts
from outline_splitter.detectors.markdown_outline import (
    HEADING_TRAITS,
    TRAITS,
    ListItem,
    Sections,
    code_meta,
    defers,
    finish_table,
    list_meta,
    own_paragraph,
    paragraph_traits,
)
from outline_splitter.detectors.markdown_titles import html_heading, plain_title
from outline_splitter.nodes import NO_CHILDREN, Label, Node

# Tables as markdown-it's `table` rule reads them; front matter is read here as
# mdit-py-plugins' front_matter reads it (pulldown-cmark's YAML blocks close differently).
_OPTIONS = pyromark.Options.ENABLE_TABLES

# markdown-it's `maxNesting` (20 in the CommonMark preset) leaves what is nested deeper as
# text; a document whose blocks nest this deep goes to markdown-it-py.
_MAX_DEPTH = 18

# An ATX heading's closing sequence (markdown-it's heading rule: a run of `#` after a space).
_ATX_OPEN = re.compile(r"[ \t]*#{1,6}")
_BLOCKQUOTE_PREFIX = re.compile(r"\A[ \t]*(?:>[ \t]?)+")
_FRONT_MATTER_START = re.compile(r"-{3,}")


# A line of `=` inside a paragraph, past its first line: the reference's Setext rule
# (`markdown._setext_headings`) makes it a heading's underline even where it is a lazy
# continuation line (`> foo\nbar\n===`), which CommonMark and pulldown-cmark keep as text.
_EQUALS_LINE = re.compile(rb"[\r\n][ \t>]*=+[ \t]*(?:\r\n?|\n|$)")
# A line with a pipe, then a line of a table's delimiter row's characters (after the
# marks of the block quotes around it), inside a paragraph: where markdown-it reads a
# table there (`_table_header`), its table interrupts the paragraph; pulldown-cmark's
# does not.
# A line of the characters of a table's delimiter row, after the marks of block quotes
# (without its line end): the one spelling every search for a delimiter row here uses.
_DELIMITER_ROW = r"[ \t>]*[-|:][-|: \t]*"
_TABLE_LINES = re.compile(rb"\|[^\n]*\n" + _DELIMITER_ROW.encode() + rb"(?:\r?\n|$)")
_DELIMITER_CELL = re.compile(r":?-+:?")
# A line of a paragraph inside a container, past its first: its marks (white space and
# `>`), then what opens a block (HTML, a block quote, a heading, a list item or a rule,
# a fence); see `_lazy_opener`.
_OPENER = re.compile(rb"\n([ \t>]*)(?:[<>#*_+-]|`{3}|~{3}|\d{1,9}[.)])")
_OPENS = re.compile(rb"[<#*_+-]|`{3}|~{3}|\d{1,9}[.)]")
_LINE_MARKS = re.compile(rb"[ \t>]*")
# The HTML blocks that end at a mark, not at a blank line (CommonMark's kinds 1 to 5).
# CommonMark's first kind of HTML block: its opening, and the end tags any of which ends
# it (see `_raw_ended_otherwise`).
_RAW_OPENING = re.compile(rb"<(pre|script|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
_RAW_END = re.compile(rb"</(pre|script|style|textarea)>", re.IGNORECASE)


def _raw_ended_otherwise(data: bytes, start: int, end: int) -> bool:
    """Whether the HTML block `data[start:end]` opens with `<pre`, `<script`, `<style` or
    `<textarea` and holds the end tag of another of the four, or one not in lower case:
    markdown-it ends it there (as CommonMark does), pulldown-cmark only at its own, in
    lower case (`<script` over `</pre>`, `<pre>` over `</PRE>`)."""
    opening = _RAW_OPENING.match(data, start)
    if opening is None:
        return False
    name = opening.group(1).lower()
    return any(found.group(1) != name for found in _RAW_END.finditer(data, start, end))


_HTML_ENDED_BY_MARK = re.compile(rb"<(?:!|\?|(?:pre|script|style|textarea)(?:[\s>]|$))", re.IGNORECASE)
_LIST_MARKER = re.compile(rb"(?:[-+*]|\d{1,9}[.)])(?:[ \t]|\r?\n|$)")
_RULE = re.compile(rb"(?:[-*_][ \t]*){3,}(?:\r?\n|$)")
_HEAD_MARKERS = re.compile(rb"(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)")


def _lazy_opener(data: bytes, start: int, end: int, depth: int) -> bool:
    """Whether a line of the paragraph `data[start:end]` inside a container, past its
    first, opens a block four columns or more past where it may: pulldown-cmark keeps
    it in the paragraph (as CommonMark does), markdown-it counts its indent from the
    container's and opens the block. That is a `>` after four columns of white space or
    more, not where the first line's is (`> a` over `    >`, `   - >a` over `    >`), or
    a lazy line (fewer `>` or fewer columns of marks
    than the first line) with four columns of white space before what opens a block
    (`   - a` over `    <div`; a list item only past fewer `>`, in a list in a list
    item (`depth`: the containers open), or after a list opened on an item's line,
    `1.   - a` over `    - b`). More is handed over than needs to be, never less."""
    head = data[data.rfind(b"\n", 0, start) + 1 : start].expandtabs(4)
    quotes = [column for column, byte in enumerate(head) if byte == 62]  # (`>`)
    for match in _OPENER.finditer(data, start, end):
        found = _LINE_MARKS.match(data, match.start(1))
        assert found is not None
        marks = found.group().expandtabs(4)
        marked = [column for column, byte in enumerate(marks) if byte == 62]
        before = -1
        for number, column in enumerate(marked):
            if column - before > 4 and (number >= len(quotes) or column != quotes[number]):
                return True  # a `>` after four columns of white space, not where the first line's is
            before = column
        if len(marks) - marks.rfind(b">") - 1 < 4 or _OPENS.match(data, found.end()) is None:
            continue
        if len(marked) < len(quotes):
            return True
        if len(marks) < len(head) and (
            _LIST_MARKER.match(data, found.end()) is None
            or _RULE.match(data, found.end()) is not None
            or depth >= 4  # (in a list in a list item, lists and items each a container)
            or len(_HEAD_MARKERS.findall(head)) > 1  # (a list opened on an item's line: `1.   - a`)
        ):
            return True
    return False


_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _read_otherwise(data: bytes, start: int, end: int, depth: int = 0, reach: int = 0) -> bool:
    """Whether the lines of pulldown-cmark's paragraph `data[start:end]` (two or more;
    inside `depth` containers, lists and items each one) hold what markdown-it reads
    otherwise: a lazy `=` underline, a table (its delimiter row perhaps the line after
    the paragraph, which ends at `reach`: `x` over `a|b` over `|-|-|` over `|-|-|`, where
    pulldown-cmark reads the last two as a table), or (inside a container) an indented
    line that opens a block."""
    if data.find(b"=", start, end) >= 0 and _EQUALS_LINE.search(data, start, end) is not None:
        return True
    if (
        depth
        and (data.find(b"    ", start, end) >= 0 or data.find(b"\t", start, end) >= 0)
        and _lazy_opener(data, start, end, depth)
    ):
        return True
    end = max(end, reach)
    if data.find(b"|", start, end) < 0:
        return False
    for match in _TABLE_LINES.finditer(data, start, end):
        split = data.index(b"\n", match.start())
        header = data[data.rfind(b"\n", 0, match.start()) + 1 : split]  # (with its marks)
        if _table_header(header.decode("utf-8"), data[split + 1 : match.end()].decode("utf-8")):
            return True
    return False


def _table_on_opening(data: bytes, starts: list[int], first: int) -> bool:
    """Whether the line `first` holds a pipe and the next line is a table's delimiter
    row of as many cells: markdown-it's table rule, tried before other blocks' rules,
    reads a table there, where pulldown-cmark reads the block the line opens (`<div>|`
    over `--`) or the block the next line opens (`>|` over `---`, `a|b` over `- |-`)."""
    if first + 2 >= len(starts) or data.find(b"|", starts[first], starts[first + 1]) < 0:
        return False
    delimiter = data[starts[first + 1] : starts[first + 2]]
    return _DELIMITER_LINE.fullmatch(delimiter) is not None and _table_header(
        data[starts[first] : starts[first + 1]].decode("utf-8"), delimiter.decode("utf-8")
    )


_MARKED_DELIMITER = re.compile(rb"[ \t>]*[-+*][ \t]")
_DELIMITER_LINE = re.compile(_DELIMITER_ROW.encode() + rb"(?:\r?\n|\r)?")


def _table_header(header: str, delimiter: str) -> bool:
    """Whether markdown-it's table rule may read the line `header`, then `delimiter`, as
    a table's first two lines (its test, ported: a delimiter row of cells `:?-+:?`, and
    as many cells in the header line, split at unescaped pipes). The marks of block
    quotes are taken off the lines; a header line is tried with and without them."""
    cells = delimiter.lstrip(" \t>").rstrip("\r\n").split("|")
    columns = 0
    for number, cell in enumerate(cells):
        cell = cell.strip()
        if cell:
            if _DELIMITER_CELL.fullmatch(cell) is None:
                return False
            columns += 1
        elif 0 < number < len(cells) - 1:
            return False
    for line in (header.strip(), header.lstrip(" \t>").strip()):
        found = _UNESCAPED_PIPE.split(line)
        found = found[found[0] == "" : len(found) - (len(found) > 1 and found[-1] == "")]
        if "|" in line and len(found) == columns:
            return True
    return False


def _underline_delimits(data: bytes, header: int, underline: int, end: int) -> bool:
    """Whether a Setext heading's last line (from the byte `header`) and its underline
    (from `underline` to `end`) are a table's header and delimiter row to markdown-it's
    table rule (`a|` over `---`: a table of one column, which pulldown-cmark, wanting a
    pipe in the delimiter row, reads as a heading)."""
    if data.find(b"|", header, underline) < 0 or data.find(b"-", underline, end) < 0:
        return False
    return _table_header(data[header:underline].decode("utf-8"), data[underline:end].decode("utf-8"))


# Characters the two parsers read differently: pulldown-cmark takes a line of form feeds
# or vertical tabs for a blank line, markdown-it for a paragraph; a lone carriage return
# ends a line for markdown-it (and CommonMark) but not always for pulldown-cmark (it does
# not end a fence's info string). markdown-it reads a NUL as U+FFFD (a heading's title
# holds it), pulldown-cmark's source ranges keep the NUL.
_LONE_CR = re.compile("\r(?!\n)")
# A list marker alone on its line (an empty list item): after a link reference
# definition pulldown-cmark reads it as a paragraph, markdown-it as an item.
_EMPTY_ITEM = re.compile(r"\n[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]*(?:\r?\n|\r?$)")
# A link reference definition with its destination, then a line indented further that
# starts no title: the two read that line differently.
_DEFINITION_GOES_ON = re.compile(r"\n([ \t>]*)\[[^\]\n]*\]:[ \t]*\S[^\n]*\n\1[ \t]+[^\s\"'(]")
# A link reference definition (its destination and title may take two more lines), then
# an ordered list that starts at another number than 1: markdown-it ends the definition
# there with a list, pulldown-cmark goes on with a paragraph (such a list interrupts no
# paragraph in CommonMark, and the definition is read from a paragraph's start). The
# definition may open a list item (`- [x]: /u`).
_DEFINITION_THEN_ORDERED = re.compile(
    r"\n(?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])*\[[^\]\n]*\]:[^\n]*\n(?:[ \t>]*\S[^\n]*\n){0,2}?"
    r"[ \t>]*(?!0*1[.)])\d{1,9}[.)](?:[ \t]|\r?\n|\r?$)"
)
# A link reference definition (its destination on its line or the next, a title line
# perhaps after), then a line that starts with `<` (an HTML block of the kind that
# interrupts no paragraph) or with four columns of white space before no title (indented
# code): markdown-it reads that block, pulldown-cmark the rest of the paragraph the
# definition is read from.
_DEFINITION_THEN_BLOCK = re.compile(
    r"\n(?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])*\[[^\]\n]*\]:(?:[ \t]*\S[^\n]*|[ \t]*\r?\n[^\n]*)\n"
    r"(?:[ \t>]*\S[^\n]*\n)?[ \t>]*(?:<|(?:\t| {4})[ \t]*[^\s\"'(])"
)
# A link reference definition inside a block quote or list item (after white space, a
# `>` or a list marker: its line's marks): see `_lazy_after_definition`.
_DEFINITION_INSIDE = re.compile(r"\n((?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])+)\[[^\]\n]*\]:")
_MARKS = re.compile(r"[ \t>]*")
# What starts a line that interrupts a paragraph, so is no lazy line: a list item, an
# ATX heading, a fence (a backtick fence's info string holds no backtick).
_INTERRUPTS = re.compile(r"(?:[-+*]|\d{1,9}[.)]|#{1,6})(?:[ \t]|\r?$)|```[^`]*\Z|~~~")


def _definitions_read_alike(lines: str) -> bool:
    """Whether no link reference definition in `lines` (a `\\n`, then the text) is one
    the parsers read differently (the patterns above, each tried at the start of a line
    that holds `]:`, which `str.find` finds in C: the same as searching the text with
    them, at the cost of a few lines, not of a match tried at each line)."""
    at = lines.find("]:")
    while at >= 0:
        start = lines.rfind("\n", 0, at)
        if (
            _definition_heads_table(lines, start)
            or _DEFINITION_GOES_ON.match(lines, start) is not None
            or _DEFINITION_THEN_ORDERED.match(lines, start) is not None
            or _DEFINITION_THEN_BLOCK.match(lines, start) is not None
            or _lazy_after_definition(lines, start)
        ):
            return False
        end = lines.find("\n", at)
        at = -1 if end < 0 else lines.find("]:", end)
    return True


def _definition_heads_table(lines: str, start: int) -> bool:
    """Whether the line after `start` (a `\\n`, its line holding `]:`) holds a pipe and
    the next line is a delimiter row of as many cells: markdown-it's table rule, tried
    before the definition's, reads a table (`[a]:|-` over `-|-`); or ends with `]:` over
    a line with a pipe or a `=`."""
    end = lines.find("\n", start + 1)
    if end < 0:
        return False
    after = lines.find("\n", end + 1)
    following = lines[end + 1 :] if after < 0 else lines[end + 1 : after]
    if lines[start:end].rstrip(" \t\r").endswith("]:"):
        # its destination on the next line: where that line holds a pipe or starts with
        # `=`, the parsers read it and the lines after differently (`[a]:` over `a|a`)
        return "|" in following or following.lstrip(" \t>")[:1] == "="
    if lines.find("|", start, end) < 0:
        return False
    return _DELIMITER_TEXT.fullmatch(following) is not None and _table_header(lines[start + 1 : end], following)


_DELIMITER_TEXT = re.compile(_DELIMITER_ROW + r"\r?")


def _lazy_after_definition(lines: str, start: int) -> bool:
    """Whether the line after `start` (a `\\n`) is a link reference definition inside a
    block quote or list item with, among the three lines after it (up to a blank one),
    one with fewer `>` or fewer columns of marks than its own that starts no block (a
    lazy line): markdown-it ends the container with the definition, pulldown-cmark goes
    on with the paragraph the definition is read from; or, inside a block quote, a
    line of white space (a definition makes no event: a quote that ends with one, then
    a blank line, ends elsewhere to each). (More is handed over than needs to be, never
    less.)"""
    match = _DEFINITION_INSIDE.match(lines, start)
    if match is None:
        return False
    marks = match.group(1)
    columns, quotes = len(marks.expandtabs(4)), marks.count(">")
    start = lines.find("\n", match.end()) + 1
    for _ in range(3):
        if start == 0 or start == len(lines):
            return False
        end = lines.find("\n", start)
        line = lines[start:] if end < 0 else lines[start:end]
        if not line.strip(" \t>\r"):
            return quotes > 0 and ">" not in line
        found = _MARKS.match(line)
        assert found is not None
        if found.group().count(">") < quotes or len(found.group().expandtabs(4)) < columns:
            return _INTERRUPTS.match(line, found.end()) is None
        start = end + 1
    return False


# A delimiter row of one column with a colon and no pipe (`a|` then `:-`): markdown-it
# reads a table, pulldown-cmark a paragraph.
_PIPELESS_DELIMITER = re.compile(r"\n[ \t>]*(?::-+:?|-+:)[ \t]*(?:\r?\n|\r?$)")
# Four columns of white space or more before a table row (after its line's container
# marks, if any): markdown-it ends the table there (that line is indented code), where
# pulldown-cmark goes on with the table. (A tab counts as four: more is handed over than
# needs to be, never less.)
_INDENTED = re.compile(rb"(?:\t| {4})[ \t]*\Z")
# A line that opens a list item or an ATX heading and holds a pipe, then a line of a
# table's delimiter row's characters: markdown-it's table rule, tried before those
# blocks' rules, reads a table there, pulldown-cmark the item or heading.
_MARKED_HEADER = re.compile(
    r"\n[ \t>]*(?:[-+*]|\d{1,9}[.)]|#{1,6})[ \t][^\n|]*\|[^\n]*\n" + _DELIMITER_ROW + r"(?:\r?\n|\r?$)"
)
# A line of a block quote (in list items perhaps), its marks, then a line that starts
# with marks and a `>` (see `_indented_quote`).
_INDENTED_QUOTE = re.compile(r"\n((?:[ \t]|[-+*][ \t]|\d{1,9}[.)][ \t])*>[ \t>]*)(?=[^\n]*\n([ \t>]*>))")
# A tab after three marks of block quotes or list items or more (`>>> \ta`): the two
# count its columns differently there (indented code to pulldown-cmark).
_TAB_AFTER_MARKS = re.compile(r"^(?: {0,3}(?:>|[-+*]|\d{1,9}[.)]) ?){3,} *\t", re.MULTILINE)
# A tab before a list marker or `>`: the two count its columns differently there.
# (Before a `=` underline, too: a heading to pulldown-cmark, text to markdown-it.)
_TAB_UNDERLINE = re.compile(r"^[ \t>]*\t[ \t]*=+[ \t]*\r?$", re.MULTILINE)
_TAB_MARKER = re.compile(r"^[ \t>]*\t[ \t]*(?:[-+*]|\d{1,9}[.)]|>)(?:[ \t]|\r?$)", re.MULTILINE)
# A line that ends with white space that holds a tab (see `_tab_after_fence`).
_TRAILING_TAB = re.compile(r"\t[ \t]*\r?$", re.MULTILINE)


def _tab_after_fence(text: str) -> bool:
    """Whether a line of `text` ends with a run of three backticks or tildes, then white
    space that holds a tab: pulldown-cmark closes no fence with that line, markdown-it
    (and CommonMark) does. (The lines that end with a tab are found first: a search for
    the runs is slower, and such lines are few.)"""
    for match in _TRAILING_TAB.finditer(text):
        before = text[text.rfind("\n", 0, match.start()) + 1 : match.start()].rstrip(" \t")
        if before.endswith(("```", "~~~")):
            return True
    return False


# A first line that opens list items (block quotes too), then three `-`: markdown-it's front matter rule
# (mdit-py-plugins) reads front matter inside the item, pulldown-cmark a rule.
_LISTED = frozenset("-+*0123456789 \t>")
_LISTED_FRONT_MATTER = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+[ \t>]*)+-{3}")


class Fallback(Exception):
    """The document is one the two parsers read differently: markdown-it-py parses it."""


def outline(text: str) -> Node | None:
    """The outline of `text` that the reference (`markdown.detect_markdown_reference`)
    gives, built from pulldown-cmark's events; None where the document must be parsed by
    markdown-it-py (see the module docstring). A document longer than a window is searched
    for what the parsers read differently a window at a time, and a window after the
    first that holds it is parsed by markdown-it-py alone (`_Outline.parse`)."""
    if text[-1:] in (" ", "\t") and text.rstrip(" \t")[-1:] in ("\n", "\r", ""):
        return None  # a last line of white space with no line end: not blank to markdown-it-py
    if len(text) <= md_windows.WINDOW_CHARS and not _read_alike(text):
        return None
    if text[:1] in _LISTED and _LISTED_FRONT_MATTER.match(text) is not None:
        return None  # front matter the reference's plugin reads inside a list item (`- 1. ---`)
    try:
        return _Outline(text).read()
    except Fallback:
        return None


def _read_alike(text: str) -> bool:
    """Whether `text` has none of the characters and lines the two parsers read
    differently that a search finds (the patterns above; literals first, for speed)."""
    if "\x0b" in text or "\x0c" in text or "\x00" in text or ("\r" in text and _LONE_CR.search(text) is not None):
        return False
    lines = "\n" + text  # (each line then starts after a "\n": faster than a `^` pattern)
    if _EMPTY_ITEM.search(lines) is not None:
        return False
    if "]:" in text and not _definitions_read_alike(lines):
        return False
    if "|" in text and (
        (":" in text and _PIPELESS_DELIMITER.search(lines) is not None) or _MARKED_HEADER.search(lines) is not None
    ):
        return False
    if ("    >" in text or "\t" in text) and _indented_quote(lines):
        return False
    return "\t" not in text or (
        _TAB_MARKER.search(text) is None
        and _TAB_AFTER_MARKS.search(text) is None
        and ("=" not in text or _TAB_UNDERLINE.search(text) is None)
        and not _tab_after_fence(text)
    )


def _indented_quote(lines: str) -> bool:
    """Whether a line of a block quote is followed by a line with a `>` after four
    columns of white space or more (from its start or the `>` before) and further in
    than the first line's: markdown-it goes on with the block quote, pulldown-cmark (and
    CommonMark) reads indented code or a lazy line where that is four columns past the
    container's (`> a` over `>` over `    > b`, ` >` over `    >`, `>>` over `>     >`).
    (More is handed over than needs to be, never less.)"""
    for match in _INDENTED_QUOTE.finditer(lines):
        quotes = _quote_columns(match.group(1))
        before = -1
        for number, column in enumerate(_quote_columns(match.group(2))):
            if column - before > 4 and (number >= len(quotes) or column > quotes[number]):
                return True
            before = column
    return False


def _quote_columns(marks: str) -> list[int]:
    """The columns of the `>` in a line's `marks`, tabs to multiples of four."""
    return [column for column, mark in enumerate(marks.expandtabs(4)) if mark == ">"]


def _encoded(text: str) -> bytes:
    """`text` in UTF-8, which pulldown-cmark's byte ranges index."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no Rust string holds it
        raise Fallback from None


def _list_marker(data: bytes, start: int) -> bytes:
    """The marker of the list whose first item starts at the byte `start` (after its
    indent): a bullet list's bullet, an ordered list's `.` or `)` (markdown-it's markup)."""
    mark = data[start : start + 16].lstrip(b" \t")
    if mark[:1] in (b"-", b"+", b"*"):
        return mark[:1]
    digits = len(mark) - len(mark.lstrip(b"0123456789"))
    return mark[digits : digits + 1]


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


def _short_document_lines(text: str) -> tuple[list[int], tuple[bytes, list[int]]]:
    """A document read in one window: its line starts in characters, and its bytes with
    their line starts. (`bytes.splitlines` ends lines where `lines.line_starts` does: at
    `\\r\\n`, `\\r` and `\\n`) an ASCII text's line starts are its bytes'; the lines of
    another are decoded to count them (each `bytes.decode` call in C)."""
    data = _encoded(text)
    pieces = data.splitlines(keepends=True)
    starts = list(accumulate(map(len, pieces), initial=0))
    if len(data) == len(text):
        return starts, (data, starts)
    return list(accumulate(map(len, map(bytes.decode, pieces)), initial=0)), (data, starts)


def _indent(line: str) -> int:
    """The columns of a line's leading white space, tabs to multiples of four."""
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


class _Outline:
    """pulldown-cmark's events of a document turned into the outline markdown-it-py's
    tokens give (`markdown._build`): each block's node is made as its event comes, with
    the line span markdown-it gives the block."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections = Sections(len(text))
        self.front = 0  # the line after the front matter (0: none)
        self.whole: tuple[bytes, list[int]] | None = None  # a short document's bytes and line starts
        if text.startswith("---") or len(text) > md_windows.WINDOW_CHARS:
            offsets = line_starts(text)
            end = _front_matter_end(text, offsets) if text.startswith("---") else None
            if end is not None:
                self.sections.root.children.append(Node(kinds.FRONT_MATTER, 0, offsets[end]))
                self.front = end
        else:
            offsets, self.whole = _short_document_lines(text)
        self.offsets = offsets  # the document's line starts in characters
        self.last = len(offsets) - 1
        self.start_reading()

    def start_reading(self) -> None:
        """The state of the reading before its first window: no window read, no block open."""
        # The window being read (`markdown_windows`): its text's bytes, the byte offset of
        # each of its lines' starts, the document's line it starts on, its last line start
        # (its end), whether the front matter comes before it, and the items of the list
        # it starts with (where the window rules ask for them), that list's kind.
        self.data = b""
        self.starts = [0]
        self.first_line = 0
        self.end_line = 0
        self.at = self.offsets
        self.after_front = False
        self.first_items: list[md_windows.Top] = []
        self.head: tuple[bool, bytes] | None = None  # whether the list it starts with is ordered, its marker
        # the list the last window ended inside, whether it is ordered, and its marker
        self.cut_list: tuple[Node, bool, bytes] | None = None
        # the open blocks: (the innermost open block with a node, None at the top level;
        # pulldown-cmark's name of the block)
        self.stack: list[tuple[Node | None, str]] = [(None, "")]
        self.depth = 0  # open containers
        self.quotes = 0  # open block quotes
        # A tight list item's text comes with no paragraph around it, where markdown-it
        # opens one: its node, first line, and the first and last byte of its text.
        self.tight: Node | None = None
        self.tight_line = self.tight_start = self.tight_end = 0
        # Lists and items closed since the last block started: markdown-it ends them
        # where the next block starts (blank lines after them are theirs), at the first
        # line after them that is not blank (a link reference definition's: it makes no
        # event), or where the block quote around them ends; pulldown-cmark's ranges
        # sometimes end further on.
        self.pending: list[Node] = []
        self.limit = 0  # that first line that is not blank
        self.limits: list[int] = []  # that line as it was when each of them closed
        # for each open block quote, its end line as pulldown-cmark gives it and the last
        # end line of the blocks inside it (-1: none)
        self.quote_stops: list[int] = []
        self.quote_inner: list[int] = []

    def read(self) -> Node:
        """The outline: the document read a window at a time (`markdown_windows`, the
        rules the reference reads by), each window's events up to where it ends (parsed
        again for that: pulldown-cmark's events are made as they are taken, and a list
        of a window's held twice the reference's tokens)."""
        windows = md_windows.windows(self.text, self.offsets, self.parse, self.tops, self.items)
        for window, cut in windows:
            if isinstance(window, list):  # (markdown-it's tokens: `parse`)
                self.read_tokens(window, cut)
                continue
            events = pyromark.events_with_range(window, options=_OPTIONS, merge_text=True)
            stream: Iterator[Any] = events if cut.at is None else islice(events, cut.at)
            if self.cut_list is not None:
                stream = self.continue_list(stream)
            self.read_events(stream)
            if cut.at is None:
                if self.pending:
                    self.settle(len(self.starts) - 1)
                continue
            self.block_starts(cut.line - self.first_line)  # (the next block's start ends those before)
            if cut.in_list:  # (the window starts with that list: `markdown_windows`)
                node = self.stack[-1][0]
                assert node is not None and self.head is not None
                self.cut_list = (node, *self.head)
            del window, events, stream
        return self.sections.root

    def parse(self, first: int, end: int, last: bool) -> str | list[Token]:
        """The text of the window of lines `first` to `end` (`last`: to the document's
        end), which pulldown-cmark is to read (its bytes and lines kept); in a document
        longer than a window, where the window holds what the two parsers read
        differently (`_read_alike`), markdown-it-py's tokens of it instead (the first
        window's: the whole document goes to markdown-it-py)."""
        begin = self.front if first == 0 and 0 < self.front <= end else first
        self.after_front = begin != first
        whole, self.whole = self.whole, None  # (a short document read in one window, as it mostly is)
        if whole is not None and last:
            self.data, self.starts = whole
            window = self.text
        else:
            text, offsets = self.text, self.offsets
            window = text[offsets[first] :] if last else text[offsets[first] : offsets[end]]
            if len(text) > md_windows.WINDOW_CHARS and not _read_alike(window):  # (`outline` searched a shorter one)
                if first == 0:
                    raise Fallback
                from outline_splitter.detectors import markdown as reference  # (here: that module imports this one)

                self.first_line = first
                return reference._parse_window(text, offsets)(first, end, last)
            if begin != first:
                window = window[offsets[begin] - offsets[first] :]
            self.data = _encoded(window)
            self.starts = list(accumulate(map(len, self.data.splitlines(keepends=True)), initial=0))
        self.first_line = begin
        self.end_line = len(self.starts) - 1
        # the character offset of each of the window's line starts in the document
        self.at = self.offsets[begin : begin + len(self.starts)] if begin else self.offsets
        return window

    def tops(self, window: str | list[Token]) -> list[md_windows.Top]:
        """The window's top-level blocks for the window rules, from its events as they
        come: what each holds is passed over in C (`operator.indexOf`, up to its end
        event); the items of the list it starts with are kept (`first_items`), and that
        list's kind and marker (`head`). (markdown-it's tokens: the reference's.)"""
        if isinstance(window, list):
            from outline_splitter.detectors import markdown as reference  # (here: that module imports this one)

            return reference._tops(window)
        blocks = [md_windows.Top(md_windows.FRONT_MATTER, 0, 0)] if self.after_front else []
        self.first_items = []
        self.head = None
        events: Any = pyromark.events_with_range(window, options=_OPTIONS, merge_text=True)
        value: Any
        taken = 0  # the events taken so far
        try:
            for event, span in events:
                taken += 1
                first = self.line_of(span["start"])
                line = self.first_line + first
                if event == "Rule":
                    blocks.append(md_windows.Top(md_windows.RULE, line, taken - 1))
                    continue
                opened = event["Start"]  # (no other event stands at the top level)
                name, value = (opened, None) if opened.__class__ is str else next(iter(opened.items()))
                blocks.append(md_windows.Top(_WINDOW_KINDS.get(name, md_windows.OTHER), line, taken - 1))
                if name == "List":
                    taken = self.list_items(events, taken, span, value, len(blocks) == 1)
                    continue
                if name == "Heading":
                    end: Any = {"End": {"Heading": value["level"]}}
                    if self.line_of(span["end"] - 1) > first:  # a Setext heading: a paragraph to markdown-it
                        blocks[-1] = md_windows.Top(md_windows.PARAGRAPH, line, taken - 1)
                else:
                    end = {"End": {name: value}} if name == "BlockQuote" else {"End": name}
                taken += indexOf(events, (end, span)) + 1
        except (KeyError, ValueError, StopIteration):
            raise Fallback from None
        return blocks

    def list_items(self, events: Any, taken: int, span: Any, value: Any, first_block: bool) -> int:
        """Take the events of a list's items, up to its end event (`taken`: the events
        taken, its start the last, with its `span` and `value`); for the list a window
        starts with, its kind and marker kept (`head`) and its items (`first_items`).
        How many events are then taken."""
        if first_block:
            self.head = (value is not None, _list_marker(self.data, span["start"]))
        while True:
            event, span = next(events)
            taken += 1
            if event != _ITEM_START:
                return taken  # (the list's end)
            if first_block:
                line = self.first_line + self.line_of(span["start"])
                self.first_items.append(md_windows.Top(md_windows.OTHER, line, taken - 1))
            taken += indexOf(events, (_ITEM_END, span)) + 1

    def items(self, window: str | list[Token]) -> list[md_windows.Top]:
        if isinstance(window, list):
            from outline_splitter.detectors import markdown as reference  # (here: that module imports this one)

            return reference._items(window)
        return self.first_items

    def read_tokens(self, tokens: list[Token], cut: md_windows.Cut) -> None:
        """A window markdown-it-py parsed (`parse`), up to where it ends, read as the
        reference reads it (`markdown.Builder`) into the same sections, a list the last
        window ended inside going on in it, and the list it ends inside going on in the
        next."""
        from outline_splitter.detectors import markdown as reference  # (here: that module imports this one)

        parents: list[Node | None] = []
        cut_list = None
        if self.cut_list is not None:
            node, ordered, marker = self.cut_list
            self.cut_list = None
            parents.append(node)
            kind = "ordered_list_open" if ordered else "bullet_list_open"
            cut_list = Token(kind, "", 1, markup=marker.decode("utf-8"))
        head = tokens[0] if cut.in_list else None
        kept = tokens if cut.at is None else tokens[: cut.at]
        del tokens
        window = reference._continue_list(kept, cut_list, self.first_line)
        window = reference._setext_headings(window, self.text, self.offsets)
        reference.Builder(self.text, self.offsets, self.sections, parents).read(reference._with_next(iter([window])))
        self.stack[1:] = []
        self.depth = 0
        if head is not None:  # (the window starts with that list: `markdown_windows`)
            cut_node = parents[-1]
            assert cut_node is not None
            self.stack.append((cut_node, "List"))
            self.depth = 1
            self.cut_list = (cut_node, head.type == "ordered_list_open", head.markup.encode("utf-8"))

    def continue_list(self, stream: Iterator[Any]) -> Iterator[Any]:
        """The window's events after the last window ended inside a list: if the window
        starts with a list of its kind and marker, that list goes on (its start event is
        left out), else the list ends where it was cut."""
        assert self.cut_list is not None
        node, ordered, marker = self.cut_list
        self.cut_list = None
        head: Any = next(stream, None)
        opened: Any = head[0].get("Start") if head is not None and head[0].__class__ is dict else None
        if (
            opened.__class__ is dict
            and "List" in opened
            and (opened["List"] is not None) == ordered
            and _list_marker(self.data, head[1]["start"]) == marker
        ):
            return stream  # (its start event left out)
        self.stack.pop()
        self.depth -= 1
        node.end = self.offset(self.first_line)
        return stream if head is None else chain((head,), stream)

    def read_events(self, events: Iterator[Any]) -> None:
        """Read the events: a container block's (a list, an item, a block quote, a table)
        open and close its node; a leaf block's start makes its node, and what the block
        holds (its inline events, a row's cells) is passed over in one call up to its end
        event (`operator.indexOf` compares each event in C: they never reach Python code);
        inline events outside leaf blocks only matter as the text of a tight list item."""
        stack = self.stack
        opened: Any
        closed: Any
        value: Any
        for event, span in events:
            if event.__class__ is dict:
                opened = event.get("Start")
                if opened is not None:
                    if opened.__class__ is str:
                        name, value = opened, None
                    else:
                        ((name, value),) = opened.items()
                    end = _LEAF_ENDS.get(name)
                    if end is not None:
                        self.leaf(name, value, span, events, end)
                        continue
                    if name not in _INLINE:
                        self.open(name, value, span)
                        continue
                else:
                    closed = event.get("End")
                    if closed is not None:
                        name = closed if closed.__class__ is str else next(iter(closed))
                        if name not in _INLINE:
                            self.close(name, span)
                            continue
            elif event == "Rule":
                self.rule(span)
                continue
            if stack[-1][1] == "Item":  # text of a tight list item
                self.inline(span)

    def offset(self, line: int) -> int:
        """The character offset of the document's `line` (its end past the last)."""
        return self.offsets[min(line, self.last)]

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

    def line_end(self, line: int) -> int:
        """The end of the parsed text's `line` (its last line's past the end)."""
        return self.starts[min(line + 1, len(self.starts) - 1)]

    def blank_inside(self, start: int, first: int, stop: int) -> bool:
        """Whether an HTML block that opens at the byte `start` (inside a container) and
        ends at a blank line (not a comment, `<pre`, `<script`, `<style`, `<textarea`,
        `<?` or `<!`) holds a line of white space, which pulldown-cmark, where it has
        more than the container's indent, takes for no blank line (the block goes on),
        markdown-it for one (the block ends before it)."""
        if _HTML_ENDED_BY_MARK.match(self.data, start) is not None:
            return False
        return any(self.blank(line) for line in range(first + 1, stop))

    def add(self, node: Node) -> None:
        """`node` is the next child of the innermost open block (or section)."""
        holder = self.stack[-1][0] or self.sections.open[-1][1]
        if holder.children:
            holder.children.append(node)
        else:  # its first child (it had NO_CHILDREN)
            holder.children = [node]

    def settle(self, line: int) -> None:
        """End the lists and items closed since the last block at `line` (of the
        parsed text), or before, at `limit`. An item whose one child is a paragraph of
        its own span then defers it (see `ListItem`). (Each ends at the limit as it was
        when it closed: an inner list closed before a link reference definition, which
        makes no event, ends there, the item around it after it.)"""
        line = min(line, self.limit)
        end = self.offset(self.first_line + line)
        for node, limit in zip(self.pending, self.limits):
            node.end = end if limit >= line else self.offset(self.first_line + limit)
        line += self.first_line
        for node in self.pending:
            children = node.children
            if (
                len(children) == 1
                and node.__class__ is ListItem
                and children[0].kind == kinds.PARAGRAPH
                and defers(self.text, node, children[0].start, children[0].end)
            ):
                node.children = NO_CHILDREN
                node.expand = own_paragraph
        self.pending.clear()
        self.limits.clear()
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
        if line and _table_on_opening(self.data, self.starts, line - 1):
            raise Fallback
        self.block_starts(line)
        line += self.first_line
        self.add(Node(kinds.THEMATIC_BREAK, self.offset(line), self.offset(line + 1)))
        self.inside(line + 1)

    def inline(self, span: Any) -> None:
        """An inline event of a tight list item's text: the paragraph markdown-it opens
        around that text starts here or goes on (and ends the lists and items closed
        before it, as a block's start does: `- a` over `  - # h` over `  b`)."""
        if self.tight is None:
            line = self.line_of(span["start"])
            if self.pending:
                self.settle(line)
            self.tight_line = line = self.first_line + line
            self.tight = Node(kinds.PARAGRAPH, self.offset(line), self.offset(line + 1), NO_CHILDREN)
            self.add(self.tight)
            self.tight_start, self.tight_end = span["start"], span["end"]
        elif span["end"] > self.tight_end:
            self.tight_end = span["end"]

    def close_tight(self) -> None:
        node, start, end = self.tight, self.tight_start, self.tight_end
        assert node is not None
        self.tight = None
        stop = self.first_line + self.line_of(end - 1) + 1
        node.end = self.offset(stop)
        node.traits = paragraph_traits(self.text, node.start, node.end)
        self.inside(stop)
        if stop - self.tight_line > 1 and _read_otherwise(
            self.data, start, end, self.depth, self.line_end(stop - self.first_line)
        ):
            raise Fallback

    def close(self, name: str, span: Any) -> None:
        if self.tight is not None:
            self.close_tight()
        node, kind = self.stack.pop()
        if kind in _CONTAINERS:
            self.depth -= 1
        if kind == "Item":
            assert node is not None
            if not node.children:
                # an empty item the search did not find (after another marker, `- -`
                # over `  a`): the two end the list around it differently
                raise Fallback
            if not self.pending:
                self.limit = len(self.starts) - 1
            self.pending.append(node)
            line = self.line_of(span["end"] - 1) + 1  # the first line after the item not blank
            while line < self.limit and self.blank(line):
                line += 1
            self.limit = line
            self.limits.append(line)
        elif kind == "List":
            assert node is not None
            self.pending.append(node)
            self.limits.append(self.limit)
        elif kind == "BlockQuote":
            assert node is not None
            stop = self.quote_stops.pop()
            if self.pending:
                self.settle(stop - self.first_line)
            self.quotes -= 1
            line = self.quote_end(stop, self.quote_inner.pop())
            node.end = self.offset(line)
            self.inside(line)
        elif kind == "Table":
            assert node is not None
            finish_table(node)

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

    def lines(self, start: int, end: int) -> tuple[int, int]:
        """A block starts at the byte `start` of the parsed text, its bytes end at `end`:
        its first line and the line after its last (`block_starts` is told)."""
        if self.depth >= _MAX_DEPTH:
            raise Fallback
        starts = self.starts
        first = bisect_right(starts, start) - 1
        stop = bisect_right(starts, end - 1, first) if end > start else first + 1
        if stop > self.end_line:
            stop = self.end_line
        if self.tight is not None or self.pending:
            self.block_starts(first)
        return first, stop

    def leaf(self, name: str, value: Any, span: Any, events: Iterator[Any], closing: Any) -> None:
        """A block that holds no block (`_LEAF_ENDS`) starts: its node; what it holds is
        passed over in `events` up to its end event (`closing`, which has the start
        event's range)."""
        start, end = span["start"], span["end"]
        first, stop = self.lines(start, end)
        node = self.node(name, value, start, end, first, stop, self.stack[-1][0] is None)
        if node is not None:
            self.add(node)
        if self.quote_inner:
            self.inside(self.first_line + stop)
        if closing is _HEADING_END:
            closing = {"End": {"Heading": value["level"]}}
        try:
            held = indexOf(events, (closing, span))
        except ValueError:  # (no end event: pulldown-cmark ended it otherwise)
            raise Fallback from None
        if held and self.depth + 1 >= _MAX_DEPTH and name in _CONTAINERS:
            raise Fallback  # (a row's cells, past markdown-it's nesting)

    def open(self, name: str, value: Any, span: Any) -> None:
        """A block that holds others starts: its node, open until its end event."""
        start, end = span["start"], span["end"]
        first, stop = self.lines(start, end)
        node = self.node(name, value, start, end, first, stop, False)
        assert node is not None
        self.add(node)
        self.depth += 1
        if name == "BlockQuote":
            self.quotes += 1
            self.quote_stops.append(self.first_line + stop)
            self.quote_inner.append(-1)
        elif name not in _ENDED_LATER:
            self.inside(self.first_line + stop)
        self.stack.append((node, name))

    def node(self, name: str, value: Any, start: int, end: int, first: int, stop: int, top: bool) -> Node | None:
        """The node of the block `name` that opens at the byte `start` (its bytes end at
        `end`, its lines run from `first` to `stop` of the parsed text); None for a
        heading at the `top` level, whose node is placed already, in the section it
        opens (`Sections.heading`)."""
        data, starts = self.data, self.starts
        begin, until = self.at[first], self.at[stop]
        if name == "Paragraph":
            if stop - first > 1 and _read_otherwise(data, start, end, self.depth, self.line_end(stop)):
                raise Fallback
            return Node(kinds.PARAGRAPH, begin, until, NO_CHILDREN, traits=paragraph_traits(self.text, begin, until))
        if name == "Item":
            return ListItem(kinds.LIST_ITEM, begin, until, NO_CHILDREN)
        if name == "TableHead" or name == "TableRow":
            if name == "TableRow" and _INDENTED.search(data, starts[first], start):
                raise Fallback  # a row indented as code: markdown-it's table ends before it
            return Node(kinds.TABLE_ROW, begin, until, NO_CHILDREN)
        if name == "List":
            return Node(kinds.LIST, begin, until, NO_CHILDREN, list_meta(value))
        if name == "Heading":
            return self.heading_node(value, start, end, first, stop, top)
        if name == "CodeBlock":
            return self.code_node(value, start, first, stop)
        if name == "BlockQuote":
            return Node(kinds.BLOCKQUOTE, begin, until, NO_CHILDREN)
        if name == "HtmlBlock":
            return self.html_node(start, first, stop, top)
        if name == "Table":
            if stop - first > 1 and _MARKED_DELIMITER.match(data, starts[first + 1]) is not None:
                raise Fallback  # a delimiter row that opens a list item (`- |-`): an item to markdown-it
            return Node(kinds.TABLE, begin, until, NO_CHILDREN)
        raise Fallback  # a block this module does not know

    def heading_node(self, value: Any, start: int, end: int, first: int, stop: int, top: bool) -> Node | None:
        """A heading's node (`node`): None at the `top` level, where its section is opened."""
        data, starts = self.data, self.starts
        begin, until = self.at[first], self.at[stop]
        if stop - first > 2 and _read_otherwise(data, start, starts[stop - 1]):
            # a Setext heading's lines are a paragraph's until its underline: where
            # markdown-it reads a table (or a lazy `=` underline) in them, it interrupts it
            raise Fallback
        if stop - first > 1 and _underline_delimits(data, starts[stop - 2], starts[stop - 1], starts[stop]):
            raise Fallback  # its last line and a `-` underline are a table's first two lines to markdown-it
        if (
            stop - first > 1
            and stop < len(starts) - 1
            and b"=" in data[starts[stop - 1] : starts[stop]]
            and not self.blank(stop)
        ):
            # a `=` Setext heading with a line right after it: where markdown-it's
            # paragraph would have gone on, the reference's underline rule leaves
            # the lines after it a paragraph
            raise Fallback
        content = _heading_content(data[start:end].decode("utf-8"), self.quotes)
        label = Label(title=plain_title(content), level=int(value["level"][1]))
        if top:
            self.sections.heading(label, begin, until)
            return None
        return Node(kinds.HEADING, begin, until, NO_CHILDREN, traits=HEADING_TRAITS, label=label)

    def html_node(self, start: int, first: int, stop: int, top: bool) -> Node | None:
        """An HTML block's node (`node`): None for a heading's at the `top` level, whose
        section is opened."""
        data, starts = self.data, self.starts
        if (
            _table_on_opening(data, starts, first)
            or (self.depth and self.blank_inside(start, first, stop))
            or _raw_ended_otherwise(data, start, starts[stop])
        ):
            raise Fallback
        begin, until = self.at[first], self.at[stop]
        html = html_heading(data[starts[first] : starts[stop]].decode("utf-8")) if top else None
        if html is not None:
            self.sections.heading(Label(title=html[1], level=html[0]), begin, until)
            return None
        return Node(kinds.HTML_BLOCK, begin, until, NO_CHILDREN, traits=TRAITS[kinds.HTML_BLOCK])

    def code_node(self, value: Any, start: int, first: int, stop: int) -> Node:
        """A code block's node (`node`), with markdown-it's info string of a fenced one:
        the rest of its opening line, as written."""
        begin, until = self.at[first], self.at[stop]
        if value == "Indented":
            return Node(kinds.CODE, begin, until, NO_CHILDREN, code_meta(None), traits=TRAITS[kinds.CODE])
        if _table_on_opening(self.data, self.starts, first):
            raise Fallback
        opening = self.data[start : self.starts[first + 1]].decode("utf-8").rstrip("\r\n")
        info = opening[len(opening) - len(opening.lstrip(opening[:1])) :]
        return Node(kinds.CODE, begin, until, NO_CHILDREN, code_meta(info), traits=TRAITS[kinds.CODE])


# The window rules' kind of each top-level block (`markdown_windows.OTHER` if none); a
# Setext heading is a paragraph to them (`_Outline.tops`).
_WINDOW_KINDS = {
    "Paragraph": md_windows.PARAGRAPH,
    "List": md_windows.LIST,
    "Table": md_windows.TABLE,
    "BlockQuote": md_windows.BLOCKQUOTE,
}
_ITEM_START: Any = {"Start": "Item"}
_ITEM_END: Any = {"End": "Item"}
# Blocks whose end line is known only after them (see `settle` and `quote_end`).
_ENDED_LATER = frozenset({"Item", "List", "BlockQuote"})
# Blocks that hold no block (a row holds cells, whose nodes are the row's), each with its
# end event (a heading's names its level: made from its start's).
_HEADING_END: dict[str, Any] = {"End": {"Heading": None}}
_LEAF_ENDS: dict[str, dict[str, Any]] = {
    "Paragraph": {"End": "Paragraph"},
    "Heading": _HEADING_END,
    "CodeBlock": {"End": "CodeBlock"},
    "HtmlBlock": {"End": "HtmlBlock"},
    "TableHead": {"End": "TableHead"},
    "TableRow": {"End": "TableRow"},
}
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
