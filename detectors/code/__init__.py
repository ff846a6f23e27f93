"""Source code: one tree-sitter based detector for every language of `languages.py`.

`detector_for(language)` returns the detector (`text -> Node`) of one language; the
registry calls it once per doc type. Grammars come from the tree-sitter organisation's
wheel of each language (`tree-sitter-python`, ...: `Language.grammar`), and for proto and
every other language it offers from `tree-sitter-language-pack` 0.13, the `languages`
extra (its wheel ships them compiled; later versions download them at run time); a
language's parser is loaded on first use and kept. A language the pack offers that
`languages.py` has no row for gets one from its grammar's node types (`generic_language`).

A long file is parsed a window of top-level statements at a time (`WINDOW_BYTES` or
more), so that only one window's syntax tree (some 40 times its text) is alive while its
outline nodes are made: each window ends before its last top-level statement that starts
a line but one, and the next window starts there. A window whose kept statements hold a
syntax error grows (the error may be the window end's: a string or bracket it cut off).
A file of at most `WHOLE_ON_ERROR_BYTES` lets it grow to the end of the file, and is
parsed whole after all if the error is still there: tree-sitter's recovery from an error
may reach back into statements a window before took as they were (a quote out of place in
Ruby did), so only a file that parses without one is sure to have the outline of one
parse in windows. In a longer one the window grows to two windows or a thirty-second of
the file at most (whichever is more: in fourfold steps, the last one capped there), and is
then taken as tree-sitter recovered from the error in it, as the last window is, where the
error is inside it (while the window grows, the tree of its last parse is let go of before
the next: only one tree of a window in error is alive at once): the root is no error and
the statements it leaves to the next window hold none (an error the window's end made,
cutting off a string or a class, lies at that end or makes the whole window one). A file
with one statement cut short near its start had the rest parsed whole, its tree some 50
times its text. A window that has no such place to cut grows as far as it must (one class
as long as the file: the outlines of the 145 Python, JavaScript and C header files of
512 KB to 6 MB on the machine this was written on that parse without an error are those
of one parse).
A language whose file does not read as a sequence of top-level statements from any of
them on (PHP: code only after `<?php`) is always parsed whole.
"""

from __future__ import annotations

import ctypes
import threading
import typing
from collections.abc import Callable, Iterator
from functools import cache

from tree_sitter import Language as Grammar
from tree_sitter import Node as SyntaxNode
from tree_sitter import Parser, Point, Range, Tree

from outline_splitter.detectors.code.generic import generic_language
from outline_splitter.detectors.code.languages import LANGUAGES, LANGUAGES_BY_NAME, Language
from outline_splitter.detectors.code.offsets import encode_source
from outline_splitter.detectors.code.outline import CodeOutline
from outline_splitter.nodes import Node
from outline_splitter.references import load_reference

__all__ = ["LANGUAGES", "PACK_EXTRA", "Language", "detector_for", "grammar_parser", "pack_languages"]

PACK_EXTRA = "languages"
"""The extra that installs `tree-sitter-language-pack` (proto and the pack's other languages)."""
_PACK_HINT = f"pip install 'outline-splitter[{PACK_EXTRA}]'"

# A tree-sitter Parser is not safe to share between threads: one per thread and language.
_PARSERS = threading.local()


@cache
def pack_languages() -> frozenset[str]:
    """The languages `tree-sitter-language-pack` offers, if it is installed (else none)."""
    try:
        from tree_sitter_language_pack import SupportedLanguage
    except ImportError:
        return frozenset()
    return frozenset(typing.get_args(SupportedLanguage))


@cache
def _grammar(name: str, binding: str | None) -> Grammar:
    if binding is not None:
        pointer = load_reference(binding)()
        if isinstance(pointer, int):  # an older binding (tree-sitter-solidity) gives the address
            pointer = _capsule(pointer, b"tree_sitter.Language", None)  # (an int is deprecated)
        return Grammar(pointer)
    return _pack_grammar(name)


