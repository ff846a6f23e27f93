"""The splitter's options, defined once: `SplitterOptions`.

Each option's type, default, allowed values and one-line help are written here and
nowhere else: a field is `name: Type = default` and its help the docstring under it
(pydantic's `use_attribute_docstrings` makes it the field's description; `Field` only
where the help is computed). `OutlineTextSplitter(**options)` holds one validated `SplitterOptions`;
the front ends are derived from this model, not written out again: the LlamaIndex node
parser's fields are its fields (it subclasses the model), the LangChain splitter,
`split_many` and the Ray adapter take `**options` checked by it, and the command line's
flags and `docs/usage.md`'s argument table are generated from its fields.

Why a pydantic model: pydantic is already the API boundary's library, LlamaIndex's
`NodeParser` is a pydantic model (so its fields can be these fields, validators and
all), and a frozen model is validated once, when the splitter is built. The checks are
this module's own functions, so every front end raises the same `ValueError`, naming
the option, whatever the framework around it; a check that depends on the format (a
kind the detector never makes, a CSS selector that does not parse, an output mode) runs
when the splitter is built for a named format, and for each file's format under `"auto"`.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from outline_splitter.hierarchy import MIN_PARENT_BUDGET
from outline_splitter.page_markers import PAGE_MARKER_FORMATS, compile_markers
from outline_splitter.registry import FORMATS, DocFormat, load_hooks, load_kinds, resolve_doc_type
from outline_splitter.tokens import resolve_tokenizer

AUTO = "auto"
CONTENT = ("all", "main")
PARENTS = ("text", "outline")
DECODE_ERRORS = ("strict", "replace")
MARKDOWN_PARSERS = ("markdown-it", "pulldown-cmark")
# parent_chunk_size's default, in chunk sizes: a parent of 4 leaves' worth of tokens (see docs/retrieval.md)
PARENT_CHUNKS = 4


# -- the checks of one value (each raises a ValueError that names the option) ---------------


def _integer(value: object, info: ValidationInfo) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{info.field_name} must be an integer, not {value!r}")
    return value


def _optional_integer(value: object, info: ValidationInfo) -> int | None:
    return None if value is None else _integer(value, info)


def _boolean(value: object, info: ValidationInfo) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{info.field_name} must be True or False, not {value!r}")
    return value


def _names(value: object, info: ValidationInfo) -> tuple[str, ...]:
    """A sequence of node kinds or CSS selectors (non-blank strings), not one string."""
    name = info.field_name
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | set | frozenset):
        kind = type(value).__name__
        raise ValueError(f"{name} must be a sequence of node kinds or CSS selectors, not a single {kind}")
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise ValueError(f"{name} holds {item!r}: each must be a node kind or a CSS selector (a non-blank str)")
    return tuple(value)


def _doc_type(value: object, info: ValidationInfo) -> str:
    if not isinstance(value, str):
        raise ValueError(f"doc_type must be a str, not {type(value).__name__}")
    if value != AUTO:
        resolve_doc_type(value)  # ValueError naming doc_type and listing the known ones
    return value


def _tokenizer(value: object, info: ValidationInfo) -> object:
    resolve_tokenizer(value)  # ValueError naming tokenizer (encodings are loaded once and cached)
    return value


def _optional_str(value: object, info: ValidationInfo) -> str | None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ValueError(f"{info.field_name} must be a non-blank string or None, not {value!r}")
    return value


def _one_of(*allowed: str) -> BeforeValidator:
    def check(value: object, info: ValidationInfo) -> object:
        if value not in allowed:
            raise ValueError(f"{info.field_name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
        return value

    return BeforeValidator(check)


def _header_levels(value: object, info: ValidationInfo) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | set | frozenset) or not value:
        raise ValueError(f"header_levels must be a non-empty sequence of heading levels 1-6, or None, not {value!r}")
    for level in value:
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
            raise ValueError(f"header_levels must hold heading levels 1-6, not {level!r}")
    return tuple(sorted(set(value)))


def _page_markers(value: object, info: ValidationInfo) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"page_markers must be 'auto', a regular expression (a non-blank str) or None, not {value!r}")
    compile_markers(value)  # ValueError naming page_markers
    return value


Integer = Annotated[int, BeforeValidator(_integer)]
Boolean = Annotated[bool, BeforeValidator(_boolean)]
Names = Annotated[tuple[str, ...], BeforeValidator(_names)]
OptionalInteger = Annotated[int | None, BeforeValidator(_optional_integer)]
OptionalText = Annotated[str | None, BeforeValidator(_optional_str)]


class SplitterOptions(BaseModel):
    """Every option of `OutlineTextSplitter`, typed and validated once (see the module)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True, use_attribute_docstrings=True)

    doc_type: Annotated[str, BeforeValidator(_doc_type)] = "markdown"
    """the format: markdown, html, text, rst, latex, a code language (python, javascript, ...), or auto to pick it from
    each file's extension"""
    chunk_size: Integer = 512
    """the most tokens a chunk has"""
    chunk_overlap: Integer = 0
    """tokens of each neighbour recorded in start_overlap / end_overlap; from 0 to chunk_size - 1"""
    overlap_across_sections: Boolean = False
    """let an overlap cross a section boundary"""
    tokenizer: Annotated[Any, BeforeValidator(_tokenizer)] = "cl100k_base"
    """a tiktoken encoding name, a tiktoken.Encoding, a Hugging Face tokenizer, a Tokenizer, or a callable str -> int"""
    max_chunk_size: OptionalInteger = None
    """the hard cap for the chunks that may pass chunk_size: nodes kept whole by never_break_within and separator groups
    (None: chunk_size)"""
    min_chunk_size: Integer = 0
    """a chunk with fewer tokens joins a neighbour where the join fits chunk_size"""
    never_break_within: Names = ()
    """node kinds (code, table, ...; for HTML, CSS selectors) kept whole up to max_chunk_size"""
    separators: Names = ()
    """node kinds (for HTML, CSS selectors) that start a group with the siblings after them when their parent must be
    broken"""
    output: OptionalText = None
    """how a chunk's text is rendered, for formats with several modes (HTML: html or text); None: the format's
    default"""
    id_prefix: OptionalText = None
    """the document id that goes into every chunk id, instead of the document's own"""
    decode_errors: Annotated[Literal["strict", "replace"], _one_of(*DECODE_ERRORS)] = "strict"
    """where a file is read (split_file, split_many, the command line, Ray's bytes): strict, a byte that does not decode
    fails the file; replace, it is read as U+FFFD (offsets are into the decoded text)"""
    content: Annotated[Literal["all", "main"], _one_of(*CONTENT)] = "all"
    """HTML: all of the page, or main: its main content without navigation and widgets"""
    include: Names = ()
    """HTML: CSS selectors of the elements to keep instead of what content finds"""
    exclude: Names = ()
    """HTML: CSS selectors of the elements to leave out"""
    hierarchy: Boolean = Field(
        False,
        description=f"also give parent chunks for the sections too large for one chunk, as parents says "
        f"(needs chunk_size >= {MIN_PARENT_BUDGET})",
    )
    parents: Annotated[Literal["text", "outline"], _one_of(*PARENTS)] = "text"
    """with hierarchy, what a parent chunk holds: text, its section's own text (an exact slice, up to parent_chunk_size;
    a longer section is cut into parts); outline, its heading and a reference line per part (up to chunk_size)"""
    parent_chunk_size: OptionalInteger = None
    """with hierarchy and parents=text, the most tokens a parent chunk has, at least max_chunk_size (None: 4 x
    chunk_size, or max_chunk_size if that is more)"""
    context_in_budget: Boolean = False
    """chunk_size bounds the context and the text (contextualize) instead of the text alone"""
    header_levels: Annotated[tuple[int, ...] | None, BeforeValidator(_header_levels)] = None
    """Markdown: the heading levels (1-6) that start a chunk"""
    markdown_parser: Annotated[Literal["markdown-it", "pulldown-cmark"], _one_of(*MARKDOWN_PARSERS)] = "markdown-it"
    """Markdown: the parser whose reading makes the outline: markdown-it (markdown-it-py) or pulldown-cmark (faster;
    needs the markdown-fast extra)"""
    page_markers: Annotated[str | None, BeforeValidator(_page_markers)] = None
    """Markdown and text converted from PDF: auto (form feeds and the page-break lines of Docling, marker and
    pymupdf4llm) or a regular expression of the markers; metadata pages lists the pages a chunk touches"""
    encode_in_background: Boolean = True
    """encode a document and find its structure at once, on two threads (tiktoken only); split_many turns it off, its
    processes fill the cores"""

    @classmethod
    def of(cls, **options: Any) -> SplitterOptions:
        """The validated options; a `ValueError` naming each bad option otherwise (pydantic's
        own error, itself a `ValueError`, with only the messages)."""
        try:
            return cls(**options)
        except ValidationError as exc:
            raise options_error(exc) from None

    @model_validator(mode="after")
    def _check_together(self) -> SplitterOptions:
        """The checks that read more than one option, then those of the format."""
        _at_least("chunk_size", self.chunk_size, 1)
        if self.hierarchy and self.chunk_size < MIN_PARENT_BUDGET:
            raise ValueError(
                f"hierarchy=True needs chunk_size >= {MIN_PARENT_BUDGET} (a parent chunk holds a heading, "
                f"a reference line and a continuation line), not {self.chunk_size}"
            )
        _at_least("chunk_overlap", self.chunk_overlap, 0, self.chunk_size - 1)
        if self.max_chunk_size is not None:
            _at_least("max_chunk_size", self.max_chunk_size, self.chunk_size)
        _at_least("min_chunk_size", self.min_chunk_size, 0, self.chunk_size)
        if self.parent_chunk_size is not None:
            _at_least("parent_chunk_size", self.parent_chunk_size, self.hard_cap)
        if self.doc_type == AUTO:
            self._check_any_format()
        else:
            self.check_format(resolve_doc_type(self.doc_type))
        return self

    @property
    def hard_cap(self) -> int:
        """`max_chunk_size`, or `chunk_size` where it is None."""
        return self.chunk_size if self.max_chunk_size is None else self.max_chunk_size

    @property
    def parent_budget(self) -> int:
        """`parent_chunk_size`, or where it is None `PARENT_CHUNKS` x `chunk_size` (at
        least `max_chunk_size`: a parent holds its leaves whole)."""
        if self.parent_chunk_size is not None:
            return self.parent_chunk_size
        return max(PARENT_CHUNKS * self.chunk_size, self.hard_cap)

    def check_format(self, fmt: DocFormat) -> None:
        """`ValueError` naming the option where `fmt` cannot honour it: `header_levels`
        and a `markdown_parser` other than the default outside Markdown, `page_markers`
        outside Markdown and text, an output mode the format lacks, `content` /
        `include` / `exclude` for a format that cannot choose its content, names in
        `never_break_within` / `separators` the format cannot read (a kind its detector
        never makes, a CSS selector that does not parse)."""
        if self.header_levels is not None and fmt.name != "markdown":
            raise ValueError(f"header_levels is for doc_type 'markdown' (headings that start chunks), not {fmt.name!r}")
        if self.markdown_parser != MARKDOWN_PARSERS[0] and fmt.name != "markdown":
            raise ValueError(f"markdown_parser is for doc_type 'markdown', not {fmt.name!r}")
        if self.page_markers is not None and fmt.name not in PAGE_MARKER_FORMATS:
            raise ValueError(
                f"page_markers is for doc_type {' and '.join(map(repr, PAGE_MARKER_FORMATS))} "
                f"(text converted from PDF), not {fmt.name!r}"
            )
        self.output_for(fmt)
        hooks = load_hooks(fmt)
        if self.chooses_content and hooks.select is None:
            raise ValueError(
                f"content={self.content!r}, include and exclude are not available for doc_type {fmt.name!r} "
                "(only for formats that can choose their content, such as html)"
            )
        if hooks.mark is not None:
            if hooks.check is not None:
                hooks.check(self._selectors())
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

    def output_for(self, fmt: DocFormat) -> str:
        """The output mode for `fmt`; `ValueError` naming `output` if it has no such mode."""
        if self.output is None:
            return fmt.outputs[0]
        if self.output not in fmt.outputs:
            raise ValueError(
                f"output {self.output!r} is not available for doc_type {fmt.name!r}; allowed: {', '.join(fmt.outputs)}"
            )
        return self.output

    def for_format(self, fmt: DocFormat) -> SplitterOptions:
        """The options a document of `fmt` is split with. Under `"auto"` (a folder of
        mixed formats) each format's own options apply to the formats that have them:
        `output` and `content` / `include` / `exclude` (HTML's text mode, its main
        content), `header_levels` and `markdown_parser` (Markdown), `page_markers`
        (Markdown and text); the others keep their defaults. A named format is held to
        every option (`check_format`'s `ValueError` naming it)."""
        changes: dict[str, Any] = {"doc_type": fmt.name}
        if self.doc_type == AUTO:
            if self.output is not None and self.output not in fmt.outputs:
                changes["output"] = None
            if self.chooses_content and load_hooks(fmt).select is None:
                changes.update(content="all", include=(), exclude=())
            if fmt.name != "markdown":
                changes.update(header_levels=None, markdown_parser=MARKDOWN_PARSERS[0])
            if fmt.name not in PAGE_MARKER_FORMATS:
                changes["page_markers"] = None
        fields = {name: getattr(self, name) for name in SplitterOptions.model_fields}
        return SplitterOptions.of(**(fields | changes))

    @property
    def chooses_content(self) -> bool:
        """Whether `content`, `include` or `exclude` ask for less than the whole document."""
        return self.content != "all" or bool(self.include) or bool(self.exclude)

    def _selectors(self) -> dict[str, tuple[str, ...]]:
        return {
            "never_break_within": self.never_break_within,
            "separators": self.separators,
            "include": self.include,
            "exclude": self.exclude,
        }

    def _check_any_format(self) -> None:
        """Under `"auto"` the format is known per file: what can be checked now is an
        output mode no format has, and `include` / `exclude` selectors (they apply to the
        formats that choose their content, whose checks read them)."""
        if self.output is not None and not any(self.output in fmt.outputs for fmt in FORMATS):
            known = sorted({output for fmt in FORMATS for output in fmt.outputs})
            raise ValueError(f"output {self.output!r} is not a mode of any format; allowed: {', '.join(known)}")
        for fmt in FORMATS:
            hooks = load_hooks(fmt) if fmt.hooks else None
            if hooks is not None and hooks.select is not None and hooks.check is not None:
                hooks.check({"include": self.include, "exclude": self.exclude})


