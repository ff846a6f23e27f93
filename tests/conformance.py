"""Other projects' test suites as inputs (issue 39): every input split in every mode
and option mix with DESIGN.md's invariants asserted (`tests/hostile.split_checked`),
failures counted by kind.

The suites and where they come from (read in place, never copied into this repository):

- html5lib-tests (MIT licence): the tree-construction `#data` and the tokenizer `input`
  of every test, from the sdist of html5lib 1.1 on PyPI, which ships them.
- The CommonMark spec's examples (spec CC-BY-SA 4.0), from the sdist of commonmark 0.9.1
  on PyPI, which ships `spec.txt`.
- JSONTestSuite (MIT): `test_parsing`'s `y_` (valid), `n_` (invalid) and `i_` (either)
  files and `test_transform`'s, from the sdist of orjson 3.9.15 on PyPI, which ships them
  as `data/parsing/` and `data/transform/` (later orjson sdists do not). Besides the
  invariants, each valid one (`json.loads` reads it) is split at 16, 64 and 256 tokens
  with `tests/data_checks.py`'s checks: no part of it read as invalid, every chunk's key
  path resolving (and naming the member the chunk starts with), no value that fits cut.
- `make test` and `make conformance` fetch the sdists with pip into
  `.venv/conformance/` (the Makefile's `CONFORMANCE_STAMP`); nothing downloads at run time.
- The GFM spec with its extension examples (cmark-gfm's `test/spec.txt` and
  `test/extensions.txt`, BSD-2) and tree-sitter's corpus tests (`test/corpus/*.txt`
  of tree-sitter-python, -javascript, -rust, -go, -c, -ruby and -php, MIT), which no
  PyPI package ships: read from the folder `OUTLINE_CONFORMANCE_DIR` names, laid out as
  `cmark-gfm/test/*.txt` and `tree-sitter-LANG/test/corpus/*.txt` (a checkout of each
  repository), and skipped, saying so, where it is absent.
- yaml-test-suite (MIT licence), whose valid cases (`in.yaml` without `error`) are also
  split as `yaml` and checked as the YAML 1.2 specification reads them (`yaml_reading`):
  no part read as invalid, every chunk's key path naming a value of the document as
  PyYAML reads it, or the suite's `in.json` where PyYAML cannot (a case with neither is
  split with the invariants alone). No PyPI package ships the suite (none was found
  that does): it is read from `OUTLINE_CONFORMANCE_DIR/yaml-test-suite`, a checkout of
  its `data` branch; `tests/fixtures/yaml-test-suite/` holds a sample of ten cases that
  `make test` runs.

`python -m tests.conformance` (`make conformance`) runs every input in every mix of
`mixes()` under a per-input alarm (`CONFORMANCE_SECONDS`, default 60; every n-th input
with `CONFORMANCE_EVERY`) and prints the
counts: inputs, checked cases, failures by kind, the first example of each kind.
`tests/test_conformance.py` runs a sample of each suite in `make test`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import tarfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from outline_splitter import OutlineTextSplitter
from outline_splitter.detectors.html_text import ExtractedText
from outline_splitter.detectors.json_data import detect_json
from outline_splitter.options import MARKDOWN_PARSERS
from tests.data_checks import assert_key_paths_hold, assert_values_kept
from tests.hostile import MODES, split_checked
from tests.invariants import assert_line_numbers, assert_within_budget

ROOT = Path(__file__).resolve().parent.parent
FETCHED = ROOT / ".venv" / "conformance"
HTML5LIB_SDIST = "html5lib-1.1.tar.gz"
COMMONMARK_SDIST = "commonmark-0.9.1.tar.gz"
ORJSON_SDIST = "orjson-3.9.15.tar.gz"  # JSONTestSuite's files, as `data/parsing/` and `data/transform/`
DATA_BUDGETS = (16, 64, 256)  # the budgets a valid JSON input's own checks run at
EXTERNAL = "OUTLINE_CONFORMANCE_DIR"
# tree-sitter corpus folder name -> doc type
TREE_SITTER = {
    "python": "python", "javascript": "javascript", "rust": "rust", "go": "go", "c": "c", "ruby": "ruby", "php": "php"
}  # fmt: skip
SUITES = ("html5lib", "commonmark", "gfm", "tree-sitter", "jsontestsuite", "yaml-test-suite")
YAML_SUITE_SAMPLE = ROOT / "tests" / "fixtures" / "yaml-test-suite"
# The budgets at which a YAML case's key paths are checked.
YAML_READING_SIZES = (16, 64, 256)


@dataclass(frozen=True)
class Input:
    suite: str
    name: str  # where it comes from: file and test number
    text: str
    doc_type: str  # the doc type the suite is written in
    reference: str | None = None  # the suite's JSON of what the input holds, if any


@dataclass
class Report:
    inputs: int = 0
    cases: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)


class Unavailable(Exception):
    """A suite's source is not on this machine (the reason is the message)."""


