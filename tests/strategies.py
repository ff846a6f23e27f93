"""Hypothesis strategies for generated documents."""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = st.sampled_from(
    ["alpha", "beta", "Gamma", "délta", "日本語", "x²", "it's", "42", "3.14", "e.g.", "end.", "Why?", "so!", "`code`"]
)
SENTENCE = st.lists(WORDS, min_size=1, max_size=14).map(lambda ws: " ".join(ws) + ".")
PARAGRAPH = st.lists(SENTENCE, min_size=1, max_size=6).map(" ".join)
LINE_END = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"])


@st.composite
def markdown_block(draw: st.DrawFn) -> str:
    kind = draw(
        st.sampled_from(
            [
                "atx",
                "setext",
                "para",
                "list",
                "ordered",
                "fence",
                "open_fence",
                "table",
                "quote",
                "html",
                "rule",
                "junk",
            ]
        )
    )
    if kind == "atx":
        return "#" * draw(st.integers(1, 6)) + " " + draw(SENTENCE)
    if kind == "setext":
        return draw(SENTENCE) + "\n" + draw(st.sampled_from(["===", "---"]))
    if kind == "para":
        return draw(PARAGRAPH)
    if kind in ("list", "ordered"):
        items = draw(st.lists(PARAGRAPH, min_size=1, max_size=6))
        nested = draw(st.booleans())
        marker = (lambda i: f"{i + 1}.") if kind == "ordered" else (lambda i: "-")
        lines = [
            f"{marker(i)} {item}" + ("\n  - inner " + item if nested and i == 0 else "") for i, item in enumerate(items)
        ]
        return "\n".join(lines)
    if kind in ("fence", "open_fence"):
        body = "\n".join(
            draw(st.lists(st.sampled_from(["x = 1", "# comment", "def f():", "    return 2", ""]), max_size=8))
        )
        return "```python\n" + body + ("\n```" if kind == "fence" else "")
    if kind == "table":
        rows = draw(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=6))
        return "| a | b |\n|---|---|\n" + "\n".join(f"| {a} | {b} |" for a, b in rows)
    if kind == "quote":
        return "> " + draw(PARAGRAPH) + "\n> " + draw(SENTENCE)
    if kind == "html":
        return "<div>\n" + draw(SENTENCE) + "\n</div>"
    if kind == "rule":
        return "***"
    return draw(st.text(alphabet=st.sampled_from(list("#>-*|`~ \t\\[]<>!=_\x00\ufeff")), max_size=20))


@st.composite
def markdown_document(draw: st.DrawFn) -> str:
    blocks = draw(st.lists(markdown_block(), max_size=14))
    end = draw(LINE_END)
    return (end + end).join(blocks).replace("\n", end) if end != "\n" else "\n\n".join(blocks)


@st.composite
def text_document(draw: st.DrawFn) -> str:
    paragraphs = draw(st.lists(PARAGRAPH, max_size=10))
    separators = draw(st.lists(st.sampled_from(["\n\n", "\n", " ", "\n \n\n", "\r\n\r\n"]), min_size=len(paragraphs)))
    return "".join(p + s for p, s in zip(paragraphs, separators))
