"""What a definition, a comment, a decorator, an import and a body are, per language.

One row per language (doc types, aliases and file extensions are in the registry's
`FORMATS`), read by `outline_splitter.detectors.code.outline`: the walker is the same for all
of them and only asks these questions of the tree-sitter node types. Node type names are
those of the grammars of `grammar`, the tree-sitter organisation's wheel of each language
(pinned in pyproject.toml); proto's, which has no such wheel, are those of
`tree-sitter-language-pack` 0.13 (the `languages` extra).

- `grammar`: `"module:function"` of the language's grammar wheel (the function returns
  the grammar); None where only `tree-sitter-language-pack` has it.

- `definitions`: nodes that define something with a name (class, function, method,
  struct, enum, impl, trait, interface, namespace, message...).
- `wrappers`: nodes that are definitions when the node they wrap is one (Python's
  `decorated_definition`, an `export` statement, a C++ `template` declaration).
- `containers`: definitions with no body node whose own children are the members (a
  protobuf `service`, a C `#ifdef` block).
- `bodies`: nodes holding a sequence of members or statements (a class body, a block).
  A body directly inside a body is flattened (Go's `block` > `statement_list`).
- `comments`: comment nodes. A doc comment (`/** */`, `///`, `//!`) may sit one blank
  line above what it documents; any other comment must touch it.
- `decorators`: nodes that stand before a definition as its siblings and belong to it
  (Rust `#[attr]`, TypeScript member decorators, C++ `public:`). Decorators that the
  grammar puts inside the definition (Java annotations) need no entry.
- `imports`: nodes that are imports (or package/namespace lines); consecutive ones form
  one import group.
- `docstrings`: node types that are a docstring when they come first in a body (Python).
- `transparent`: node types that add no level to a statement's parts where they wrap
  one node of their own span (tree-sitter-python 0.23 and later put a module's
  assignment inside an `expression_statement`; as its own level it moved where a long
  dict literal was cut).
"""

from __future__ import annotations

from dataclasses import dataclass


def _types(names: str) -> frozenset[str]:
    return frozenset(names.split())


@dataclass(frozen=True)
class Language:
    """How one language's tree-sitter nodes map to the outline (see the module docstring).
    `name` is the doc type and the grammar's name in `tree-sitter-language-pack`."""

    name: str
    definitions: frozenset[str]
    bodies: frozenset[str]
    comments: frozenset[str]
    grammar: str | None = None
    imports: frozenset[str] = frozenset()
    decorators: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()
    containers: frozenset[str] = frozenset()
    docstrings: frozenset[str] = frozenset()
    transparent: frozenset[str] = frozenset()


_C_DEFINITIONS = "function_definition struct_specifier union_specifier enum_specifier type_definition"
_C_BODIES = "compound_statement field_declaration_list enumerator_list declaration_list"
_C_CONTAINERS = "preproc_if preproc_ifdef preproc_else preproc_elif preproc_elifdef"
# `const f = () => {}` is a definition of `f`: the declaration and its declarator wrap
# the function (or class) value
_JS_DEFINITIONS = (
    "function_declaration generator_function_declaration class_declaration class method_definition"
    " arrow_function function_expression generator_function"
)
_JS_WRAPPERS = "export_statement lexical_declaration variable_declaration variable_declarator"
_TS_DEFINITIONS = (
    f"{_JS_DEFINITIONS} abstract_class_declaration interface_declaration enum_declaration type_alias_declaration"
    " internal_module module function_signature abstract_method_signature method_signature"
)
# a TypeScript `namespace` is an expression statement
_TS_WRAPPERS = f"{_JS_WRAPPERS} ambient_declaration expression_statement"
_TS_BODIES = "statement_block class_body interface_body enum_body object_type"

