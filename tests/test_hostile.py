"""Hostile input (issue 15's list): control and separator characters, broken markup, huge
attributes, words and lines, many siblings, tiny budgets, options that match the root,
everything or nothing. Each case runs in every doc type where it means something, under
a timeout, and gets valid chunks (`tests.hostile.split_checked`) or a `ValueError` that
says why. Deep nesting is `tests/test_deep_nesting.py`'s.

The megabyte cases count in characters (`tokenizer=len`): tiktoken alone needs 6.5 s for
one 5 MB word (its BPE on a single pre-token piece grows faster than the piece), which
would measure tiktoken, not the splitter; a 200 KB word runs with cl100k as well.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.registry import load_kinds, resolve_doc_type
from tests.hostile import CODE_TYPES, MODE_IDS, MODES, split_checked
from tests.markdown_parsers import EACH_PARSER

pytestmark = pytest.mark.timeout(120)

# A small document with a bit of every format's structure, for the cases that vary options.
MIXED = (
    "# Title\n\nIntro paragraph with some words: here.\n\n- item one\n- item two\n\n"
    "```py\nx = 1\ny = 2\n```\n\n<div><p>Para <b>bold</b> text.</p><ul><li>a</li><li>b</li></ul></div>\n\n"
    "def f(a, b):\n    return a + b\n\nclass C {\n  int g() { return 1; }\n}\n\n"
    "Section\n=======\n\n\\section{Latex} More text. Another sentence!\n"
)

CONTROL_TEXTS = {
    "nul": "a\x00b\x00\n\n\x00\x00 c d\x00",
    "lone-surrogates": "a\ud800b \udfff c\n\n\udc00\ud83d end",
    "line-separators": "one\u2028two\u2029three\x85four\x0cfive\x0b six\n\u2028\n\u2029\n\x85\n\x0c\n",
    "crlf-cr-mix": "# H\r\n\r\npara one\rpara two\r\n\r\n\r\r- a\r- b\n\r\n```\r\ncode\r\n```\r\ntail",
    "bom": "\ufeff# Title\n\ntext \ufeff inside\n",
    "only-space": " \n\t\r\n\u3000\xa0\u2028",
    "empty": "",
}


@pytest.mark.parametrize(("doc_type", "output"), MODES, ids=MODE_IDS)
@pytest.mark.parametrize("name", list(CONTROL_TEXTS))
def test_control_characters(name: str, doc_type: str, output: str | None) -> None:
    text = CONTROL_TEXTS[name]
    for chunk_size in (1, 3, 64):
        split_checked(text, doc_type, output, chunk_size=chunk_size)
        split_checked(MIXED + text + MIXED, doc_type, output, chunk_size=chunk_size)


BROKEN_MARKUP = {
    "unclosed-tags": "<div><p>one<p>two<ul><li>a<li>b<table><tr><td>x<td>y<b><i>deep text",
    "unclosed-fence": "intro\n\n```python\ndef f():\n    return 1\n\nno end",
    "unclosed-tilde-fence": "~~~~\ncode\n~~~\nstill code",
    "unterminated-comment": "text <!-- comment never ends\n\n<p>hidden?</p>",
    "unterminated-c-comment": "int a; /* never ends\nint b;\n",
    "unterminated-string": 'x = \'never ends\ny = "nor this\nz = """triple\n',
    "unterminated-cdata": "<p>a</p><![CDATA[ never <p>ends</p>",
    "unterminated-tag": "<p class=\"x>y</p><a href='z",
    "end-tag-in-script-string": "<div><script>var s = \"</div>\"; var t = '</p>';</script><p>after</p></div>",
    "end-tag-in-style": "<style>p::after { content: '</style'; }</style><p>x</p>",
    "stray-end-tags": "</p></div></li></table>text</body></html>more",
    "raw-lt": "a < b > c <<< >>> <3 </ <!x <? ?>",
}


@pytest.mark.parametrize(("doc_type", "output"), MODES, ids=MODE_IDS)
@pytest.mark.parametrize("name", list(BROKEN_MARKUP))
def test_broken_markup(name: str, doc_type: str, output: str | None) -> None:
    text = BROKEN_MARKUP[name]
    for chunk_size in (1, 5, 512):
        split_checked(text, doc_type, output, chunk_size=chunk_size)


@pytest.mark.parametrize(("doc_type", "output"), MODES, ids=MODE_IDS)
def test_tiny_budgets_and_full_overlap(doc_type: str, output: str | None) -> None:
    for chunk_size in range(1, 9):
        split_checked(MIXED, doc_type, output, chunk_size=chunk_size, chunk_overlap=chunk_size - 1)


