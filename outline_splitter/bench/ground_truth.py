"""Ground truth for the structure figures, from real parsers, never from this project's detectors.

- Markdown: markdown-it-py tokens and their line maps (lists, tables, fenced code,
  headings, paragraphs).
- HTML: selectolax (lists, tables, `pre`, headings `h1`-`h6`, paragraphs `p`).
- Python: `ast` (definitions with their decorators) and `tokenize` (the comment lines
  right above a definition).
- JSON: the standard library's decoder (objects and array items); YAML: PyYAML's
  composed nodes and their marks (mappings and sequence items).

Every text is compared *squashed* (all whitespace removed): splitters differ in the
whitespace they keep between chunks, never in the words, and the HTML peers that output
text rather than source also differ in spacing. HTML is compared on its visible text
(what selectolax's `text()` gives once `script`, `style`, `noscript` and `template` are
dropped), so a source-mode chunk and a text-mode chunk of the same element compare equal.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field

HIDDEN_HTML_TAGS = ["script", "style", "noscript", "template"]

# A sentence ends at `.`, `!` or `?` (closing quotes and brackets may follow) before
# whitespace and an upper-case letter, a digit or an opening mark.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(\[*_`])")


def squash(text: str) -> str:
    """`text` without any whitespace: the form every structure comparison uses."""
    return "".join(text.split())


def sentences_of(paragraph: str) -> list[str]:
    """The sentences of a paragraph's text, cut where `SENTENCE_END` matches."""
    parts = SENTENCE_END.split(paragraph.strip())
    return [part for part in parts if part.strip()]


@dataclass(frozen=True)
class Unit:
    """A structural unit (a list, a table, a definition...): its squashed text, and the
    tokens of its source, which decide whether it fits a budget."""

    kind: str
    text: str
    tokens: int


@dataclass
class Structure:
    """What the parsers found in one document.

    `stream` is the document's squashed text (visible text for HTML), the coordinate
    system for chunk boundaries; `sentences` are half-open spans of it; `headings` are
    squashed heading texts; `units` the lists, tables, code blocks, definitions and
    comment groups whose integrity is measured.
    """

    stream: str
    units: list[Unit] = field(default_factory=list)
    sentences: list[tuple[int, int]] = field(default_factory=list)
    headings: set[str] = field(default_factory=set)


Counter = Callable[[str], int]


def locate_sentences(stream: str, paragraphs: list[str]) -> list[tuple[int, int]]:
    """Spans in `stream` of each sentence of `paragraphs`, searched in document order
    (a sentence not found from the cursor on is left out)."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for paragraph in paragraphs:
        for sentence in sentences_of(paragraph):
            needle = squash(sentence)
            found = stream.find(needle, cursor)
            if found < 0:
                continue
            spans.append((found, found + len(needle)))
            cursor = found + len(needle)
    return spans


# -- Markdown -----------------------------------------------------------------------


def markdown_structure(text: str, count: Counter) -> Structure:
    """Lists (outermost only), GFM tables and fenced code blocks as units; headings;
    paragraph sentences; from markdown-it-py's token line maps (CommonMark with tables
    and front matter, so a front matter's closing `---` is not read as a heading)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    lines = text.splitlines(keepends=True)

    def source(line_map: list[int] | None) -> str:
        return "".join(lines[line_map[0] : line_map[1]]) if line_map else ""

    structure = Structure(stream=squash(text))
    paragraphs: list[str] = []
    list_depth = 0
    for token in MarkdownIt("commonmark").enable("table").use(front_matter_plugin).parse(text):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            if list_depth == 0:
                structure.units.append(_unit("list", source(token.map), count))
            list_depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif token.type == "table_open":
            structure.units.append(_unit("table", source(token.map), count))
        elif token.type == "fence":
            structure.units.append(_unit("fence", source(token.map), count))
        elif token.type == "heading_open":
            structure.headings.add(squash(source(token.map)))
        elif token.type == "paragraph_open":
            paragraphs.append(source(token.map))
    structure.sentences = locate_sentences(structure.stream, paragraphs)
    return structure


def _unit(kind: str, source: str, count: Counter) -> Unit:
    return Unit(kind, squash(source), count(source))


# -- HTML ---------------------------------------------------------------------------


def html_visible_text(html: str) -> str:
    """The visible text of an HTML document or fragment (hidden elements dropped)."""
    from selectolax.lexbor import LexborHTMLParser as HTMLParser

    tree = HTMLParser(html)
    tree.strip_tags(HIDDEN_HTML_TAGS)
    root = tree.root
    return root.text(deep=True) if root is not None else ""


def html_structure(text: str, count: Counter) -> Structure:
    """Lists (outermost `ul`/`ol`), tables (outermost) and `pre` as units, each sized by
    the tokens of its outer HTML; headings `h1`-`h6`; sentences of `p` elements."""
    from selectolax.lexbor import LexborHTMLParser as HTMLParser

    tree = HTMLParser(text)
    tree.strip_tags(HIDDEN_HTML_TAGS)
    root = tree.root
    structure = Structure(stream=squash(root.text(deep=True)) if root is not None else "")

    def outermost(selector: str, ancestors: tuple[str, ...]) -> None:
        for node in tree.css(selector):
            parent = node.parent
            while parent is not None and parent.tag not in ancestors:
                parent = parent.parent
            if parent is None:
                kind = "list" if node.tag in ("ul", "ol") else str(node.tag)
                structure.units.append(Unit(kind, squash(node.text(deep=True)), count(node.html or "")))

    outermost("ul, ol", ("ul", "ol"))
    outermost("table", ("table",))
    outermost("pre", ("pre",))
    structure.units = [unit for unit in structure.units if unit.text]
    structure.headings = {squash(node.text(deep=True)) for node in tree.css("h1, h2, h3, h4, h5, h6")} - {""}
    paragraphs = [" ".join(node.text(deep=True).split()) for node in tree.css("p")]
    structure.sentences = locate_sentences(structure.stream, paragraphs)
    return structure


