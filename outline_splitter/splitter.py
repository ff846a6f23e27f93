"""`OutlineTextSplitter`: the public entry point (outline, then pack)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from outline_splitter.documents import D, Document, check_chunk_header, check_document, documents_of, parts_of
from outline_splitter.gc_pause import paused_gc
from outline_splitter.hierarchy import MIN_PARENT_BUDGET, build_hierarchy
from outline_splitter.models import OutlineNode, TextChunk
from outline_splitter.nodes import Node, Trait, check_outline
from outline_splitter.packing import ChunkView, SourceView, pack_outline
from outline_splitter.packing.lines import LineIndex
from outline_splitter.packing.metadata import ChunkMetadata
from outline_splitter.packing.overlap import overlaps
from outline_splitter.reading import UndecodableError, check_decoding, read_text_file
from outline_splitter.registry import (
    DocFormat,
    doc_type_for_path,
    load_detector,
    load_hooks,
    load_kinds,
    resolve_doc_type,
)
from outline_splitter.tokens import Tokenizer, resolve_tokenizer, span_counter_for

# The values of the `content` option.
CONTENT = ("all", "main")


class OutlineTextSplitter:
    """Split documents into token-budgeted chunks along their structure.

    Args:
        doc_type: the format (`"markdown"`, `"text"`, ... see `registry.doc_types()`),
            or `"auto"` to pick it from the file extension in `split_file`.
        chunk_size: the most tokens a chunk has.
        chunk_overlap: tokens of each neighbour recorded in `start_overlap` /
            `end_overlap` (never part of `text`); `0 <= chunk_overlap < chunk_size`.
        overlap_across_sections: let an overlap cross a section boundary (by default
            the first chunk of a section shares nothing of the section before it).
        tokenizer: a tiktoken encoding name, a `tiktoken.Encoding`, a Hugging Face
            tokenizer, a `Tokenizer`, or a callable `str -> int`.
        max_chunk_size: the hard cap for nodes kept whole by `never_break_within`
            (default: `chunk_size`, so no chunk ever passes `chunk_size`).
        min_chunk_size: a chunk with fewer tokens joins a neighbour in the same section
            where the budget allows.
        never_break_within: node kinds (e.g. `"code"`, `"table"`) kept whole up to
            `max_chunk_size`; for HTML, CSS selectors (e.g. `"pre"`, `".keep"`).
        separators: node kinds (for HTML, CSS selectors) that start a group with the
            siblings after them when their parent must be broken; a separator and its
            group stay whole up to `max_chunk_size` (soft hints: nothing is cut at a
            separator where the parent fits).
        output: how a chunk's text is rendered, for formats that have more than one way
            (HTML: `"html"`, slices of the source, the default; `"text"`, the readable
            text of the span, sized in tokens of that text). `None`: the format's default.
        content: which parts of the document the chunks hold, for formats that can tell
            (HTML): `"all"` (the default: everything) or `"main"` (the page's main
            content, without navigation, sidebars, footers, hidden elements and
            widgets). What is left out is in no chunk; offsets are still exact.
        include: CSS selectors (HTML) of the elements to keep instead of the main
            content found by `"main"` (with `"all"`: instead of the whole page).
        exclude: CSS selectors (HTML) of elements to leave out, with either `content`.
        hierarchy: also yield a parent chunk for each section too large for one chunk:
            its heading, its opening text and one reference line per part broken out
            (`metadata["role"]` `"parent"`, leaves `"leaf"`; `subsections`, `parent_id`;
            see `outline_splitter.hierarchy` and docs/retrieval.md). A parent's text is
            not a slice of the source. Needs `chunk_size >= 64`.
        header_levels: Markdown heading levels (1-6) that start a chunk: each heading of
            these levels begins a new chunk, deeper headings stay inside their parent's
            chunks where they fit (and the end of a broken deeper section may share a
            chunk with what follows). None: no heading forces a chunk to start.
        context_in_budget: `chunk_size` bounds `contextualize(chunk)` (context, then
            text) instead of the text alone, so what is embedded fits the model's limit.
    """

    def __init__(
        self,
        doc_type: str = "markdown",
        chunk_size: int = 512,
        chunk_overlap: int = 0,
        tokenizer: Any = "cl100k_base",
        max_chunk_size: int | None = None,
        min_chunk_size: int = 0,
        never_break_within: Sequence[str] = (),
        separators: Sequence[str] = (),
        output: str | None = None,
        id_prefix: str | None = None,
        content: str = "all",
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        hierarchy: bool = False,
        context_in_budget: bool = False,
        header_levels: Sequence[int] | None = None,
        overlap_across_sections: bool = False,
    ) -> None:
        _require_int("chunk_size", chunk_size, 1, None)
        _require_bool("hierarchy", hierarchy)
        if hierarchy and chunk_size < MIN_PARENT_BUDGET:
            raise ValueError(
                f"hierarchy=True needs chunk_size >= {MIN_PARENT_BUDGET} (a parent chunk holds a heading, "
                f"a reference line and a continuation line), not {chunk_size}"
            )
        self.hierarchy = hierarchy
        _require_bool("context_in_budget", context_in_budget)
        self.context_in_budget = context_in_budget
        self.header_levels = _check_header_levels(header_levels)
        _require_int("chunk_overlap", chunk_overlap, 0, chunk_size - 1)
        if max_chunk_size is not None:
            _require_int("max_chunk_size", max_chunk_size, chunk_size, None)
        _require_int("min_chunk_size", min_chunk_size, 0, chunk_size)
        if isinstance(never_break_within, str):
            raise ValueError("never_break_within must be a sequence of node kinds, not a single string")
        if isinstance(separators, str):
            raise ValueError("separators must be a sequence of node kinds or selectors, not a single string")
        for name, names in (("never_break_within", never_break_within), ("separators", separators)):
            for item in names:
                if not isinstance(item, str) or not item.strip():
                    raise ValueError(
                        f"{name} holds {item!r}: each must be a node kind or a CSS selector (a non-blank str)"
                    )
        if id_prefix is not None and (not isinstance(id_prefix, str) or not id_prefix.strip()):
            raise ValueError(f"id_prefix must be a non-blank string or None, not {id_prefix!r}")
        self.doc_type = doc_type
        self._format: DocFormat | None = None if doc_type == "auto" else resolve_doc_type(doc_type)
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        _require_bool("overlap_across_sections", overlap_across_sections)
        self.overlap_across_sections = overlap_across_sections
        self.max_chunk_size = chunk_size if max_chunk_size is None else max_chunk_size
        self.min_chunk_size = min_chunk_size
        self.never_break_within = tuple(never_break_within)
        self.separators = tuple(separators)
        self.output = output
        self.id_prefix = id_prefix
        if content not in CONTENT:
            raise ValueError(f"content must be one of {', '.join(map(repr, CONTENT))}, not {content!r}")
        for name, selectors in (("include", include), ("exclude", exclude)):
            if isinstance(selectors, str):
                raise ValueError(f"{name} must be a sequence of CSS selectors, not a single string")
        self.content = content
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        if self._format is not None:
            self._check_header_format(self._format)
            self._output_for(self._format)
            self._content_hook(self._format)
            self._check_names(self._format)
        self.tokenizer: Tokenizer = resolve_tokenizer(tokenizer)

    # -- pass one -------------------------------------------------------------------

    def outline(self, text: str) -> OutlineNode:
        """The document's outline (pass one alone), as validated `OutlineNode`s."""
        _check_text(text)
        with paused_gc():
            return OutlineNode.from_node(self._detect(text, self._require_format()).expand_all())

    def _require_format(self) -> DocFormat:
        if self._format is None:
            raise ValueError('doc_type "auto" needs a file name: use split_file(path), or pass doc_type')
        return self._format

    def _detect(self, text: str, fmt: DocFormat) -> Node:
        root = load_detector(fmt)(text)
        if isinstance(root, OutlineNode):  # a third-party detector may return the public model
            root = root.to_node()
        check_outline(root, len(text))
        self.mark_nodes(text, root, fmt)
        if self.header_levels is not None:
            self._check_header_format(fmt)
            _mark_header_levels(root, self.header_levels)
        select = self._content_hook(fmt)
        if select is not None:
            select(text, root, self.content, self.include, self.exclude)
        return root

    def _content_hook(self, fmt: DocFormat) -> Callable[[str, Node, str, Sequence[str], Sequence[str]], None] | None:
        """The format's content selection, if the options ask for one; `ValueError`
        naming `content` where the format cannot choose its content."""
        if self.content == "all" and not self.include and not self.exclude:
            return None
        select = load_hooks(fmt).select
        if select is None:
            raise ValueError(
                f"content={self.content!r}, include and exclude are not available for doc_type {fmt.name!r} "
                "(only for formats that can choose their content, such as html)"
            )
        return select

    def mark_nodes(self, text: str, root: Node, fmt: DocFormat) -> None:
        """Add the traits the user's options ask for to the outline, before it is packed:
        `NEVER_BREAK` for `never_break_within`, `SEPARATOR` for `separators` (node kinds,
        or what the format's marker hook matches, e.g. CSS selectors for HTML). A
        subclass may extend it to set traits of its own (`HTMLTextSplitter` does)."""
        if not self.never_break_within and not self.separators:
            return
        mark = load_hooks(fmt).mark
        if mark is not None:
            mark(text, root, self.never_break_within, self.separators)
            return
        self._check_names(fmt)
        never_break = set(self.never_break_within)
        separators = set(self.separators)
        for node in root.expand_all().walk():
            if node.kind in never_break:
                node.traits |= Trait.NEVER_BREAK
            if node.kind in separators:
                node.traits |= Trait.SEPARATOR

    def _check_header_format(self, fmt: DocFormat) -> None:
        """`ValueError` naming `header_levels` for a format other than Markdown."""
        if self.header_levels is not None and fmt.name != "markdown":
            raise ValueError(f"header_levels is for doc_type 'markdown' (headings that start chunks), not {fmt.name!r}")

    def _check_names(self, fmt: DocFormat) -> None:
        """`ValueError` naming the option if `never_break_within` or `separators` holds
        what the format cannot read: a kind its detector never makes (listing its
        kinds), or what its own `check` hook refuses (for HTML, a CSS selector that does
        not parse)."""
        hooks = load_hooks(fmt)
        if hooks.mark is not None:
            if hooks.check is not None:
                hooks.check(self.never_break_within, self.separators)
            return
        kinds = load_kinds(fmt)
        if kinds is None:
            return
        for name, names in (("never_break_within", self.never_break_within), ("separators", self.separators)):
            unknown = [kind for kind in names if kind not in kinds]
            if unknown:
                raise ValueError(
                    f"{name}: {', '.join(map(repr, unknown))} is not a node kind of doc_type {fmt.name!r}; "
                    f"its kinds are {', '.join(sorted(kinds))}"
                )

    def _output_for(self, fmt: DocFormat) -> str:
        """The output mode for `fmt`; `ValueError` naming `output` if it has no such mode."""
        if self.output is None:
            return fmt.outputs[0]
        if self.output not in fmt.outputs:
            raise ValueError(
                f"output {self.output!r} is not available for doc_type {fmt.name!r}; allowed: {', '.join(fmt.outputs)}"
            )
        return self.output

    # -- pass two -------------------------------------------------------------------

    def split(self, text: str, *, document_id: str = "") -> list[TextChunk]:
        """Chunks of `text`, in order (`[]` for empty or blank text). `document_id` (a path,
        a URL) goes into every chunk id, so equal texts of two documents get two ids;
        `id_prefix` overrides it."""
        if not isinstance(document_id, str):
            raise ValueError(f"document_id must be a str, not {type(document_id).__name__}")
        return self._split_fitting(text, self._require_format(), "", document_id)

    def split_file(self, path: str | Path, encoding: str = "utf-8", errors: str = "strict") -> list[TextChunk]:
        """Chunks of a file; with `doc_type="auto"` the format comes from its extension.

        Bytes that do not decode raise a `ValueError` naming the file and the byte
        offset, unless `errors` names another codec error handler (`"replace"` reads
        them as U+FFFD). A leading BOM is dropped: offsets are into the decoded text
        after it (`outline_splitter.reading`)."""
        check_decoding(encoding, errors)
        fmt = self._format or resolve_doc_type(doc_type_for_path(path))
        try:
            text = read_text_file(Path(path), encoding, errors)
        except UndecodableError as exc:
            raise ValueError(f"{path}: {exc}; pass errors='replace' to read such bytes as U+FFFD") from exc
        chunks = self._split_fitting(text, fmt, "", str(path))
        for chunk in chunks:
            chunk.metadata["source"] = str(path)
        return chunks

    def split_files(
        self, paths: Iterable[str | Path], encoding: str = "utf-8", errors: str = "strict"
    ) -> list[TextChunk]:
        """`split_file` of each path, one list in order (each chunk's `source` says whose)."""
        return [chunk for path in paths for chunk in self.split_file(path, encoding, errors)]

    def split_documents(self, documents: Iterable[D], chunk_header: str | None = None) -> list[D]:
        """One document per chunk of each document's `page_content`, of the input's own
        type (anything with `page_content` and `metadata`, LangChain's `Document` too).

        Each keeps its input's metadata as it is, adds the chunk's metadata keys the
        input lacks (the chunk's `id` always: ids are per chunk) and `partindex`
        (0-based) / `totalparts`, counted per input document. `chunk_header` is put
        before every chunk's text and counted in `chunk_size`. A document's id (for the
        chunk ids) is `id_prefix`, else its `metadata["source"]`."""
        header = check_chunk_header(chunk_header)
        out: list[D] = []
        for document in documents:
            check_document(document)
            document_id = self.id_prefix or str(document.metadata.get("source", ""))
            chunks = self._split_fitting(document.page_content, self._require_format(), header, document_id)
            out.extend(parts_of(document, [(header + chunk.text, chunk.metadata) for chunk in chunks]))
        return out

    def create_documents(
        self, texts: Iterable[str], metadatas: Iterable[dict[str, Any]] | None = None, chunk_header: str | None = None
    ) -> list[Document]:
        """`split_documents` of `Document`s made from `texts` and `metadatas`."""
        return self.split_documents(documents_of(texts, metadatas), chunk_header=chunk_header)

    def contextualize(self, chunk: TextChunk) -> str:
        """The text to embed for `chunk`: its `metadata["context"]` (heading path, a
        broken table's header row, a broken definition's signature), a line break, then
        its `text`; just `text` where it has no context."""
        context = chunk.metadata.get("context")
        return f"{context}\n{chunk.text}" if context else chunk.text

    def _split_fitting(self, text: str, fmt: DocFormat, header: str, document_id: str) -> list[TextChunk]:
        """Chunks whose text, with `header` before it (and, with `context_in_budget`,
        contextualized), fits `chunk_size`: that many tokens are taken off the budget,
        raised by what the longest one still passes it by until every chunk fits."""
        if not header and not self.context_in_budget:
            return self._split(text, fmt, document_id)
        reserve = self.tokenizer.count(header) if header else 0
        while True:
            if reserve >= self.chunk_size:
                what = "context_in_budget" if self.context_in_budget else "chunk_header"
                raise ValueError(
                    f"{what}: the chunk header or context takes {reserve} tokens, which leaves no room "
                    f"under chunk_size={self.chunk_size}"
                )
            chunks = self._split(text, fmt, document_id, reserve)
            if self.context_in_budget:
                for chunk in chunks:
                    self._cap_context(chunk)
            # a chunk kept whole past the budget (never_break_within) may pass it by as much
            over = max(
                (
                    self.tokenizer.count(header + (self.contextualize(c) if self.context_in_budget else c.text))
                    - max(self.chunk_size, c.token_count + reserve)
                    for c in chunks
                ),
                default=0,
            )
            if over <= 0:
                return chunks
            reserve += over

    def _cap_context(self, chunk: TextChunk) -> None:
        """Cut `chunk`'s context to a quarter of `chunk_size` tokens (a long heading path
        or an HTML header row full of markup would leave the text no room), at a character."""
        context = chunk.metadata.get("context")
        limit = self.chunk_size // 4
        if not context or self.tokenizer.count(context) <= limit:
            return
        low, high = 0, len(context)  # the longest prefix within the limit, by bisection
        while low < high:
            middle = (low + high + 1) // 2
            if self.tokenizer.count(context[:middle] + "...") <= limit:
                low = middle
            else:
                high = middle - 1
        chunk.metadata["context"] = context[:low] + "..." if low else ""

    def _view(self, text: str, root: Node, fmt: DocFormat, output: str) -> ChunkView:
        make_view = load_hooks(fmt).view
        if make_view is not None:
            return make_view(text, root, self.tokenizer, output)
        return SourceView(text, span_counter_for(self.tokenizer, text))

    def _split(self, text: str, fmt: DocFormat, document_id: str = "", reserve: int = 0) -> list[TextChunk]:
        # (see gc_pause: the cycle search would cost as much as the split) The work is a
        # call of its own so that the outline, the view and the spans are freed before the
        # collector is back on: its first pass then walks the chunks alone, not the tree.
        with paused_gc():
            return self._split_with_gc_paused(text, fmt, document_id, reserve)

    def _split_with_gc_paused(self, text: str, fmt: DocFormat, document_id: str, reserve: int) -> list[TextChunk]:
        _check_text(text)
        output = self._output_for(fmt)
        if not text.strip():
            return []
        root = self._detect(text, fmt)
        view = self._view(text, root, fmt, output)
        chunk_size = self.chunk_size - reserve
        min_chunk_size = min(self.min_chunk_size, chunk_size)
        # a merge across sections would put one section's start in another's leaves
        across = not self.hierarchy and self.header_levels is None
        spans = pack_outline(root, view, chunk_size, self.max_chunk_size - reserve, min_chunk_size, across)
        shared = overlaps(spans, view, self.chunk_overlap, self.overlap_across_sections)
        view.drop_counter()  # (the spans are counted: the chunks come from view.text and view.trim alone)
        chunks: list[TextChunk] = []
        numbers: dict[str, int] = {}
        reader = ChunkMetadata(root, self.id_prefix or document_id, self.id_prefix or "", view.text)
        line_index = LineIndex(text)
        spans.reverse()  # (each span is popped as it becomes a chunk: its atoms go while chunks come)
        for index, (before, after) in enumerate(shared):
            span = spans.pop()
            chunk_text = view.text(span.start, span.end)
            metadata = reader.read(span, index, chunk_text)
            metadata.update(line_index.lines(span.start, span.end))
            metadata["doc_type"] = fmt.name
            if len(fmt.outputs) > 1:
                metadata["output"] = output
            metadata["chunk_number"] = numbers[metadata["title"]] = numbers.get(metadata["title"], 0) + 1
            chunks.append(
                TextChunk(
                    text=chunk_text,
                    start_pos=span.start,
                    end_pos=span.end,
                    token_count=span.token_count,
                    start_overlap=before,
                    end_overlap=after,
                    metadata=metadata,
                )
            )
        if not self.hierarchy:
            return chunks

        def heading_text(section: Node) -> str | None:
            title = next((child for child in section.children if Trait.TITLE in child.traits), None)
            return view.text(*view.trim(title.start, title.end)) if title is not None else None

        def parent_metadata(start: int, end: int) -> dict[str, Any]:
            shared = {**line_index.lines(start, end), "doc_type": fmt.name}
            return {**shared, "output": output} if len(fmt.outputs) > 1 else shared

        def parent_budget(heading_path: list[str]) -> int:
            if not self.context_in_budget or len(heading_path) < 2:
                return chunk_size
            return chunk_size - self.tokenizer.count(" > ".join(heading_path[:-1]) + "\n")

        return build_hierarchy(
            root,
            chunks,
            self.tokenizer.count,
            parent_budget,
            self.id_prefix or document_id,
            self.id_prefix or "",
            heading_text,
            parent_metadata,
        )


