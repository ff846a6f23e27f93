"""reStructuredText and LaTeX: sections found by pattern, blocks between blank lines.

Both formats mark sections with a line pattern: in reStructuredText a title underlined
(and maybe overlined) with a punctuation character, its level the order in which each
style first appears; in LaTeX `\\part` ... `\\subparagraph`. Sections nest by level as in
Markdown (a section runs to the next heading of the same or a higher level). Between
headings the text is cut into blocks at blank lines; a reStructuredText literal block
(after `::`) or directive (`.. name::`) stays one block with its indented body, and a
LaTeX environment (`\\begin{...}` to its `\\end`) is one block, a list environment with
one child per `\\item`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

from outline_splitter import kinds
from outline_splitter.detectors.lines import BLANK_LINES, line_starts
from outline_splitter.nodes import SHARED_TRAITS, Label, Node, Trait, apply_traits, mark_lead_ins

ENVIRONMENT = "environment"
# How the packer treats each kind these detectors make.
TRAITS: dict[str, Trait] = {**SHARED_TRAITS, ENVIRONMENT: Trait.LINES}
# Every kind each detector makes: what `never_break_within` and `separators` may name.
RST_KINDS = frozenset({kinds.DOCUMENT, kinds.SECTION, kinds.HEADING, kinds.PARAGRAPH, kinds.CODE})
LATEX_KINDS = RST_KINDS | {kinds.LIST, kinds.LIST_ITEM, ENVIRONMENT}

Heading = tuple[int, int, int, str]  # start, end, level, title
Blocks = Callable[[str, int, int], list[Node]]


def _sections(text: str, headings: list[Heading], blocks: Blocks) -> Node:
    """A document of nested sections, one per heading, the text between cut by `blocks`."""
    root = Node(kinds.DOCUMENT, 0, len(text))
    open_sections: list[tuple[int, Node]] = [(-1, root)]
    cursor = 0
    for start, end, level, title in headings:
        open_sections[-1][1].children.extend(blocks(text, cursor, start))
        while open_sections[-1][0] >= level:
            open_sections.pop()[1].end = start
        label = Label(title=title, level=level + 1)
        section = Node(kinds.SECTION, start, len(text), [Node(kinds.HEADING, start, end, label=label)], label=label)
        open_sections[-1][1].children.append(section)
        open_sections.append((level, section))
        cursor = end
    open_sections[-1][1].children.extend(blocks(text, cursor, len(text)))
    return mark_lead_ins(apply_traits(root, TRAITS), text)


def _after_line_ends(text: str, position: int) -> int:
    while position < len(text) and text[position] in "\r\n":
        position += 1
    return position


def _paragraph_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Blocks of non-blank lines in `[start, end)`, without the line ends before them."""
    cursor = start
    for match in BLANK_LINES.finditer(text, start, end):
        if text[cursor : match.start()].strip():
            yield _after_line_ends(text, cursor), match.start()
        cursor = match.end()
    if text[cursor:end].strip():
        yield _after_line_ends(text, cursor), end


# -- reStructuredText ---------------------------------------------------------------

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*$")
_LITERAL_INTRO = re.compile(r"(?:::|^\.\.\s+[\w:-]+::.*)\s*$", re.S)


def _rst_headings(text: str) -> list[Heading]:
    starts = line_starts(text)
    lines = [text[a:b].rstrip("\r\n") for a, b in pairwise(starts)]
    styles: dict[tuple[str, bool], int] = {}
    headings: list[Heading] = []
    index = 0
    free = 0  # the first line not part of a heading: the earliest an overline can be
    while index + 1 < len(lines):
        title, under = lines[index], lines[index + 1]
        underline = _ADORNMENT.match(under)
        if (
            underline is None
            or not title.strip()
            or _ADORNMENT.match(title)
            or len(under.rstrip()) < len(title.strip())
            or (title[:1].isspace() and index == 0)
        ):
            index += 1
            continue
        over = index > free and lines[index - 1].rstrip() == under.rstrip()
        if title[:1].isspace() and not over:  # an indented line is a title only when overlined
            index += 1
            continue
        style = (underline.group(1), over)
        level = styles.setdefault(style, len(styles))
        first = index - 1 if over else index
        end = starts[index + 2] if index + 2 < len(starts) else len(text)
        headings.append((starts[first], end, level, title.strip()))
        index += 2
        free = index
    return headings