def _sdist(name: str) -> tarfile.TarFile:
    path = FETCHED / name
    if not path.exists():
        raise Unavailable(f"{path} is missing: `make test` fetches it with pip (Makefile CONFORMANCE_STAMP)")
    return tarfile.open(path)


def _external(*parts: str) -> Path:
    folder = os.environ.get(EXTERNAL)
    if not folder:
        raise Unavailable(f"{EXTERNAL} is not set (no PyPI package ships this suite; see tests/conformance.py)")
    path = Path(folder, *parts)
    if not path.exists():
        raise Unavailable(f"{path} is missing")
    return path


def html5lib_inputs() -> Iterator[Input]:
    """html5lib-tests' tree-construction `#data` and tokenizer `input` strings."""
    with _sdist(HTML5LIB_SDIST) as sdist:
        for member in sorted(sdist.getmembers(), key=lambda m: m.name):
            name = member.name.split("/testdata/", 1)[-1]
            handle = sdist.extractfile(member) if member.isfile() else None
            if handle is None:
                continue
            if name.startswith("tree-construction/") and name.endswith(".dat"):
                text = handle.read().decode("utf-8")
                for i, data in enumerate(_dat_inputs(text)):
                    yield Input("html5lib", f"{name}#{i}", data, "html")
            elif name.startswith("tokenizer/") and name.endswith(".test"):
                tests = json.loads(handle.read().decode("utf-8")).get("tests", [])
                for i, test in enumerate(tests):
                    data = test["input"]
                    if test.get("doubleEscaped"):
                        data = _unescape_double(data)
                    yield Input("html5lib", f"{name}#{i}", data, "html")


def _dat_inputs(text: str) -> Iterator[str]:
    """The `#data` sections of a tree-construction file (its line end before the next
    `#` section is the format's, not the input's)."""
    for block in re.split(r"^#data\n", text, flags=re.MULTILINE)[1:]:
        yield re.split(r"\n#[a-z-]+(?: [a-z-]+)?\n", block, maxsplit=1)[0]


def _unescape_double(text: str) -> str:
    """A `doubleEscaped` tokenizer input: `\\uXXXX` stands for the code unit (lone
    surrogates included)."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)


_EXAMPLE = re.compile(r"^`{32} example[^\n]*\n(.*?)^\.\n(.*?)^`{32}$", re.MULTILINE | re.DOTALL)


def _spec_examples(suite: str, name: str, text: str) -> Iterator[Input]:
    """The Markdown of each example of a spec file in CommonMark's format (`→` is a tab)."""
    for i, match in enumerate(_EXAMPLE.finditer(text)):
        yield Input(suite, f"{name}#{i + 1}", match.group(1).replace("\u2192", "\t"), "markdown")


def commonmark_inputs() -> Iterator[Input]:
    with _sdist(COMMONMARK_SDIST) as sdist:
        handle = sdist.extractfile("commonmark-0.9.1/spec.txt")
        assert handle is not None
        yield from _spec_examples("commonmark", "spec.txt", handle.read().decode("utf-8"))


def gfm_inputs() -> Iterator[Input]:
    folder = _external("cmark-gfm", "test")
    for name in ("spec.txt", "extensions.txt"):
        yield from _spec_examples("gfm", f"cmark-gfm/{name}", (folder / name).read_text(encoding="utf-8"))


_CORPUS_HEADER = re.compile(r"^={3,}\n(?:[^\n]*\n)+?={3,}\n", re.MULTILINE)
_CORPUS_DIVIDER = re.compile(r"^-{3,}\n", re.MULTILINE)


def tree_sitter_inputs() -> Iterator[Input]:
    """The source of each example of tree-sitter's corpus tests."""
    found = False
    for folder, doc_type in TREE_SITTER.items():
        try:
            corpus = _external(f"tree-sitter-{folder}", "test", "corpus")
        except Unavailable:
            continue
        found = True
        for path in sorted(corpus.rglob("*.txt")):
            text = path.read_text(encoding="utf-8")
            headers = list(_CORPUS_HEADER.finditer(text))
            for i, header in enumerate(headers):
                body = text[header.end() : headers[i + 1].start() if i + 1 < len(headers) else len(text)]
                divider = _CORPUS_DIVIDER.search(body)
                source = body[: divider.start()] if divider else body
                yield Input("tree-sitter", f"tree-sitter-{folder}/{path.name}#{i}", source, doc_type)
    if not found:
        _external("tree-sitter-python")  # raises Unavailable, naming what is missing


