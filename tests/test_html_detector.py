"""The HTML outline: structure of malformed pages, offsets, sections, ids."""

from __future__ import annotations

from hypothesis import given, settings

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.html import detect_html
from outline_splitter.detectors.html_scan import END, OTHER, RAW, START, scan
from outline_splitter.nodes import Node, check_outline
from tests.conftest import corpus_files
from tests.html_strategies import html_documents
from tests.invariants import assert_source_chunks


def shape(node: Node) -> list[object]:
    """(kind, children) of the element nodes, for structural comparisons."""
    return [(child.meta.get("tag", child.kind), shape(child)) for child in node.children]


def assert_element_offsets(text: str, root: Node) -> None:
    """Every element node starts with its start tag and ends where the scanner says an
    element may end: after its own end tag or its start tag (void), at the start of the
    tag that closed it implicitly, or at the end of the document."""
    check_outline(root, len(text))
    tokens = list(scan(text))
    token_starts = {start for _, start, _, _ in tokens}
    own_ends = {(end, name) for kind, _, end, name in tokens if kind in (START, END)}
    for node in root.walk():
        tag = node.meta.get("tag")
        if tag is None:
            continue
        assert text[node.start : node.start + 1 + len(tag)].lower() == f"<{tag}"
        assert (node.end, tag) in own_ends or node.end in token_starts or node.end == len(text), (
            f"{tag} [{node.start}, {node.end}) ends at no boundary: {text[node.start : node.end]!r}"
        )


def test_implied_end_tags():
    html = (
        "<ul><li>one<li>two<p>para<li>three</ul><table><tr><td>a<td>b<tr><td>c</table>"
        "<select><option>x<option>y</select>"
    )
    root = detect_html(html)
    assert shape(root) == [
        ("ul", [("li", []), ("li", [("p", [])]), ("li", [])]),
        ("table", [("tr", [("td", []), ("td", [])]), ("tr", [("td", [])])]),
        ("select", [("option", []), ("option", [])]),
    ]
    items = root.children[0].children
    assert [html[item.start : item.end] for item in items] == ["<li>one", "<li>two<p>para", "<li>three"]
    assert_element_offsets(html, root)


def test_block_start_closes_paragraph_and_stray_end_tags_are_ignored():
    html = "<p>one<div>two</span></p></div></section><p>three"
    root = detect_html(html)
    assert shape(root) == [("p", []), ("div", []), ("p", [])]
    assert html[root.children[2].start : root.children[2].end] == "<p>three"  # unclosed: runs to the end


def test_end_tag_does_not_reach_out_of_a_table_cell():
    html = "<div><table><tr><td>cell</div>more</td></tr></table>after</div>"
    root = detect_html(html)
    div = root.children[0]
    assert div.end == len(html)
    assert shape(div) == [("table", [("tr", [("td", [])])])]


def test_raw_text_comments_and_quoted_attributes_do_not_open_elements():
    html = (
        '<div title="a > b"><script>document.write("<p>no</p>")</script><!-- <p>no</p> -->'
        "<![CDATA[<p>no</p>]]><style>p > a {}</style><p>yes</p></div>"
    )
    root = detect_html(html)
    assert shape(root) == [("div", [("script", []), ("style", []), ("p", [])])]
    assert_element_offsets(html, root)


def test_scanner_tokens():
    html = '<a href="x>y">t</a><!-->x<br/>&amp;<script>a<b</script>< 3'
    tokens = [(kind, html[start:end]) for kind, start, end, _ in scan(html)]
    assert tokens == [
        (START, '<a href="x>y">'),
        (END, "</a>"),
        (OTHER, "<!-->"),
        (START, "<br/>"),
        (START, "<script>"),
        (RAW, "a<b"),
        (END, "</script>"),
    ]


def test_start_tag_cut_off_by_the_end_is_one_token_to_the_end():
    html = '<p>x<a title="y>z'
    tokens = [(kind, html[start:end]) for kind, start, end, _ in scan(html)]
    assert tokens == [(START, "<p>"), (OTHER, '<a title="y>z')]
    tags = "<a<a<a"
    assert [(kind, tags[start:end]) for kind, start, end, _ in scan(tags)] == [(OTHER, tags)]


def test_many_unended_start_tags_split_whole(cl100k):
    # `"<a" * 2000` took minutes while each `<` retried a failed tag match to the end
    html = "<a" * 2000 + " tail words"
    for output in ("html", "text"):
        chunks = OutlineTextSplitter(doc_type="html", chunk_size=64, output=output).split(html)
        if output == "html":
            assert_source_chunks(html, chunks, cl100k, 64)
            assert "".join(c.text for c in chunks) == html
        else:
            assert chunks == []  # the cut-off tag hides everything after it, as in a browser


def test_unclosed_comment_and_script_run_to_the_end():
    for html in ("<p>a<!-- never closed <p>b", "<p>a<script>if (x) { <p>b"):
        root = detect_html(html)
        check_outline(root, len(html))
        assert root.children[0].end == len(html)


def test_headings_make_sections_and_titles():
    html = (
        '<emu-clause id="sec-a"><h1>Alpha <i>objects</i></h1><p>x</p>'
        '<emu-clause id="sec-b"><h1>Beta</h1><p>y</p></emu-clause></emu-clause>'
        "<div><h2>One</h2><p>a</p><h3>Two</h3><p>b</p><h2>Three</h2><p>c</p></div>"
    )
    root = detect_html(html)
    clause = root.children[0]
    assert (
        clause.kind == "section"
        and clause.public_meta()["title"] == "Alpha objects"
        and clause.public_meta()["id"] == "sec-a"
    )
    assert clause.children[-1].public_meta()["title"] == "Beta"
    div = root.children[1]
    assert [(n.kind, n.public_meta().get("title")) for n in div.children] == [("section", "One"), ("section", "Three")]
    assert div.children[0].children[-1].public_meta()["title"] == "Two"  # h3 nests under h2
    assert div.children[0].end == div.children[1].start


def test_parts_name_unnamed_elements_among_their_siblings():
    root = detect_html("<div id=x><p>a</p><ul><li>b</li></ul><p>c</p></div>")
    div = root.children[0]
    assert [n.public_meta().get("part") for n in div.children] == ["p-1", "ul-1", "p-2"]
    assert div.public_meta()["id"] == "x" and "part" not in div.public_meta()


@settings(max_examples=300, deadline=None)
@given(html_documents())
def test_any_html_gives_a_well_formed_outline(html):
    assert_element_offsets(html, detect_html(html))


def test_spec_chunks_name_their_clause(cl100k):
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=128)
    for path in corpus_files("html-spec", "spec_numberformat.html"):
        chunks = splitter.split(path.read_text(encoding="utf-8"))
        ids = [chunk.metadata.get("section_id", "") for chunk in chunks]
        assert all(ids), "every chunk of the spec is inside an emu-clause with an id"
        assert any(i.startswith("sec-intl.numberformat") for i in ids)
        assert any("/emu-alg-" in i for i in ids), "a broken-down algorithm is named below its clause"
        assert all(chunk.metadata["heading_path"] for chunk in chunks)