def _kinds(doc_type: str) -> list[str]:
    kinds = load_kinds(resolve_doc_type(doc_type))
    assert kinds is not None
    return sorted(kinds)


def _option_sets(doc_type: str) -> dict[str, list[str]]:
    """Option values that match the root, everything, or nothing."""
    if doc_type == "html":
        return {"root": ["html"], "everything": ["*"], "nothing": [".no-such-class"]}
    sets = {"root": ["document"], "everything": _kinds(doc_type)}
    absent = {"markdown": "front_matter", "rst": "code", "latex": "list"}
    if doc_type in CODE_TYPES:
        sets["nothing"] = ["region"]
    elif doc_type in absent:  # (every kind of text's, document and paragraph, is in any text)
        sets["nothing"] = [absent[doc_type]]
    return sets


@pytest.mark.parametrize(("doc_type", "output"), MODES, ids=MODE_IDS)
def test_options_matching_root_everything_nothing(doc_type: str, output: str | None) -> None:
    text = MIXED * 3
    for values in _option_sets(doc_type).values():
        for chunk_size in (4, 40):
            split_checked(text, doc_type, output, chunk_size=chunk_size, separators=values)
            split_checked(text, doc_type, output, chunk_size=chunk_size, never_break_within=values)
            split_checked(
                text, doc_type, output, chunk_size=chunk_size, max_chunk_size=chunk_size * 3,
                separators=values, never_break_within=values,
            )  # fmt: skip


# -- large input ---------------------------------------------------------------------

BIG_TYPES = [("text", None), ("markdown", None), ("html", None), ("html", "text"), ("rst", None), ("python", None)]
BIG_IDS = [f"{d}-{o}" if o else d for d, o in BIG_TYPES]


