"""Hypothesis strategies for fuzzing `split`: text built from every format's structural
fragments and arbitrary characters (lone surrogates, controls and line separators too),
and arbitrary splitter arguments, valid or not (an invalid one must be a `ValueError`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from outline_splitter.options import MARKDOWN_PARSERS
from outline_splitter.registry import load_kinds, resolve_doc_type
from tests.hostile import MODES

# Pieces of structure of every format, so that short drawn texts open, nest and break it.
FRAGMENTS = [
    # Markdown
    "# ", "## ", "\n===\n", "\n---\n", "```", "```py\n", "~~~", "- ", "1. ", "> ", "|a|b|\n|-|-|\n", "    ", "***",
    "---\ntitle: x\n---\n", "[link](u)", "`", "*", "_", "<div>\n",
    # HTML
    "<p>", "</p>", "<div>", "</div>", "<h2>", "</h2>", "<h1>", "<ul><li>", "<li>", "</ul>", "<table><tr><td>", "<td>",
    "</table>", "<pre>", "</pre>", "<script>", "</script>", "<style>", "<!--", "-->", "<![CDATA[", "]]>", "<br>",
    "<span>", "</span>", "<section>", "<nav>", "<b>", "&amp;", "&nbsp;", "&#0;", '<a href="x">', '<p title=">">',
    '<span data-outline-node="3">', "<html><body>", "</body></html>", "<main>", "<article>", "<footer>",
    # code
    "{", "}", "(", ")", ";", "def f():\n    ", "class A:\n", "fn main() {", "func f() {", "function g() {", "/*", "*/",
    "//", "#", '"', "'", '"""', "@decorator\n", "import os\n", "// LLM-REGION: r\n", "// LLM-END-REGION\n", "<?php ",
    # reStructuredText and LaTeX
    "\n---\n", "\n~~~~\n", "::\n\n  ", ".. note::\n", "\\section{S}", "\\subsection{T}", "\\begin{itemize}", "\\item ",
    "\\end{itemize}", "\\begin{verbatim}", "\\end{verbatim}", "\\begin{document}",
    # white space and line ends
    "\n", "\n\n", "\r\n", "\r", " ", "\t", "\u2028", "\u2029", "\x85", "\x0c", "\ufeff", "\xa0", "\u3000", "\u200b",
    # prose
    "word", "Sentence one. ", "Why? ", "e.g. ", "end:", "日本語", "x²", "...", ".",
]  # fmt: skip
ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates included
TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(ANY_CHARACTER, max_size=4)), max_size=50).map("".join)

SELECTORS = ["p", "div", "li", "h2", "h3", "span", "*", "html", "body", "table", "tr", "pre", "section", ".x", "#a",
             "div > p", "p + p", "[data-outline-node]", ":root", "ul li", "nav"]  # fmt: skip
BAD_SELECTORS = ["p[[[", "::::", ">>", "a]"]


def word_count(text: str) -> int:
    """A tokenizer callable: words separated by white space."""
    return len(text.split())


def small_hugging_face_tokenizer() -> Any:
    """A BERT-style Hugging Face pipeline (normalizer, pre-tokenizer, WordPiece) trained
    here on the fragments, so no download: the path that counts from `encode` offsets."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer()
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]"])
    tokenizer.train_from_iterator([fragment for fragment in FRAGMENTS if fragment.strip()] * 3, trainer)
    return tokenizer


TOKENIZERS: list[Any] = ["cl100k_base", len, word_count, small_hugging_face_tokenizer()]


@dataclass
class Case:
    """A drawn call: `OutlineTextSplitter(doc_type=..., **options).split(text)`; `bad`
    names the arguments drawn invalid on purpose."""

    text: str
    doc_type: str
    options: dict[str, Any] = field(default_factory=dict)
    bad: list[str] = field(default_factory=list)


def _names(draw: st.DrawFn, doc_type: str) -> tuple[list[str], bool]:
    """Drawn `never_break_within` / `separators` values, and whether one is invalid."""
    if doc_type == "html":
        pool = SELECTORS
        bad = BAD_SELECTORS
    else:
        kinds = load_kinds(resolve_doc_type(doc_type))
        assert kinds is not None
        pool = sorted(kinds)
        bad = ["bogus", "sentence"]
    names = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True))
    if draw(st.integers(0, 19)) == 0:
        return [*names, draw(st.sampled_from(bad))], True
    return names, False


@st.composite
def cases(draw: st.DrawFn) -> Case:
    doc_type, output = draw(st.sampled_from(MODES))
    chunk_size = draw(st.one_of(st.integers(1, 12), st.integers(13, 400)))
    options: dict[str, Any] = {
        "chunk_size": chunk_size,
        "chunk_overlap": draw(st.integers(0, chunk_size - 1)),
        "min_chunk_size": draw(st.one_of(st.just(0), st.integers(0, chunk_size))),
        "max_chunk_size": draw(st.one_of(st.none(), st.integers(chunk_size, chunk_size * 3))),
        "tokenizer": draw(st.sampled_from(TOKENIZERS)),
        "output": output,
    }
    if doc_type == "markdown":  # (each parser, against its own reading)
        options["markdown_parser"] = draw(st.sampled_from(MARKDOWN_PARSERS))
    bad = []
    for name in ("never_break_within", "separators"):
        values, invalid = _names(draw, doc_type)
        options[name] = values
        if invalid:
            bad.append(name)
    return Case(draw(TEXT), doc_type, options, bad)
