"""A page that shows how a document was split: `OutlineTextSplitter.view(text)` and
`outline-splitter view FILE -o OUT.html`.

The page is one self-contained HTML file (its style and script inline: no network, no
external script or font). The source is shown whole, each chunk's span marked by one
element carrying `data-index`, `data-start`, `data-end` and `data-tokens` (the chunk's
offsets and token count as `split()` gives them), so the text of the source pane before
a chunk's element is exactly `text[:start]`. Beside it: the outline, a summary (budget,
token counts), the problems found, and the selected chunk's details (token count
against the budget, heading path or code symbol, overlaps, parent chunk with
`hierarchy=True`). In HTML text mode (`output="text"`) the chunks show their extracted
text, each with a link to its span in the source.

Problems flagged (`SplitView.problems`): text that is in no chunk (`uncovered`: what the
format's view shows between chunks, non-space characters, in HTML not markup alone, in
text mode what the span reads as; `left_out` instead, not counted as a problem, where
`content`, `include` or `exclude` leave parts out on purpose), chunks over `chunk_size`
(`over_budget`), counts that a plain count of the text does not give (`miscounted`), and
offsets that do not slice the source (`bad_offsets`: out of range, out of order, or a
chunk whose text is not what its span reads as), and a chunk of HTML source that starts
or ends inside a tag (`cut_tag`: one that fits the budget, which the packer never cuts).

The source pane's text is the source one for one, but for a NUL, which an HTML parser
drops: it shows as U+FFFD (one character too, so every offset holds).
"""

from __future__ import annotations

import json
import statistics
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib.resources import files
from pathlib import Path
from typing import Any

from outline_splitter.models import TextChunk
from outline_splitter.nodes import Node
from outline_splitter.packing.view import ChunkView

# Outline nodes shown beside the source (depth first); the rest is counted, not drawn:
# `outline-splitter outline FILE` prints every node.
MAX_OUTLINE_NODES = 5_000
# Problems listed one by one in the summary (all are in `SplitView.problems`).
MAX_LISTED_PROBLEMS = 300
# The source pane's blocks: about this many characters each, and the height of a line
# (CSS: 12 px at line-height 1.6), for the height of a block not laid out yet.
BLOCK = 16_384
LINE_PX = 19.2
# Characters of a problem's text quoted in its message.
SNIPPET = 60


@dataclass(frozen=True)
class Problem:
    """Something wrong with a split, found by `find_problems`.

    `kind` is `"uncovered"`, `"over_budget"`, `"miscounted"`, `"bad_offsets"` or
    `"cut_tag"`, or `"left_out"` for text in no chunk where the options leave parts out
    (`content`, `include`, `exclude`): shown, not counted as a problem;
    `[start, end)` is the source span concerned; `chunk` the chunk's index (None for
    uncovered text)."""

    kind: str
    start: int
    end: int
    message: str
    chunk: int | None = None


@dataclass(frozen=True)
class ViewOptions:
    """What the page says of the split: the splitter's settings it shows beside the chunks."""

    doc_type: str
    chunk_size: int
    max_chunk_size: int
    chunk_overlap: int = 0
    text_mode: bool = False
    hierarchy: bool = False
    tokenizer: str = ""
    title: str = ""


@dataclass
class SplitView:
    """A split shown as a page: `html` (the page itself), the `chunks` it shows and the
    `problems` found. `save(path)` writes the page; in Jupyter the object displays the
    page inline (`_repr_html_`, in an isolated frame)."""

    html: str
    chunks: list[TextChunk]
    problems: list[Problem] = field(default_factory=list)

    def save(self, path: str | Path) -> Path:
        """Write the page to `path` (UTF-8); returns the path."""
        target = Path(path)
        target.write_text(self.html, encoding="utf-8", errors="replace")
        return target

    def summary(self) -> str:
        """`"17 chunks, 2 problems, 4 parts left out"`: what the page shows, in a line."""
        real = sum(problem.kind != "left_out" for problem in self.problems)
        parts = [f"{len(self.chunks)} chunks", f"{real} problems" if real else "no problems"]
        if real < len(self.problems):
            parts.append(f"{len(self.problems) - real} parts left out")
        return ", ".join(parts)

    def _repr_html_(self) -> str:
        # The page is a document of its own: in a frame its style and script touch
        # nothing of the notebook around it.
        return (
            f'<iframe srcdoc="{escape(self.html)}" style="width:100%;height:640px;border:1px solid #ccc" '
            'sandbox="allow-scripts"></iframe>'
        )


