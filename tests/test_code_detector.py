"""The code detector on hand-written fixtures: one per language, each with a commented
(and, where the language has them, decorated) definition and a commented member."""

from __future__ import annotations

from pathlib import Path

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.nodes import Node, check_outline
from outline_splitter.registry import FORMATS, doc_type_for_path, load_detector, resolve_doc_type
from tests.invariants import assert_source_chunks

FIXTURES = Path(__file__).parent / "fixtures" / "code"
LANGUAGES = (
    "python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp", "csharp",
    "ruby", "php", "scala", "swift", "kotlin", "solidity", "proto",
)  # fmt: skip

# file, then for the outer and the inner definition: its symbol, the first line of the
# comment above it, and the text of its own first line (decorators come between)
ATTACHMENT = [
    ("commented.py", "Parser", "# A comment about Parser.", "class Parser", "feed", "# feed comment", "def feed"),
    ("commented.js", "Parser", "/**", "export class Parser", "feed", "// feed comment", "feed(data)"),
    ("commented.ts", "Parser", "/**", "export class Parser", "feed", "// feed comment", "feed(data)"),
    ("commented.tsx", "Parser", "/**", "export class Parser", "View", "// View doc.", "export function View"),
    ("commented.go", "Parser", "// Parser does things.", "type Parser", "Feed", "// Feed feeds.", "func (p"),
    ("commented.rs", "Parser", "/// Parser doc.", "pub struct Parser", "feed", "/// feed doc", "pub fn feed"),
    ("commented.java", "Parser", "/** Parser doc. */", "public class Parser", "feed", "// feed comment", "public int"),
    ("commented.c", "parser", "/* Parser doc. */", "struct parser", "feed", "// feed comment", "int feed"),
    ("commented.cpp", "Parser", "// Parser doc.", "class Parser", "feed", "// feed comment", "int feed"),
    ("commented.cs", "Parser", "/// <summary>", "public class Parser", "Feed", "// feed comment", "public int Feed"),
    ("commented.rb", "Parser", "# Parser doc.", "class Parser", "feed", "# feed comment", "def feed"),
    ("commented.php", "Parser", "/** Parser doc. */", "class Parser", "feed", "// feed comment", "public function"),
    ("commented.scala", "Parser", "/** Parser doc. */", "class Parser", "feed", "// feed comment", "def feed"),
    ("commented.swift", "Parser", "/// Parser doc.", "class Parser", "feed", "// feed comment", "func feed"),
    ("commented.kt", "Parser", "/** Parser doc. */", "class Parser", "feed", "// feed comment", "fun feed"),
    ("commented.sol", "Parser", "/// @notice Parser doc.", "contract Parser", "feed", "// feed comment", "function"),
    ("commented.proto", "Parser", "// Parser doc.", "message Parser", "Inner", "// Inner doc.", "message Inner"),
]
# decorators/attributes in the fixtures, which must belong to the outer definition
DECORATORS = {
    "commented.py": "@decorator", "commented.rs": "#[derive(Debug)]", "commented.java": "@Deprecated",
    "commented.cs": "[Serializable]", "commented.php": "#[Attr]", "commented.scala": "@deprecated",
    "commented.swift": "@objc", "commented.kt": '@Deprecated("x")',
}  # fmt: skip


def _outline(path: Path) -> tuple[str, Node]:
    text = path.read_text(encoding="utf-8")
    root = load_detector(resolve_doc_type(doc_type_for_path(path)))(text).expand_all()
    check_outline(root, len(text))
    return text, root


def _definition(root: Node, symbol: str, text: str, first_line: str) -> Node:
    found = [
        n
        for n in root.walk()
        if n.kind == "definition" and n.public_meta().get("symbol") == symbol and first_line in text[n.start : n.end]
    ]
    assert found, f"no definition {symbol!r} containing {first_line!r}"
    return min(found, key=lambda n: n.end - n.start)


def test_every_language_and_format_is_registered():
    names = {fmt.name for fmt in FORMATS}
    assert set(LANGUAGES) | {"rst", "latex"} <= names
    for alias, name in {"py": "python", "js": "javascript", "jsx": "javascript", "ts": "typescript", "c#": "csharp",
                        "cs": "csharp", "sol": "solidity"}.items():  # fmt: skip
        assert resolve_doc_type(alias).name == name
    for file_name, name in {"a.py": "python", "b.tsx": "tsx", "c.hpp": "cpp", "d.rst": "rst", "e.tex": "latex",
                            "f.proto": "proto", "g.kt": "kotlin"}.items():  # fmt: skip
        assert doc_type_for_path(file_name) == name


