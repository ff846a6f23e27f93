"""The format registry: which detector builds the outline for each `doc_type`.

`FORMATS` is the one table to read: a doc type's name, where its detector lives, the
aliases it answers to and the file extensions `doc_type="auto"` maps to it. Detectors
are imported on first use, so a format's dependencies cost nothing until it is used.
With `tree-sitter-language-pack` installed (the `languages` extra), every language it
offers is a doc type too. Third-party packages add formats through the `outline_splitter.detectors` entry-point
group (name: the doc type; value: `module:function`, a function `str -> Node` whose
nodes carry their traits: see "How to add a format" in docs/design.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from outline_splitter.bad_input import UNKNOWN_EXTENSION, bad_input
from outline_splitter.nodes import Node
from outline_splitter.references import load_reference
from outline_splitter.tokens.counters import DetectorSpeed

if TYPE_CHECKING:
    from outline_splitter.packing.view import ChunkView
    from outline_splitter.tokens.base import SpanCounter

Detector = Callable[[str], Node]
ENTRY_POINT_GROUP = "outline_splitter.detectors"


@dataclass(frozen=True)
class FormatHooks:
    """What a format adds to the splitter beyond its detector, as typed callables.

    `view(text, root, counter_for, output)` gives the packer's view of a document for an
    output mode (the format's `outputs`), counting each text with `counter_for(text)`'s
    span counter; `counted_text(text, output)` is the text that view counts where it is
    not the source (HTML's text output: its rendering), made before detection so that
    its encode runs beside detection (`tokens.counters`); `mark(text, root,
    never_break_within, separators)` gives the nodes the user's options select their
    `NEVER_BREAK` and `SEPARATOR` traits (without it, both options name node kinds);
    `select(text, root, content, include, exclude)` marks what the `content` option and
    the `include` / `exclude` selectors leave out (without it, a format has only
    `content="all"`); `check(selectors)` raises `ValueError` naming the option for values
    `mark` or `select` could not read, before any text is split (CSS selectors that do
    not parse; `selectors` maps each option's name to its values); `tags(text)` gives the
    starts and the ends of the spans of the source no chunk of its source output starts
    or ends inside where one fits the budget (HTML's tags), for the `view` page's problems.
    """

    view: Callable[[str, Node, Callable[[str], SpanCounter], str], ChunkView] | None = None
    mark: Callable[[str, Node, Sequence[str], Sequence[str]], None] | None = None
    select: Callable[[str, Node, str, Sequence[str], Sequence[str]], None] | None = None
    check: Callable[[Mapping[str, Sequence[str]]], None] | None = None
    counted_text: Callable[[str, str], str] | None = None
    tags: Callable[[str], tuple[Sequence[int], Sequence[int]]] | None = None


NO_HOOKS = FormatHooks()


@dataclass(frozen=True)
class DocFormat:
    """One doc type. `detector` is `"module:function"`; with `argument` set, the function
    is a factory called once with it (one code detector serves many languages).
    `kinds`, if set, is `"module:attribute"` naming the node kinds the detector makes
    (what `never_break_within` and `separators` may name where the format has no
    `mark` hook); a format without it (a third-party one) accepts any kind name.

    A format with more than one way to render a chunk names them in `outputs` (the first
    is the default). `hooks`, if set, is `"module:attribute"` naming the format's
    `FormatHooks`, imported on first use like the detector. `detector_speed`: how
    its detector's time compares with one encode of the source, which decides how the
    source is encoded beside it (`tokens.counters.DetectorSpeed`). `parsers`: the
    detectors (`"module:function"`) of the parsers a user may choose instead of the
    default one, by name (Markdown's `markdown_parser` option).
    """

    name: str
    detector: str
    extensions: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    argument: str | None = None
    outputs: tuple[str, ...] = ("source",)
    hooks: str | None = None
    kinds: str | None = None
    detector_speed: DetectorSpeed = "slow"
    parsers: tuple[tuple[str, str], ...] = ()


def _code(language: str, extensions: tuple[str, ...], aliases: tuple[str, ...] = ()) -> DocFormat:
    return DocFormat(
        language,
        "outline_splitter.detectors.code:detector_for",
        extensions,
        aliases,
        argument=language,
        kinds="outline_splitter.detectors.code.outline:KINDS",
    )


def _data(name: str, detector: str, extensions: tuple[str, ...], aliases: tuple[str, ...] = ()) -> DocFormat:
    """A structured-data format: its detector (`"module:function"` in `detectors/`) makes
    the kinds of `detectors/data_tree.py`, with the data formats' hooks."""
    return DocFormat(
        name,
        f"outline_splitter.detectors.{detector}",
        extensions,
        aliases,
        kinds="outline_splitter.detectors.data_tree:KINDS",
        hooks="outline_splitter.format_hooks.data:DATA_HOOKS",
    )


FORMATS: tuple[DocFormat, ...] = (
    DocFormat(
        "markdown",
        "outline_splitter.detectors.markdown:detect_markdown",
        (".md", ".markdown", ".mdx"),
        ("md",),
        kinds="outline_splitter.detectors.markdown:KINDS",
        parsers=(("pulldown-cmark", "outline_splitter.detectors.markdown_pulldown:detect_markdown"),),
    ),
    DocFormat(
        "text",
        "outline_splitter.detectors.text:detect_text",
        (".txt", ".text"),
        ("txt", "plain"),
        kinds="outline_splitter.detectors.text:KINDS",
        detector_speed="trivial",
    ),
    DocFormat(
        "html",
        "outline_splitter.detectors.html:detect_html",
        (".html", ".htm", ".xhtml"),
        ("htm", "xhtml"),
        outputs=("html", "text"),
        hooks="outline_splitter.format_hooks.html:HTML_HOOKS",
        detector_speed="quick",
    ),
    DocFormat(
        "rst",
        "outline_splitter.detectors.sections:detect_rst",
        (".rst", ".rest"),
        ("restructuredtext",),
        kinds="outline_splitter.detectors.sections:RST_KINDS",
    ),
    DocFormat(
        "latex",
        "outline_splitter.detectors.sections:detect_latex",
        (".tex", ".latex", ".ltx"),
        ("tex",),
        kinds="outline_splitter.detectors.sections:LATEX_KINDS",
    ),
    # structured data: tree-sitter-json / tree-sitter-yaml from tree-sitter-language-pack
    _data("json", "json_data:detect_json", (".json",)),
    _data("jsonl", "json_data:detect_json_lines", (".jsonl", ".ndjson"), ("ndjson", "json_lines")),
    _data("yaml", "yaml_data:detect_yaml", (".yaml", ".yml"), ("yml",)),
    # source code: one tree-sitter detector; `argument` names the language's row in detectors/code/languages.py
    _code("python", (".py", ".pyi", ".pyw"), ("py",)),
    _code("javascript", (".js", ".jsx", ".mjs", ".cjs"), ("js", "jsx")),
    _code("typescript", (".ts", ".mts", ".cts"), ("ts",)),
    _code("tsx", (".tsx",)),
    _code("go", (".go",), ("golang",)),
    _code("rust", (".rs",), ("rs",)),
    _code("java", (".java",)),
    _code("c", (".c", ".h")),
    _code("cpp", (".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"), ("c++",)),
    _code("csharp", (".cs",), ("c#", "cs")),
    _code("ruby", (".rb", ".rake", ".gemspec"), ("rb",)),
    _code("php", (".php",)),
    _code("scala", (".scala", ".sc")),
    _code("swift", (".swift",)),
    _code("kotlin", (".kt", ".kts"), ("kt",)),
    _code("solidity", (".sol",), ("sol",)),
    _code("proto", (".proto",), ("protobuf",)),
)


@lru_cache(maxsize=1)
def _formats_by_name() -> dict[str, DocFormat]:
    table: dict[str, DocFormat] = {}
    for fmt in FORMATS:
        table[fmt.name] = fmt
        for alias in fmt.aliases:
            table[alias] = fmt
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        table.setdefault(entry.name, DocFormat(entry.name, entry.value))
    # every other language tree-sitter-language-pack offers, where it is installed (the
    # `languages` extra): an outline from its grammar's node types (detectors/code/generic.py)
    from outline_splitter.detectors.code import pack_languages

    for language in sorted(pack_languages()):
        table.setdefault(language, _code(language, ()))
    return table


def doc_types() -> list[str]:
    """Every accepted `doc_type` value (names and aliases), sorted, plus `"auto"`."""
    return sorted([*_formats_by_name(), "auto"])


def resolve_doc_type(doc_type: str) -> DocFormat:
    """The format for a doc type name or alias; `ValueError` naming `doc_type` otherwise."""
    fmt = _formats_by_name().get(doc_type.lower()) if isinstance(doc_type, str) else None
    if fmt is None:
        from outline_splitter.detectors.code import PACK_EXTRA, pack_languages

        more = (
            ""
            if pack_languages()
            else (
                f" (tree-sitter-language-pack, pip install 'outline-splitter[{PACK_EXTRA}]', adds more code languages)"
            )
        )
        raise ValueError(f"doc_type {doc_type!r} is not known; allowed values: {', '.join(doc_types())}{more}")
    return fmt


def doc_type_for_path(path: str | Path) -> str:
    """The doc type for a file, by extension (`BadInput`, unknown extension, naming the
    path if none fits)."""
    suffix = Path(path).suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.extensions:
            return fmt.name
    known = ", ".join(sorted(ext for fmt in FORMATS for ext in fmt.extensions))
    raise bad_input(UNKNOWN_EXTENSION, extension=suffix, known=known).named(str(path))


@cache
def load_hooks(fmt: DocFormat) -> FormatHooks:
    """The hooks of a format (`NO_HOOKS` if it has none), imported on first use."""
    if fmt.hooks is None:
        return NO_HOOKS
    hooks = load_reference(fmt.hooks)
    if not isinstance(hooks, FormatHooks):
        raise TypeError(f"{fmt.hooks} of doc_type {fmt.name!r} is a {type(hooks).__name__}, not FormatHooks")
    return hooks


@cache
def load_detector(fmt: DocFormat, parser: str | None = None) -> Detector:
    """The detector function of a format, imported on first use: that of its `parser`
    where the format offers one of that name (`DocFormat.parsers`), else its default."""
    function: Callable[..., Any] = load_reference(dict(fmt.parsers).get(parser or "", fmt.detector))
    detector: Detector = function(fmt.argument) if fmt.argument is not None else function
    return detector


@cache
def load_kinds(fmt: DocFormat) -> frozenset[str] | None:
    """The node kinds a format's detector makes (`None` if the format does not say)."""
    if fmt.kinds is None:
        return None
    return frozenset(load_reference(fmt.kinds))
