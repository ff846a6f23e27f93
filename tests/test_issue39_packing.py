"""Issue 39's packing reproducers: a closing brace as a chunk of its own where the chunk
before could take it, and Markdown's `min_chunk_size` cutting raw HTML that fits; each
split with the invariants of DESIGN.md asserted (`tests/hostile.py`)."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from benchmarks.adversarial import python_nesting
from outline_splitter import OutlineTextSplitter
from tests.hostile import split_checked

RUST = """fn main() {
    println!("hi");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(2 + 2, 4);
    }

    #[test]
    fn it_fails() {
        assert_eq!(2 + 3, 5);
    }
}
"""

METHOD = """class A {
  foo(a, b) {
    return a + b;
  }
}
"""

RUBY = """class Greeter
  def greet(name)
    puts "Hello, #{name}"
  end
end
"""


JSDOC = """/**
 * Creates a rule that checks things in the source code of the program.
 * It reports a problem where one is found.
 */
function create(context) {
  /**
   * @param {ASTNode} node The node to check.
   * @returns {void}
   */
  function check(node) {
    context.report({ node, message: "Unexpected thing." });
  }
  return { Identifier: check };
}
"""


@pytest.mark.parametrize("size", [32, 40])
def test_a_jsdoc_block_stays_with_the_signature_of_a_short_function(size: int) -> None:
    # `check` spans three lines, its comment four: with its comment it is broken as a
    # definition (header, then body), not cut at lines inside the comment
    chunks = split_checked(JSDOC, "javascript", chunk_size=size)
    comment = JSDOC.index("  /**\n   * @param") + 2
    signature = JSDOC.index("function check")
    holder = next(c for c in chunks if c.start_pos <= comment < c.end_pos)
    assert holder.start_pos == comment and holder.end_pos > signature


def _closers_alone(text: str, doc_type: str, size: int) -> list[str]:
    """The chunks that are a closer alone though they fit the chunk before."""
    chunks = split_checked(text, doc_type, chunk_size=size)
    alone = []
    for before, chunk in pairwise(chunks):
        if re.fullmatch(r"[\]})]+[;,]?|end", chunk.text):
            joined = text[before.start_pos : chunk.end_pos]
            if OutlineTextSplitter(doc_type=doc_type).tokenizer.count(joined) <= size:
                alone.append(chunk.text)
    return alone


@pytest.mark.parametrize("size", range(28, 65, 4))
def test_the_brace_of_a_broken_module_joins_the_chunk_before(size: int) -> None:
    # (at 24 the last test function fills its chunk: the brace cannot join it)
    chunks = split_checked(RUST, "rust", chunk_size=size)
    assert chunks[-1].text != "}"


def test_a_method_that_fits_keeps_the_class_brace() -> None:
    chunks = split_checked(METHOD, "javascript", chunk_size=16)
    assert [c.text for c in chunks] == ["class A {", "foo(a, b) {\n    return a + b;\n  }\n}"]


@pytest.mark.parametrize("size", range(8, 40, 2))
def test_no_closer_stands_alone_where_it_fits(size: int) -> None:
    for text, doc_type in ((METHOD, "javascript"), (RUBY, "ruby"), (RUST, "rust")):
        assert _closers_alone(text, doc_type, size) == []


def test_a_closer_never_joins_across_a_budget() -> None:
    # at 18 the method and the class's header fill a chunk: the brace cannot join it
    chunks = split_checked(METHOD, "javascript", chunk_size=18)
    assert chunks[-1].text == "}"
    assert chunks[-2].token_count + 1 > 18


HTML_BLOCK = "<table>\n  <tr>\n    <td>Hi there</td>\n    <td>friend</td>\n  </tr>\n</table>\n"


@pytest.mark.parametrize("size", range(30, 48, 2))
@pytest.mark.parametrize("minimum", [5, 8, 11, 14])
def test_min_chunk_size_does_not_cut_an_html_block_that_fits(size: int, minimum: int) -> None:
    text = "Intro.\n\n" + HTML_BLOCK + "\nAfter.\n"
    chunks = split_checked(text, "markdown", chunk_size=size, min_chunk_size=minimum)
    block = text.index("<table>"), text.index("</table>") + len("</table>")
    assert not any(block[0] < c.start_pos < block[1] or block[0] < c.end_pos < block[1] for c in chunks)


def test_the_issues_table_is_an_indented_code_block_cut_at_a_line() -> None:
    # issue 39's item 8: after a blank line, `    <td>` is an indented code block by
    # CommonMark (a renderer shows it as code, not as a cell), and a tiny chunk may take
    # whole lines of a code block (test_min_chunk_size.py); the cut falls at a line end
    text = "Intro paragraph.\n\n<table>\n\n  <tr>\n\n    <td>\n      Hi\n    </td>\n  </tr>\n\n</table>\n\nAfter.\n"
    for chunk in split_checked(text, "markdown", chunk_size=20, min_chunk_size=10):
        assert chunk.start_pos == 0 or text[chunk.start_pos - 1] in " \n"
        assert text[chunk.end_pos] == "\n"


def _characters_counted_again(text: str, size: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The characters a split of `text` hands the tokenizer to count, beyond the one
    encode of the whole document its token index is built from."""
    splitter = OutlineTextSplitter(doc_type="python", chunk_size=size)
    tokenizer = splitter.tokenizer
    count, counted = tokenizer.count, 0

    def counting(piece: str) -> int:
        nonlocal counted
        counted += len(piece)
        return count(piece)

    monkeypatch.setattr(tokenizer, "count", counting)
    assert splitter.split(text)
    return counted


@pytest.mark.parametrize("megabytes", [1, 2])
def test_deep_python_nesting_counts_no_indentation_again(megabytes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 39's item 12: lines indented deeper than the budget are leaves cut at their
    # line end, and evening out the two parts counted them untrimmed: the indentation
    # has no sync point, so each count encoded it whole again (a third of the text at
    # 1 MB, 87% at 2 MB, where lines run to 2,000 spaces), which made the doubling step
    # to 50 MB 3.2x at 64 tokens; the chunks themselves are trimmed
    text = python_nesting(megabytes << 20)
    assert _characters_counted_again(text, 8, monkeypatch) < len(text) // 50


def test_deep_python_nesting_keeps_the_invariants() -> None:
    text = python_nesting(256 << 10)
    chunks = split_checked(text, "python", chunk_size=4)
    assert [c.text for c in chunks[-2:]] == ["if a:", "x = 1"]