LANGUAGES: tuple[Language, ...] = (
    Language(
        "python",
        grammar="tree_sitter_python:language",
        definitions=_types("function_definition class_definition"),
        wrappers=_types("decorated_definition"),
        bodies=_types("block"),
        comments=_types("comment"),
        imports=_types("import_statement import_from_statement future_import_statement"),
        docstrings=_types("expression_statement string"),
        transparent=_types("expression_statement"),
    ),
    Language(
        "javascript",
        grammar="tree_sitter_javascript:language",
        definitions=_types(_JS_DEFINITIONS),
        bodies=_types("statement_block class_body"),
        comments=_types("comment"),
        imports=_types("import_statement"),
        decorators=_types("decorator"),
        wrappers=_types(_JS_WRAPPERS),
    ),
    Language(
        "typescript",
        grammar="tree_sitter_typescript:language_typescript",
        definitions=_types(_TS_DEFINITIONS),
        bodies=_types(_TS_BODIES),
        comments=_types("comment"),
        imports=_types("import_statement"),
        decorators=_types("decorator"),
        wrappers=_types(_TS_WRAPPERS),
    ),
    Language(
        "tsx",
        grammar="tree_sitter_typescript:language_tsx",
        definitions=_types(_TS_DEFINITIONS),
        bodies=_types(_TS_BODIES),
        comments=_types("comment"),
        imports=_types("import_statement"),
        decorators=_types("decorator"),
        wrappers=_types(_TS_WRAPPERS),
    ),
    Language(
        "go",
        grammar="tree_sitter_go:language",
        definitions=_types("function_declaration method_declaration type_declaration"),
        bodies=_types("block statement_list field_declaration_list interface_type"),
        comments=_types("comment"),
        imports=_types("package_clause import_declaration"),
    ),
    Language(
        "rust",
        grammar="tree_sitter_rust:language",
        definitions=_types(
            "function_item function_signature_item struct_item enum_item union_item impl_item trait_item mod_item"
            " macro_definition foreign_mod_item"
        ),
        bodies=_types("block declaration_list field_declaration_list enum_variant_list"),
        comments=_types("line_comment block_comment"),
        imports=_types("use_declaration extern_crate_declaration"),
        decorators=_types("attribute_item"),
    ),
    Language(
        "java",
        grammar="tree_sitter_java:language",
        definitions=_types(
            "class_declaration interface_declaration enum_declaration record_declaration"
            " annotation_type_declaration method_declaration constructor_declaration compact_constructor_declaration"
        ),
        bodies=_types(
            "class_body interface_body enum_body enum_body_declarations annotation_type_body block constructor_body"
        ),
        comments=_types("line_comment block_comment"),
        imports=_types("package_declaration import_declaration"),
    ),
    Language(
        "c",
        grammar="tree_sitter_c:language",
        definitions=_types(_C_DEFINITIONS),
        bodies=_types(_C_BODIES),
        comments=_types("comment"),
        imports=_types("preproc_include"),
        containers=_types(_C_CONTAINERS),
    ),
    Language(
        "cpp",
        grammar="tree_sitter_cpp:language",
        definitions=_types(
            f"{_C_DEFINITIONS} class_specifier namespace_definition linkage_specification concept_definition"
        ),
        wrappers=_types("template_declaration"),
        bodies=_types(_C_BODIES),
        comments=_types("comment"),
        imports=_types("preproc_include using_declaration"),
        decorators=_types("access_specifier"),
        containers=_types(_C_CONTAINERS),
    ),
    Language(
        "csharp",
        grammar="tree_sitter_c_sharp:language",
        definitions=_types(
            "class_declaration struct_declaration interface_declaration enum_declaration record_declaration"
            " namespace_declaration method_declaration constructor_declaration destructor_declaration"
            " property_declaration operator_declaration conversion_operator_declaration indexer_declaration"
            " delegate_declaration event_declaration local_function_statement"
        ),
        bodies=_types("declaration_list block enum_member_declaration_list accessor_list"),
        comments=_types("comment"),
        imports=_types("using_directive extern_alias_directive"),
    ),
    Language(
        "ruby",
        grammar="tree_sitter_ruby:language",
        definitions=_types("class module method singleton_method singleton_class"),
        bodies=_types("body_statement"),
        comments=_types("comment"),
    ),
    Language(
        "php",
        grammar="tree_sitter_php:language_php",
        definitions=_types(
            "class_declaration interface_declaration trait_declaration enum_declaration function_definition"
            " method_declaration namespace_definition"
        ),
        bodies=_types("declaration_list compound_statement enum_declaration_list"),
        comments=_types("comment"),
        imports=_types("namespace_use_declaration"),
    ),
    Language(
        "scala",
        grammar="tree_sitter_scala:language",
        definitions=_types(
            "class_definition object_definition trait_definition enum_definition function_definition"
            " function_declaration given_definition extension_definition"
        ),
        bodies=_types("template_body block indented_block enum_body"),
        comments=_types("comment block_comment"),
        imports=_types("package_clause import_declaration"),
    ),
    Language(
        "swift",
        grammar="tree_sitter_swift:language",
        definitions=_types(
            "class_declaration protocol_declaration function_declaration init_declaration deinit_declaration"
            " subscript_declaration protocol_function_declaration"
        ),
        bodies=_types("class_body protocol_body enum_class_body function_body statements"),
        comments=_types("comment multiline_comment"),
        imports=_types("import_declaration"),
    ),
    Language(
        "kotlin",
        grammar="tree_sitter_kotlin:language",
        definitions=_types(
            "class_declaration object_declaration function_declaration companion_object secondary_constructor"
        ),
        bodies=_types("class_body enum_class_body function_body block"),
        comments=_types("line_comment block_comment"),
        imports=_types("package_header import"),
    ),
    Language(
        "solidity",
        grammar="tree_sitter_solidity:language",
        definitions=_types(
            "contract_declaration interface_declaration library_declaration function_definition"
            " modifier_definition constructor_definition fallback_receive_definition struct_declaration"
            " enum_declaration event_definition error_declaration"
        ),
        bodies=_types("contract_body function_body struct_body enum_body block_statement"),
        comments=_types("comment"),
        imports=_types("pragma_directive import_directive"),
    ),
    Language(
        "proto",
        definitions=_types("message enum service rpc extend oneof"),
        bodies=_types("message_body enum_body"),
        comments=_types("comment"),
        imports=_types("syntax edition package import option"),
        containers=_types("service oneof extend"),
    ),
)  # fmt: skip

LANGUAGES_BY_NAME: dict[str, Language] = {language.name: language for language in LANGUAGES}
