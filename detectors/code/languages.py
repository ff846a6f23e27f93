"""What a definition, a comment, a decorator, an import and a body are, per language.

One row per language in `languages.toml`, beside this module (doc types, aliases and file
extensions are in the registry's `FORMATS`), read by `outline_splitter.detectors.code.outline`:
the walker is the same for all of them and only asks these questions of the tree-sitter node
types. Node type names are those of the grammars of `grammar`, the tree-sitter organisation's
wheel of each language (pinned in pyproject.toml); proto's, which has no such wheel, are those
of `tree-sitter-language-pack` 0.13 (the `languages` extra). A row that `extends` another
language has that language's node types under each key as well as its own (TypeScript those of
JavaScript, C++ those of C).

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

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

TABLE = Path(__file__).with_name("languages.toml")


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


# the keys of a row whose values are sets of node types
_NODE_TYPES = tuple(field.name for field in fields(Language) if field.name not in ("name", "grammar"))


def _language(name: str, rows: dict[str, dict[str, str]]) -> Language:
    """The row `name` of the table, with the node types of the language it extends."""
    row = rows[name]
    unknown = set(row) - {"extends", "grammar", *_NODE_TYPES}
    if unknown:
        raise ValueError(f"{TABLE.name}: [{name}] has unknown keys {sorted(unknown)}")
    if "extends" in row:
        base = _language(row["extends"], rows)
    else:  # comments are "comment" unless the row names others
        base = Language(name, definitions=frozenset(), bodies=frozenset(), comments=frozenset())
        row = {"comments": "comment", **row}
    types = {key: getattr(base, key) | frozenset(row.get(key, "").split()) for key in _NODE_TYPES}
    return replace(base, name=name, grammar=row.get("grammar", base.grammar), **types)


def _languages() -> tuple[Language, ...]:
    rows = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    return tuple(_language(name, rows) for name in rows)


LANGUAGES: tuple[Language, ...] = _languages()
LANGUAGES_BY_NAME: dict[str, Language] = {language.name: language for language in LANGUAGES}
