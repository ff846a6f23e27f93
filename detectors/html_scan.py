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
tag cut off by the end of file. An end tag's attributes (which the tokenizer reads and
drops) may hold `>` in quotes as a start tag's do. A `script` follows the tokenizer's
escape states: after `<!--`, a `<script` opens a nested script text whose `</script>`
does not end the element, until `-->`. Inside `svg` and `math` (foreign content) a CDATA
section is text, as written; elsewhere `<![CDATA[` opens a bogus comment that the next `>`
ends. Every alternative of the expression matches wherever it
starts, so no failed attempt is retried from each later `<` (which made `"<a" * n` cubic), and
the attribute loop is possessive (`*+`, Python 3.11), so it keeps no backtracking stack, whose
growth past the CPU caches made a 1 MB tag take 7x the time of a 512 KB one.
Tokens come in document order and never overlap; text is whatever lies between them.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterator
from functools import cache, lru_cache

START = 1  # a start tag: (START, start, end, name)
END = 2  # an end tag
RAW = 3  # the content of a raw-text element (script, style, ...): name is the element's
OTHER = 4  # comment, doctype, CDATA markers, processing instruction: never visible
CDATA = 5  # the content of a CDATA section in foreign content: text, shown as written

Token = tuple[int, int, int, str]

# A tag's attributes up to its `>` (or the end of the document): quotes hold `>`.
_ATTRIBUTES = r"""(?:[^>=]+|=[\t\n\f\r ]*(?:"[^"]*(?:"|\Z)|'[^']*(?:'|\Z))|=(?![\t\n\f\r ]*["']))*+"""
_TOKEN = re.compile(
    rf"""<(?:
      (?P<open>[A-Za-z][^\t\n\f\r />]*){_ATTRIBUTES}(?:(?P<ended>>)|\Z)
    | /(?P<close>[A-Za-z][^\t\n\f\r />]*){_ATTRIBUTES}(?:(?P<closed>>)|\Z)
    | !--(?:-?>|[\s\S]*?--!?>|[\s\S]*)
    | (?P<cdata>!\[CDATA\[)[\s\S]*?(?:\]\]>|\Z)
    | [!?/][^>]*(?:>|\Z)
    )""",
    re.VERBOSE,
)
_END_TAG_REST = re.compile(rf"{_ATTRIBUTES}(?:(?P<closed>>)|\Z)")
# What changes a script's escape state: see _script_end.
_SCRIPT_STATE = re.compile(r"<!--|-->|</?script(?=[\t\n\f\r />])", re.IGNORECASE)
FOREIGN = frozenset({"svg", "math"})

# Elements whose content is not markup: it runs to the matching end tag.
RAW_TEXT = frozenset(
    {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}
)


@cache
def _raw_end(name: str) -> re.Pattern[str]:
    return re.compile(rf"</{re.escape(name)}(?=[\t\n\f\r />])", re.IGNORECASE)


def _script_end(source: str, pos: int) -> int:
    """Where the `</script` that ends a script whose text starts at `pos` begins, or -1:
    the tokenizer's script data states (text, escaped after `<!--`, double escaped
    after `<script` in escaped text, back to escaped at its `</script`, back to text at
    `-->`). Until a `<!--` nothing but a `</script` changes the state, so where none comes
    before the first `</script`, that one ends the script: found by two searches with a
    literal start rather than a stop at each `<` and `-` of the code (a script's `-`, `<`
    and `--` are common; this was a third of the scan's time over html-web's 2.8 M
    characters of script)."""
    closing = _raw_end("script").search(source, pos)
    if closing is None:
        return -1  # (only a `</script` ends it)
    if source.find("<!--", pos, closing.start()) < 0:
        return closing.start()
    escaped = double = False
    search = _SCRIPT_STATE.search
    while (match := search(source, pos)) is not None:
        marker = match.group()
        pos = match.end()
        if marker == "<!--":
            if not escaped:
                escaped, pos = True, match.start() + 2  # `<!-->` opens and closes: the dashes are shared
        elif marker == "-->":
            escaped = double = False
        elif marker[1] == "/":
            if not double:
                return match.start()
            double = False
        elif escaped:
            double = True
    return -1


def scan(source: str) -> Iterator[Token]:
    """The markup tokens of `source` in document order (see the module docstring).
    Tag names are lower-cased."""
    return iter(_scan(source))


