"""Code cut at whole lines, on the stdlib modules: chunks that start inside a line, small
chunks (10 tokens or fewer) that a neighbour could take, chunks that are a definition's
or block's opening line alone though the first statement under it fits with it, docstrings apart
from their definition's first line though both fit, and chunks whose `symbol` is not the
innermost definition (by `ast`) holding their first character.

    python -m benchmarks.code_lines [--budget 256] [--show]
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.bench.stdlib_modules import stdlib_module_paths

SMALL = 10


@dataclass
class LineScore:
    """Counts of chunks and of each failure, with examples."""

    chunks: int = 0
    mid_line: int = 0
    small: int = 0
    header_alone: int = 0
    docstrings: int = 0
    docstrings_apart: int = 0
    wrong_symbol: int = 0
    examples: list[str] = field(default_factory=list)

    def rate(self, name: str) -> float:
        return float(getattr(self, name)) / max(1, self.chunks)


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _offset(text: str, starts: list[int], line: int, column_bytes: int) -> int:
    return starts[line - 1] + len(text[starts[line - 1] : starts[line]].encode()[:column_bytes].decode())


def _definitions(text: str) -> list[tuple[int, int, str, int | None]]:
    """(start, end, name, docstring start) of each function and class, as offsets."""
    starts = _offsets(text)
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.end_lineno is not None:
            first = node.body[0]
            doc = None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                doc = _offset(text, starts, first.lineno, first.col_offset)
            out.append((_offset(text, starts, node.lineno, node.col_offset), starts[node.end_lineno], node.name, doc))
    return out


def _blocks(text: str) -> dict[int, int]:
    """For each statement with a body (a definition, `for`, `if`, `with`, ...): its start
    and the end of the first statement in its body."""
    starts = _offsets(text)
    out = {}
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(node, ast.stmt) and isinstance(body, list) and body and body[0].end_lineno is not None:
            first = body[0]
            out[_offset(text, starts, node.lineno, node.col_offset)] = _offset(
                text, starts, first.end_lineno or first.lineno, first.end_col_offset or 0
            )
    return out


def score_code_lines(
    text: str, chunks: list[TextChunk], count: Callable[[str], int], budget: int, score: LineScore
) -> None:
    """Add one split of a Python module to `score`."""
    score.chunks += len(chunks)
    definitions = _definitions(text)
    blocks = _blocks(text)
    for i, chunk in enumerate(chunks):
        line_start = text.rfind("\n", 0, chunk.start_pos) + 1
        if (
            text[line_start : chunk.start_pos].strip()
            and count(text[line_start : text.find("\n", chunk.start_pos)]) <= budget
        ):
            score.mid_line += 1
            score.examples.append(f"mid-line: {text[line_start : chunk.start_pos + 30]!r}")
        neighbours = [chunks[j] for j in (i - 1, i + 1) if 0 <= j < len(chunks)]
        if chunk.token_count <= SMALL and any(
            count(text[min(chunk.start_pos, n.start_pos) : max(chunk.end_pos, n.end_pos)]) <= budget for n in neighbours
        ):
            score.small += 1
            score.examples.append(f"small: {chunk.text!r}")
        first_statement_end = blocks.get(chunk.start_pos)
        alone = "\n" not in chunk.text and first_statement_end is not None and first_statement_end > chunk.end_pos
        if alone and count(text[chunk.start_pos : first_statement_end]) <= budget:
            score.header_alone += 1
            score.examples.append(f"header alone: {chunk.text!r}")
        inner = [d for d in definitions if d[0] <= chunk.start_pos < d[1]]
        expected = max(inner, key=lambda d: d[0])[2] if inner else None
        if chunk.metadata.get("symbol") != expected and not _starts_definition(chunk, definitions, expected):
            score.wrong_symbol += 1
            score.examples.append(f"symbol {chunk.metadata.get('symbol')!r} for {expected!r}: {chunk.text[:40]!r}")
    for start, _, name, doc in definitions:
        if doc is None or count(text[start : text.find("\n", doc) + 1]) > budget:
            continue
        score.docstrings += 1
        holder = next((c for c in chunks if c.start_pos <= start < c.end_pos), None)
        if holder is None or holder.end_pos <= doc:
            score.docstrings_apart += 1
            score.examples.append(f"docstring apart: {name}")


def _starts_definition(
    chunk: TextChunk, definitions: list[tuple[int, int, str, int | None]], expected: str | None
) -> bool:
    """Whether the chunk opens with the comments or decorators of a definition it names."""
    symbol = chunk.metadata.get("symbol")
    return any(name == symbol and chunk.start_pos <= start < chunk.end_pos for start, _, name, _ in definitions) and (
        expected is None or symbol != expected
    )


def measure(budget: int) -> LineScore:
    """The score over the stdlib modules at `budget` tokens."""
    splitter = OutlineTextSplitter(doc_type="python", chunk_size=budget)
    score = LineScore()
    for path in stdlib_module_paths():
        text = path.read_text(encoding="utf-8")
        score_code_lines(text, splitter.split(text), splitter.tokenizer.count, budget, score)
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--show", action="store_true", help="print each failure")
    args = parser.parse_args()
    score = measure(args.budget)
    print(f"{score.chunks} chunks at {args.budget} tokens:")
    for name in ("mid_line", "small", "header_alone", "wrong_symbol"):
        print(f"  {name.replace('_', ' ')}: {getattr(score, name)} ({score.rate(name):.2%})")
    print(f"  docstrings apart: {score.docstrings_apart} of {score.docstrings}")
    if args.show:
        print("\n".join(f"    {line}" for line in score.examples))


if __name__ == "__main__":
    main()