@pytest.mark.parametrize(
    ("file", "outer", "outer_comment", "outer_line", "inner", "inner_comment", "inner_line"), ATTACHMENT
)
def test_comments_and_decorators_belong_to_their_definition(
    file, outer, outer_comment, outer_line, inner, inner_comment, inner_line
):
    text, root = _outline(FIXTURES / file)
    for symbol, comment, line in ((outer, outer_comment, outer_line), (inner, inner_comment, inner_line)):
        node = _definition(root, symbol, text, line)
        source = text[node.start : node.end]
        assert comment in source, f"{file}: {symbol} starts at {source[:40]!r}, without its comment {comment!r}"
        assert source.index(comment) < source.index(line)
    if file in DECORATORS:
        node = _definition(root, outer, text, outer_line)
        assert DECORATORS[file] in text[node.start : node.end]
    # and through the splitter, at a budget that cannot hold the whole file
    splitter = OutlineTextSplitter(doc_type=doc_type_for_path(file), chunk_size=40)
    chunks = splitter.split(text)
    holder = next(c for c in chunks if inner_line in c.text)
    assert inner_comment in holder.text, f"{file}: {inner_comment!r} is not in the chunk with {inner_line!r}"


@pytest.mark.parametrize(
    ("language", "source", "attached", "apart"),
    [
        ("python", "x = 1  # trailing note\n# about f\ndef f():\n    pass\n\n# loose\n\ndef g():\n    pass\n",
         "# about f", "# loose"),
        ("rust", "/// doc, one blank line above\n\nfn f() {}\n\n// plain, one blank line above\n\nfn g() {}\n",
         "/// doc", "// plain"),
        ("java",
         "class A {\n  int x; // trailing note\n  /** doc */\n\n  void f() {}\n  // loose\n\n\n  void g() {}\n}\n",
         "/** doc */", "// loose"),
    ],
)  # fmt: skip
def test_only_touching_comments_and_doc_comments_attach(language, source, attached, apart):
    root = load_detector(resolve_doc_type(language))(source).expand_all()
    check_outline(root, len(source))
    definitions = {n.public_meta()["symbol"]: source[n.start : n.end] for n in root.walk() if n.kind == "definition"}
    assert definitions["f"].startswith(attached)
    assert "trailing note" not in definitions["f"]
    assert apart not in definitions["g"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_fixture_splits_keep_invariants(language, cl100k):
    path = next(p for p in FIXTURES.iterdir() if doc_type_for_path(p) == language)
    text = path.read_text(encoding="utf-8")
    for size in (8, 24, 64, 4096):
        chunks = OutlineTextSplitter(doc_type=language, chunk_size=size).split(text)
        assert_source_chunks(text, chunks, cl100k, size)


def test_oversized_class_carries_its_header_and_symbols(cl100k):
    methods = "\n".join(
        f"    # step {i}\n    def step_{i}(self, value):\n        total = value + {i}\n        return total * 2\n"
        for i in range(30)
    )
    text = f'import os\n\n\nclass Parser(Base):\n    """Parses."""\n\n{methods}'
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)
    later = [c for c in chunks if "def step_" in c.text and "class Parser" not in c.text]
    assert later, "the class should not fit one chunk"
    for chunk in later:
        assert chunk.metadata["context"] == "class Parser(Base):"
        assert chunk.metadata["symbol_path"][0] == "Parser"
        assert "class Parser" not in chunk.text  # the header is metadata, offsets stay exact
    for i in range(30):
        holder = next(c for c in chunks if f"def step_{i}(" in c.text)
        assert f"# step {i}\n" in holder.text and holder.text.count("return total") >= 1
    step = next(c for c in chunks if c.text.lstrip().startswith("# step 7"))
    assert step.metadata["symbol_path"][:2] == ["Parser", "step_7"]


def test_oversized_function_is_cut_between_statements_never_mid_line(cl100k):
    body = "\n".join(
        f"    result_{i} = compute(\n        alpha={i},\n        beta='{'x' * 20}',\n    )" for i in range(40)
    )
    text = f'def long_function(data):\n    """Doc."""\n{body}\n    return result_0\n'
    chunks = OutlineTextSplitter(doc_type="python", chunk_size=48).split(text)
    assert_source_chunks(text, chunks, cl100k, 48)
    assert len(chunks) > 5
    for chunk in chunks:
        assert chunk.text.lstrip().startswith(("def long_function", "result_", "return")), chunk.text[:30]
        assert text[chunk.end_pos : chunk.end_pos + 1] in ("\n", ""), "a chunk ends mid-line"
        assert chunk.metadata["symbol_path"] == ["long_function"]
        assert chunk.metadata.get("context", "def long_function(data):") == "def long_function(data):"


