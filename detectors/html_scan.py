"""The HTML tokenizer shared by the HTML detector and the text extraction: one regular
expression finds every tag, comment, doctype and CDATA section with its exact offsets.

lexbor (behind selectolax) builds a better DOM but keeps no source positions, and the
standard library's `html.parser` reports (line, column) pairs at about a third of this
scanner's speed. The scanner follows the HTML tokenizer where real pages need it:
attributes in quotes may hold `>`, comments end at `-->` (`<!-->` is an empty comment),
`script`, `style`, `textarea`, `title` and the other raw-text elements run to their end
tag whatever they contain, an unclosed comment or raw-text element runs to the end of the
document. Anything else that starts with `<` but is no tag (`a < b`, `<3`) is text.
A start tag that never ends (no `>` outside quotes before the end: `<a<a<a`, `<a title="x`)
runs to the end of the document as one never-visible token, as the HTML tokenizer drops a
tag cut off by the end of file. Every alternative of the expression matches wherever it
starts, so no failed attempt is retried from each later `<` (which made `"<a" * n` cubic), and
the attribute loop is possessive (`*+`, Python 3.11), so it keeps no backtracking stack, whose
growth past the CPU caches made a 1 MB tag take 7x the time of a 512 KB one.
Tokens come in document order and never overlap; text is whatever lies between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache

START = 1  # a start tag: (START, start, end, name)
END = 2  # an end tag
RAW = 3  # the content of a raw-text element (script, style, ...): name is the element's
OTHER = 4  # comment, doctype, CDATA section, processing instruction: never visible

Token = tuple[int, int, int, str]

_TOKEN = re.compile(
    r"""<(?:
      (?P<open>[A-Za-z][^\t\n\f\r />]*)
        (?:[^>=]+|=[\t\n\f\r ]*(?:"[^"]*(?:"|\Z)|'[^']*(?:'|\Z))|=(?![\t\n\f\r ]*["']))*+(?:(?P<ended>>)|\Z)
    | /(?P<close>[A-Za-z][^\t\n\f\r />]*)[^>]*>
    | !--(?:-?>|[\s\S]*?--!?>|[\s\S]*)
    | !\[CDATA\[[\s\S]*?(?:\]\]>|\Z)
    | [!?/][^>]*(?:>|\Z)
    )""",
    re.VERBOSE,
)

# Elements whose content is not markup: it runs to the matching end tag.
RAW_TEXT = frozenset(
    {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}
)


@cache
def _raw_end(name: str) -> re.Pattern[str]:
    return re.compile(rf"</{re.escape(name)}(?:[\t\n\f\r /][^>]*)?>", re.IGNORECASE)


def scan(source: str) -> Iterator[Token]:
    """The markup tokens of `source` in document order (see the module docstring).
    Tag names are lower-cased."""
    search = _TOKEN.search
    pos = 0
    length = len(source)
    while pos < length:
        match = search(source, pos)
        if match is None:
            return
        start, end = match.span()
        name = match.group("open")
        if name is not None and match.group("ended") is None:
            yield OTHER, start, length, ""
            return
        if name is not None:
            name = name.lower()
            yield START, start, end, name
            if name in RAW_TEXT:
                # with no `>` ahead no end tag can match, and each `</name` would be tried to the end
                no_end = name == "plaintext" or source.find(">", end) < 0
                closing = None if no_end else _raw_end(name).search(source, end)
                if closing is None:
                    if end < length:
                        yield RAW, end, length, name
                    return
                if closing.start() > end:
                    yield RAW, end, closing.start(), name
                yield END, closing.start(), closing.end(), name
                end = closing.end()
        else:
            name = match.group("close")
            if name is not None:
                yield END, start, end, name.lower()
            else:
                yield OTHER, start, end, ""
        pos = end


@lru_cache(maxsize=1)
def tokens(source: str) -> list[Token]:
    """`scan(source)` as a list, kept for the last document: the detector and the text
    extraction (text mode, `content="main"`) read the same page, and a scan is a quarter
    of an extraction's time."""
    return list(scan(source))