@pytest.mark.parametrize(("doc_type", "output"), BIG_TYPES, ids=BIG_IDS)
def test_five_megabyte_word(doc_type: str, output: str | None) -> None:
    chunks = split_checked("x" * 5_000_000, doc_type, output, twice=False, tokenizer=len, chunk_size=4096)
    assert len(chunks) == -(-5_000_000 // 4096)


@pytest.mark.parametrize(("doc_type", "output"), BIG_TYPES, ids=BIG_IDS)
def test_long_word_in_tokens(doc_type: str, output: str | None) -> None:
    split_checked("intro. " + "abcdefghij" * 20_000 + " outro.", doc_type, output, twice=False, chunk_size=512)


@pytest.mark.parametrize(("doc_type", "output"), BIG_TYPES[:3], ids=BIG_IDS[:3])
def test_sixteen_megabyte_line(doc_type: str, output: str | None) -> None:
    line = "word " * 3_200_000
    split_checked(line, doc_type, output, twice=False, tokenizer=len, chunk_size=8192)


@pytest.mark.parametrize("output", ["html", "text"])
def test_five_megabyte_attribute(output: str) -> None:
    page = '<div><p title="' + "a" * 5_000_000 + '">shown</p><p>after</p></div>'
    chunks = split_checked(page, "html", output, twice=False, tokenizer=len, chunk_size=4096)
    if output == "text":
        assert [c.text for c in chunks] == ["shown\nafter"]


def test_five_megabyte_attribute_in_tokens() -> None:
    page = '<p data-x="' + "a b " * 250_000 + '">shown</p>'
    split_checked(page, "html", "text", twice=False, chunk_size=256)


@pytest.mark.parametrize(("doc_type", "output"), BIG_TYPES[:5], ids=BIG_IDS[:5])
def test_fifty_thousand_paragraphs(doc_type: str, output: str | None) -> None:
    count = 50_000
    if doc_type == "html":
        text = "<body>" + "".join(f"<p>Paragraph {i}.</p>" for i in range(count)) + "</body>"
    else:
        text = "\n\n".join(f"Paragraph {i}." for i in range(count))
    chunks = split_checked(text, doc_type, output, twice=False, chunk_size=512)
    assert len(chunks) < count // 50  # paragraphs joined, not one chunk each


@pytest.mark.parametrize(("doc_type", "output"), [("markdown", None), ("html", None), ("html", "text")])
def test_two_thousand_row_table(doc_type: str, output: str | None) -> None:
    rows = range(2000)
    if doc_type == "html":
        text = "<table><tr><th>n</th><th>v</th></tr>" + "".join(f"<tr><td>{i}</td><td>v{i}</td></tr>" for i in rows)
        text += "</table>"
    else:
        text = "| n | v |\n|---|---|\n" + "".join(f"| {i} | v{i} |\n" for i in rows)
    chunks = split_checked(text, doc_type, output, chunk_size=128)
    assert len(chunks) > 10


# -- reproducers from issues 15 and 17 ---------------------------------------------------


@EACH_PARSER
def test_overlap_never_starts_inside_code(parser: str) -> None:
    """Issue 15: five chunks had a `start_overlap` that began inside the fence."""
    text = "Intro.\n\n```py\n" + "".join(f"x{j} = {j}\n" for j in range(12)) + "```\n\nAfter the code.\n"
    fence_start, fence_end = text.index("```py"), text.rindex("```") + 3
    chunks = split_checked(text, "markdown", chunk_size=16, chunk_overlap=15, markdown_parser=parser)
    for previous, chunk in pairwise(chunks):
        if chunk.start_overlap:
            overlap_start = previous.end_pos - len(chunk.start_overlap)
            assert not fence_start < overlap_start < fence_end, (chunk.start_overlap, overlap_start)
    assert sum(bool(c.start_overlap) for c in chunks) >= 2  # overlap is still recorded outside code


def test_rst_adornment_after_a_heading_is_no_overline() -> None:
    """Issue 15: the second heading took the first one's underline as its overline."""
    chunks = split_checked("a\n---\na\n---", "rst", chunk_size=512)
    outline = OutlineTextSplitter(doc_type="rst").outline("a\n---\na\n---")
    assert [(c.kind, c.start, c.end) for c in outline.children] == [("section", 0, 6), ("section", 6, 11)]
    assert [c.text for c in chunks] == ["a\n---\na\n---"]


@pytest.mark.parametrize(
    ("html", "chunk_size"),
    [("<h1>" + "\u3000" * 300 + "</h1>", 64), ("<h1>\u2028", 1), ("<h1>\x85", 1), ("<h1>\xa0\u200b</h1><p>x</p>", 1)],
)
def test_blank_looking_headings_in_text_mode(html: str, chunk_size: int) -> None:
    """Issue 17: a heading blank to the word pattern but not to `str.strip` made no atom."""
    split_checked(html, "html", "text", chunk_size=chunk_size)
    split_checked(html, "html", chunk_size=chunk_size)


@pytest.mark.parametrize(
    ("text", "chunk_size", "separators"),
    [
        ("```\ncode\n```\n\nafter para text here with more words.\n", 8, ["code"]),
        ("- a\n\nafter para text here.\n", 4, ["list"]),
        ("> a\n\nafter para text here.\n", 4, ["blockquote"]),
    ],
)
@EACH_PARSER
def test_markdown_separators_end(text: str, chunk_size: int, separators: list[str], parser: str) -> None:
    """Issue 17: a separator group rebuilt itself without end on tiny inputs."""
    split_checked(text, "markdown", chunk_size=chunk_size, separators=separators, markdown_parser=parser)


@pytest.mark.parametrize("number", ["999", "0", "1", "-1", "²", "x"])
def test_forged_node_marker_is_an_ordinary_attribute(number: str) -> None:
    """Issue 17: `data-outline-node` in the page indexed past the node list or marked the
    wrong node. A page with it splits exactly as with any other attribute of that length
    (counted in characters: the two names are different tokens)."""
    forged = f'<div><span data-outline-node="{number}">x</span><p>para text</p><span>y</span></div>'
    plain = forged.replace("data-outline-node", "data-ordinary-atr")
    for output in ("html", "text"):
        for chunk_size in (1, 3, 50):
            options = {"chunk_size": chunk_size, "separators": ["span"], "tokenizer": len}
            got = split_checked(forged, "html", output, **options)
            want = split_checked(plain, "html", output, **options)
            assert [(c.start_pos, c.end_pos) for c in got] == [(c.start_pos, c.end_pos) for c in want]


@pytest.mark.parametrize("unit", [".", "?!", "。", ".)"])
@pytest.mark.parametrize(("doc_type", "output"), [("text", None), ("markdown", None), ("html", "text")])
def test_a_megabyte_of_sentence_ends(unit: str, doc_type: str, output: str | None) -> None:
    """64 KB of "." took over a minute in the sentence pattern (each start retried the run)."""
    split_checked("Intro words " + unit * (1_000_000 // len(unit)), doc_type, output, twice=False, tokenizer=len,
                  chunk_size=4096)  # fmt: skip