def is_parent(chunk: TextChunk) -> bool:
    """A parent chunk of `hierarchy=True`: its span is its section's (it holds its
    section's own text, or its outline), over the leaves' spans."""
    return chunk.metadata.get("role") == "parent"


def find_problems(
    text: str,
    chunks: Sequence[TextChunk],
    chunk_size: int,
    max_chunk_size: int,
    count: Callable[[str], int],
    *,
    view: Callable[[], ChunkView] | None = None,
    tags: Callable[[], tuple[Sequence[int], Sequence[int]]] | None = None,
    text_mode: bool = False,
    leaves_out: bool = False,
    parent_budget: int | None = None,
) -> list[Problem]:
    """What is wrong with `chunks` of `text`, in source order. `count` counts a chunk's
    tokens. `view()` makes the split's view of the document (its format's: what a span
    reads as, which edges of a span add nothing, whether markup alone shows anything),
    asked for only where a span between chunks holds more than white space (None: plain
    text, where only white space adds nothing). With `text_mode` a chunk's text is what
    its span reads as, else its slice. `leaves_out`: the options leave parts of the text
    out on purpose (what shows of them is `"left_out"`, not `"uncovered"`). `tags()`:
    the starts and ends of the source's tags (`FormatHooks.tags`; None: it has none).
    `parent_budget`: the most tokens of a parent chunk of `hierarchy=True` (None:
    `chunk_size`)."""
    problems: list[Problem] = []
    reader = _Reader(text, view, tags)
    cursor = 0
    for chunk in chunks:
        if not 0 <= chunk.start_pos <= chunk.end_pos <= len(text):
            problems.append(_outside(chunk, len(text)))
            continue
        budget = parent_budget or chunk_size if is_parent(chunk) else chunk_size
        problems += _count_problems(chunk, count, budget, max_chunk_size)
        if is_parent(chunk):
            continue  # a parent's text names its parts; its span is its section's
        problems += _span_problems(chunk, reader, cursor, text_mode, leaves_out)
        problems += _cut_tags(chunk, reader, count, chunk_size)
        cursor = max(cursor, chunk.end_pos)
    problems.extend(_uncovered(reader, cursor, len(text), leaves_out))
    problems.sort(key=lambda problem: problem.start)
    return problems


def _outside(chunk: TextChunk, length: int) -> Problem:
    start, end = chunk.start_pos, chunk.end_pos
    where = f"[{start}, {end}) is outside the text (0-{length})"
    return Problem("bad_offsets", start, end, where, chunk.metadata.get("index"))


def _cut_tags(chunk: TextChunk, reader: _Reader, count: Callable[[str], int], budget: int) -> list[Problem]:
    """A problem for each edge of `chunk` strictly inside a tag of at most `budget`
    tokens, which the packer never cuts (a tag over the budget alone is cut as text)."""
    problems: list[Problem] = []
    for edge, position in (("starts", chunk.start_pos), ("ends", chunk.end_pos)):
        tag = reader.tag_around(position)
        if tag is None:
            continue
        source = reader.text[tag[0] : tag[1]]
        tokens = count(source)
        if tokens <= budget:
            snippet = source[:SNIPPET] + ("..." if len(source) > SNIPPET else "")
            message = f"{edge} inside the tag {snippet!r} at [{tag[0]}, {tag[1]}) ({tokens} tokens)"
            problems.append(Problem("cut_tag", chunk.start_pos, chunk.end_pos, message, chunk.metadata.get("index")))
    return problems


def _count_problems(chunk: TextChunk, count: Callable[[str], int], budget: int, max_chunk_size: int) -> list[Problem]:
    """Whether `chunk` reports another count than its text has, and passes `budget`."""
    index = chunk.metadata.get("index")
    start, end = chunk.start_pos, chunk.end_pos
    problems: list[Problem] = []
    counted = count(chunk.text)
    if counted != chunk.token_count:
        problems.append(
            Problem("miscounted", start, end, f"reports {chunk.token_count} tokens, its text has {counted}", index)
        )
    tokens = max(counted, chunk.token_count)
    if tokens > budget:
        allowed = f" (max_chunk_size {max_chunk_size} allows a node kept whole)" if tokens <= max_chunk_size else ""
        problems.append(Problem("over_budget", start, end, f"{tokens} tokens > {budget}{allowed}", index))
    return problems


