"""The readable text of HTML, with a map back to source offsets.

The rules are the seed HTMLTextSplitter's: the text of every element in document order;
a block boundary (`BREAKS`: the start or end tag of a block, or `<br>`) becomes a line
break; inline boundaries add nothing; authored white space is kept but folded: a run of
white space and block boundaries becomes one line break if it holds a boundary, a blank
line if it holds two or more line ends, one line end if it holds one, else one space;
white space at the two ends goes (no-break spaces count as white space there: a
page's `&nbsp;` padding is no text). Entities are decoded. `script`, `style`, `template`,
`noscript`, `title` and `iframe` content is dropped, and so are comments and the
content of the other raw-text elements (`textarea`, `xmp`, `plaintext`: form defaults
and obsolete markup, whose text may look like tags: a slice starting inside one would
read differently from the whole).

Every rule looks at one token or one run of white space, so the text of a slice of a
document, `extract_text(html[a:b])`, is the part of the whole document's text that comes
from `[a, b)` whenever `a` and `b` lie outside tags and entities and outside the hidden
elements: the chunks of text mode start and end on visible characters, so that holds for
every chunk (`ExtractedText.span` and the splitter's tests rely on it).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from functools import lru_cache
from html import unescape

from outline_splitter.detectors.html_scan import END, START, scan
from outline_splitter.detectors.html_tags import BREAKS, HIDDEN

_ENTITY = re.compile(r"&(?:#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)")
_BREAK = "\x00"  # a block boundary, before folding (NUL in the source becomes U+FFFD)
_FOLD = re.compile(r"[ \t\n\r\f\x00]{2,}|[\t\n\r\f\x00]")
# The white space left after folding, and the kinds that folding keeps but that show
# nothing: no-break and other Unicode spaces, zero-width characters.
BLANK = " \n\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u202f\u205f\u3000\ufeff"
_LINE_BREAKS = frozenset(BREAKS - HIDDEN)


def _entity(reference: str) -> tuple[int, str]:
    """How many characters at the start of a `_ENTITY` match are a character reference,
    and what they read as. `&amp;` is all of it; `&ampx` (a legacy name without its
    `;`) only `&amp`, the `x` is text; `&F`, no entity, only its `&`: each character that
    is text keeps its own source offset, so a chunk can end before it."""
    decoded = unescape(reference)
    shared = 0  # the literal tail that `unescape` left as it was
    limit = min(len(reference), len(decoded)) - 1
    while shared < limit and reference[-1 - shared] == decoded[-1 - shared]:
        shared += 1
    return len(reference) - shared, decoded[: len(decoded) - shared]


def _fold(run: str) -> str:
    if _BREAK in run:
        return "\n"
    line_ends = run.count("\n") + run.count("\r") - run.count("\r\n")
    return "\n\n" if line_ends >= 2 else "\n" if line_ends else " "


class ExtractedText:
    """The readable text of a whole document (`text`) and, for each of its characters,
    the source offset it comes from (`starts`: the character itself, the `&` of its
    entity, or the first character of the white-space run it folds)."""

    __slots__ = ("source", "starts", "text")

    def __init__(self, source: str) -> None:
        self.source = source
        pieces: list[str] = []
        starts = array("q")

        def add(start: int, end: int) -> None:
            segment = source[start:end]
            if _BREAK in segment:
                segment = segment.replace(_BREAK, "\ufffd")
            if "&" not in segment:
                pieces.append(segment)
                starts.extend(range(start, end))
                return
            cursor = 0
            for match in _ENTITY.finditer(segment):
                a = match.start()
                if a > cursor:
                    pieces.append(segment[cursor:a])
                    starts.extend(range(start + cursor, start + a))
                length, decoded = _entity(match.group())
                pieces.append(decoded)
                starts.extend([start + a] * len(decoded))
                cursor = a + length  # what follows a legacy entity, or a lone "&", is text
            if cursor < len(segment):
                pieces.append(segment[cursor:])
                starts.extend(range(start + cursor, end))

        hidden = 0  # depth of open `template` elements
        cursor = 0
        for kind, start, end, name in scan(source):
            if start > cursor and not hidden:
                add(cursor, start)
            cursor = end
            if kind in (START, END):
                if name == "template":
                    hidden = hidden + 1 if kind == START else max(hidden - 1, 0)
                elif name in _LINE_BREAKS:
                    pieces.append(_BREAK)
                    starts.append(start)
        if cursor < len(source) and not hidden:
            add(cursor, len(source))
        raw = "".join(pieces)

        # fold white space, keeping the map in step
        folded: list[str] = []
        mapped = array("q")
        cursor = 0
        for match in _FOLD.finditer(raw):
            a, b = match.span()
            folded.append(raw[cursor:a])
            mapped.extend(starts[cursor:a])
            replacement = _fold(match.group())
            folded.append(replacement)
            mapped.extend([starts[a]] * len(replacement))
            cursor = b
        folded.append(raw[cursor:])
        mapped.extend(starts[cursor:])
        self.text = "".join(folded)
        self.starts = mapped

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The text offsets `[lo, hi)` of what the source span `[start, end)` reads as:
        its characters from the first visible one to the last (empty: `lo == hi`)."""
        text = self.text
        lo = bisect_left(self.starts, start)
        hi = bisect_left(self.starts, end, lo)
        while lo < hi and text[lo] in BLANK:
            lo += 1
        while hi > lo and text[hi - 1] in BLANK:
            hi -= 1
        return lo, hi

    def source_position(self, lo: int) -> int:
        """The furthest source offset `end` such that `span(start, end)` ends at or
        before `lo` for every `start`: where the first visible character from `lo` on
        comes from (blank characters at a span's end are not part of it)."""
        text = self.text
        while lo < len(text) and text[lo] in BLANK:
            lo += 1
        return self.starts[lo] if lo < len(self.starts) else len(self.source)

    def source_span(self, lo: int, hi: int) -> tuple[int, int]:
        """The source span of the text `[lo, hi)` (non-empty, visible at both ends): from
        the first character's source to the end of the last one's (a whole entity)."""
        first = self.starts[lo]
        last = self.starts[hi - 1]
        if self.source.startswith("&", last):
            match = _ENTITY.match(self.source, last)
            if match is not None:
                return first, last + _entity(match.group())[0]
        return first, last + 1


@lru_cache(maxsize=1)
def rendered_text(source: str) -> ExtractedText:
    """`ExtractedText(source)`, kept for the last document: content selection and the
    text view read the same rendering."""
    return ExtractedText(source)


def extract_text(html: str) -> str:
    """The readable text of `html` (see the module docstring)."""
    extracted = ExtractedText(html)
    lo, hi = extracted.span(0, len(html))
    return extracted.text[lo:hi]
