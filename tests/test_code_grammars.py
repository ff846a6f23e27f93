"""Where the code grammars come from: each language's own wheel, and proto and every other
language `tree-sitter-language-pack` offers from the pack (the `languages` extra)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import fields
from pathlib import Path

import pytest

import outline_splitter.detectors.code as code
from outline_splitter import OutlineTextSplitter, registry
from outline_splitter.detectors.code.languages import LANGUAGES, LANGUAGES_BY_NAME, TABLE, _language
from tests.invariants import assert_source_chunks

FIXTURES = Path(__file__).parent / "fixtures" / "code"
HAS_PACK = importlib.util.find_spec("tree_sitter_language_pack") is not None
needs_pack = pytest.mark.skipif(not HAS_PACK, reason="tree-sitter-language-pack (the `languages` extra) is absent")


@pytest.fixture
def no_pack(monkeypatch):
    """As if tree-sitter-language-pack were not installed."""
    monkeypatch.setitem(sys.modules, "tree_sitter_language_pack", None)  # import fails
    code.pack_languages.cache_clear()
    registry._formats_by_name.cache_clear()
    registry.load_detector.cache_clear()
    yield
    code.pack_languages.cache_clear()
    registry._formats_by_name.cache_clear()
    registry.load_detector.cache_clear()


def test_every_language_but_proto_has_a_grammar_wheel():
    assert [language.name for language in LANGUAGES if language.grammar is None] == ["proto"]
    for language in LANGUAGES:
        if language.grammar is not None:
            module_name = language.grammar.partition(":")[0]
            assert module_name != "tree_sitter_language_pack"
            assert importlib.util.find_spec(module_name) is not None, module_name


NODE_TYPE_KEYS = [field.name for field in fields(code.Language) if field.name not in ("name", "grammar")]


@pytest.mark.parametrize(
    "language", [language for language in LANGUAGES if language.grammar is not None], ids=lambda language: language.name
)
def test_every_node_type_of_the_table_is_one_of_its_grammar(language):
    grammar = code._grammar(language.name, language.grammar)
    named = {grammar.node_kind_for_id(i) for i in range(grammar.node_kind_count) if grammar.node_kind_is_named(i)}
    for key in NODE_TYPE_KEYS:
        assert getattr(language, key) <= named, (TABLE.name, language.name, key, getattr(language, key) - named)


def test_a_row_that_extends_another_has_its_node_types_too():
    javascript, typescript, tsx = (LANGUAGES_BY_NAME[name] for name in ("javascript", "typescript", "tsx"))
    for key in NODE_TYPE_KEYS:
        assert getattr(javascript, key) <= getattr(typescript, key) == getattr(tsx, key), key
    assert "interface_declaration" in typescript.definitions - javascript.definitions
    assert tsx.grammar == "tree_sitter_typescript:language_tsx" != typescript.grammar
    # comments are "comment" unless a row names others
    assert LANGUAGES_BY_NAME["cpp"].comments == {"comment"}
    assert LANGUAGES_BY_NAME["rust"].comments == {"line_comment", "block_comment"}


def test_a_row_with_an_unknown_key_is_refused():
    with pytest.raises(ValueError, match=r"\[lua\] has unknown keys \['definition'\]"):
        _language("lua", {"lua": {"definition": "function_declaration"}})


@pytest.mark.parametrize(
    "language", [language for language in LANGUAGES if language.grammar is not None], ids=lambda language: language.name
)
def test_the_core_languages_split_without_the_pack(no_pack, language, cl100k):
    path = next(p for p in sorted(FIXTURES.iterdir()) if registry.doc_type_for_path(p) == language.name)
    text = path.read_text(encoding="utf-8")
    chunks = OutlineTextSplitter(doc_type=language.name, chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    assert any("definition" in chunk.metadata["kinds"] for chunk in chunks)  # the grammar's node types are known


def test_proto_without_the_pack_names_the_extra(no_pack):
    splitter = OutlineTextSplitter(doc_type="proto", chunk_size=64)
    with pytest.raises(ImportError, match=r"outline-splitter\[languages\]"):
        splitter.split((FIXTURES / "commented.proto").read_text(encoding="utf-8"))


def test_a_pack_language_without_the_pack_is_unknown_and_the_extra_named(no_pack):
    with pytest.raises(ValueError, match="lua") as raised:
        OutlineTextSplitter(doc_type="lua")
    assert "tree-sitter-language-pack" in str(raised.value) and "[languages]" in str(raised.value)
    assert "lua" not in registry.doc_types()


@needs_pack
def test_proto_with_the_pack(cl100k):
    text = (FIXTURES / "commented.proto").read_text(encoding="utf-8")
    chunks = OutlineTextSplitter(doc_type="proto", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    assert LANGUAGES_BY_NAME["proto"].grammar is None


LUA = """-- Adds one.
local function inc(x)
  return x + 1
end

-- A table of helpers.
local M = {}

function M.twice(f, x)
  local y = f(x)
  if y > 10 then
    return y
  end
  return f(y)
end

return M
"""


@needs_pack
@pytest.mark.parametrize("chunk_size", [12, 24, 400])
def test_another_pack_language_is_a_doc_type(chunk_size, cl100k):
    assert "lua" in registry.doc_types()
    chunks = OutlineTextSplitter(doc_type="lua", chunk_size=chunk_size).split(LUA)
    assert_source_chunks(LUA, chunks, cl100k, chunk_size)
    if chunk_size == 24:  # a function with the comment above it, read off the grammar's node types
        first = chunks[0]
        assert first.text == "-- Adds one.\nlocal function inc(x)\n  return x + 1\nend"
        assert first.metadata["symbol"] == "inc"
