"""How deep a YAML text nests its block collections, measured in one pass over its lines
without parsing it: tree-sitter-yaml's scanner crashes the process (SIGSEGV, from
tree-sitter-yaml 0.7.2's fixed state buffer) once about 254 block collections are open
at once, so a text that could reach that is not given to it.

The measure is an upper bound of the scanner's stack: each line opens a collection at
its indentation and one at each compact indicator on it (`- - k:` opens three), and
closes those indented deeper; a sequence may open at its key's own column. Lines of
block scalars and flow collections count as well, which only overestimates."""

from __future__ import annotations

import re

# The block collections open at once above which a YAML text is read as plain text:
# below the 254 that crash the scanner, with room for what the measure underestimates.
MAX_BLOCK_DEPTH = 200

# A line's indentation, its compact indicators (`- `, `? `, `: `) and what follows them.
_LINE = re.compile(r"^( *)((?:[-?:](?:[ \t]+|(?=\r?$)))*)(#?)(.?)", re.MULTILINE)
_INDICATOR = re.compile(r"[-?:]")
_CONTENT = "k"


def block_depth(text: str) -> int:
    """The most block collections `text` can hold open at once (an upper bound)."""
    stack: list[tuple[int, str]] = []
    deepest = 0
    for line in _LINE.finditer(text):
        indent, indicators, comment, content = line.groups()
        opened = [(len(indent) + m.start(), m.group()) for m in _INDICATOR.finditer(indicators)]
        if content.strip() and not (comment and not indicators):
            opened.append((len(indent) + len(indicators), _CONTENT))
        if not opened:
            continue  # a blank or comment line opens and closes nothing
        column, kind = opened[0]
        while stack and _closes(stack[-1], column, kind):
            stack.pop()
        stack.extend(opened)
        deepest = max(deepest, len(stack))
    return deepest


def _closes(open_: tuple[int, str], column: int, kind: str) -> bool:
    """Whether a line whose first collection opens at `column` closes the collection
    `open_`: one indented deeper, or one at the same column unless the line is a
    sequence's item under a key there (`k:` then `- v`, which the scanner nests)."""
    open_column, open_kind = open_
    return open_column > column or (open_column == column and not (open_kind == _CONTENT and kind == "-"))