def _require_int(name: str, value: object, low: int, high: int | None) -> None:
    """`ValueError` naming the argument unless `value` is an integer in `[low, high]`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {allowed}, not {value!r}")


def _check_header_levels(levels: object) -> frozenset[int] | None:
    """The levels as a set; `ValueError` naming `header_levels` unless None or a
    non-empty sequence of integers from 1 to 6."""
    if levels is None:
        return None
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence | set | frozenset) or not levels:
        raise ValueError(f"header_levels must be a non-empty sequence of heading levels 1-6, or None, not {levels!r}")
    for level in levels:
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
            raise ValueError(f"header_levels must hold heading levels 1-6, not {level!r}")
    return frozenset(levels)


def _mark_header_levels(root: Node, levels: frozenset[int]) -> None:
    """`BREAK_BEFORE` on the sections of `levels`, and `HOLLOW` on what holds them (so
    it is broken down to them even where it fits); a deeper section loses
    `SELF_CONTAINED`, so its end may share a chunk with what follows it."""
    stack: list[tuple[Node, tuple[Node, ...]]] = [(root, ())]
    while stack:
        node, above = stack.pop()
        if Trait.SECTION in node.traits and node.label is not None and node.label.level is not None:
            if node.label.level in levels:
                node.traits |= Trait.BREAK_BEFORE
                for holder in above:
                    holder.traits |= Trait.HOLLOW
            else:
                node.traits &= ~Trait.SELF_CONTAINED
        stack.extend((child, (*above, node)) for child in node.children)


def _require_bool(name: str, value: object) -> None:
    """`ValueError` naming the argument unless `value` is True or False."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, not {value!r}")


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