_capsule = ctypes.pythonapi.PyCapsule_New
_capsule.restype = ctypes.py_object
_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)


def _parser(language: Language) -> Parser:
    return grammar_parser(language.name, language.grammar)


def grammar_parser(name: str, binding: str | None) -> Parser:
    """This thread's parser of the grammar `name` (the code languages, and `json` and
    `yaml` for the data detectors): from `binding`, `"module:function"` of the grammar's
    own wheel, or where it is None from tree-sitter-language-pack."""
    parsers: dict[str, Parser] | None = getattr(_PARSERS, "by_grammar", None)
    if parsers is None:
        parsers = _PARSERS.by_grammar = {}
    parser = parsers.get(name)
    if parser is None:
        parser = parsers[name] = Parser(_grammar(name, binding))
    return parser


# A file of more than `_WINDOWS` windows is parsed a window of about `WINDOW_BYTES` at a
# time (a window of 32 KB has a syntax tree of about 1.3 MB); a shorter one whole, for windows
# cost some parsing twice (the statements at their ends, a window grown).
WINDOW_BYTES = 1 << 15
_WINDOWS = 8
# A file with a syntax error in its last window is parsed whole where it is this long at most
# (a tree of some 20 MB); a longer one keeps its windows, the last as tree-sitter recovered it.
WHOLE_ON_ERROR_BYTES = 1 << 19
# In a longer file, a window whose kept statements hold a syntax error grows to two windows
# or this share of the file at most (a tree of some 1.4 times the file; at 1 MB four windows,
# the floor until 2026-12-06, were a tree of 5.6 times it, the peak of the whole split), then
# is taken as tree-sitter recovered from the error in it.
ERROR_WINDOW_SHARE = 32
# Languages whose file is not a sequence of top-level statements from any of them on.
_WHOLE_ONLY = frozenset({"php"})


def detect_code(text: str, language: Language) -> Node:
    """Outline of source code in `language` (see `outline_splitter.detectors.code.outline`)."""
    data = encode_source(text)
    parser = _parser(language)
    if len(data) > _WINDOWS * WINDOW_BYTES and language.name not in _WHOLE_ONLY:
        try:
            return CodeOutline(language, text, data).build(_windows(parser, data, WINDOW_BYTES))
        except _ParseWhole:
            pass
    parser.included_ranges = _WHOLE_RANGE
    return CodeOutline(language, text, data).build(parser.parse(data).root_node.children)


class _ParseWhole(Exception):
    """Raised by `_windows` where the file must be parsed whole (see the module docstring)."""


