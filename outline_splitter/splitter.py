"""`OutlineTextSplitter`: the public entry point (outline, then pack)."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from functools import partial
from pathlib import Path, PurePath
from typing import Any, Unpack

from outline_splitter.assembly import Assembly, Draft
from outline_splitter.documents import (
    D,
    Document,
    DocumentLike,
    check_chunk_header,
    check_document,
    documents_of,
    file_name_of,
    parts_of,
)
from outline_splitter.gc_pause import paused_gc
from outline_splitter.hierarchy import ParentBudget, build_hierarchy, confine_overlaps
from outline_splitter.models import OutlineNode, TextChunk
from outline_splitter.nodes import Node, Trait, check_outline
from outline_splitter.options import AUTO, OPTION_NAMES, SplitterKwargs, SplitterOptions, with_option_parameters
from outline_splitter.packing import ChunkView, SourceView, pack_outline
from outline_splitter.packing.greedy import PackedSpan
from outline_splitter.packing.overlap import overlaps
from outline_splitter.page_markers import PageMap, mark_page_markers, page_map
from outline_splitter.reading import check_encoding, read_input
from outline_splitter.registry import (
    DocFormat,
    doc_type_for_path,
    load_detector,
    load_hooks,
    resolve_doc_type,
)
from outline_splitter.search import last_holding
from outline_splitter.text_parents import build_text_parents
from outline_splitter.tokens import DocumentCounters, Tokenizer, resolve_tokenizer
from outline_splitter.view import SplitView, ViewOptions, find_problems, render_outline, render_page


class OutlineTextSplitter:
    """Split documents into token-budgeted chunks along their structure.

    Takes the options of `outline_splitter.options.SplitterOptions` as keyword arguments
    (`doc_type`, `chunk_size`, `chunk_overlap`, `tokenizer`, ...: each one's type,
    default and meaning are written there, and in docs/usage.md's table). They are
    validated once, here: a bad one raises a `ValueError` naming it. `splitter.options`
    holds them; each is also readable as an attribute (`splitter.chunk_size`), and
    `max_chunk_size` reads as the cap in force (`chunk_size` where it was None).
    """

    def __init__(self, **options: Unpack[SplitterKwargs]) -> None:
        self.options = SplitterOptions.of(**options)
        doc_type = self.options.doc_type
        self._format: DocFormat | None = None if doc_type == AUTO else resolve_doc_type(doc_type)
        self.tokenizer: Tokenizer = resolve_tokenizer(self.options.tokenizer)
        self._by_format: dict[str, OutlineTextSplitter] = {}

    def __getattr__(self, name: str) -> Any:
        # only reached for names the instance lacks: the options, read as attributes
        if name in OPTION_NAMES:
            return getattr(self.options, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def max_chunk_size(self) -> int:
        """The cap in force: `max_chunk_size`, or `chunk_size` where it is None."""
        return self.options.hard_cap

    # -- pass one -------------------------------------------------------------------

    def outline(self, text: str) -> OutlineNode:
        """The document's outline (pass one alone), as validated `OutlineNode`s."""
        _check_text(text)
        with paused_gc():
            return OutlineNode.from_node(self._outline(text, self._require_format()).expand_all())

    def _require_format(self) -> DocFormat:
        if self._format is None:
            raise ValueError('doc_type "auto" needs a file name: use split_file(path), or pass doc_type')
        return self._format

    def _page_map(self, text: str) -> PageMap | None:
        """The page markers of `text` and its pages, if the options ask for them."""
        return page_map(text, self.options.page_markers) if self.options.page_markers is not None else None

    def _outline(self, text: str, fmt: DocFormat) -> Node:
        """The marked outline of `text` (`_detect`, then `_mark`)."""
        return self._mark(text, self._detect(text, fmt), fmt, self._page_map(text))

    def _detect(self, text: str, fmt: DocFormat) -> Node:
        """The outline of `text` as `fmt`'s detector gives it, checked."""
        root = load_detector(fmt, self.options.markdown_parser)(text)
        if isinstance(root, OutlineNode):  # a third-party detector may return the public model
            root = root.to_node()
        check_outline(root, len(text))
        return root

    def _mark(self, text: str, root: Node, fmt: DocFormat, pages: PageMap | None) -> Node:
        """`root` with the traits, the content selection and the page markers (`pages`)
        the options ask for."""
        self.mark_nodes(text, root, fmt)
        if self.options.header_levels is not None:
            _mark_header_levels(root, self.options.header_levels)
        if self.options.chooses_content:
            select = load_hooks(fmt).select
            assert select is not None  # (check_format refuses a format that cannot choose)
            select(text, root, self.options.content, self.options.include, self.options.exclude)
        if pages is not None:
            mark_page_markers(root, text, pages.markers)
        return root

    def mark_nodes(self, text: str, root: Node, fmt: DocFormat) -> None:
        """Add the traits the user's options ask for to the outline, before it is packed:
        `NEVER_BREAK` for `never_break_within`, `SEPARATOR` for `separators` (node kinds,
        or what the format's marker hook matches, e.g. CSS selectors for HTML). A
        subclass may extend it to set traits of its own (`HTMLTextSplitter` does)."""
        never_break_within, separators = self.options.never_break_within, self.options.separators
        if not never_break_within and not separators:
            return
        mark = load_hooks(fmt).mark
        if mark is not None:
            mark(text, root, never_break_within, separators)
            return
        for node in root.expand_all().walk():
            if node.kind in never_break_within:
                node.traits |= Trait.NEVER_BREAK
            if node.kind in separators:
                node.traits |= Trait.SEPARATOR

    # -- pass two -------------------------------------------------------------------

    def split(
        self,
        text: str,
        *,
        document_id: str = "",
        file_name: str | None = None,
        overlap_in_text: bool = False,
        source: str | None = None,
    ) -> list[TextChunk]:
        """Chunks of `text`, in order (`[]` for empty or blank text).

        `document_id` (a path, a URL) goes into every chunk id, so equal texts of two
        documents get two ids; `id_prefix` overrides it. `file_name` (a name or path)
        gives the format by its extension where `doc_type` is `"auto"`. `source` (a path,
        a URL) is put in every chunk's `metadata["source"]` (as `split_file` names its file).

        `overlap_in_text`: with `chunk_overlap`, each chunk's text is the source slice
        from the start of its start overlap to the end of its end overlap (as LangChain's
        and LlamaIndex's splitters give them), `start_pos` / `end_pos` that slice's, and
        `chunk_size` bounds the whole text; `metadata["own_start"]` / `["own_end"]` say
        where the chunk's own part lies (what the chunk is without it: ids are the own
        part's). In HTML text mode the overlaps join the text with line breaks and the
        offsets stay the own part's. Chunks then overlap, so this is for the front ends
        that embed chunk texts; the default keeps overlaps beside the text."""
        if not isinstance(document_id, str):
            raise ValueError(f"document_id must be a str, not {type(document_id).__name__}")
        if source is not None and not isinstance(source, str):
            raise ValueError(f"source must be a str or None, not {type(source).__name__}")
        splitter = self._splitter_of_file(file_name)
        return splitter._split_fitting(
            text, splitter._require_format(), document_id, overlap_in_text=overlap_in_text, source=source
        )

    def splitter_for(self, doc_type: str) -> OutlineTextSplitter:
        """The splitter a document of `doc_type` is split with: this one where that is its
        format, else one of that format with the options that apply to it (built once;
        `SplitterOptions.for_format`: under `"auto"`, `output` and the content options
        apply to the formats that have them; a `ValueError` naming an option that format
        cannot honour otherwise)."""
        fmt = resolve_doc_type(doc_type)
        if fmt == self._format:
            return self
        built = self._by_format.get(fmt.name)
        if built is None:
            built = copy.copy(self)  # (a subclass's own settings too; the tokenizer is shared)
            built.options, built._format, built._by_format = self.options.for_format(fmt), fmt, {}
            self._by_format[fmt.name] = built
        return built

    def _splitter_of_file(self, file_name: str | None) -> OutlineTextSplitter:
        """The splitter of the file `file_name`: this one for a named format; under
        `"auto"`, that of its extension's format (`ValueError` naming `doc_type` without a name)."""
        if self._format is not None:
            return self
        if file_name is None:
            self._require_format()
        return self.splitter_for(doc_type_for_path(str(file_name)))

    def view(self, text: str, *, title: str = "", document_id: str = "") -> SplitView:
        """The split of `text` shown as a self-contained HTML page (`outline_splitter.view`):
        the source with every chunk's span marked, the outline, each chunk's tokens
        against the budget, heading path or symbol, overlaps and parent, and the problems
        found (text in no chunk, chunks over budget, offsets that do not slice the
        source). `.html` is the page, `.save(path)` writes it, and in Jupyter the result
        displays it; `.chunks` are `split(text, document_id=document_id)`, `.problems`
        what was found."""
        fmt = self._require_format()
        _check_text(text)
        output = self.options.output_for(fmt)
        with paused_gc():
            root = self._outline(text, fmt)
        # one detection serves the split and the outline, unless the split is repeated to fit
        if self.options.context_in_budget or not text.strip():
            chunks = self.split(text, document_id=document_id)
        else:
            chunks = self._split(text, fmt, document_id, root=root)
        with paused_gc():
            # (after packing: building the deferred parts first would change what it does)
            outline = render_outline(root)
        # a chunk in the format's first output mode is a slice; in another, what the mode reads
        text_mode = output != fmt.outputs[0]
        tags = load_hooks(fmt).tags
        problems = find_problems(
            text,
            chunks,
            self.options.chunk_size,
            self.max_chunk_size,
            self.tokenizer.count,
            view=lambda: self._view(text, root, fmt, output, DocumentCounters(self.tokenizer, text, beside=False)),
            tags=None if tags is None or text_mode else partial(tags, text),
            text_mode=text_mode,
            leaves_out=self.options.chooses_content,
            parent_budget=self.options.parent_budget if self.options.parents == "text" else None,
        )
        page = render_page(text, chunks, outline, problems, self._view_options(fmt, text_mode, title))
        return SplitView(page, chunks, problems)

    def _view_options(self, fmt: DocFormat, text_mode: bool, title: str) -> ViewOptions:
        """What `view`'s page says of the split's settings."""
        return ViewOptions(
            doc_type=fmt.name,
            chunk_size=self.options.chunk_size,
            max_chunk_size=self.max_chunk_size,
            chunk_overlap=self.options.chunk_overlap,
            text_mode=text_mode,
            hierarchy=self.options.hierarchy,
            tokenizer=str(getattr(self.tokenizer, "name", type(self.tokenizer).__name__)),
            title=title,
        )

    def split_file(self, path: str | Path, encoding: str = "utf-8") -> list[TextChunk]:
        """Chunks of a file; with `doc_type="auto"` the format comes from its extension.

        A file that cannot be split raises a `ValueError` (`bad_input.BadInput`) naming
        it, in the words of docs/usage.md's table: a directory, a missing file, an
        unknown extension, a binary file, bytes that do not decode in `encoding` (unless
        `decode_errors="replace"`, which reads them as U+FFFD). A leading BOM is dropped:
        offsets are into the decoded text after it (`outline_splitter.reading`). An empty
        file has no chunks."""
        named = None if self._format is None else self._format.name
        doc_type, text = read_input(Path(path), named, check_encoding(encoding), self.options.decode_errors)
        splitter = self.splitter_for(doc_type)
        return splitter._split_fitting(text, splitter._require_format(), str(path), source=str(path))

    def split_files(self, paths: Iterable[str | Path], encoding: str = "utf-8") -> list[TextChunk]:
        """`split_file` of each path, one list in order (each chunk's `source` says whose)."""
        return [chunk for path in paths for chunk in self.split_file(path, encoding)]

    def split_documents(self, documents: Iterable[D], chunk_header: str | None = None) -> list[D]:
        """One document per chunk of each document's `page_content`, of the input's own
        type (anything with `page_content` and `metadata`, LangChain's `Document` too).

        Each keeps its input's metadata as it is, adds the chunk's metadata keys the
        input lacks (the chunk's `id` always: ids are per chunk) and `partindex`
        (0-based) / `totalparts`, counted per input document. `chunk_header` is put
        before every chunk's text and counted in `chunk_size`. A document's id (for the
        chunk ids) is `id_prefix`, else the file its metadata names (`source`, `file_path`,
        ...: `documents.FILE_KEYS`), whose extension also gives its format under `"auto"`."""
        header = check_chunk_header(chunk_header)
        out: list[D] = []
        for document in documents:
            check_document(document)
            file_name = file_name_of(document.metadata)
            document_id = self.options.id_prefix or file_name or ""
            splitter = self._splitter_of_file(file_name)
            fmt = splitter._require_format()
            chunks = splitter._split_fitting(document.page_content, fmt, document_id, header=header)
            out.extend(parts_of(document, [(header + chunk.text, chunk.metadata) for chunk in chunks]))
        return out

    def create_documents(
        self, texts: Iterable[str], metadatas: Iterable[dict[str, Any]] | None = None, chunk_header: str | None = None
    ) -> list[Document]:
        """`split_documents` of `Document`s made from `texts` and `metadatas`."""
        return self.split_documents(documents_of(texts, metadatas), chunk_header=chunk_header)

    def contextualize(self, chunk: TextChunk | DocumentLike) -> str:
        """The text to embed for `chunk` (a `TextChunk`, or a document of one, such as a
        LangChain `Document` from `split_documents`): its `metadata["context"]` (heading
        path, a broken table's header row, a broken definition's signature), a line
        break, then its text; just the text where it has no context."""
        text = chunk.text if isinstance(chunk, TextChunk) else chunk.page_content
        context = chunk.metadata.get("context")
        return f"{context}\n{text}" if context else text

    def _split_fitting(
        self,
        text: str,
        fmt: DocFormat,
        document_id: str,
        *,
        header: str = "",
        overlap_in_text: bool = False,
        source: str | None = None,
    ) -> list[TextChunk]:
        """Chunks whose text, with `header` before it (and, with `context_in_budget`,
        contextualized; with `overlap_in_text`, with its overlaps), fits `chunk_size`:
        that many tokens are taken off the budget, raised by what the longest one still
        passes it by until every chunk fits."""
        framed = overlap_in_text and self.options.chunk_overlap > 0
        if not header and not self.options.context_in_budget and not framed:
            return self._split(text, fmt, document_id, source=source)
        reserve = (self.tokenizer.count(header) if header else 0) + (2 * self.options.chunk_overlap if framed else 0)
        while True:
            if reserve >= self.options.chunk_size:
                what = "context_in_budget" if self.options.context_in_budget else "chunk_header"
                what = "chunk_overlap" if framed and not header else what
                raise ValueError(
                    f"{what}: the chunk header, context or overlaps take {reserve} tokens, which leaves no room "
                    f"under chunk_size={self.options.chunk_size}"
                )
            own = self._split(text, fmt, document_id, reserve, source=source)
            chunks = self._frame(text, own, fmt) if framed else own
            if self.options.context_in_budget:
                chunks = [self._cap_context(chunk) for chunk in chunks]
            over = self._over_budget(chunks, own, header, reserve)
            if over <= 0:
                return chunks
            reserve += over

    def _over_budget(self, chunks: list[TextChunk], own: list[TextChunk], header: str, reserve: int) -> int:
        """How many tokens the longest of `chunks` (as `header` and their text, or their
        context and text, give them) passes its budget by: `chunk_size`, or as much as its
        `own` chunk (before framing) passed that by (a chunk kept whole past the budget,
        `never_break_within`). A text parent has a budget of its own (`parent_chunk_size`)."""
        text_parents = self.options.parents == "text"
        bounded = [
            (c, o) for c, o in zip(chunks, own, strict=True) if o.metadata.get("role") != "parent" or not text_parents
        ]
        return max(
            (
                self.tokenizer.count(header + (self.contextualize(c) if self.options.context_in_budget else c.text))
                - max(self.options.chunk_size, o.token_count + reserve)
                for c, o in bounded
            ),
            default=0,
        )

    def _frame(self, text: str, chunks: list[TextChunk], fmt: DocFormat) -> list[TextChunk]:
        """`chunks` with their overlaps in their text (see `split`'s `overlap_in_text`):
        the source slice from the start overlap's start to the end overlap's end, where
        nothing but white space lies between a chunk and its neighbours (not so where
        `content` or `exclude` left something out between them: the parts are joined by
        a line break there, as in HTML text mode)."""
        leaves = [chunk for chunk in chunks if chunk.metadata.get("role") != "parent"]
        source_mode = self.options.output_for(fmt) != "text"
        framed: dict[int, TextChunk] = {}
        for number, chunk in enumerate(leaves):
            metadata = {**chunk.metadata, "own_start": chunk.start_pos, "own_end": chunk.end_pos}
            if not chunk.start_overlap and not chunk.end_overlap:  # (its text and count stand)
                framed[id(chunk)] = chunk.model_copy(update={"metadata": metadata})
                continue
            before = leaves[number - 1] if number and chunk.start_overlap else None
            after = leaves[number + 1] if number + 1 < len(leaves) and chunk.end_overlap else None
            start, end = chunk.start_pos, chunk.end_pos
            gaps = [text[before.end_pos : start]] if before is not None else []
            gaps += [text[end : after.start_pos]] if after is not None else []
            sliced = source_mode and not any(gap.strip() for gap in gaps)
            if sliced:
                start = before.end_pos - len(chunk.start_overlap) if before is not None else start
                end = after.start_pos + len(chunk.end_overlap) if after is not None else end
                body = text[start:end]
            else:
                body = "\n".join(part for part in (chunk.start_overlap, chunk.text, chunk.end_overlap) if part)
            update = {"text": body, "start_pos": start, "end_pos": end, "metadata": metadata}
            framed[id(chunk)] = chunk.model_copy(update={**update, "token_count": self.tokenizer.count(body)})
        return [framed.get(id(chunk), chunk) for chunk in chunks]

    def _cap_context(self, chunk: TextChunk) -> TextChunk:
        """`chunk` with its context cut to a quarter of `chunk_size` tokens (a long heading
        path or an HTML header row full of markup would leave the text no room), at a character."""
        context = chunk.metadata.get("context")
        limit = self.options.chunk_size // 4
        if not context or self.tokenizer.count(context) <= limit:
            return chunk
        low, _ = last_holding(lambda n: self.tokenizer.count(context[:n] + "...") <= limit, 0, len(context) + 1)
        capped = context[:low] + "..." if low else ""
        return chunk.model_copy(update={"metadata": {**chunk.metadata, "context": capped}})

    def _view(self, text: str, root: Node, fmt: DocFormat, output: str, counters: DocumentCounters) -> ChunkView:
        make_view = load_hooks(fmt).view
        if make_view is not None:
            return make_view(text, root, counters.counter_for, output)
        return SourceView(text, counters.counter_for(text))

    def _split(
        self,
        text: str,
        fmt: DocFormat,
        document_id: str = "",
        reserve: int = 0,
        root: Node | None = None,
        source: str | None = None,
    ) -> list[TextChunk]:
        # (see gc_pause: the cycle search would cost as much as the split) The work is a
        # call of its own so that the outline, the view and the spans are freed before the
        # collector is back on: its first pass then walks the chunks alone, not the tree.
        # `root`: the outline `_outline` gave for `text`, if it was made already (`view`).
        with paused_gc():
            return self._split_with_gc_paused(text, fmt, document_id, reserve, root, source)

    def _split_with_gc_paused(
        self, text: str, fmt: DocFormat, document_id: str, reserve: int, root: Node | None, source: str | None
    ) -> list[TextChunk]:
        """The pipeline: detect -> mark -> view -> pack -> overlaps -> chunks -> hierarchy
        (the chunks are drafts until the hierarchy has linked them: each is made once, last).
        `reserve`: the tokens taken off `chunk_size` (see `_split_fitting`); `source`:
        what every chunk's `metadata["source"]` names (None: no such key)."""
        _check_text(text)
        output = self.options.output_for(fmt)
        if not text.strip():
            return []
        # (what the view counts is encoded on a thread while the source is detected)
        counted_text = load_hooks(fmt).counted_text
        counted = counted_text(text, output) if counted_text is not None else text
        # (HTML's rendering is encoded as a slow detector's source: the page's detection outlasts it)
        speed = fmt.detector_speed if counted is text else "slow"
        counters = DocumentCounters(self.tokenizer, counted, self.options.encode_in_background, speed)
        pages = self._page_map(text)
        if root is None:
            root = counters.alongside(lambda: self._mark(text, self._detect(text, fmt), fmt, pages))
        view = self._view(text, root, fmt, output, counters)
        spans = self._pack(root, view, reserve)
        edges = overlaps(spans, view, self.options.chunk_overlap, self.options.overlap_across_sections)
        if not (self.options.hierarchy and self.options.parents == "text"):  # (text parents are counted later)
            view.drop_counter()  # (the spans are counted: the chunks come from view.text and view.trim alone)
        ids = self.options.id_prefix or document_id, self.options.id_prefix or ""
        mode = fmt.name, output if len(fmt.outputs) > 1 else None
        assembly = Assembly(text, root, view, ids, mode, pages, source)
        drafts = assembly.leaves(spans, edges)
        if self.options.hierarchy:
            drafts = self._hierarchy(assembly, drafts, reserve)
        return assembly.chunks(drafts)

    def _pack(self, root: Node, view: ChunkView, reserve: int) -> list[PackedSpan]:
        """The outline packed into spans within `chunk_size` less `reserve` tokens (pass two)."""
        chunk_size = self.options.chunk_size - reserve
        min_chunk_size = min(self.options.min_chunk_size, chunk_size)
        # a merge across sections would put one section's start in another's leaves
        across = not self.options.hierarchy and self.options.header_levels is None
        return pack_outline(root, view, chunk_size, self.max_chunk_size - reserve, min_chunk_size, across)

    def _hierarchy(self, assembly: Assembly, leaves: list[Draft], reserve: int) -> list[Draft]:
        """`leaves` with their parents (`hierarchy=True`): ones that hold their section's
        text (`parents="text"`) or that name its parts (`"outline"`); either way each
        leaf's overlaps stay inside its parent."""
        if self.options.parents == "text":
            return confine_overlaps(build_text_parents(assembly, leaves, self.options.parent_budget))
        budget = ParentBudget(self.options.chunk_size - reserve, self.options.context_in_budget, self.tokenizer.count)
        return confine_overlaps(build_hierarchy(assembly, leaves, budget))


def _mark_header_levels(root: Node, levels: tuple[int, ...]) -> None:
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


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        hint = f" (to split the file {str(text)!r}, call split_file)" if isinstance(text, PurePath) else ""
        raise TypeError(f"text must be a str, not {type(text).__name__}{hint}")


with_option_parameters(OutlineTextSplitter.__init__)