def _span_problems(chunk: TextChunk, reader: _Reader, cursor: int, text_mode: bool, leaves_out: bool) -> list[Problem]:
    """Whether a leaf `chunk`'s text is not what its span reads as, and whether it starts
    inside the chunk before (which ends at `cursor`), else the text between them that
    no chunk holds."""
    index = chunk.metadata.get("index")
    start, end = chunk.start_pos, chunk.end_pos
    problems: list[Problem] = []
    if chunk.text != (reader.reads(start, end) if text_mode else reader.text[start:end]):
        problems.append(
            Problem("bad_offsets", start, end, f"its text is not what [{start}, {end}) of the source reads", index)
        )
    if start < cursor:
        problems.append(
            Problem("bad_offsets", start, end, f"starts at {start}, inside the chunk before (ends {cursor})", index)
        )
    else:
        problems.extend(_uncovered(reader, cursor, start, leaves_out))
    return problems


class _Reader:
    """What spans of the text read as and show, through the split's view, made when
    first needed (a format's view may encode the whole text)."""

    def __init__(
        self,
        text: str,
        make: Callable[[], ChunkView] | None,
        tags: Callable[[], tuple[Sequence[int], Sequence[int]]] | None = None,
    ) -> None:
        self.text = text
        self._make = make
        self._view: ChunkView | None = None
        self._make_tags = tags
        self._tags: tuple[Sequence[int], Sequence[int]] | None = None

    def tag_around(self, position: int) -> tuple[int, int] | None:
        """The span of the tag `position` falls strictly inside, or None."""
        if self._make_tags is None:
            return None
        if self._tags is None:
            self._tags = self._make_tags()
        starts, ends = self._tags
        i = bisect_left(starts, position) - 1  # the last tag that starts before `position`
        return (starts[i], ends[i]) if i >= 0 and ends[i] > position else None

    def _get(self) -> ChunkView | None:
        if self._view is None and self._make is not None:
            self._view = self._make()
        return self._view

    def reads(self, start: int, end: int) -> str:
        view = self._get()
        return view.text(start, end) if view is not None else self.text[start:end]

    def shown(self, start: int, end: int) -> str:
        """The visible text of a span outside every chunk ("" where it shows nothing)."""
        if not self.text[start:end].strip():
            return ""
        view = self._get()
        if view is None:
            return self.text[start:end].strip()
        start, end = view.trim(start, end)
        if start >= end or view.blank_side(start, end):
            return ""  # white space, or markup alone
        return view.text(start, end).strip()


def _uncovered(reader: _Reader, start: int, end: int, leaves_out: bool) -> list[Problem]:
    if start >= end:
        return []
    shown = reader.shown(start, end)
    if not shown:
        return []
    snippet = " ".join(shown.split())
    snippet = snippet[:SNIPPET] + ("..." if len(snippet) > SNIPPET else "")
    kind = "left_out" if leaves_out else "uncovered"
    return [Problem(kind, start, end, f"{len(shown)} characters in no chunk: {snippet!r}")]


def render_page(
    text: str,
    chunks: Sequence[TextChunk],
    outline: str,
    problems: Sequence[Problem],
    options: ViewOptions,
) -> str:
    """The page (see the module docstring) as one HTML string; `outline` is the
    outline pane's content (`render_outline`)."""
    leaves = [chunk for chunk in chunks if not is_parent(chunk)]
    parents = [chunk for chunk in chunks if is_parent(chunk)]
    gaps = {(p.start, p.end): p.kind for p in problems if p.kind in ("uncovered", "left_out")}
    over = {p.chunk for p in problems if p.kind == "over_budget"}
    flagged = {p.chunk for p in problems if p.chunk is not None}
    tabs, centre = _centre(text, leaves, gaps, (over, flagged), options.text_mode)
    title = options.title or "document"
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}: {len(chunks)} chunks</title><style>{_asset('view.css')}</style></head>"
        f'<body class="{"text-mode" if options.text_mode else "source-mode"}">'
        f"<header>{_header(text, chunks, problems, options)}</header>"
        f'<main><aside id="outline"><h2>Outline</h2>{outline}</aside>'
        f'<section id="centre">{tabs}{centre}</section>'
        f'<aside id="side"><div id="detail"><h2>Chunk</h2><p class="hint">Click a chunk (or use j / k).</p></div>'
        f"{_problems(problems)}{_parents(parents, over, flagged)}</aside></main>"
        f'<script type="application/json" id="data">{_data(chunks, problems, options)}</script>'
        f"<script>{_asset('view.js')}</script></body></html>\n"
    )