def jsontestsuite_inputs() -> Iterator[Input]:
    """JSONTestSuite's `test_parsing` and `test_transform` files (bytes that are no
    UTF-8 read with U+FFFD, as a file opened with `errors="replace"` is)."""
    with _sdist(ORJSON_SDIST) as sdist:
        for member in sorted(sdist.getmembers(), key=lambda m: m.name):
            folder, _, name = member.name.partition("/data/")[2].rpartition("/")
            handle = sdist.extractfile(member) if member.isfile() else None
            if handle is None or folder not in ("parsing", "transform") or not name.endswith(".json"):
                continue
            yield Input("jsontestsuite", f"{folder}/{name}", handle.read().decode("utf-8", "replace"), "json")


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is no JSON (Python's json reads it)")


def check_valid_json(item: Input) -> None:
    """A valid JSON input (one `json.loads` reads) at `DATA_BUDGETS`: no part of it
    read as invalid, every key path holding, every value that fits whole."""
    try:
        json.loads(item.text, parse_constant=_not_json)
    except ValueError:
        return  # invalid JSON (an `n_` file, most `i_` ones): the invariants alone
    root = detect_json(item.text)
    kinds = {node.kind for node in root.walk()}
    assert not kinds & {"invalid", "comment"}, f"valid JSON read as {sorted(kinds & {'invalid', 'comment'})}"
    for chunk_size in DATA_BUDGETS:
        splitter = OutlineTextSplitter(doc_type="json", chunk_size=chunk_size)
        chunks = splitter.split(item.text)
        assert_key_paths_hold(item.text, chunks)
        assert_values_kept(item.text, root, chunks, chunk_size, splitter.tokenizer)


def yaml_test_suite_inputs(folder: Path | None = None) -> Iterator[Input]:
    """The valid cases of yaml-test-suite (a case folder's `in.yaml` where it has no
    `error` file), from a checkout of its `data` branch (`folder`, or
    `OUTLINE_CONFORMANCE_DIR/yaml-test-suite`), with their `in.json`."""
    folder = folder if folder is not None else _external("yaml-test-suite")
    for path in sorted(folder.rglob("in.yaml")):
        case = path.parent
        name = case.relative_to(folder).as_posix()
        if (case / "error").exists() or name.split("/", 1)[0] in ("name", "tags"):
            continue  # `name/` and `tags/` link to the same cases
        reference = case / "in.json"
        json_text = reference.read_text(encoding="utf-8") if reference.exists() else None
        yield Input("yaml-test-suite", name, path.read_text(encoding="utf-8"), "yaml", json_text)


_UNREAD = object()


def _yaml_document(item: Input) -> Any:
    """What a YAML case holds: PyYAML's reading (a list of the documents where there are
    several), or the suite's JSON where PyYAML cannot read it; `_UNREAD` if neither."""
    import yaml

    try:
        documents = list(yaml.safe_load_all(item.text))
    except yaml.YAMLError:
        if item.reference is None:
            return _UNREAD
        documents, at, decoder = [], 0, json.JSONDecoder()
        while item.reference[at:].strip():
            at += len(item.reference[at:]) - len(item.reference[at:].lstrip())
            value, at = decoder.raw_decode(item.reference, at)
            documents.append(value)
    return documents[0] if len(documents) == 1 else documents


def yaml_reading(item: Input) -> None:
    """A valid YAML case read as the specification does: no `invalid` node in its
    outline, and at each of `YAML_READING_SIZES` every chunk's key path naming a value
    of the document (`tests/test_data_formats.resolve`)."""
    from outline_splitter.detectors.data_tree import INVALID
    from tests.test_data_formats import resolve

    splitter = OutlineTextSplitter(doc_type="yaml")
    stack = [splitter.outline(item.text)]
    while stack:
        node = stack.pop()
        assert node.kind != INVALID, f"read as invalid: {item.text[node.start : node.end][:60]!r}"
        stack.extend(node.children)
    document = _yaml_document(item)
    if document is _UNREAD:
        return
    for size in YAML_READING_SIZES:
        for chunk in OutlineTextSplitter(doc_type="yaml", chunk_size=size).split(item.text):
            try:
                resolve(chunk.metadata["key_path"], document)
            except (KeyError, IndexError, TypeError, AttributeError, StopIteration) as missing:
                raise AssertionError(f"key path does not resolve: {chunk.metadata['key_path']}") from missing


def yaml_values_kept_whole(item: Input) -> None:
    """At each of `YAML_READING_SIZES`, every mapping and sequence item of the case (as
    PyYAML composes it: `bench/ground_truth.data_structure`) that fits the budget lies in
    one chunk (docs/usage.md: "an object or an array item that fits is never cut"). A
    case PyYAML cannot read is left out."""
    import yaml

    from outline_splitter.bench.ground_truth import chunk_stream, data_structure

    splitter = OutlineTextSplitter(doc_type="yaml")
    try:
        units = data_structure("yaml", item.text, splitter.tokenizer.count).units
    except yaml.YAMLError:
        return
    for size in YAML_READING_SIZES:
        chunks = OutlineTextSplitter(doc_type="yaml", chunk_size=size).split(item.text)
        joined = "\0".join(chunk_stream("yaml", chunk.text) for chunk in chunks)
        for unit in units:
            assert unit.tokens > size or unit.text in joined, f"a value that fits is cut at {size}: {unit.text[:60]!r}"


READERS = {
    "html5lib": html5lib_inputs,
    "commonmark": commonmark_inputs,
    "gfm": gfm_inputs,
    "tree-sitter": tree_sitter_inputs,
    "jsontestsuite": jsontestsuite_inputs,
    "yaml-test-suite": yaml_test_suite_inputs,
}

# The option mixes of an input's own doc type (HTML's text mode and content options too):
# budgets from below one character's tokens to a whole page, overlap, small-chunk joins,
# hierarchy and the HTML selectors.
_SIZES = (1, 4, 16, 64, 512)
_OWN: dict[str, list[dict[str, Any]]] = {
    "html": [
        {"output": output, "content": content, "chunk_size": size}
        for output in (None, "text")
        for content in ("all", "main")
        for size in _SIZES
    ]
    + [
        {"separators": ["p", "h2"], "never_break_within": ["table"], "chunk_size": 16, "max_chunk_size": 64},
        {"output": "text", "separators": ["div"], "never_break_within": ["pre"], "chunk_size": 8, "max_chunk_size": 32},
        {"chunk_size": 64, "chunk_overlap": 16, "min_chunk_size": 8},
        {"chunk_size": 128, "hierarchy": True},
        {"content": "main", "exclude": ["b", "i"], "chunk_size": 16},
    ],
    # (each with each parser, against its own reading)
    "markdown": [
        {**options, "markdown_parser": parser}
        for parser in MARKDOWN_PARSERS
        for options in [
            *({"chunk_size": size} for size in _SIZES),
            {"chunk_size": 16, "min_chunk_size": 8},
            {"chunk_size": 64, "chunk_overlap": 16, "min_chunk_size": 24},
            {"chunk_size": 128, "hierarchy": True},
            {"chunk_size": 16, "header_levels": [1, 2]},
            {"chunk_size": 8, "never_break_within": ["table", "code"], "max_chunk_size": 64},
        ]
    ],
    "json": [{"chunk_size": size} for size in _SIZES]
    + [{"chunk_size": 64, "chunk_overlap": 16, "min_chunk_size": 8}, {"chunk_size": 128, "hierarchy": True}],
}
_CODE = [{"chunk_size": size} for size in _SIZES] + [
    {"chunk_size": 16, "min_chunk_size": 8},
    {"chunk_size": 64, "chunk_overlap": 16},
    {"chunk_size": 128, "hierarchy": True},
]


def mixes(item: Input, full: bool) -> list[tuple[str, str | None, dict[str, Any]]]:
    """(doc_type, output, options) to split `item` with: its own doc type's mixes, and
    in a full run every other mode at 16 and 512 tokens too."""
    out: list[tuple[str, str | None, dict[str, Any]]] = []
    for options in _OWN.get(item.doc_type, _CODE):
        options = dict(options)
        output = options.pop("output", None)
        out.append((item.doc_type, output, options))
    if full:
        for doc_type, output in MODES:
            if doc_type != item.doc_type:
                out.extend((doc_type, output, {"chunk_size": size}) for size in (16, 512))
    return out


_NUMBERS = re.compile(r"\d+|'[^']*'|\"[^\"]*\"|\[[^\]]*\)")


def kind_of(error: BaseException) -> str:
    """A failure's kind: its exception type and the first line of its message, without
    the numbers and quoted text that vary from case to case."""
    message = str(error).split("\n", 1)[0]
    return f"{type(error).__name__}: {_NUMBERS.sub('_', message)[:100]}"


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout("timeout")


def check(item: Input, full: bool, report: Report, seconds: int = 60) -> None:
    """Split `item` in each of its mixes under an alarm of `seconds`, counting cases and
    failures by kind in `report`."""
    report.inputs += 1
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for doc_type, output, options in mixes(item, full):
            report.cases += 1
            signal.alarm(seconds)
            try:
                if options.get("content") == "main" or options.get("exclude"):
                    _split_selected(item.text, doc_type, output, options)
                else:
                    split_checked(item.text, doc_type, output, twice=False, **options)
            except _Timeout:
                _fail(report, f"timeout ({seconds} s)", item, doc_type, output, options)
                break
            except Exception as error:  # every failure is counted, by kind
                _fail(report, kind_of(error), item, doc_type, output, options)
            finally:
                signal.alarm(0)
        if item.doc_type == "json":
            report.cases += 1
            try:
                check_valid_json(item)
            except Exception as error:  # every failure is counted, by kind
                _fail(report, kind_of(error), item, "json", None, {"chunk_size": DATA_BUDGETS})
        if item.suite == "yaml-test-suite":
            for reading in (yaml_reading, yaml_values_kept_whole):
                report.cases += 1
                try:
                    reading(item)
                except AssertionError as error:
                    _fail(report, kind_of(error), item, "yaml", None, {"chunk_size": YAML_READING_SIZES})
    finally:
        signal.signal(signal.SIGALRM, previous)


def _split_selected(text: str, doc_type: str, output: str | None, options: dict[str, Any]) -> None:
    """A split that leaves content out (`content="main"`, `exclude`): every invariant of
    `tests/invariants.py` but "nothing lost", which the option waives (what it keeps is
    `tests/test_html_content.py`'s to check): each chunk's text is its span's (source or
    page text), in order, exactly counted, within budget, its lines right."""
    splitter = OutlineTextSplitter(doc_type=doc_type, output=output, **options)
    chunks = splitter.split(text)
    whole = ExtractedText(text) if output == "text" else None
    cursor = 0
    for i, chunk in enumerate(chunks):
        assert chunk.start_pos >= cursor, f"chunk {i} starts at {chunk.start_pos}, before the previous end {cursor}"
        if whole is None:
            assert chunk.text == text[chunk.start_pos : chunk.end_pos], f"chunk {i}: text is not the source slice"
        else:
            lo, hi = whole.span(chunk.start_pos, chunk.end_pos)
            assert chunk.text == whole.text[lo:hi], f"chunk {i}: text is not the page's text of its span"
        assert chunk.text.strip(), f"chunk {i} is blank"
        assert splitter.tokenizer.count(chunk.text) == chunk.token_count, f"chunk {i}: token_count is not exact"
        assert_within_budget(i, chunk, splitter.max_chunk_size, text if whole is not None else None)
        cursor = chunk.end_pos
    assert_line_numbers(text, chunks)


def _fail(report: Report, kind: str, item: Input, doc_type: str, output: str | None, options: dict[str, Any]) -> None:
    report.failures[kind] += 1
    report.examples.setdefault(kind, f"{item.name} {doc_type}/{output} {options} {item.text[:120]!r}")


def run(suites: list[str], full: bool = True, every: int = 1, seconds: int = 60) -> dict[str, Report]:
    """The reports of `suites`, every `every`-th input of each; a suite whose source is
    absent is reported on stderr and left out."""
    reports: dict[str, Report] = {}
    for suite in suites:
        report = Report()
        try:
            for i, item in enumerate(READERS[suite]()):
                if i % every == 0:
                    check(item, full, report, seconds)
        except Unavailable as missing:
            print(f"{suite}: skipped: {missing}", file=sys.stderr)
            continue
        reports[suite] = report
    return reports


def main(argv: list[str]) -> int:
    suites = [name for name in argv if name in SUITES] or list(SUITES)
    seconds = int(os.environ.get("CONFORMANCE_SECONDS", "60"))
    every = int(os.environ.get("CONFORMANCE_EVERY", "1"))
    began = time.monotonic()
    reports = run(suites, full=True, every=every, seconds=seconds)
    failed = 0
    for suite, report in reports.items():
        total = sum(report.failures.values())
        failed += total
        print(f"{suite}: {report.inputs} inputs, {report.cases} cases, {total} failures")
        for kind, count in report.failures.most_common():
            print(f"  {count:6d}  {kind}\n          e.g. {report.examples[kind]}")
    inputs = sum(r.inputs for r in reports.values())
    cases = sum(r.cases for r in reports.values())
    print(f"conformance: {inputs} inputs, {cases} cases, {failed} failures in {time.monotonic() - began:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