def _scan(source: str) -> list[Token]:
    """`scan`'s tokens as a list. The expression's matches come from one `finditer`,
    which keeps its state from match to match (a `search` a token set it up anew, half
    the scan's time); it is begun again only past a raw-text element's content and the
    tokens `_seldom` reads (a bogus comment's end the expression does not find)."""
    out: list[Token] = []
    add = out.append
    finditer = _TOKEN.finditer
    pos = 0
    length = len(source)
    foreign = 0  # depth of open `svg` and `math` elements
    while pos < length:
        for match in finditer(source, pos):
            start, end = match.span()
            name, ended, end_name, end_ended, cdata = match.groups()  # (one call, not one a group)
            if ended is not None:  # a start tag
                name = name.lower()
                add((START, start, end, name))
                if name in FOREIGN and not source.endswith("/>", start, end):
                    foreign += 1
                elif name in RAW_TEXT:
                    pos = _raw_text(source, name, end, add)
                    if pos < 0:
                        return out
                    break  # (begun again past the content)
            elif end_ended is not None:  # an end tag
                name = end_name.lower()
                if name in FOREIGN and foreign:
                    foreign -= 1
                add((END, start, end, name))
            elif name is None and end_name is None and cdata is None and end < length:
                add((OTHER, start, end, ""))  # a comment, a doctype, ...
            else:
                pos = _seldom(source, match, foreign, add)
                if pos < 0:
                    return out
                break  # (begun again past it)
        else:
            return out
    return out


def _seldom(source: str, match: re.Match[str], foreign: int, add: Callable[[Token], object]) -> int:
    """Add the tokens of a `match` that `_scan` meets seldom: a tag cut off by the end of
    the document, a CDATA section, a token that runs to the end; returns where the scan
    goes on, or -1 where it ends."""
    start, end = match.span()
    length = len(source)
    name, _, end_name, _, cdata = match.groups()
    if name is not None or end_name is not None:  # (its `>` never came)
        add((OTHER, start, length, ""))
        return -1
    if cdata is not None and foreign:
        closed = source.endswith("]]>", start + 9, end)
        add((OTHER, start, start + 9, ""))
        if end - (3 if closed else 0) > start + 9:
            add((CDATA, start + 9, end - (3 if closed else 0), ""))
        if closed:
            add((OTHER, end - 3, end, ""))
        return end
    if end == length == start + 2 and source.endswith("</"):
        return -1  # `</` cut off by the end of the document is text (the tokenizer emits it)
    if cdata is not None:  # a bogus comment in HTML content: it ends at the next `>`
        close = source.find(">", start)
        end = close + 1 if close >= 0 else length
    add((OTHER, start, end, ""))
    return end


def _raw_text(source: str, name: str, end: int, add: Callable[[Token], object]) -> int:
    """Add the tokens of a raw-text element's content and end tag from `end` (its start
    tag's end); returns where they end, or -1 where the content runs to the end."""
    length = len(source)
    # with no `>` ahead no end tag can end, and each `</name` would be tried to the end
    if name == "plaintext" or source.find(">", end) < 0:
        closing = -1
    elif name == "script":
        closing = _script_end(source, end)
    else:
        found = _raw_end(name).search(source, end)
        closing = -1 if found is None else found.start()
    if closing < 0:
        if end < length:
            add((RAW, end, length, name))
        return -1
    if closing > end:
        add((RAW, end, closing, name))
    tag = _END_TAG_REST.match(source, closing + 2 + len(name))
    assert tag is not None  # it matches the empty string
    if tag.group("closed") is None:
        add((OTHER, closing, length, ""))  # an end tag cut off by the end of the document
        return -1
    add((END, closing, tag.end(), name))
    return tag.end()


@lru_cache(maxsize=1)
def tokens(source: str) -> list[Token]:
    """`scan(source)` as a list, kept for the last document: the detector and the text
    extraction (text mode, `content="main"`) read the same page, and a scan is a quarter
    of an extraction's time."""
    return _scan(source)


def tag_spans(source: str) -> tuple[array[int], array[int]]:
    """The starts and the ends of the start and end tags of `source` (self-closing ones
    too), in document order: the spans a cut of the source must not fall inside. Text of
    raw-text elements (a script's `"<a href='x. y'>"`), comments and doctypes hold none."""
    spans = [(start, end) for kind, start, end, _ in tokens(source) if kind in (START, END)]
    return array("q", [start for start, _ in spans]), array("q", [end for _, end in spans])
