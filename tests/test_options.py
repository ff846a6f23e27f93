"""One definition of the options (outline_splitter/options.py), and every front end derived
from it: each takes every option with the model's default, and a bad value gives the same
ValueError, naming the option, from each (issue 34)."""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from outline_splitter import OutlineTextSplitter, split_many
from outline_splitter.cli import FLAG_DEFAULTS, build_parser, main
from outline_splitter.options import OPTION_NAMES, SplitterKwargs, SplitterOptions, markdown_table

ROOT = Path(__file__).resolve().parents[1]
FIELDS = SplitterOptions.model_fields

if os.environ.get("CI"):  # CI installs the extras (make test): a missing one is a failure there
    import langchain_text_splitters  # noqa: F401
    import llama_index.core  # noqa: F401
    import ray  # noqa: F401
else:
    pytest.importorskip("langchain_text_splitters", reason="the langchain extra is not installed")
    pytest.importorskip("llama_index.core", reason="the llama-index extra is not installed")
    pytest.importorskip("ray", reason="the ray extra is not installed")

from outline_splitter.integrations.langchain import OutlineSplitter  # noqa: E402
from outline_splitter.integrations.llama_index import OutlineNodeParser  # noqa: E402
from outline_splitter.integrations.ray import split_dataset  # noqa: E402

# One bad value per option, with the text its ValueError must hold (None: the option has no
# bad value a command line can spell, e.g. a flag). A new option without a row fails below.
BAD_VALUES: dict[str, tuple[Any, str, str | None]] = {
    "doc_type": ("klingon", "doc_type 'klingon' is not known", "klingon"),
    "chunk_size": (0, "chunk_size must be an integer >= 1, not 0", "0"),
    "chunk_overlap": (512, "chunk_overlap must be an integer from 0 to 511, not 512", "512"),
    "overlap_across_sections": ("yes", "overlap_across_sections must be True or False", None),
    "tokenizer": ("no_such_encoding", "tokenizer", "no_such_encoding"),
    "max_chunk_size": (100, "max_chunk_size must be an integer >= 512, not 100", "100"),
    "min_chunk_size": (513, "min_chunk_size must be an integer from 0 to 512, not 513", "513"),
    "never_break_within": (["tabel"], "never_break_within: 'tabel' is not a node kind", "tabel"),
    "separators": (["bogus"], "separators: 'bogus' is not a node kind", "bogus"),
    "output": ("pdf", "output 'pdf' is not", "pdf"),
    "id_prefix": ("  ", "id_prefix must be a non-blank string or None", "  "),
    "decode_errors": ("ignore", "decode_errors must be one of 'strict', 'replace', not 'ignore'", "ignore"),
    "content": ("some", "content must be one of 'all', 'main', not 'some'", "some"),
    "include": (["p["], "include", "p["),
    "exclude": ("nav", "exclude must be a sequence", None),
    "hierarchy": (1, "hierarchy must be True or False, not 1", None),
    "parents": ("tree", "parents must be one of 'text', 'outline', not 'tree'", "tree"),
    "parent_chunk_size": (100, "parent_chunk_size must be an integer >= 512, not 100", "100"),
    "context_in_budget": ("no", "context_in_budget must be True or False", None),
    "encode_in_background": ("on", "encode_in_background must be True or False", None),
    "header_levels": ([7], "header_levels must hold heading levels 1-6, not 7", "7"),
    "page_markers": ("(", "page_markers: '(' is not a regular expression", "("),
    "markdown_parser": ("pulldown", "markdown_parser must be one of 'markdown-it', 'pulldown-cmark'", "pulldown"),
}


def test_every_option_has_a_bad_value_case_and_the_typed_kwargs_match_the_model():
    assert set(BAD_VALUES) == set(OPTION_NAMES)
    assert list(get_type_hints(SplitterKwargs)) == list(OPTION_NAMES)


def test_each_default_is_written_once():
    """The defaults of the front ends are the model's: their signatures list every option
    with it (OutlineTextSplitter, LangChain, split_many, Ray), LlamaIndex's fields are the
    model's fields, and a built splitter holds the model's defaults."""
    defaults = {name: field.default for name, field in FIELDS.items()}
    for function in (OutlineTextSplitter, OutlineSplitter, split_many, split_dataset):
        parameters = inspect.signature(function).parameters
        assert {name: parameters[name].default for name in OPTION_NAMES} == defaults, function
    assert {name: OutlineNodeParser.model_fields[name].default for name in OPTION_NAMES} == defaults
    built = [OutlineTextSplitter().options, OutlineSplitter().splitter.options, OutlineNodeParser()._splitter.options]
    assert all(options == SplitterOptions() for options in built)


def test_the_command_line_has_a_flag_for_every_option_with_the_models_default():
    split = next(action.choices["split"] for action in build_parser()._actions if getattr(action, "choices", None))
    generated = {action.dest: action for action in split._actions if action.option_strings[:1] != ["--output"]}
    assert set(OPTION_NAMES) <= set(generated)
    for name in OPTION_NAMES:
        assert FIELDS[name].description in generated[name].help.replace("%%", "%")
    given = vars(split.parse_args(["x.md"]))
    # a flag not given leaves the option out, so split_many uses the model's default
    assert {name: given[name] for name in OPTION_NAMES if name in given} == FLAG_DEFAULTS


