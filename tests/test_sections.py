"""reStructuredText and LaTeX outlines: sections by pattern, blocks kept whole."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.nodes import Node, check_outline
from outline_splitter.registry import load_detector, resolve_doc_type
from tests.invariants import assert_source_chunks

RST = """=====
Title
=====

Intro paragraph.

Install
-------

Run this::

    pip install thing

    thing --help

.. note::

   Indented note body.

Details
~~~~~~~

Deep text.

Usage
-----

Last words.
"""

LATEX = r"""\documentclass{article}
\begin{document}
\section{Intro}
Hello world.

\begin{itemize}
  \item One

  \item Two
\end{itemize}
\subsection*{Sub {nested} title}
\begin{verbatim}
code line

more code
\end{verbatim}
\section{Two}
Bye.
\end{document}
"""


def _sections(root: Node, text: str) -> list[tuple[int, str]]:
    return [(n.public_meta()["level"], n.public_meta()["title"]) for n in root.walk() if n.kind == "section"]


def test_rst_sections_nest_by_first_appearance_of_each_style():
    root = load_detector(resolve_doc_type("rst"))(RST)
    check_outline(root, len(RST))
    assert _sections(root, RST) == [(1, "Title"), (2, "Install"), (3, "Details"), (2, "Usage")]
    install = next(n for n in root.walk() if n.public_meta().get("title") == "Install" and n.kind == "section")
    literal = [RST[n.start : n.end] for n in install.children if n.kind == "code"]
    assert literal[0].startswith("Run this::") and literal[0].endswith("thing --help")  # the literal block stays whole
    assert literal[1].startswith(".. note::") and literal[1].endswith("Indented note body.")


def test_latex_sections_and_environments():
    root = load_detector(resolve_doc_type("latex"))(LATEX)
    check_outline(root, len(LATEX))
    assert _sections(root, LATEX) == [(3, "Intro"), (4, "Sub {nested} title"), (3, "Two")]
    lists = [n for n in root.walk() if n.kind == "list"]
    assert [LATEX[i.start : i.end].strip() for i in lists[0].children] == [r"\item One", r"\item Two"]
    code = next(n for n in root.walk() if n.kind == "code")
    assert LATEX[code.start : code.end] == "\\begin{verbatim}\ncode line\n\nmore code\n\\end{verbatim}"


def test_heading_path_in_chunks(cl100k):
    chunks = OutlineTextSplitter(doc_type="rst", chunk_size=12).split(RST)
    assert_source_chunks(RST, chunks, cl100k, 12)
    deep = next(c for c in chunks if "Deep text." in c.text)
    assert deep.metadata["heading_path"] == ["Title", "Install", "Details"]


@settings(max_examples=60, deadline=None)
@given(
    source=st.lists(
        st.one_of(
            st.sampled_from(["Title", "=====", "-----", "::", "    indented", ".. note::", "", "\\section{A}",
                             "\\begin{itemize}", "\\item x", "\\end{itemize}", "\\begin{verbatim}", "\\end{verbatim}"]),
            st.text(max_size=30),
        ),
        max_size=30,
    ).map("\n".join),
    doc_type=st.sampled_from(["rst", "latex"]),
    chunk_size=st.sampled_from([4, 16, 64]),
)  # fmt: skip
def test_any_rst_or_latex_keeps_the_invariants(source, doc_type, chunk_size, cl100k):
    root = load_detector(resolve_doc_type(doc_type))(source)
    check_outline(root, len(source))
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size).split(source)
    assert_source_chunks(source, chunks, cl100k, chunk_size)
