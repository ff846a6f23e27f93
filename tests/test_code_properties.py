"""Property tests: generated source in every language (random definitions, comments,
non-ASCII identifiers and strings, syntax errors) keeps the core invariants."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.code import LANGUAGES_BY_NAME, _parser, offsets
from outline_splitter.detectors.code.offsets import encode_source
from outline_splitter.detectors.code.outline import CodeOutline, NamedDefinition
from outline_splitter.nodes import Label, Node, check_outline
from outline_splitter.registry import load_detector, resolve_doc_type
from tests.invariants import assert_same_output, assert_source_chunks


@dataclass(frozen=True)
class Syntax:
    """Just enough of a language to write plausible programs: templates with `{name}`,
    `{arg}`, `{body}`, `{members}`, `{text}` slots."""

    comment: str
    function: str
    type: str
    method: str
    statement: str
    doc: str = "/** {text} */"
    prologue: str = ""
    indent: str = "    "


_C_LIKE = dict(function="int {name}(int {arg}) {{\n{body}\n}}", statement='char *{name} = "{text}";')
SYNTAXES = {
    "python": Syntax("# {text}", "def {name}({arg}):\n{body}", "class {name}:\n{members}",
                     "def {name}(self, {arg}):\n{body}", "{name} = '{text}'", doc='"""{text}"""'),
    "javascript": Syntax("// {text}", "function {name}({arg}) {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                         "{name}({arg}) {{\n{body}\n}}", 'const {name} = "{text}";'),
    "typescript": Syntax("// {text}", "export function {name}({arg}: number) {{\n{body}\n}}",
                         "class {name} {{\n{members}\n}}", "@dec()\n{name}({arg}: string) {{\n{body}\n}}",
                         'let {name}: string = "{text}";'),
    "tsx": Syntax("// {text}", "function {name}({arg}) {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                  "{name}({arg}) {{\n{body}\n}}", 'const {name} = <b title="{text}">{{x}}</b>;'),
    "go": Syntax("// {text}", "func {name}({arg} int) {{\n{body}\n}}", "type {name} struct {{\n{members}\n}}",
                 "{name} int", '{name} := "{text}"', prologue="package main\n"),
    "rust": Syntax("// {text}", "fn {name}({arg}: i32) {{\n{body}\n}}", "impl {name} {{\n{members}\n}}",
                   "#[inline]\nfn {name}(&self, {arg}: i32) {{\n{body}\n}}", 'let {name} = "{text}";',
                   doc="/// {text}"),
    "java": Syntax("// {text}", "class {name} {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                   "@Override\nvoid {name}(int {arg}) {{\n{body}\n}}", 'String {name} = "{text}";'),
    "c": Syntax("// {text}", type="struct {name} {{\n{members}\n}};", method="int {name};", **_C_LIKE),
    "cpp": Syntax("// {text}", type="class {name} {{\npublic:\n{members}\n}};",
                  method="int {name}(int {arg}) {{\n{body}\n}}", **_C_LIKE),
    "csharp": Syntax("// {text}", "class {name} {{\n{body}\n}}", "namespace {name} {{\nclass K {{\n{members}\n}}\n}}",
                     "[Attr]\nvoid {name}(int {arg}) {{\n{body}\n}}", 'var {name} = "{text}";', doc="/// {text}"),
    "ruby": Syntax("# {text}", "def {name}({arg})\n{body}\nend", "class {name}\n{members}\nend",
                   "def {name}({arg})\n{body}\nend", '{name} = "{text}"', doc="# {text}"),
    "php": Syntax("// {text}", "function {name}(${arg}) {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                  "#[Attr]\npublic function {name}(${arg}) {{\n{body}\n}}", '${name} = "{text}";', prologue="<?php\n"),
    "scala": Syntax("// {text}", "def {name}({arg}: Int): Int = {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                    "@tailrec\ndef {name}({arg}: Int): Int = {{\n{body}\n}}", 'val {name} = "{text}"'),
    "swift": Syntax("// {text}", "func {name}({arg}: Int) {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                    "@objc\nfunc {name}({arg}: Int) {{\n{body}\n}}", 'let {name} = "{text}"', doc="/// {text}"),
    "kotlin": Syntax("// {text}", "fun {name}({arg}: Int) {{\n{body}\n}}", "class {name} {{\n{members}\n}}",
                     "@JvmStatic\nfun {name}({arg}: Int) {{\n{body}\n}}", 'val {name} = "{text}"'),
    "solidity": Syntax("// {text}", "contract {name} {{\n{body}\n}}", "contract {name} {{\n{members}\n}}",
                       "function {name}(uint {arg}) public {{\n{body}\n}}", 'string memory {name} = "{text}";',
                       doc="/// {text}", prologue="pragma solidity ^0.8.0;\n"),
    "proto": Syntax("// {text}", "service {name} {{\n  rpc Do{arg}(A) returns (B);\n}}",
                    "message {name} {{\n{members}\n}}", "string {name} = 1;", 'option {name} = "{text}";',
                    prologue='syntax = "proto3";\n'),
}  # fmt: skip

IDENTIFIER = st.text(alphabet="abcxyz_éßüπ名字", min_size=1, max_size=8).map(lambda s: "v" + s)
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=20).map(
    lambda s: s.replace("\n", " ")
)
JUNK = st.text(alphabet="{}()[];:'\"/*#@<>\n\t \\", min_size=1, max_size=6)


@st.composite
def programs(draw: st.DrawFn, language: str) -> str:
    syntax = SYNTAXES[language]

    def lines(depth: int) -> str:
        count = draw(st.integers(0, 4))
        statements = [syntax.statement.format(name=draw(IDENTIFIER), text=draw(TEXT)) for _ in range(count)]
        return "\n".join(syntax.indent * depth + s for s in statements)

    def leading(depth: int) -> str:
        choice = draw(st.sampled_from(["", "comment", "doc", "blank"]))
        pad = syntax.indent * depth
        if choice == "comment":
            return "".join(pad + syntax.comment.format(text=draw(TEXT)) + "\n" for _ in range(draw(st.integers(1, 3))))
        if choice == "doc":
            return pad + syntax.doc.format(text=draw(TEXT)) + "\n" + draw(st.sampled_from(["", "\n"]))
        return "\n" if choice == "blank" else ""

    def indented(block: str, depth: int) -> str:
        return "\n".join(syntax.indent * depth + line if line else line for line in block.split("\n"))

    parts = [syntax.prologue]
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["function", "type", "statement", "comment"]))
        if kind == "function":
            function = syntax.function.format(name=draw(IDENTIFIER), arg=draw(IDENTIFIER), body=lines(1))
            parts.append(leading(0) + function)
        elif kind == "type":
            members = [
                leading(1)
                + indented(syntax.method.format(name=draw(IDENTIFIER), arg=draw(IDENTIFIER), body=lines(1)), 1)
                for _ in range(draw(st.integers(0, 3)))
            ]
            parts.append(leading(0) + syntax.type.format(name=draw(IDENTIFIER), members="\n".join(members)))
        elif kind == "statement":
            parts.append(lines(0))
        else:
            parts.append(syntax.comment.format(text=draw(TEXT)))
    source = "\n".join(parts) + draw(st.sampled_from(["", "\n"]))
    if source and draw(st.booleans()):  # a syntax error: junk in, or a slice out
        at = draw(st.integers(0, len(source)))
        if draw(st.booleans()):
            source = source[:at] + draw(JUNK) + source[at:]
        else:
            source = source[:at] + source[at + draw(st.integers(1, 30)) :]
    return source


@st.composite
def language_and_program(draw: st.DrawFn) -> tuple[str, str]:
    language = draw(st.sampled_from(sorted(SYNTAXES)))
    return language, draw(programs(language))


@settings(max_examples=200, deadline=None)
@given(case=language_and_program(), chunk_size=st.sampled_from([4, 12, 40, 200]))
def test_generated_source_keeps_the_invariants(case, chunk_size, cl100k):
    language, source = case
    root = load_detector(resolve_doc_type(language))(source).expand_all()  # every deferred part, checked
    check_outline(root, len(source))
    splitter = OutlineTextSplitter(doc_type=language, chunk_size=chunk_size)
    chunks = splitter.split(source)
    assert_source_chunks(source, chunks, cl100k, chunk_size)
    assert_same_output(chunks, splitter.split(source))


@settings(max_examples=60, deadline=None)
@given(source=st.text(max_size=300), language=st.sampled_from(sorted(SYNTAXES)))
def test_any_string_gives_chunks(source, language, cl100k):
    chunks = OutlineTextSplitter(doc_type=language, chunk_size=16).split(source)
    assert_source_chunks(source, chunks, cl100k, 16)


class _SymbolRecordingOutline(CodeOutline):
    """A code outline that keeps, for each definition whose label is read off the source
    (`NamedDefinition`), that label beside the symbol found in the syntax tree."""

    def __init__(self, language_name: str, text: str) -> None:
        super().__init__(LANGUAGES_BY_NAME[language_name], text, encode_source(text))
        self.pairs: list[tuple[Label, str]] = []
        self._found = ""

    def _symbol(self, chain):
        symbol, at = super()._symbol(chain)
        self._found = symbol
        return symbol, at

    def _definition(self, item) -> Node:
        node = super()._definition(item)
        if isinstance(node, NamedDefinition):
            self.pairs.append((node.label, self._found))
        return node


@settings(max_examples=300, deadline=None)
@given(case=language_and_program())
def test_a_label_read_off_the_source_is_the_symbol_of_the_syntax_tree(case):
    language, source = case
    outline = _SymbolRecordingOutline(language, source)
    outline.build(_parser(outline.language).parse(outline.data).root_node.children)
    for label, symbol in outline.pairs:
        assert label.symbol == symbol
        assert label.as_meta() == {"symbol": symbol}


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(st.sampled_from("ab \n\té€ß中😀\ud800\udfff"), max_size=200),
    block=st.integers(1, 8),
)
def test_byte_offsets_map_to_the_character_offsets(text, block):
    """`ByteToChar` gives, at every character boundary of `encode_source(text)`, the
    character's index (a lone surrogate is one `?` byte), whether or not it is handed the
    bytes and wherever its blocks (shrunk here to a few bytes) cut a character."""
    data = encode_source(text)
    boundaries = [0]
    for character in text:
        boundaries.append(boundaries[-1] + len(encode_source(character)))
    assert boundaries[-1] == len(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(offsets, "_BLOCK", block)
        converters = [offsets.ByteToChar(text), offsets.ByteToChar(text, data), offsets.char_offsets(text, data)]
    for to_char in converters:
        assert [to_char(at) for at in boundaries] == list(range(len(text) + 1))