# -- Python -------------------------------------------------------------------------


def comment_only_lines(text: str) -> set[int]:
    """1-based numbers of the lines that hold a comment and nothing else (`tokenize`)."""
    lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and not token.line[: token.start[1]].strip():
                lines.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        pass
    return lines


def python_structure(text: str, count: Counter) -> Structure:
    """Every function and class definition (with its decorators) as a `definition` unit;
    for each definition with decorators or a comment block right above it (contiguous
    comment-only lines, no blank line between), a `comment` unit made of those lines and
    the definition's header line. A module that does not parse has no units."""
    structure = Structure(stream=squash(text))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return structure
    lines = text.splitlines(keepends=True)
    comments = comment_only_lines(text)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or node.end_lineno is None:
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        structure.units.append(_unit("definition", "".join(lines[first - 1 : node.end_lineno]), count))
        above = first
        while above - 1 in comments:
            above -= 1
        if above < node.lineno:
            structure.units.append(_unit("comment", "".join(lines[above - 1 : node.lineno]), count))
    return structure


# -- JSON and YAML ------------------------------------------------------------------

_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def json_spans(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every object and array item of a JSON text (several values
    one after another, as JSON Lines, too), found with the standard library's decoder:
    `raw_decode` gives the end of each key and scalar, a scan the structure around them."""
    spans: list[tuple[str, int, int]] = []

    def skip(at: int) -> int:
        match = _JSON_SPACE.match(text, at)
        return match.end() if match else at

    def value(at: int) -> int:
        # an explicit stack would serve deeper nesting; real documents are shallow
        if text[at] == "{":
            start, at = at, skip(at + 1)
            while text[at] != "}":
                _, at = _DECODER.raw_decode(text, at)  # the key
                at = skip(skip(at) + 1)  # past the colon
                at = skip(value(at))
                if text[at] == ",":
                    at = skip(at + 1)
            spans.append(("object", start, at + 1))
            return at + 1
        if text[at] == "[":
            at = skip(at + 1)
            while text[at] != "]":
                end = value(at)
                spans.append(("item", at, end))
                at = skip(end)
                if text[at] == ",":
                    at = skip(at + 1)
            return at + 1
        return _DECODER.raw_decode(text, at)[1]

    at = skip(0)
    while at < len(text):
        at = skip(value(at))
    return spans


# A line that holds only a comment or white space; the next line that holds content.
_COMMENT_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?\Z")
_NEXT_CONTENT = re.compile(r"^([ \t]*)[^\s#]", re.MULTILINE)


def _without_trailing_comments(text: str, start: int, end: int) -> int:
    """Where a PyYAML block node ends: its end mark is the next token's, so the comment
    lines before that token are in its span; those no deeper than the next line of
    content lead what follows (as `detectors/yaml_data.py` reads them) and are left out."""
    following = _NEXT_CONTENT.search(text, end)
    limit = len(following.group(1)) if following else -1
    while end > start:
        line = text.rfind("\n", start, end - 1) + 1 if end - 1 > start else start
        body = text[line:end].rstrip("\n")
        if not _COMMENT_LINE.match(body) or (body.strip() and len(body) - len(body.lstrip()) > limit):
            break
        end = max(line - 1, start) if line > start else start
    return end


def yaml_spans(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every mapping and sequence item of a YAML stream, from
    PyYAML's composed nodes and their marks, without the comment lines that end them
    and lead what follows."""
    import yaml

    spans: list[tuple[str, int, int]] = []
    stack = [node for node in yaml.compose_all(text, Loader=yaml.SafeLoader) if node is not None]
    seen: set[int] = set()  # an anchored node is met again at each of its aliases
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            end = _without_trailing_comments(text, node.start_mark.index, node.end_mark.index)
            spans.append(("object", node.start_mark.index, end))
            stack.extend(value for _, value in node.value)
        elif isinstance(node, yaml.SequenceNode):
            spans.extend(
                (
                    "item",
                    item.start_mark.index,
                    _without_trailing_comments(text, item.start_mark.index, item.end_mark.index),
                )
                for item in node.value
            )
            stack.extend(node.value)
    return spans


def data_structure(doc_type: str, text: str, count: Counter) -> Structure:
    """JSON, JSON Lines or YAML: the objects and array items, as `object` and `item` units."""
    spans = yaml_spans(text) if doc_type == "yaml" else json_spans(text)
    return Structure(stream=squash(text), units=[_unit(kind, text[a:b], count) for kind, a, b in spans])


def structure_for(doc_type: str, text: str, count: Counter) -> Structure:
    """The ground truth for a document of `doc_type` (just the stream for other types)."""
    if doc_type in ("json", "jsonl", "yaml"):
        return data_structure(doc_type, text, count)
    if doc_type == "markdown":
        return markdown_structure(text, count)
    if doc_type == "html":
        return html_structure(text, count)
    if doc_type == "python":
        return python_structure(text, count)
    return Structure(stream=squash(text))


def chunk_stream(doc_type: str, chunk: str, markup: bool = True) -> str:
    """A chunk in the form its document's `Structure.stream` has: squashed, and for HTML
    the visible text of the fragment when it holds markup (never for a splitter whose
    chunks are readable text, `markup=False`: a `<` there is text, as in `a < b`)."""
    if doc_type == "html" and markup and "<" in chunk:
        return squash(html_visible_text(chunk))
    return squash(chunk)
