"""What HTML tags mean to the outline and to the readable text.

One table serves both: an element whose tag is in `BLOCK` is a node of the outline and a
line break in the readable text; any other element (`span`, `a`, `em`, `mjx-mi`,
`emu-xref`, ...) is inline: no node, no break, its text runs on with its neighbours.
Custom elements are inline unless listed here (ecmarkup's block elements are).
"""

from __future__ import annotations

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# Elements that make a section; their first heading gives the section's title.
SECTIONING = frozenset({"section", "article", "main", "nav", "aside", "emu-clause", "emu-annex", "emu-intro"})

# Elements whose content is never visible text.
HIDDEN = frozenset({"script", "style", "template", "noscript", "title", "iframe", "noembed", "noframes"})

# Elements whose white space is shown as written (`textarea` is raw text, never shown).
PREFORMATTED = frozenset({"pre", "listing"})

# Inline elements whose content a browser never shows: a MathML `semantics` element shows
# its first child, the presentation, and not its annotations (TeX, content MathML).
HIDDEN_INLINE = frozenset({"template", "annotation", "annotation-xml"})

# Custom elements of ecmarkup (the ECMAScript specifications' markup) that are blocks.
CUSTOM_BLOCKS = frozenset(
    {
        "emu-clause", "emu-annex", "emu-intro", "emu-alg", "emu-note", "emu-table", "emu-figure",
        "emu-example", "emu-grammar", "emu-import", "emu-caption", "emu-eqn", "emu-integration-plans",
    }
)  # fmt: skip

_HTML_BLOCKS = {
    "html", "head", "body", "address", "article", "aside", "blockquote", "center", "details", "dialog",
    "dir", "div", "dl", "dt", "dd", "fieldset", "figcaption", "figure", "footer", "form", "header",
    "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table",
    "caption", "colgroup", "thead", "tbody", "tfoot", "tr", "td", "th", "ul", "legend", "listing",
    "search", "select", "optgroup", "option", "xmp", "plaintext",
}  # fmt: skip
BLOCK = frozenset(_HTML_BLOCKS) | HEADINGS | HIDDEN | CUSTOM_BLOCKS

# Tags that end a line of the readable text: the blocks, and `<br>`.
BREAKS = BLOCK | {"br"}

# Elements that never have content (their start tag is the whole element).
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)

# A start tag of one of these closes an open `p` (the HTML parser's rule).
CLOSES_P = frozenset(
    {
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "main", "menu",
        "nav", "ol", "p", "pre", "section", "summary", "table", "ul", "li", "dd", "dt", "listing", "xmp",
        "plaintext", "search",
    }
)  # fmt: skip
CLOSES_P |= HEADINGS

TABLE_PARTS = frozenset({"table", "caption", "colgroup", "thead", "tbody", "tfoot", "tr", "td", "th"})

# An end tag does not reach past these to close an element outside them (a stray
# `</div>` in a table cell does not close the table).
SCOPE_LIMITS = frozenset({"table", "td", "th", "caption", "template", "html"})