def _windows(parser: Parser, data: bytes, size: int) -> Iterator[SyntaxNode]:
    """The top-level nodes of `data` (the children of its syntax tree's root), parsed a
    window of about `size` bytes (whole lines) at a time, a window in error grown as the
    module docstring says; `_ParseWhole` if a syntax error is met in the last window of a
    file of `WHOLE_ON_ERROR_BYTES` or less."""
    start, row = 0, 0  # the window's first byte (a line start) and its row
    grow = size
    grown: Tree | None = None  # the parse of the window before it grew
    # how far a window in error grows before it is taken as recovered: a short file's, to the end
    long = len(data) > WHOLE_ON_ERROR_BYTES
    error_bound = max(2 * size, len(data) // ERROR_WINDOW_SHARE) if long else len(data)
    try:  # (the parser is this thread's: it parses whole again after)
        while True:
            tree, end = _parse_window(parser, data, start, row, grow, grown)
            root = tree.root_node
            children = root.children
            if end == len(data):
                if root.has_error and len(data) <= WHOLE_ON_ERROR_BYTES:
                    raise _ParseWhole
                yield from children
                return
            cut = _cut(children, data, root.is_error, grow >= error_bound)
            if cut is None:
                grown, grow = _grown(tree, grow, error_bound)
                del tree, root, children
                continue
            grown = None
            yield from children[:cut]
            first = children[cut]
            start, row = data.rfind(b"\n", 0, first.start_byte) + 1, first.start_point.row
            del tree, root, children, first  # (not alive while the next window is parsed)
            grow = size
    finally:
        parser.included_ranges = _WHOLE_RANGE


_WHOLE_RANGE = [Range(Point(0, 0), Point(0xFFFFFFFF, 0xFFFFFFFF), 0, 0xFFFFFFFF)]


def _parse_window(parser: Parser, data: bytes, start: int, row: int, grow: int, grown: Tree | None) -> tuple[Tree, int]:
    """The parse of the window of `data` from `start` (a line start, at `row`) to the end of
    the line `grow` bytes on, and the window's end; from `grown`, its last parse, if given."""
    end = data.find(b"\n", start + grow) + 1 or len(data)
    end_row = row + data.count(b"\n", start, end)
    parser.included_ranges = [Range(Point(row, 0), Point(end_row, 0), start, end)]
    # a window grown for want of a place to cut (no error) is parsed again from its last
    # parse, which tree-sitter reuses but where the ranges differ (a file of one class
    # grows its window to the end)
    return (parser.parse(data) if grown is None else parser.parse(data, grown)), end


def _grown(tree: Tree, grow: int, error_bound: int) -> tuple[Tree | None, int]:
    """How a window that has no place to cut (its parse `tree`) grows: the parse to start
    the grown one from, and its new `grow`."""
    if tree.root_node.has_error and grow < error_bound:
        # parsed anew, so that its tree is let go of first (tree-sitter would reparse what
        # the error touches all the same); grown up to its bound
        return None, min(4 * grow, error_bound)
    return tree, 4 * grow


def _cut(children: list[SyntaxNode], data: bytes, root_error: bool, as_recovered: bool) -> int | None:
    """Where a window's top-level nodes are cut: the index of the last named node that
    starts a line, is no extra (a comment, a Ruby heredoc body) and has another such node after
    it (the end of the window may have cut that one short, and how the one before it ends
    may depend on what follows it), if the nodes before it hold no syntax error and the
    root is none (`root_error`); None if there is no such place. `as_recovered`: a syntax
    error before that node is taken as tree-sitter recovered from it where the root is no
    error and the nodes from it on hold none (an error that the window's end made, by
    cutting off a string or a class, is at that end, or makes the root one)."""
    found = 0
    for cut in range(len(children) - 1, 0, -1):
        child = children[cut]
        start = child.start_byte
        if child.is_named and not child.is_extra and not data[data.rfind(b"\n", 0, start) + 1 : start].strip():
            found += 1
            if found == 2:
                if root_error:
                    return None
                if not any(child.has_error for child in children[:cut]):
                    return cut
                recovered = as_recovered and not any(child.has_error for child in children[cut:])
                return cut if recovered else None
    return None


def detector_for(language: str) -> Callable[[str], Node]:
    """The detector of one language, by its name in `languages.LANGUAGES` or in
    `tree-sitter-language-pack`; `ImportError` naming the extra where the language needs
    the pack and it is not installed, `ValueError` for a language neither has."""
    spec = LANGUAGES_BY_NAME.get(language)
    if spec is None and language in pack_languages():
        spec = generic_language(language, _pack_grammar(language))
    if spec is None:
        raise ValueError(
            f"no code language {language!r}; known: {', '.join(sorted(LANGUAGES_BY_NAME))}"
            f" (tree-sitter-language-pack, {_PACK_HINT}, offers more)"
        )
    if spec.grammar is None and language not in pack_languages():
        raise ImportError(f"doc_type {language!r} needs tree-sitter-language-pack: {_PACK_HINT}")

    def detect(text: str) -> Node:
        return detect_code(text, spec)

    detect.__name__ = f"detect_{language}"
    detect.__doc__ = f"Outline of {language} source code."
    return detect


def _pack_grammar(name: str) -> Grammar:
    from tree_sitter_language_pack import get_language

    grammar: Grammar = get_language(name)  # type: ignore[arg-type]
    return grammar
