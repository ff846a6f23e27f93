"""YAML read as the YAML 1.2 specification reads it (issue 56): directives, document
markers, flow pairs, keys spelled over several lines, comments and empty collections.
Each chunk's key path resolves in the document PyYAML parses (`check`)."""

from __future__ import annotations

import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.data_tree import INVALID
from outline_splitter.nodes import Node
from tests.test_data_formats import check

STYLES = (None, '"', "'", "|", ">")


def kinds(node: Node) -> set[str]:
    found = {node.kind}
    for child in node.children:
        found |= kinds(child)
    return found


def outline(text: str) -> Node:
    return OutlineTextSplitter(doc_type="yaml").outline(text)


def test_a_directive_is_part_of_the_documents_marker() -> None:
    for text in (
        "%YAML 1.2\n---\nkey: value\nother: 2\n",
        "%TAG !e! tag:yaml.org,2002:\n%FOO bar # reserved\n---\nkey: !e!str value\nother: 2\n",
    ):
        root = outline(text)
        assert INVALID not in kinds(root), text
        paths = [chunk.metadata["key_path"] for chunk in check("yaml", text, 4)]
        assert "$.key" in paths and "$.other" in paths


def test_a_document_end_marker_alone_is_no_document() -> None:
    # `...` after a document that already ended is a suffix, not an empty document:
    # the stream holds two documents, "a" and "b" (YAML 1.2, 9.2; PyYAML refuses it)
    text = "a\n...\n# c\n...\nb\n"
    root = outline(text)
    assert [child.meta.get("key") for child in root.children if child.kind == "yaml_document"] == ["[0]", "[1]"]
    chunks = OutlineTextSplitter(doc_type="yaml", chunk_size=4).split(text)
    assert chunks[-1].text == "b" and chunks[-1].metadata["key_path"] == "$[1]"
    check("yaml", "---\na\n...\n# c\n...\n---\nb\n", 4)  # PyYAML reads this one


def test_a_pair_in_a_flow_sequence_is_an_item_of_one_pair() -> None:
    # `[a: b, c]` is `[{a: b}, c]` (YAML 1.2, 7.4.1): the pair is item 0, `c` item 1
    text = "[name: first entry of the list, second, third]\n"
    root = outline(text)
    items = root.children[0].children[1:]
    assert [item.meta.get("key") for item in items] == ["[0]", "[1]", "[2]"]
    assert items[0].children[0].meta.get("key") == ".name"
    chunks = check("yaml", text, 8)
    assert [chunk.metadata["key_path"] for chunk in chunks if chunk.text.startswith("second")] == ["$[1]"]
    check("yaml", "- [a: 1, ? b : 2, c]\n- x\n", 4)


def test_a_key_spelled_over_lines_is_named_by_its_value() -> None:
    text = "? explicit key # empty value\n? |\n  block key\n: - one\n  - two\n? a\n  true\n: null\n"
    chunks = check("yaml", text, 4)
    assert '$["block key\\n"]' in [chunk.metadata["key_path"] for chunk in chunks]
    assert '$["a true"]' in [chunk.metadata["key_path"] for chunk in chunks]


_LONG_KEYS = st.text(st.sampled_from("ab c\n\t'\"\\:#-é"), min_size=1, max_size=200)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_LONG_KEYS, st.integers(), min_size=1, max_size=4), st.sampled_from(STYLES), st.integers(8, 40))
def test_keys_in_every_scalar_style_resolve(value: dict[str, int], style: str | None, width: int) -> None:
    # PyYAML writes a long key after `? ` and folds it at `width`, in the style asked for.
    # A block scalar's indentation digit counts from its mapping's indentation, and its
    # kept final line breaks (`|+`) lie after its node: neither is in a key's text, the
    # known limit docs/usage.md states
    assume(style not in ("|", ">") or not any(key[:1].isspace() or key.endswith("\n\n") for key in value))
    text = yaml.safe_dump(value, default_style=style, width=width, allow_unicode=True)
    check("yaml", text, 8)


def test_a_comment_leads_the_member_after_it() -> None:
    # the parser puts `# about b` inside `a` (it ends a's block mapping): it leads `b`
    text = "a:\n  x: 1\n  y: 2\n# about b\nb: 3\nc:\n- 1\n# about d\nd: [4]\n"
    chunks = check("yaml", text, 16)
    assert [(chunk.text, chunk.metadata["key_path"]) for chunk in chunks] == [
        ("a:\n  x: 1\n  y: 2", "$.a"),
        ("# about b\nb: 3\nc:\n- 1", "$"),
        ("# about d\nd: [4]", "$"),
    ]


_NAMES = st.from_regex(r"[a-z]{1,8}", fullmatch=True)
_COMMENTED = st.recursive(
    st.integers() | st.text("abc de", max_size=20),
    lambda inner: st.lists(inner, min_size=1, max_size=4) | st.dictionaries(_NAMES, inner, min_size=1, max_size=4),
    max_leaves=30,
)


@settings(max_examples=100, deadline=None)
@given(_COMMENTED, st.sampled_from((32, 64, 256)))
def test_comments_before_members_and_items_lead_them(value: object, chunk_size: int) -> None:
    lines = yaml.safe_dump(value, default_flow_style=False).splitlines()
    commented = []
    # a comment line before each member and item after another, at its indentation (one
    # between a key and its value is the key's: a cut there is the key's, not the comment's)
    for i, line in enumerate(lines):
        body = line.lstrip(" ")
        if (body.startswith("- ") or ":" in body.split(" ", 1)[0]) and not lines[i - 1].endswith(":"):
            commented.append(" " * (len(line) - len(body)) + "# about " + body[:10])
        commented.append(line)
    text = "\n".join(commented) + "\n"
    for chunk in check("yaml", text, chunk_size):
        comments = [line.lstrip().startswith("#") for line in chunk.text.splitlines()]
        assert all(comments) or not comments[-1], f"a comment ends a member's chunk: {chunk.text!r}"