def test_non_ascii_source_keeps_character_offsets():
    text = (
        "# Ünïcödé 😀 header\n"
        "def grüße(名前):\n"
        '    """Grüßt 😀 — with a lone \ud800 surrogate."""\n'
        "    return f'Hallo {名前} ✓'\n\n"
        "class Café:\n"
        "    # ça va\n"
        "    def naïve(self):\n"
        "        return '🚀'\n"
    )
    root = load_detector(resolve_doc_type("python"))(text).expand_all()
    check_outline(root, len(text))
    spans = {n.public_meta()["symbol"]: text[n.start : n.end] for n in root.walk() if n.kind == "definition"}
    assert spans["grüße"].startswith("# Ünïcödé 😀 header\ndef grüße(名前):")
    assert spans["grüße"].endswith("return f'Hallo {名前} ✓'")
    assert spans["Café"].startswith("class Café:") and spans["Café"].endswith("return '🚀'")
    assert spans["naïve"].startswith("# ça va\n    def naïve")


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("python", "import os\n\n# LLM-REGION: parsing\ndef a():\n    pass\n\ndef b():\n    pass\n"
                   "# LLM-ENDREGION\n\ndef c():\n    pass\n"),
        ("typescript", "import x from 'y';\n\n// LLM-REGION: parsing\nfunction a() {}\n\nfunction b() {}\n"
                       "// LLM-ENDREGION\n\nfunction c() {}\n"),
        ("go", "package main\n\n// LLM-REGION: parsing\nfunc a() {}\n\nfunc b() {}\n// LLM-ENDREGION\n\nfunc c() {}\n"),
    ],
)  # fmt: skip
def test_llm_region_markers_make_a_region(language, source):
    root = load_detector(resolve_doc_type(language))(source).expand_all()
    check_outline(root, len(source))
    regions = [n for n in root.children if n.kind == "region"]
    assert len(regions) == 1
    region = regions[0]
    assert region.public_meta()["title"] == "parsing"
    symbols = [n.public_meta().get("symbol") for n in region.children if n.kind == "definition"]
    assert symbols == ["a", "b"]
    assert source[region.start : region.end].startswith("// LLM-REGION" if language != "python" else "# LLM-REGION")
    assert source[region.start : region.end].rstrip().endswith("LLM-ENDREGION")
    assert any(n.kind == "definition" and n.public_meta().get("symbol") == "c" for n in root.children)


def test_functions_bound_to_names_are_definitions():
    source = (
        "import { x } from 'y';\nimport z from 'z';\n\n// handler doc\n"
        "export const handler = async (event: Event) => {\n"
        "  const a = 1;\n  if (a) {\n    return 2;\n  }\n  return a;\n};\n"
        "const value = 3;\nconst Klass = class {\n  m() { return 1; }\n};\n"
    )
    root = load_detector(resolve_doc_type("typescript"))(source).expand_all()
    check_outline(root, len(source))
    kinds = [(n.kind, n.public_meta().get("symbol")) for n in root.children]
    assert kinds == [("imports", None), ("definition", "handler"), ("statement", None), ("definition", "Klass")]
    handler = root.children[1]
    assert source[handler.start : handler.end].startswith("// handler doc\nexport const handler")
    assert handler.public_meta()["context"] == "export const handler = async (event: Event) =>"


@pytest.mark.parametrize(
    ("language", "source", "group"),
    [
        ("python", '"""Doc."""\nimport os\nfrom sys import path\n\nx = 1\n', "import os\nfrom sys import path"),
        ("go", 'package main\n\nimport "fmt"\n\nfunc f() {}\n', 'package main\n\nimport "fmt"'),
        ("rust", "use a::b;\nuse c::d;\n\nfn f() {}\n", "use a::b;\nuse c::d;"),
        ("java", "package p;\nimport a.B;\n\nclass C {}\n", "package p;\nimport a.B;"),
    ],
)
def test_imports_form_one_group(language, source, group):
    root = load_detector(resolve_doc_type(language))(source).expand_all()
    groups = [source[n.start : n.end] for n in root.children if n.kind == "imports"]
    assert groups == [group]


def test_a_code_outline_shares_empty_children_and_meta():
    # a file of 100,000 one-line functions made 100,000 empty lists and dicts besides its nodes
    text = "import os\n\n" + "".join(f"# f_{n}\ndef f_{n}(x): return x\n\nclass C{n}: pass\n" for n in range(50))
    root = load_detector(resolve_doc_type("python"))(text)
    leaves = [node for node in root.walk() if not node.children and node is not root]
    assert len(leaves) > 100
    assert len({id(node.children) for node in leaves}) == 1
    metas = {id(node.meta) for node in leaves}
    assert len(metas) == 3  # function and class definitions, and the rest (empty)
    assert {node.meta.get("definition") for node in leaves} == {"function_definition", "class_definition", None}
