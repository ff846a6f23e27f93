"""Each benchmark figure on a small hand-made document whose right answer is known."""

from __future__ import annotations

import pytest

from outline_splitter.bench import figures
from outline_splitter.bench.ground_truth import (
    chunk_stream,
    html_structure,
    markdown_structure,
    python_structure,
    sentences_of,
    squash,
)
from outline_splitter.bench.peers import PEERS, Unavailable


def words(text: str) -> int:
    """A stand-in token count (words), so budgets in these tests are easy to reason about."""
    return len(text.split())


def test_throughput_and_tiktoken_ratio():
    assert figures.throughput(2.0, 4.0) == 2.0
    assert figures.tiktoken_ratio(3.0, 1.5) == 2.0
    assert figures.throughput(0.0, 1.0) == float("inf")


def test_mean_fill_and_over_budget():
    assert figures.mean_fill([50, 100], 100) == 0.75
    assert figures.mean_fill([], 100) == 0.0
    assert figures.over_budget([90, 120, 150], 100) == (2, 0.5)
    assert figures.over_budget([90, 100], 100) == (0, 0.0)


def test_exact_spans_counts_verbatim_chunks_in_order():
    document = "alpha beta\n\ngamma delta\n"
    assert figures.exact_spans(document, ["alpha beta", "gamma delta"]) == 2
    # rewritten text does not map; a chunk found only before the previous one does not either
    assert figures.exact_spans(document, ["alpha  beta", "gamma delta", "alpha beta"]) == 1


MARKDOWN = """# Guide

Intro sentence one. Intro sentence two is here.

- first item
- second item
- third item

| a | b |
|---|---|
| 1 | 2 |

```python
print("hi")
```

## Next

Closing words.
"""


def test_markdown_units_come_from_markdown_it():
    structure = markdown_structure(MARKDOWN, words)
    kinds = [unit.kind for unit in structure.units]
    assert kinds == ["list", "table", "fence"]
    assert structure.headings == {"#Guide", "##Next"}
    located = [structure.stream[start:end] for start, end in structure.sentences]
    # list items hold paragraphs too (their source line starts with the marker)
    assert located == [
        "Introsentenceone.",
        "Introsentencetwoishere.",
        "-firstitem",
        "-seconditem",
        "-thirditem",
        "Closingwords.",
    ]


def test_kept_whole_per_kind():
    structure = markdown_structure(MARKDOWN, words)
    cut = MARKDOWN.index("- second item")
    chunks = [MARKDOWN[:cut], MARKDOWN[cut:]]  # the list is cut between its first two items
    streams = [chunk_stream("markdown", chunk) for chunk in chunks]
    assert figures.kept_whole(structure.units, "list", streams, budget=100) == (0, 1)
    assert figures.kept_whole(structure.units, "table", streams, budget=100) == (1, 1)
    assert figures.kept_whole(structure.units, "fence", streams, budget=100) == (1, 1)
    # a unit over the budget is not eligible: nobody could keep it whole
    assert figures.kept_whole(structure.units, "list", streams, budget=3) == (0, 0)
    assert figures.kept_whole(structure.units, "list", [squash(MARKDOWN)], budget=100) == (1, 1)


def test_mid_sentence_cuts():
    structure = markdown_structure(MARKDOWN, words)
    inside = MARKDOWN.index("two is here")
    between = MARKDOWN.index("Intro sentence two")
    for cut, expected in ((inside, (1, 1)), (between, (0, 1)), (MARKDOWN.index("- first"), (0, 1))):
        streams = [chunk_stream("markdown", part) for part in (MARKDOWN[:cut], MARKDOWN[cut:])]
        ends = figures.chunk_ends(structure.stream, streams)
        assert figures.mid_sentence_cuts(structure.sentences, ends) == expected, MARKDOWN[cut : cut + 20]


def test_chunk_ends_skips_rewritten_chunks():
    assert figures.chunk_ends("abcdef", ["abc", "def"]) == [3]
    assert figures.chunk_ends("abcdef", ["xyz", "abc", "def"]) == [3]


