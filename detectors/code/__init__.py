"""Source code: one tree-sitter based detector for every language of `languages.py`.

`detector_for(language)` returns the detector (`text -> Node`) of one language; the
registry calls it once per doc type. Grammars come from `tree-sitter-language-pack`
0.13, whose wheel ships them compiled (later versions download them at run time); a
language's parser is loaded on first use and kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache

from tree_sitter import Parser

from outline_splitter.detectors.code.languages import LANGUAGES, LANGUAGES_BY_NAME, Language
from outline_splitter.detectors.code.offsets import encode_source
from outline_splitter.detectors.code.outline import CodeOutline
from outline_splitter.nodes import Node

__all__ = ["LANGUAGES", "Language", "detector_for"]

# A tree-sitter Parser is not safe to share between threads: one per thread and language.
_PARSERS = threading.local()


@cache
def _grammar(name: str) -> object:
    from tree_sitter_language_pack import get_language

    return get_language(name)  # type: ignore[arg-type]


def _parser(language: Language) -> Parser:
    parsers: dict[str, Parser] | None = getattr(_PARSERS, "by_grammar", None)
    if parsers is None:
        parsers = _PARSERS.by_grammar = {}
    parser = parsers.get(language.name)
    if parser is None:
        parser = parsers[language.name] = Parser(_grammar(language.name))  # type: ignore[arg-type]
    return parser


def detect_code(text: str, language: Language) -> Node:
    """Outline of source code in `language` (see `outline_splitter.detectors.code.outline`)."""
    data = encode_source(text)
    tree = _parser(language).parse(data)
    return CodeOutline(language, text, data).build(tree)


def detector_for(language: str) -> Callable[[str], Node]:
    """The detector of one language, by its name in `languages.LANGUAGES`."""
    spec = LANGUAGES_BY_NAME.get(language)
    if spec is None:
        raise ValueError(f"no code language {language!r}; known: {', '.join(sorted(LANGUAGES_BY_NAME))}")

    def detect(text: str) -> Node:
        return detect_code(text, spec)

    detect.__name__ = f"detect_{language}"
    detect.__doc__ = f"Outline of {language} source code."
    return detect
