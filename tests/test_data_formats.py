"""JSON, JSON Lines and YAML (`doc_type="json"`, `"jsonl"`, `"yaml"`): chunks are exact
in-order slices within budget, every chunk's `key_path` resolves in the parsed document,
objects and array items that fit stay whole, and invalid data still gives chunks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outline_splitter import OutlineTextSplitter, TextChunk
from outline_splitter.bench.corpora import INSTALLED_JSON, INSTALLED_YAML, installed
from outline_splitter.bench.figures import kept_whole
from outline_splitter.bench.ground_truth import chunk_stream, data_structure
from outline_splitter.detectors.data_tree import key_segment
from outline_splitter.detectors.json_data import detect_json, detect_json_lines
from outline_splitter.nodes import Node, Trait, check_outline
from outline_splitter.packing.key_paths import EMPTY, HEAD, TAIL
from outline_splitter.registry import DocFormat
from outline_splitter.tokens import resolve_tokenizer
from tests.data_checks import assert_values_kept, held_by_one, resolve
from tests.invariants import assert_source_chunks

FIXTURES = Path(__file__).parent / "fixtures" / "data"
TOKENIZER = resolve_tokenizer("cl100k_base")
BUDGETS = (128, 512)


def parsed(doc_type: str, text: str) -> Any:
    if doc_type == "yaml":
        documents = list(yaml.safe_load_all(text))
        return documents[0] if len(documents) == 1 else documents
    if doc_type == "jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def check(doc_type: str, text: str, chunk_size: int, whole: float | None = None) -> list[TextChunk]:
    """Split `text`: the invariants, every key path resolving, and (given `whole`) at
    least that share of the objects and items that fit kept whole."""
    chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=chunk_size).split(text)
    assert_source_chunks(text, chunks, TOKENIZER, chunk_size)
    document = parsed(doc_type, text)
    for chunk in chunks:
        resolve(chunk.metadata["key_path"], document)
    if whole is not None:
        structure = data_structure(doc_type, text, TOKENIZER.count)
        streams = [chunk_stream(doc_type, chunk.text) for chunk in chunks]
        kept = [kept_whole(structure.units, kind, streams, chunk_size) for kind in ("object", "item")]
        assert sum(k for k, _ in kept) >= whole * sum(n for _, n in kept), (doc_type, chunk_size, kept)
    return chunks


# -- generated documents --------------------------------------------------------------

_KEYS = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(_KEYS, inner, max_size=6), max_leaves=60
)
_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_VALUES, st.sampled_from([None, 2]), st.sampled_from(BUDGETS))
def test_json_chunks_are_exact_and_their_key_paths_resolve(value: Any, indent: int | None, chunk_size: int) -> None:
    check("json", json.dumps(value, indent=indent, ensure_ascii=False), chunk_size)


class _WindowedJSONSplitter(OutlineTextSplitter):
    """A splitter that reads every JSON text in windows, however short."""

    def _detect(self, text: str, fmt: DocFormat) -> Node:
        return detect_json(text, windowed_from=0)


def _outline_rows(root: Node) -> list[tuple[str, int, int, str | None, Trait]]:
    return [(n.kind, n.start, n.end, n.label.key if n.label else None, n.traits) for n in root.expand_all().walk()]


# top-level values of every kind, a key repeated, spaces between the tokens
_TOP_LEVEL = st.lists(_VALUES, max_size=6) | st.lists(
    st.tuples(st.sampled_from(["a", "a", "b c", ""]), _VALUES), max_size=6
)


def _spaced_json(top: list[Any], indent: int | None) -> str:
    if top and isinstance(top[0], tuple):  # members, duplicate keys kept
        members = [f"{json.dumps(k)} :{json.dumps(v, indent=indent, ensure_ascii=False)}" for k, v in top]
        return " {\n" + " ,\n".join(members) + "\n} \n"
    return json.dumps(top, indent=indent, ensure_ascii=False)


@_SETTINGS
@given(_TOP_LEVEL, st.sampled_from([None, 2]), st.sampled_from((16, 64)))
def test_json_read_in_windows_is_the_whole_reading(top: list[Any], indent: int | None, chunk_size: int) -> None:
    """A text read in windows has the outline and the chunks a whole parse gives; its
    deferred members and items name the kinds their parts have once built."""
    text = _spaced_json(top, indent)
    windowed = detect_json(text, windowed_from=0)
    assert windowed.children[0].start < windowed.children[0].end  # read in windows, not given up
    named = {id(n): set(n.unbuilt_kinds) for n in windowed.children[0].children if n.expand is not None}
    assert _outline_rows(windowed) == _outline_rows(detect_json(text, windowed_from=len(text)))
    for entry in windowed.children[0].children:
        if id(entry) in named:
            assert named[id(entry)] == {n.kind for n in entry.walk()[1:]}
    whole = OutlineTextSplitter(doc_type="json", chunk_size=chunk_size).split(text)
    windows = _WindowedJSONSplitter(doc_type="json", chunk_size=chunk_size).split(text)
    assert [(c.text, c.start_pos, c.metadata) for c in windows] == [(c.text, c.start_pos, c.metadata) for c in whole]


@pytest.mark.parametrize("text", ["[1, 2,]", '{"a": 1} 2', "[NaN]", '{"a": 1 // note\n}', '["a\x01"]', '"a"'])
def test_json_the_windows_do_not_read_is_read_whole(text: str) -> None:
    """What is not one strict JSON object or array is parsed whole, as it always is."""
    assert _outline_rows(detect_json(text, windowed_from=0)) == _outline_rows(detect_json(text))


@_SETTINGS
@given(st.lists(_VALUES, min_size=1, max_size=8), st.sampled_from(BUDGETS))
def test_json_lines_one_record_per_item(records: list[Any], chunk_size: int) -> None:
    text = "".join(json.dumps(record) + "\n" for record in records)
    check("jsonl", text, chunk_size)
    root = OutlineTextSplitter(doc_type="jsonl").outline(text)
    assert [child.meta["key"] for child in root.children] == [f"[{i}]" for i in range(len(records))]


@_SETTINGS
@given(_VALUES, st.booleans(), st.sampled_from([None, False]), st.sampled_from(BUDGETS))
def test_yaml_chunks_are_exact_and_their_key_paths_resolve(
    value: Any, unicode: bool, flow: bool | None, chunk_size: int
) -> None:
    text = yaml.safe_dump(value, sort_keys=False, allow_unicode=unicode, default_flow_style=flow)
    check("yaml", text, chunk_size)


def test_a_yaml_key_keeps_its_no_break_space() -> None:
    # found by the test above: YAML's white space is spaces, tabs and line breaks, so a
    # plain key that starts with U+00A0 keeps it (its key path named ":x" for "\xa0:x")
    text = "\xa0:0:x: 1000\nb: [2, 3, 4, 5, 6, 7, 8, 9]\n"
    chunks = check("yaml", text, 8)  # (each key path resolves)
    assert chunks[0].metadata["key_path"] == '$["\xa0:0:x"]'


@_SETTINGS
@given(_VALUES, st.data())
def test_invalid_data_still_gives_valid_chunks(value: Any, data: st.DataObject) -> None:
    for doc_type, text in (("json", json.dumps(value, indent=2)), ("yaml", yaml.safe_dump(value))):
        at = data.draw(st.integers(0, len(text)))
        broken = text[:at] + data.draw(st.sampled_from(["", "}", "]", ":", '"', "- ", "\n  x: [", ",,", "\x00"]))
        broken += text[at + data.draw(st.integers(0, 3)) :]
        chunks = OutlineTextSplitter(doc_type=doc_type, chunk_size=64).split(broken)
        assert_source_chunks(broken, chunks, TOKENIZER, 64)


# -- real documents -----------------------------------------------------------------


_INSTALLED_JSON = installed(INSTALLED_JSON)
_INSTALLED_YAML = installed(INSTALLED_YAML)


def _real_documents() -> list[tuple[str, str, str]]:
    """(name, doc type, text) of the bundled realistic documents (an OpenAPI spec in YAML,
    as JSON indented and minified, a CI workflow, a compose file with anchors and merge
    keys, Kubernetes manifests) and of the installed packages' data files."""
    documents = [(path.name, "yaml", path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.y*ml"))]
    spec = yaml.safe_load((FIXTURES / "petstore.openapi.yaml").read_text(encoding="utf-8"))
    documents += [
        ("petstore.json", "json", json.dumps(spec, indent=2)),
        ("petstore.min.json", "json", json.dumps(spec, separators=(",", ":"))),
        ("paths.jsonl", "jsonl", "".join(json.dumps({path: item}) + "\n" for path, item in spec["paths"].items())),
    ]
    documents += [(path.name, "json", path.read_text(encoding="utf-8")) for path in _INSTALLED_JSON]
    documents += [(path.name, "yaml", path.read_text(encoding="utf-8")) for path in _INSTALLED_YAML]
    return documents


@pytest.mark.parametrize("chunk_size", BUDGETS)
@pytest.mark.parametrize(("name", "doc_type", "text"), _real_documents(), ids=lambda v: v if "\n" not in v else "")
def test_real_documents(name: str, doc_type: str, text: str, chunk_size: int) -> None:
    check(doc_type, text, chunk_size, whole=0.99)


def test_the_installed_data_files_are_found() -> None:
    """The `ray` extra (which `make test` installs) and jsonschema ship these files."""
    if not _INSTALLED_JSON or not _INSTALLED_YAML:
        pytest.skip("the ray extra is not installed: its configs and schemas are missing")
    assert len(_INSTALLED_JSON) >= 4 and len(_INSTALLED_YAML) >= 2


# -- what chunks say of where they are --------------------------------------------------


def test_key_paths_and_context_name_where_a_chunk_lives() -> None:
    spec = yaml.safe_load((FIXTURES / "petstore.openapi.yaml").read_text(encoding="utf-8"))
    text = json.dumps(spec, indent=2)
    splitter = OutlineTextSplitter(doc_type="json", chunk_size=128)
    chunks = splitter.split(text)
    paths = [chunk.metadata["key_path"] for chunk in chunks]
    assert paths[0] == "$"
    assert "$.paths" in paths
    assert chunks[paths.index("$.paths")].text.startswith('"paths": {')
    default = chunks[paths.index('$.paths["/pets"].get.responses.default')]
    assert default.text.startswith('"default": {')
    assert default.metadata["context"] == '$.paths["/pets"].get.responses'
    assert splitter.contextualize(default).startswith('$.paths["/pets"].get.responses\n"default": {')
    assert "context" not in chunks[0].metadata  # the first chunk is cut out of no value but the document


def test_key_segments() -> None:
    assert key_segment("paths") == ".paths"
    assert key_segment("naïve_2") == ".naïve_2"
    assert key_segment("key with.dot") == '["key with.dot"]'
    assert key_segment("/users") == '["/users"]'
    assert key_segment('a"b') == '["a\\"b"]'
    assert key_segment("2xx") == '["2xx"]'
    assert key_segment("") == '[""]'


def test_yaml_keys_as_the_parser_reads_them() -> None:
    text = "plain: 1\n\"dq \\u00e9\\tx\": 2\n'sq ''y''': 3\n<<: {m: 4}\nseq:\n  - a: 5\n"
    root = OutlineTextSplitter(doc_type="yaml").outline(text)
    members = root.children[0].children
    keys = [member.meta.get("key") for member in members]
    assert keys == [".plain", '["dq é\\tx"]', "[\"sq 'y'\"]", None, ".seq"]  # `<<` merges: no key
    document = yaml.safe_load(text)
    for key in filter(None, keys):
        resolve("$" + key, document)
    chunks = check("yaml", text, 4)
    assert "$.seq[0]" in {chunk.metadata["key_path"] for chunk in chunks}


def test_several_documents_are_items() -> None:
    text = (FIXTURES / "manifests.yaml").read_text(encoding="utf-8")
    chunks = check("yaml", text, 64)
    assert {chunk.metadata["key_path"][:4] for chunk in chunks} == {"$[0]", "$[1]", "$[2]"}


def test_a_key_stays_with_its_value() -> None:
    text = json.dumps({"a": {"b": "x " * 300, "c": [1, 2, 3]}}, indent=2)
    for chunk in OutlineTextSplitter(doc_type="json", chunk_size=64).split(text):
        assert not chunk.text.rstrip().endswith(":"), chunk.text


def test_deep_nesting_does_not_recurse() -> None:
    for text in ("[" * 50_000 + "]" * 50_000, '{"a":' * 20_000 + "1" + "}" * 20_000, "[" * 30_000):
        root = detect_json(text)
        check_outline(root, len(text))
        chunks = OutlineTextSplitter(doc_type="json", chunk_size=512).split(text)
        assert_source_chunks(text, chunks, TOKENIZER, 512)


def test_deep_nesting_packs_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain of openers (or of markup alone) is carried on at each BARRIER without
    being read again from its start: the characters the packer asks the view about grow
    with the depth, not with its square (40,000 nested arrays took 21 s)."""
    from outline_splitter.format_hooks.data import DataView

    asked = [0]
    blank_side = DataView.blank_side

    def counted_blank_side(self: DataView, start: int, end: int) -> int:
        asked[0] += end - start
        return blank_side(self, start, end)

    monkeypatch.setattr(DataView, "blank_side", counted_blank_side)
    questions = []
    for depth in (2_000, 8_000):
        asked[0] = 0
        OutlineTextSplitter(doc_type="json", chunk_size=512).split("[" * depth + "]" * depth)
        questions.append(asked[0])
    assert questions[1] < 6 * questions[0], questions  # 4x the depth: 16x were it quadratic


@pytest.mark.parametrize(
    ("suffix", "doc_type"), [(".json", "json"), (".jsonl", "jsonl"), (".yaml", "yaml"), (".yml", "yaml")]
)
def test_auto_picks_the_format_by_extension(tmp_path: Path, suffix: str, doc_type: str) -> None:
    path = tmp_path / f"data{suffix}"
    path.write_text('{"a": [1, 2]}\n' if "json" in suffix else "a: [1, 2]\n", encoding="utf-8")
    chunks = OutlineTextSplitter(doc_type="auto").split_file(path)
    assert [c.metadata["doc_type"] for c in chunks] == [doc_type]
    assert chunks[0].metadata["key_path"] == "$"  # the chunk holds the whole document


def _kinds(node: Node) -> list[str]:
    return [node.kind, *(kind for child in node.children for kind in _kinds(child))]


def test_a_number_with_a_plus_exponent_is_one_scalar() -> None:
    """tree-sitter-json stops at the `e` of `1e+28` (what `json.dumps` writes for 1e28):
    the number is read whole, so no chunk edge falls inside it and a record holding one
    is valid JSON Lines."""
    text = '{"min": -1e+28, "max": 1E+28, "note": "the largest and smallest values"}'
    root = detect_json(text)
    values = [member.children[-1] for member in root.children[0].children[1:]]
    spelled = [text[v.start : v.end].rstrip(",") for v in values]
    assert spelled == ["-1e+28", "1E+28", '"the largest and smallest values"']
    assert {"invalid", "comment"}.isdisjoint(_kinds(root))
    numbers = [range(m.start() + 1, m.end()) for m in re.finditer(r"-?1[eE]\+28", text)]
    for chunk in check("json", text, 16):
        assert not any(chunk.start_pos in n or chunk.end_pos in n for n in numbers), chunk.text
    lines = detect_json_lines(f"{text}\n[2.5e+3]\n")
    assert [record.kind for record in lines.children] == ["object", "array"]
    assert "invalid" not in _kinds(lines)


# -- what a value keeps whole ------------------------------------------------------------


def _fitting_to(budget: int, make: Any, words: str = "The quick brown fox jumps over the lazy dog. " * 40) -> str:
    """`make(text)` for the longest head of `words` whose `make` fits `budget` tokens."""
    for end in range(len(words), 0, -1):
        if TOKENIZER.count(make(words[:end].rstrip())) <= budget:
            return str(make(words[:end].rstrip()))
    raise AssertionError(budget)


def test_a_value_that_fits_is_never_cut_for_its_key() -> None:
    """A 62-token string at 64 tokens was cut at a sentence so that `"text":` kept its
    start; a YAML block scalar at its lines. A key whose value fits only alone ends the
    chunk before the value instead."""
    value = _fitting_to(62, json.dumps)
    text = '{\n  "id": 1,\n  "text": ' + value + ',\n  "more": "x"\n}'
    chunks = check("json", text, 64)
    assert held_by_one(chunks, text.index(value), text.index(value) + len(value) + 1)
    block = _fitting_to(62, lambda words: "".join(f"  {line}.\n" for line in words.split(". ")))
    text = f"first: 1\nsecond_key_name_that_is_quite_long_indeed: |\n{block}third: 3\n"
    chunks = check("yaml", text, 64)
    assert held_by_one(chunks, text.index(block), text.index(block) + len(block.rstrip()))
    holding = [c.metadata["key_path"] for c in chunks if block.strip() in c.text]
    assert holding == ["$.second_key_name_that_is_quite_long_indeed"]


def test_a_comma_stays_with_the_value_before_it() -> None:
    """An array that fills a chunk exactly pushed its comma into the next chunk, which
    started with `,` and had the array's key path."""
    inner = _fitting_to(16, lambda words: json.dumps([words]))
    assert TOKENIZER.count(inner) == 16
    text = f'[["x", {inner}], "b"]'
    chunks = check("json", text, 16)
    assert not [chunk.text for chunk in chunks if chunk.text.startswith(",")]
    assert_values_kept(text, detect_json(text), chunks, 16, TOKENIZER)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_VALUES, st.sampled_from([None, 2]), st.sampled_from((16, 64, 256)))
def test_values_that_fit_are_never_cut(value: Any, indent: int | None, chunk_size: int) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    chunks = check("json", text, chunk_size)
    assert not [chunk.text for chunk in chunks if chunk.text.startswith(",")]
    assert_values_kept(text, detect_json(text), chunks, chunk_size, TOKENIZER)


def test_deep_key_paths_are_elided_in_the_middle() -> None:
    """A chunk 400,000 arrays deep named all of them in its key path and its context:
    memory quadratic in the depth (0.4 MB of `[[[...]]]` peaked at 1.6 GB). A path of
    more than `HEAD + TAIL` segments keeps both ends, the middle elided by `..`."""
    spelled = []
    for depth in (2_000, 8_000):
        chunks = OutlineTextSplitter(doc_type="json", chunk_size=64).split("[" * depth + "]" * depth)
        spelled.append(sum(len(c.metadata["key_path"]) + len(c.metadata.get("context", "")) for c in chunks))
        deepest = max((c.metadata["key_path"] for c in chunks), key=len)
        assert deepest == "$" + "[0]" * (HEAD - 1) + ".." + "[0]" * TAIL
    assert spelled[1] < 6 * spelled[0], spelled  # 4x the depth: 16x were it quadratic
    count = HEAD + TAIL + 5
    path = EMPTY
    for segment in ("$", *(f".k{i}" for i in range(count))):
        path = path.plus(segment)
    tail = [f".k{i}" for i in range(count - TAIL, count)]
    assert path.spelled() == "$" + "".join(f".k{i}" for i in range(HEAD - 1)) + "." + "".join(tail)
    document = {"k0": {"k1": 1}}
    assert EMPTY.plus("$").plus(".k0").plus(".k1").spelled() == "$.k0.k1"
    assert resolve("$.k0.k1", document) == 1
