"""`OutlineTextSplitter`: the public entry point (outline, then pack)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from outline_splitter.documents import D, Document, check_chunk_header, check_document, documents_of, parts_of
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
    ) -> None:
        _require_int("chunk_size", chunk_size, 1, None)
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
            self._output_for(self._format)
            self._content_hook(self._format)
            self._check_names(self._format)
        self.tokenizer: Tokenizer = resolve_tokenizer(tokenizer)

    # -- pass one -------------------------------------------------------------------

    def outline(self, text: str) -> OutlineNode:
        """The document's outline (pass one alone), as validated `OutlineNode`s."""
        _check_text(text)
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
        return self._split(text, self._require_format(), document_id)

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
        chunks = self._split(text, fmt, str(path))
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
            chunks = self._split_with_header(document.page_content, header, document_id)
            out.extend(parts_of(document, [(header + chunk.text, chunk.metadata) for chunk in chunks]))
        return out

    def create_documents(
        self, texts: Iterable[str], metadatas: Iterable[dict[str, Any]] | None = None, chunk_header: str | None = None
    ) -> list[Document]:
        """`split_documents` of `Document`s made from `texts` and `metadatas`."""
        return self.split_documents(documents_of(texts, metadatas), chunk_header=chunk_header)

    def _split_with_header(self, text: str, header: str, document_id: str) -> list[TextChunk]:
        """Chunks whose text, with `header` before it, fits `chunk_size`: the header's
        tokens are taken off the budget, and a little more where the join of header and
        text counts more than the two apart."""
        fmt = self._require_format()
        reserve = self.tokenizer.count(header) if header else 0
        while True:
            if reserve >= self.chunk_size:
                raise ValueError(
                    f"chunk_header has {reserve} tokens, which leaves no room under chunk_size={self.chunk_size}"
                )
            chunks = self._split(text, fmt, document_id, reserve)
            over = max((self.tokenizer.count(header + c.text) - self.chunk_size for c in chunks if header), default=0)
            if over <= 0:
                return chunks
            reserve += over

    def _view(self, text: str, root: Node, fmt: DocFormat, output: str) -> ChunkView:
        make_view = load_hooks(fmt).view
        if make_view is not None:
            return make_view(text, root, self.tokenizer, output)
        return SourceView(text, span_counter_for(self.tokenizer, text))

    def _split(self, text: str, fmt: DocFormat, document_id: str = "", reserve: int = 0) -> list[TextChunk]:
        _check_text(text)
        output = self._output_for(fmt)
        if not text.strip():
            return []
        root = self._detect(text, fmt)
        view = self._view(text, root, fmt, output)
        chunk_size = self.chunk_size - reserve
        min_chunk_size = min(self.min_chunk_size, chunk_size)
        spans = pack_outline(root, view, chunk_size, self.max_chunk_size - reserve, min_chunk_size)
        shared = overlaps(spans, view, self.chunk_overlap)
        chunks: list[TextChunk] = []
        numbers: dict[str, int] = {}
        reader = ChunkMetadata(root, self.id_prefix or document_id, self.id_prefix or "")
        line_index = LineIndex(text)
        for index, (span, (before, after)) in enumerate(zip(spans, shared)):
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
        return chunks


def _require_int(name: str, value: object, low: int, high: int | None) -> None:
    """`ValueError` naming the argument unless `value` is an integer in `[low, high]`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {allowed}, not {value!r}")


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