def _centre(
    text: str,
    leaves: list[TextChunk],
    gaps: dict[tuple[int, int], str],
    marks: tuple[set[Any], set[Any]],
    text_mode: bool,
) -> tuple[str, str]:
    """The centre pane's tabs and content: in text mode, the chunks' texts and (a tab
    away) the source; else the source with the chunks' overlaps. `marks`: the chunks
    over budget and those with any problem."""
    over, flagged = marks
    if text_mode:
        centre = (
            '<div id="text" class="pane">'
            + "".join(_text_chunk(chunk, over, flagged) for chunk in leaves)
            + '</div><div id="source" class="pane src" hidden>'
            + _source(text, leaves, gaps, over, flagged, "span", with_overlaps=False)
            + "</div>"
        )
        tabs = (
            '<nav class="tabs"><button data-tab="text" class="on">Text</button>'
            '<button data-tab="source">Source</button></nav>'
        )
    else:
        centre = (
            '<div id="source" class="pane src">'
            + _source(text, leaves, gaps, over, flagged, "chunk", with_overlaps=True)
            + "</div>"
        )
        tabs = ""
    return tabs, centre


def _data(chunks: Sequence[TextChunk], problems: Sequence[Problem], options: ViewOptions) -> str:
    """The page's data for its script (chunks, problems, budget), as JSON safe in a script element."""
    return json.dumps(
        {
            "budget": options.chunk_size,
            "text_mode": options.text_mode,
            "chunks": [_record(chunk) for chunk in chunks],
            "problems": [[p.kind, p.start, p.end, p.message, p.chunk] for p in problems],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).replace("</", "<\\/")


@cache
def _asset(name: str) -> str:
    """The page's style or script, inlined (`outline_splitter/assets/`)."""
    return files("outline_splitter").joinpath("assets", name).read_text(encoding="utf-8")


def _attributes(chunk: TextChunk, kind: str, over: set[Any], flagged: set[Any]) -> str:
    index = chunk.metadata.get("index")
    classes = [kind, f"k{index % 6 if isinstance(index, int) else 0}"]
    if index in over:
        classes.append("over")
    if index in flagged:
        classes.append("flag")
    prefix = "c" if kind == "chunk" else "s"
    return (
        f'class="{" ".join(classes)}" id="{prefix}{index}" data-index="{index}" '
        f'data-start="{chunk.start_pos}" data-end="{chunk.end_pos}" data-tokens="{chunk.token_count}"'
    )


def _escape_source(text: str) -> str:
    """Text for the source pane: its characters as the page's text content, one for one
    (a carriage return is a reference, since the HTML parser folds a raw one into a line
    feed; NUL, which the parser drops, shows as U+FFFD)."""
    text = escape(text, quote=False)
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    if "\0" in text:
        text = text.replace("\0", "\ufffd")
    return text


def _source(
    text: str,
    chunks: Sequence[TextChunk],
    gaps: dict[tuple[int, int], str],
    over: set[Any],
    flagged: set[Any],
    kind: str,
    with_overlaps: bool,
) -> str:
    """The source with one element of class `kind` per chunk around its span, and the
    uncovered spans marked; the pane's text is `text` itself. It comes in blocks of about
    `BLOCK` characters, each ending at a line end between chunks, which the browser lays
    out only when they near the screen (CSS `content-visibility`)."""
    pane = _SourcePane(text, gaps)
    for number, chunk in enumerate(chunks):
        start = min(max(chunk.start_pos, pane.cursor), len(text))
        end = min(max(chunk.end_pos, start), len(text))
        pane.gap(start)
        following = chunks[number + 1] if number + 1 < len(chunks) else None
        middle = max(start, end - _shared_tail(text, chunk, following, with_overlaps))
        pane.out.append(f"<span {_attributes(chunk, kind, over, flagged)}>{_escape_source(text[start:middle])}")
        if middle < end:
            pane.out.append(f'<span class="ov">{_escape_source(text[middle:end])}</span>')
        pane.out.append("</span>")
        pane.cursor = end
    pane.gap(len(text))
    pane.close_block(len(text))
    return "".join(pane.out)


class _SourcePane:
    """The source pane as `_source` writes it: its pieces (`out`), where the open
    block's start tag goes (`opening`, once its lines are known) and where it starts
    (`block`), and how far the text is written (`cursor`)."""

    def __init__(self, text: str, gaps: dict[tuple[int, int], str]) -> None:
        self.text = text
        self.gaps = gaps
        self.out: list[str] = [""]
        self.opening = 0
        self.cursor = self.block = 0

    def close_block(self, end: int) -> None:
        # the height of a block before it is laid out: its lines (wrapping aside)
        height = (self.text.count("\n", self.block, end) + 1) * LINE_PX
        self.out[self.opening] = f'<div class="blk" style="contain-intrinsic-size:auto {height:.0f}px">'
        self.out.append("</div>")

    def gap(self, end: int) -> None:
        """The text from `cursor` to `end`, between chunks: marked where no chunk holds
        it, and cut into blocks at line ends."""
        text, cursor, out = self.text, self.cursor, self.out
        if end <= cursor:
            return
        if (cursor, end) in self.gaps:
            piece = _escape_source(text[cursor:end])
            kind = "gap left" if self.gaps[cursor, end] == "left_out" else "gap"
            out.append(f'<span class="{kind}" data-start="{cursor}" data-end="{end}">{piece}</span>')
            return
        cut = text.rfind("\n", cursor, end) + 1 if end - self.block >= BLOCK else 0
        if cut <= self.block:
            out.append(_escape_source(text[cursor:end]))
            return
        out.append(_escape_source(text[cursor:cut]))
        self.close_block(cut - 1)
        self.opening, self.block = len(out), cut
        out.append("")
        out.append(_escape_source(text[cut:end]))


def _shared_tail(text: str, chunk: TextChunk, following: TextChunk | None, with_overlaps: bool) -> int:
    """How many characters at the end of `chunk` the next chunk records as its
    `start_overlap` (0 where that is not this chunk's own tail)."""
    if not with_overlaps or following is None or not following.start_overlap:
        return 0
    shared = following.start_overlap
    return len(shared) if text[chunk.start_pos : chunk.end_pos].endswith(shared) else 0


def _text_chunk(chunk: TextChunk, over: set[Any], flagged: set[Any]) -> str:
    index = chunk.metadata.get("index")
    lines = f"lines {chunk.metadata.get('start_line')}-{chunk.metadata.get('end_line')}"
    return (
        f"<div {_attributes(chunk, 'chunk', over, flagged)}>"
        f'<a class="srclink" href="#s{index}">#{index} · {chunk.token_count} tokens · '
        f"source [{chunk.start_pos}, {chunk.end_pos}) · {lines}</a>"
        f'<div class="txt">{_escape_source(chunk.text)}</div></div>'
    )


def _record(chunk: TextChunk) -> dict[str, Any]:
    """What the script shows of a chunk when it is selected."""
    meta = chunk.metadata
    where = meta.get("symbol_path") or meta.get("heading_path") or []
    return {
        "i": meta.get("index"),
        "s": chunk.start_pos,
        "e": chunk.end_pos,
        "t": chunk.token_count,
        "path": " > ".join(map(str, where)),
        "sym": bool(meta.get("symbol_path")),
        "lines": [meta.get("start_line"), meta.get("end_line")],
        "so": _short(chunk.start_overlap),
        "eo": _short(chunk.end_overlap),
        "parent": meta.get("parent_id"),
        "id": meta.get("id"),
        "role": meta.get("role"),
        "kinds": meta.get("kinds", []),
        "sid": meta.get("section_id"),
    }


def _short(shared: str) -> list[Any]:
    """An overlap as its length and its ends (a long one is cut in the middle)."""
    if len(shared) <= 2 * SNIPPET:
        return [len(shared), shared]
    return [len(shared), f"{shared[:SNIPPET]} ... {shared[-SNIPPET:]}"]


def _header(text: str, chunks: Sequence[TextChunk], problems: Sequence[Problem], options: ViewOptions) -> str:
    counts = [chunk.token_count for chunk in chunks if not is_parent(chunk)]
    stats = "no chunks"
    if counts:
        stats = f"tokens min {min(counts)} · median {statistics.median(counts):g} · max {max(counts)}"
    cap = f" (cap {options.max_chunk_size})" if options.max_chunk_size > options.chunk_size else ""
    settings = [
        f"doc_type <b>{escape(options.doc_type)}</b>",
        f"budget <b>{options.chunk_size}</b>{cap}",
        f"overlap <b>{options.chunk_overlap}</b>",
    ]
    if options.text_mode:
        settings.append("output <b>text</b>")
    if options.hierarchy:
        settings.append("hierarchy")
    if options.tokenizer:
        settings.append(escape(options.tokenizer))
    real = sum(problem.kind != "left_out" for problem in problems)
    state = f'<span class="bad">{real} problems</span>' if real else '<span class="ok">no problems</span>'
    if real < len(problems):
        state += f" · {len(problems) - real} parts left out (content)"
    return (
        f"<h1>{escape(options.title or 'document')}</h1>"
        f"<p>{len(text):,} characters · <b>{len(chunks)}</b> chunks · {stats} · {' · '.join(settings)} · {state}</p>"
        f"{_histogram(counts, options.chunk_size)}"
    )


def _histogram(counts: Sequence[int], budget: int) -> str:
    """Chunks per tenth of the budget (the last bar: over it), as bars."""
    if not counts:
        return ""
    bins = [0] * 11
    for tokens in counts:
        bins[min(max(tokens - 1, 0) * 10 // max(budget, 1), 10)] += 1
    top = max(bins)
    bars = "".join(
        f'<i style="height:{max(round(28 * n / top), 1 if n else 0)}px" class="{"over" if b == 10 else ""}" '
        f'title="{n} chunks of {b * 10}-{b * 10 + 10}% of the budget"></i>'
        for b, n in enumerate(bins)
    )
    return f'<div class="hist" title="chunks by size, tenths of the budget">{bars}</div>'


def render_outline(root: Node) -> str:
    """The outline as nested lists, depth first, up to `MAX_OUTLINE_NODES` nodes (the
    rest counted); deferred parts are built as they are reached."""
    out: list[str] = []
    shown = total = 0
    stack: list[tuple[Node | None, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            out.append("</ul></details></li>")
            continue
        total += 1
        children = node.expanded_children()
        if shown >= MAX_OUTLINE_NODES:
            stack.extend((child, depth + 1) for child in children)
            continue
        shown += 1
        label = node.label.title or node.label.symbol or "" if node.label is not None else ""
        link = (
            f'<a href="#" data-start="{node.start}" data-end="{node.end}"><b>{escape(node.kind)}</b> '
            f"{escape(label)}</a> <small>[{node.start}, {node.end})</small>"
        )
        if children:
            opened = " open" if depth < 2 else ""
            out.append(f"<li><details{opened}><summary>{link}</summary><ul>")
            stack.append((None, depth))
            stack.extend((child, depth + 1) for child in reversed(children))
        else:
            out.append(f"<li>{link}</li>")
    more = f'<p class="hint">{total - shown:,} more nodes not shown</p>' if total > shown else ""
    return f'<ul class="tree">{"".join(out)}</ul>{more}'


def _problems(problems: Sequence[Problem]) -> str:
    if not problems:
        return (
            '<div id="problems"><h2>Problems</h2><p class="ok">None: every non-space character is in a chunk, '
            "every chunk within budget, every offset slices the source.</p></div>"
        )
    kinds: dict[str, int] = {}
    for problem in problems:
        kinds[problem.kind] = kinds.get(problem.kind, 0) + 1
    summary = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in kinds.items())
    items = "".join(
        f'<li class="{p.kind}"><a href="#" data-start="{p.start}" data-chunk="{"" if p.chunk is None else p.chunk}">'
        f"{'#' + str(p.chunk) + ' ' if p.chunk is not None else ''}[{p.start}, {p.end})</a> {escape(p.message)}</li>"
        for p in problems[:MAX_LISTED_PROBLEMS]
    )
    more = ""
    if len(problems) > MAX_LISTED_PROBLEMS:
        more = f'<p class="hint">and {len(problems) - MAX_LISTED_PROBLEMS:,} more</p>'
    shade = "bad" if any(problem.kind != "left_out" for problem in problems) else "hint"
    return f'<div id="problems"><h2>Problems</h2><p class="{shade}">{summary}</p><ul>{items}</ul>{more}</div>'


def _parents(parents: Sequence[TextChunk], over: set[Any], flagged: set[Any]) -> str:
    """The parent chunks of `hierarchy=True`, each an element like a leaf's (its span
    is its whole section's)."""
    if not parents:
        return ""
    items = "".join(
        f"<div {_attributes(chunk, 'chunk', over, flagged)}><b>#{chunk.metadata.get('index')}</b> "
        f"{escape(' > '.join(chunk.metadata.get('heading_path', [])) or '(no heading)')} "
        f"<small>{chunk.token_count} tokens · {len(chunk.metadata.get('subsections', []))} parts</small></div>"
        for chunk in parents
    )
    return f'<div id="parents"><h2>Parent chunks</h2>{items}</div>'
