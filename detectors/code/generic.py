"""A `Language` row for a grammar that `languages.py` has none for (a language only
`tree-sitter-language-pack` offers: Lua, Bash, Haskell, ...), read off the names of the
grammar's node types.

Grammars name their node types alike: a definition is a `function_definition`,
`class_declaration`, `method`, `module_item`...; a body a `block`, `class_body`,
`declaration_list`; a comment a `comment` or `line_comment`; an import an
`import_statement`, `use_declaration` or `preproc_include`. A type whose name reads so is
taken for one; every other node is a statement, so a language whose names follow none of
these still gets an outline of its top-level statements, cut at line ends.
"""

from __future__ import annotations

import re

from tree_sitter import Language as Grammar

from outline_splitter.detectors.code.languages import Language

_THINGS = r"function|method|class|struct|enum|interface|trait|module|impl|namespace|object|record|union|protocol|macro"
_DEFINITION = re.compile(rf"(?:\w+_)?(?:{_THINGS})(?:_(?:definition|declaration|item|specifier|statement))?")
_BODY = re.compile(r"(?:\w+_)?(?:body|block|declaration_list|field_declaration_list|statement_block)")
_COMMENT = re.compile(r"(?:\w+_)?comment")
_IMPORT = re.compile(r"(?:\w+_)?(?:import|include|use|require|using)(?:_(?:statement|declaration|directive|clause))?")


def generic_language(name: str, grammar: Grammar) -> Language:
    """The row of `name` for `grammar`: its named node types sorted by the patterns above."""
    kinds = {
        kind
        for kind_id in range(grammar.node_kind_count)
        if grammar.node_kind_is_named(kind_id) and (kind := grammar.node_kind_for_id(kind_id))
    }

    def matching(pattern: re.Pattern[str]) -> frozenset[str]:
        return frozenset(kind for kind in kinds if pattern.fullmatch(kind))

    comments = matching(_COMMENT)
    return Language(
        name,
        definitions=matching(_DEFINITION) - comments,
        bodies=matching(_BODY) - comments,
        comments=comments,
        imports=matching(_IMPORT) - comments,
    )