def _rst_blocks(text: str, start: int, end: int) -> list[Node]:
    nodes: list[Node] = []
    for a, b in _paragraph_spans(text, start, end):
        previous = nodes[-1] if nodes else None
        indented = a > text.rfind("\n", 0, a) + 1  # the blank-line pattern ate the indentation
        if previous is not None and indented and previous.meta.get("literal"):
            previous.end = b  # the indented body of a literal block or directive
            continue
        literal = _LITERAL_INTRO.search(text, a, b) is not None
        meta = {"literal": True} if literal else None
        nodes.append(Node(kinds.CODE if literal else kinds.PARAGRAPH, a, b, meta=meta))
    return nodes


def detect_rst(text: str) -> Node:
    """Outline of a reStructuredText document (see the module docstring)."""
    return _sections(text, _rst_headings(text), _rst_blocks)


# -- LaTeX --------------------------------------------------------------------------

_LATEX_LEVELS = {
    "part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5, "subparagraph": 6,
}  # fmt: skip
_LATEX_HEADING = re.compile(
    r"^[ \t]*\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?[ \t]*(?:\[[^\]\n]*\])?[ \t]*"
    r"\{((?:[^{}\n]|\{[^{}\n]*\})*)\}[^\n]*(?:\n|$)",
    re.M,
)
_ENVIRONMENT = re.compile(r"\\(begin|end)\{([^}\n]+)\}")
_LIST_ENVIRONMENTS = frozenset({"itemize", "enumerate", "description"})
_VERBATIM_ENVIRONMENTS = frozenset({"verbatim", "Verbatim", "lstlisting", "minted", "code", "alltt"})
_ITEM = re.compile(r"^[ \t]*\\item\b", re.M)


def _latex_headings(text: str) -> list[Heading]:
    return [(m.start(), m.end(), _LATEX_LEVELS[m.group(1)], m.group(2).strip()) for m in _LATEX_HEADING.finditer(text)]


def _environment(text: str, name: str, start: int, body: int, end: int) -> Node:
    if name in _LIST_ENVIRONMENTS:
        items = [m.start() for m in _ITEM.finditer(text, body, end)]
        bounds = [*items, text.rfind("\\end", body, end)]
        children = [Node(kinds.LIST_ITEM, a, b) for a, b in pairwise(bounds) if text[a:b].strip()]
        return Node(kinds.LIST, start, end, children, {"environment": name})
    kind = kinds.CODE if name in _VERBATIM_ENVIRONMENTS else ENVIRONMENT
    return Node(kind, start, end, meta={"environment": name})


def _latex_blocks(text: str, start: int, end: int) -> list[Node]:
    """Paragraphs, with each top-level environment (but `document`) a block of its own
    even across blank lines."""
    nodes: list[Node] = []
    cursor = start
    depth = 0
    opened = (0, "")  # start and name of the open top-level environment
    for match in _ENVIRONMENT.finditer(text, start, end):
        kind, name = match.group(1), match.group(2)
        if name == "document":
            continue
        if kind == "begin":
            if depth == 0:
                opened = (match.start(), name)
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                env_start, env_name = opened
                nodes.extend(Node(kinds.PARAGRAPH, a, b) for a, b in _paragraph_spans(text, cursor, env_start))
                nodes.append(_environment(text, env_name, env_start, text.find("}", env_start) + 1, match.end()))
                cursor = match.end()
    nodes.extend(Node(kinds.PARAGRAPH, a, b) for a, b in _paragraph_spans(text, cursor, end))
    return nodes


def detect_latex(text: str) -> Node:
    """Outline of a LaTeX document (see the module docstring)."""
    return _sections(text, _latex_headings(text), _latex_blocks)