def _error_of(call: Any) -> str:
    with pytest.raises(ValueError) as caught:
        call()
    return str(caught.value)


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_a_bad_value_gives_the_same_error_from_every_front_end(name, tmp_path, capsys):
    value, message, _ = BAD_VALUES[name]
    options = {name: value}
    if name == "include":
        options["doc_type"] = "html"
    expected = _error_of(lambda: OutlineTextSplitter(**options))
    assert message in expected and name in expected
    assert _error_of(lambda: OutlineSplitter(**options)) == expected
    assert _error_of(lambda: OutlineNodeParser(**options)) == expected
    assert _error_of(lambda: SplitterOptions.of(**options)) == expected
    # a batch or a dataset checks its options before it reads anything
    assert message in _error_of(lambda: split_many([], **options))
    assert message in _error_of(lambda: split_dataset(None, **options))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [name for name in OPTION_NAMES if BAD_VALUES[name][2] is not None])
def test_a_bad_value_on_the_command_line_is_refused_with_the_same_message(name, tmp_path, capsys):
    _, message, spelled = BAD_VALUES[name]
    path = tmp_path / "notes.md"
    path.write_text("# A\n\ntext\n", encoding="utf-8")
    flag = {"output": "--html-output", "chunk_overlap": "--chunk-overlap"}.get(name, "--" + name.replace("_", "-"))
    doc_type = ["--doc-type", "html"] if name in ("include", "output") else ["--doc-type", "markdown"]
    if name == "doc_type":
        doc_type = []
    assert main(["split", *doc_type, f"{flag}={spelled}", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_cli_options_reach_the_splitter(tmp_path, capsys):
    """Every flag the model generated reaches the chunks: header levels, hierarchy, id prefix."""
    path = tmp_path / "notes.md"
    path.write_text("# A\n\n" + "Some words here. " * 60 + "\n\n## B\n\nmore text\n", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    flags = ["--chunk-size", "64", "--hierarchy", "--id-prefix", "doc", "--header-levels", "2", "-o", str(out)]
    assert main(["split", *flags, str(path)]) == 0
    expected = OutlineTextSplitter(chunk_size=64, hierarchy=True, id_prefix="doc", header_levels=[2]).split_file(path)
    written = out.read_text(encoding="utf-8").splitlines()
    assert len(written) == len(expected) and any('"role": "parent"' in line for line in written)
    assert all(f'"id": "{chunk.metadata["id"]}"' in line for chunk, line in zip(expected, written, strict=True))


def test_output_is_deprecated_for_html_output_and_not_a_file_name(tmp_path, capsys):
    path = tmp_path / "page.html"
    path.write_text("<p>Hello <b>there</b></p>", encoding="utf-8")
    assert main(["split", "--output", "text", "--format", "text", str(path)]) == 0
    captured = capsys.readouterr()
    assert "--output is deprecated: use --html-output text" in captured.err
    assert "Hello there" in captured.out
    with pytest.raises(SystemExit):
        main(["split", "--output", "chunks.jsonl", str(path)])
    assert "-o/--output-file" in capsys.readouterr().err


def test_selectors_are_checked_when_the_splitter_is_built():
    """include / exclude selectors fail at construction, like never_break_within's, even
    under "auto" (they can only be HTML's)."""
    for doc_type in ("html", "auto"):
        with pytest.raises(ValueError, match=r"exclude: 'div\)' is not a valid CSS selector"):
            OutlineTextSplitter(doc_type=doc_type, exclude=["div)"])


def test_the_usage_docs_table_is_the_models():
    """docs/usage.md's argument table is `markdown_table()` (`python -m outline_splitter.options`)."""
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert markdown_table() in usage, "regenerate the table: python -m outline_splitter.options"


FORMAT_OPTIONS = {"header_levels": [1], "page_markers": "auto", "markdown_parser": "pulldown-cmark"}


@pytest.mark.parametrize("name", sorted(FORMAT_OPTIONS))
def test_a_format_option_under_auto_leaves_other_formats_as_they_are(name, tmp_path):
    """A mixed folder split with one format's option: every other file gives the chunks
    it gives without the option (nothing refused, nothing dropped), and a named format
    that cannot honour the option refuses it, naming it."""
    module = tmp_path / "m.py"
    module.write_text("".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(12)), encoding="utf-8")
    option = {name: FORMAT_OPTIONS[name]}
    with_option = OutlineTextSplitter(doc_type="auto", chunk_size=24, **option).split_file(module)
    without = OutlineTextSplitter(doc_type="auto", chunk_size=24).split_file(module)
    assert [(c.start_pos, c.end_pos) for c in with_option] == [(c.start_pos, c.end_pos) for c in without]
    with pytest.raises(ValueError, match=name):
        OutlineTextSplitter(doc_type="python", **option)