def test_heading_orphans():
    structure = markdown_structure(MARKDOWN, words)
    at_next = MARKDOWN.index("Closing words")  # "## Next" ends the first chunk, its body starts the second
    streams = [chunk_stream("markdown", part) for part in (MARKDOWN[:at_next], MARKDOWN[at_next:])]
    assert figures.heading_orphans(streams, structure.headings) == 1
    before = MARKDOWN.index("## Next")
    streams = [chunk_stream("markdown", part) for part in (MARKDOWN[:before], MARKDOWN[before:])]
    assert figures.heading_orphans(streams, structure.headings) == 0
    # a heading that ends the last chunk has no body to be parted from
    assert figures.heading_orphans([squash("text\n\n# Guide")], structure.headings) == 0


def test_front_matter_is_not_a_heading():
    structure = markdown_structure("---\ntitle: x\n---\n\n# Real\n\nBody.\n", words)
    assert structure.headings == {"#Real"}


PYTHON = """import os


# Explains f.
# Over two lines.
@staticmethod
def f():
    return 1


class C:
    def a(self):
        return 2

    # about b
    def b(self):
        return 3
"""


def test_python_definitions_and_comment_attachment():
    structure = python_structure(PYTHON, words)
    assert sorted(unit.kind for unit in structure.units) == ["comment"] * 2 + ["definition"] * 4
    split_class = PYTHON.index("    # about b")
    streams = [chunk_stream("python", part) for part in (PYTHON[:split_class], PYTHON[split_class:])]
    # f, a and b are whole, the class C is not
    assert figures.kept_whole(structure.units, "definition", streams, budget=100) == (3, 4)
    assert figures.kept_whole(structure.units, "comment", streams, budget=100) == (2, 2)
    detached = PYTHON.index("@staticmethod")  # the comment above f goes to the previous chunk
    streams = [chunk_stream("python", part) for part in (PYTHON[:detached], PYTHON[detached:])]
    assert figures.kept_whole(structure.units, "comment", streams, budget=100) == (1, 2)


def test_python_that_does_not_parse_has_no_units():
    assert python_structure("def broken(:\n", words).units == []


def test_sentences_of():
    assert sentences_of("One here. Two there! Three? four stays.") == ["One here.", "Two there!", "Three? four stays."]


HTML = """<html><head><title>T</title><style>p { color: red }</style></head><body>
<h2>Steps</h2>
<p>First sentence. Second sentence.</p>
<ol><li>one</li><li>two</li><li>three</li></ol>
<table><tr><td>a</td><td>b</td></tr></table>
<pre>x = 1</pre>
</body></html>"""


def test_html_units_from_selectolax_source_and_text_chunks():
    pytest.importorskip("selectolax")
    structure = html_structure(HTML, words)
    assert sorted(unit.kind for unit in structure.units) == ["list", "pre", "table"]
    assert structure.headings == {"Steps"}
    assert "color" not in structure.stream  # style text is not visible
    cut = HTML.index("<li>two")
    streams = [chunk_stream("html", part) for part in (HTML[:cut], HTML[cut:])]
    assert figures.kept_whole(structure.units, "list", streams, budget=1000) == (0, 1)
    assert figures.kept_whole(structure.units, "table", streams, budget=1000) == (1, 1)
    # text-mode chunks (no markup) compare on the same visible text
    text_chunks = ["Steps\nFirst sentence. Second sentence.", "one\ntwo\nthree\na b\nx = 1"]
    streams = [chunk_stream("html", chunk) for chunk in text_chunks]
    assert figures.kept_whole(structure.units, "list", streams, budget=1000) == (1, 1)
    ends = figures.chunk_ends(structure.stream, streams)
    assert figures.mid_sentence_cuts(structure.sentences, ends) == (0, 1)
    assert figures.heading_orphans([squash("T Steps"), "x"], structure.headings) == 1
    # readable text that shows markup (code in a `pre`) is text, not markup to parse
    assert chunk_stream("html", "if a <b and c> d", markup=False) == "ifa<bandc>d"
    assert chunk_stream("html", "if a <b and c> d") != "ifa<bandc>d"


def test_peers_return_chunk_texts_or_say_why_not():
    from outline_splitter.tokens import load_encoding

    encoding = load_encoding("cl100k_base")
    for peer in PEERS:
        if not peer.applies_to("markdown"):
            continue
        try:
            chunker = peer.build(64, "markdown", encoding)
        except Unavailable as exc:
            assert str(exc)
            continue
        chunks = chunker(MARKDOWN)
        assert chunks and all(isinstance(chunk, str) for chunk in chunks), peer.name
        assert squash("".join(chunks)) == squash(MARKDOWN) or peer.name != "outline-splitter"