def _at_least(name: str, value: int, low: int, high: int | None = None) -> None:
    """`ValueError` naming the option unless `low <= value <= high`."""
    if value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {allowed}, not {value!r}")


def options_error(exc: ValidationError) -> ValueError:
    """One `ValueError` with the message of each bad option (the checks above name it)."""
    messages = []
    for error in exc.errors():
        cause = error.get("ctx", {}).get("error")
        if isinstance(cause, Exception):
            messages.append(str(cause))
        elif error["type"] == "extra_forbidden":
            messages.append(f"{error['loc'][0]!r} is not an option; the options are: {', '.join(OPTION_NAMES)}")
        else:
            messages.append(f"{'.'.join(map(str, error['loc']))}: {error['msg']}")
    return ValueError("; ".join(messages))


class SplitterKwargs(TypedDict, total=False):
    """`SplitterOptions`' fields as keyword arguments, for `**options: Unpack[...]`
    signatures (type checkers then check every front end's call; a test keeps the two equal)."""

    doc_type: str
    chunk_size: int
    chunk_overlap: int
    overlap_across_sections: bool
    tokenizer: Any
    max_chunk_size: int | None
    min_chunk_size: int
    never_break_within: Sequence[str]
    separators: Sequence[str]
    output: str | None
    id_prefix: str | None
    decode_errors: str
    content: str
    include: Sequence[str]
    exclude: Sequence[str]
    hierarchy: bool
    parents: str
    parent_chunk_size: int | None
    context_in_budget: bool
    header_levels: Sequence[int] | None
    markdown_parser: str
    page_markers: str | None
    encode_in_background: bool


