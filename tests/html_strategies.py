"""Generated HTML for property tests: random nesting of block and inline elements with
the things real pages get wrong or make hard (unclosed `p`/`li`/`td`/`tr`/`option`,
stray end tags, void elements, comments, CDATA, raw text holding markup, attributes
holding `>`, entities, a bare `<` or `&` in text, an unclosed document)."""

from __future__ import annotations

from hypothesis import strategies as st

BLOCKS = [
    "div", "p", "ul", "ol", "li", "table", "tbody", "tr", "td", "th", "pre", "blockquote", "section", "article",
    "h1", "h2", "h3", "dl", "dt", "dd", "select", "option", "figure", "emu-clause", "emu-alg", "nav",
]  # fmt: skip
INLINE = ["span", "a", "b", "em", "code", "emu-xref", "mjx-mi"]

WORDS = st.sampled_from(
    [
        "alpha", "beta", "Gamma.", "Delta!", "the end.", "x", "über", "naïve", "数据", "😀",
        "&amp;", "&lt;b&gt;", "&nbsp;", "&#x41;", "&#66;", "&copy", "&bogus;", "AT&T", "a < b", "<3", "&",
        "e.g. this", "1.5", "tab\there", "line\nbreak", "  spaced  ", "\n\n", "para\n\n\nthree",
    ]
)  # fmt: skip
ATTRIBUTES = st.sampled_from(
    ["", ' class="keep"', " id=main", ' title="a > b"', " data-x='1>2'", ' id="sec-1.2"', " hidden", " a=b"]
)
MARKUP = st.sampled_from(
    [
        "<br>", "<br/>", "<hr>", '<img src="x.png" alt="pic">', "<!-- a comment -->", "<!-->", "<!---->",
        "<![CDATA[ x < y ]]>", "<!DOCTYPE html>", "<?php echo 1 ?>", "</>", "</ junk>",
        "<script>if (a < b && c > d) { x = '</div>'; }</script>", "<style>p > a { color: red }</style>",
        "<textarea>a <b>bold</b> c</textarea>", "<template><p>hidden</p></template>", "<noscript>no js</noscript>",
        "<title>Page</title>", "<xmp><p>shown</p></xmp>",
    ]
)  # fmt: skip

PIECES = st.one_of(
    WORDS,
    WORDS.map(lambda word: f" {word} "),
    st.tuples(st.sampled_from(BLOCKS + INLINE), ATTRIBUTES).map(lambda t: f"<{t[0]}{t[1]}>"),
    st.sampled_from(BLOCKS + INLINE).map(lambda tag: f"</{tag}>"),
    st.sampled_from(BLOCKS).map(lambda tag: f"<{tag.upper()}>"),
    MARKUP,
    st.sampled_from([" ", "\n", "\n    ", "\t"]),
)


@st.composite
def html_documents(draw: st.DrawFn, max_pieces: int = 60) -> str:
    """An HTML document or fragment, well-formed or not."""
    return "".join(draw(st.lists(PIECES, max_size=max_pieces)))
