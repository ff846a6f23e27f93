"""Plain titles of Markdown headings: the visible text of a heading's inline source,
read without an inline parse (the outline never runs markdown-it's inline rules, for
speed): link and image targets, emphasis markers, code ticks, inline HTML tags and
backslash escapes go, the text they mark stays. `[3.5.3](https://...) (2026-11-23)`
becomes `3.5.3 (2026-11-23)`, whose GitHub anchor is `353-2026-11-23`.

An HTML block that opens with a heading element (`<h1 align="center">Title</h1>`, as
many READMEs start) is a heading too: `html_heading` gives its level and plain title.
"""

from __future__ import annotations

import re

# `![alt](target)` and `[text](target)`, and `[text][ref]` or `[text][]`
_LINK = re.compile(r"!?\[((?:[^\[\]\\]|\\.)*)\](?:\((?:[^()\\]|\\.|\([^()]*\))*\)|\[[^\]]*\])")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]*)>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|<!--.*?-->", re.DOTALL)
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# emphasis: `*`/`_` runs at word edges (not `snake_case`), `~~` strike-through
_EMPHASIS = re.compile(r"\*+|(?<!\w)_+|_+(?!\w)|~~")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_SPACES = re.compile(r"\s+")
_LITERAL = re.compile("\x00(\\d+)\x00")
_MARKUP = re.compile(r"[`\\\[<*_~&]")  # a title without any of these is its own plain text
_HTML_HEADING = re.compile(r"\s*<h([1-6])(?:\s[^>]*)?>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " "}
_ENTITY = re.compile("|".join(map(re.escape, _ENTITIES)))


def plain_title(source: str) -> str:
    """The visible text of a heading's inline Markdown source, white space folded."""
    if _MARKUP.search(source) is None:
        return _SPACES.sub(" ", source).strip()
    literals: list[str] = []  # code spans and escaped characters: no markup inside them

    def keep(text: str) -> str:
        literals.append(text)
        return f"\x00{len(literals) - 1}\x00"

    # (each pattern only where its first character is: most titles hold one kind of
    # markup, a code span or a link, and a pattern's pass over a title costs a call)
    text = _CODE.sub(lambda m: keep(m.group(2).strip() or m.group(2)), source) if "`" in source else source
    if "\\" in text:
        text = _ESCAPE.sub(lambda m: keep(m.group(1)), text)
    if "[" in text:
        previous = None
        while previous != text:  # a link inside an image, emphasis around a link
            previous, text = text, _LINK.sub(r"\1", text)
    if "<" in text:
        text = _TAG.sub("", _AUTOLINK.sub(r"\1", text))
    if "*" in text or "_" in text or "~" in text:
        text = _EMPHASIS.sub("", text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], text)
    if literals:
        text = _LITERAL.sub(lambda m: literals[int(m.group(1))], text)
    return _SPACES.sub(" ", text).strip()


def html_heading(block: str) -> tuple[int, str] | None:
    """The level and plain title of the heading element an HTML block opens with."""
    match = _HTML_HEADING.match(block)
    if match is None:
        return None
    title = _SPACES.sub(" ", _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], _TAG.sub("", match.group(2)))).strip()
    return (int(match.group(1)), title) if title else None