OPTION_NAMES: tuple[str, ...] = tuple(SplitterOptions.model_fields)
#: The format of a text that names no file, where the options say `"auto"` (a batch's plain texts).
DEFAULT_DOC_TYPE: str = SplitterOptions.model_fields["doc_type"].default


def option_parameters() -> list[inspect.Parameter]:
    """The options as keyword-only `inspect.Parameter`s with their defaults, for the
    signatures `help()` and IDEs show of the front ends that take `**options`."""
    return [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=field.default, annotation=field.annotation)
        for name, field in SplitterOptions.model_fields.items()
    ]


def with_option_parameters(function: Any) -> None:
    """Give `function` (which takes `**options`) a signature that lists every option in
    place of `**options`, after its own parameters."""
    signature = inspect.signature(function)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
    positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    function.__signature__ = signature.replace(parameters=[*positional, *option_parameters(), *keyword])


def markdown_table() -> str:
    """`docs/usage.md`'s argument table, from the fields (a test keeps the doc equal to it)."""
    rows = ["| argument | meaning | default |", "| --- | --- | --- |"]
    for name, field in SplitterOptions.model_fields.items():
        description = " ".join(str(field.description).split())  # (a docstring's lines, one row)
        rows.append(f"| `{name}` | {description} | `{field.default!r}` |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
