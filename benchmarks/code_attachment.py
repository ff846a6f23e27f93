"""Scoring any splitter's chunks of Python source against `ast` and `tokenize`.

Two questions, answered from the standard library's own parsers (not from any
splitter's detector), for chunks given as `(start, end)` character spans:

- whole: of the functions and classes whose span (decorators included) fits the budget,
  how many lie entirely inside one chunk;
- attached: of the definitions that have decorators or a leading comment block (comment
  lines right above the definition or its first decorator, no blank line between), how
  many have all of them in the chunk that holds the definition's first line.

With `with_leading=True` a definition's span starts at its leading comments (as this
project's outline has it), and attachment is asked only of definitions whose comments,
decorators and first line fit the budget together: what a splitter can always achieve,
so the golden tests demand 100% of it at any budget.

Used by the golden tests and by the benchmark harness to score other splitters.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

Span = tuple[int, int]


@dataclass(frozen=True)
class Definition:
    """A function or class: its span (from its first decorator), the offset of its
    `def`/`class` line, and where its leading comments and decorators start (its own
    start if it has neither)."""

    name: str
    start: int
    end: int
    keyword_line: int
    keyword_line_end: int
    documented_from: int

    @property
    def has_leading(self) -> bool:
        return self.documented_from < self.keyword_line or self.start < self.keyword_line


@lru_cache(maxsize=64)
def python_definitions(text: str) -> tuple[Definition, ...]:
    """Every function and class of a Python source text, nested ones included (kept for
    the last texts asked: the tests score each module at several budgets)."""
    lines = text.splitlines(keepends=True)
    line_offsets = [0, *accumulate(len(line) for line in lines)]

    def offset(line: int, column_bytes: int) -> int:
        prefix = lines[line - 1].encode("utf-8")[:column_bytes] if line - 1 < len(lines) else b""
        return line_offsets[line - 1] + len(prefix.decode("utf-8", "replace"))

    comment_only_lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and not token.line[: token.start[1]].strip():
            comment_only_lines.add(token.start[0])

    definitions: list[Definition] = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first_line = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        first = min(
            [(node.lineno, node.col_offset), *((d.lineno, d.col_offset - 1) for d in node.decorator_list)]
        )  # a decorator's position is that of its expression, after the "@"
        comment_line = first_line
        while comment_line - 1 in comment_only_lines:
            comment_line -= 1
        start = offset(*first)
        assert node.end_lineno is not None and node.end_col_offset is not None
        definitions.append(
            Definition(
                name=node.name,
                start=start,
                end=offset(node.end_lineno, node.end_col_offset),
                keyword_line=line_offsets[node.lineno - 1],
                keyword_line_end=line_offsets[node.lineno],
                documented_from=line_offsets[comment_line - 1] if comment_line < first_line else start,
            )
        )
    return tuple(definitions)


@dataclass
class AttachmentScore:
    """Counts behind the two percentages (see the module docstring)."""

    fitting: int = 0
    whole: int = 0
    documented: int = 0
    attached: int = 0

    def add(self, other: AttachmentScore) -> None:
        self.fitting += other.fitting
        self.whole += other.whole
        self.documented += other.documented
        self.attached += other.attached

    @property
    def whole_ratio(self) -> float:
        return self.whole / self.fitting if self.fitting else 1.0

    @property
    def attached_ratio(self) -> float:
        return self.attached / self.documented if self.documented else 1.0


def score_python_chunks(
    text: str,
    spans: Sequence[Span],
    count_tokens: Callable[[str], int],
    budget: int,
    with_leading: bool = False,
) -> tuple[AttachmentScore, list[str]]:
    """The score of chunks `spans` of `text`, and a line per definition that missed."""
    score = AttachmentScore()
    misses: list[str] = []
    ordered = sorted(spans)

    def chunk_holding(position: int) -> Span | None:
        return next((span for span in ordered if span[0] <= position < span[1]), None)

    for definition in python_definitions(text):
        start = _first_non_space(text, definition.documented_from if with_leading else definition.start)
        if count_tokens(text[start : definition.end]) <= budget:
            score.fitting += 1
            if any(a <= start and definition.end <= b for a, b in ordered):
                score.whole += 1
            else:
                misses.append(f"{definition.name} at {start} is not whole in one chunk")
        leading = _first_non_space(text, definition.documented_from)
        if not definition.has_leading or (
            with_leading and count_tokens(text[leading : definition.keyword_line_end].rstrip()) > budget
        ):
            continue
        score.documented += 1
        holder = chunk_holding(_first_non_space(text, definition.keyword_line))
        if holder is not None and holder[0] <= leading:
            score.attached += 1
        else:
            misses.append(f"{definition.name} at {start} is apart from its comments or decorators")
    return score, misses


def _first_non_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position
