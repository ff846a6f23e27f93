"""The command line, run as a user runs it: a subprocess, its exit code, stdout and stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from outline_splitter.demo import SAMPLE

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "outline_splitter", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder: two Markdown files (one nested), a text file, and a file of no known type."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md").write_text("# A\n\nFirst document. It has two sentences.\n", encoding="utf-8")
    (tmp_path / "sub" / "b.md").write_text("# B\n\n- one\n- two\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("Plain text here.\n", encoding="utf-8")
    (tmp_path / "image.bin").write_bytes(b"\x00\x01")
    return tmp_path


def records(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def error_lines(stderr: str) -> list[str]:
    """The error lines of stderr (the summary line follows them)."""
    return [line for line in stderr.splitlines() if line.startswith("outline-splitter: error:")]


def summary(stderr: str) -> str:
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("outline-splitter: ") and not last.startswith("outline-splitter: error:"), stderr
    return last


def test_help_documents_every_command_and_option():
    top = run("--help")
    assert top.returncode == 0
    for command in ("split", "outline", "bench"):
        assert command in top.stdout
    split = run("split", "--help").stdout
    for option in ("--doc-type", "--chunk-size", "--overlap", "--output", "--format", "-o", "--strict", "--encoding"):
        assert option in split
    assert "--width" in run("outline", "--help").stdout
    bench = run("bench", "--help").stdout
    for option in ("--corpus", "--doc-type", "--budgets", "--timeout"):
        assert option in bench


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "outline-splitter"
    if not script.exists():
        pytest.skip("the package is not installed with its scripts in this interpreter's folder")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "outline-splitter" in done.stdout


def test_split_file_writes_one_json_object_per_chunk():
    done = run("split", SAMPLE, "--chunk-size", "64")
    assert done.returncode == 0, done.stderr
    text = SAMPLE.read_text(encoding="utf-8")
    chunks = records(done.stdout)
    assert len(chunks) > 3
    for i, chunk in enumerate(chunks):
        assert chunk["source"] == str(SAMPLE)
        assert chunk["text"] == text[chunk["start_pos"] : chunk["end_pos"]]
        assert 0 < chunk["token_count"] <= 64
        assert chunk["metadata"]["index"] == i
        assert chunk["metadata"]["doc_type"] == "markdown"


def test_split_folder_recursively_by_extension(tree: Path):
    done = run("split", tree)
    assert done.returncode == 0, done.stderr
    sources = {Path(chunk["source"]).relative_to(tree).as_posix() for chunk in records(done.stdout)}
    assert sources == {"a.md", "c.txt", "sub/b.md"}
    only_markdown = run("split", tree, "--doc-type", "markdown")
    assert {Path(c["source"]).name for c in records(only_markdown.stdout)} == {"a.md", "b.md"}


def test_missing_and_undecodable_inputs_are_reported_and_skipped(tree: Path):
    (tree / "bad.md").write_bytes(b"# Bad\n\n\xff\xfe not utf-8\n")
    missing = tree / "missing.md"
    done = run("split", missing, tree / "bad.md", tree / "a.md")
    assert done.returncode == 2
    errors = error_lines(done.stderr)
    assert len(errors) == 2
    assert str(missing) in errors[0] and "no such file" in errors[0]
    assert str(tree / "bad.md") in errors[1] and "cannot decode" in errors[1]
    assert {Path(c["source"]).name for c in records(done.stdout)} == {"a.md"}


def test_unknown_extension_given_explicitly_is_an_error_line(tree: Path):
    done = run("split", tree / "image.bin", tree / "a.md")
    assert done.returncode == 2
    assert "image.bin" in done.stderr and "extension" in done.stderr
    assert len(error_lines(done.stderr)) == 1
    assert "1 files" in summary(done.stderr) and "1 failed" in summary(done.stderr)


def test_strict_stops_at_the_first_bad_input(tree: Path):
    done = run("split", "--strict", tree / "missing.md", tree / "a.md")
    assert done.returncode == 2
    assert done.stdout == ""


def test_bad_options_exit_2_with_one_line(tree: Path):
    done = run("split", tree / "a.md", "--chunk-size", "0")
    assert done.returncode == 2
    assert done.stderr.startswith("outline-splitter: error:") and "chunk_size" in done.stderr
    assert run("split", tree / "a.md", "--doc-type", "klingon").returncode == 2
    assert run("split").returncode == 2  # no path: argparse's usage error


def test_formats_and_output_file(tree: Path):
    as_json = run("split", tree / "a.md", "--format", "json")
    assert as_json.returncode == 0
    array = json.loads(as_json.stdout)
    assert isinstance(array, list) and array[0]["source"] == str(tree / "a.md")
    as_text = run("split", tree / "a.md", "--format", "text")
    assert as_text.stdout.startswith(f"--- {tree / 'a.md'} chunk 0 [0, ")
    out = tree / "out.jsonl"
    to_file = run("split", tree / "a.md", "-o", out)
    assert to_file.returncode == 0 and to_file.stdout == ""
    assert records(out.read_text(encoding="utf-8"))[0]["text"].startswith("# A")


def test_overlap_is_recorded(tree: Path):
    long = tree / "long.md"
    long.write_text("\n\n".join(f"Paragraph {i} has a few words in it." for i in range(40)), encoding="utf-8")
    chunks = records(run("split", long, "--chunk-size", "32", "--overlap", "8").stdout)
    assert len(chunks) > 2
    assert chunks[1]["start_overlap"] and chunks[0]["end_overlap"]


def test_outline_prints_the_tree_with_kinds_offsets_and_titles():
    done = run("outline", SAMPLE)
    assert done.returncode == 0, done.stderr
    text = SAMPLE.read_text(encoding="utf-8")
    lines = done.stdout.splitlines()
    assert lines[0] == f"document [0, {len(text)})"
    assert any("heading [0, " in line and "Brewing a pour-over coffee" in line for line in lines)
    assert any("list [" in line for line in lines)


def test_outline_errors(tree: Path):
    missing = run("outline", tree / "missing.md")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    unknown = run("outline", tree / "image.bin")
    assert unknown.returncode == 2 and "extension" in unknown.stderr


def test_bench_runs_the_harness_on_a_folder(tree: Path):
    out = tree / "results"
    done = run(
        "bench", "--corpus", tree, "--doc-type", "markdown", "--splitters", "outline-splitter",
        "--budgets", "16", "--no-memory", "--output-dir", out,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| outline-splitter | 16 |" in done.stdout
    rows = json.loads((out / "latest.json").read_text(encoding="utf-8"))["rows"]
    # (--splitters keeps the splitters whose name holds the word: both Markdown parsers)
    assert [(row["splitter"], row["status"]) for row in rows] == [
        ("outline-splitter", "ok"),
        ("outline-splitter pulldown-cmark", "ok"),
    ]
    assert run("bench", "--corpus", tree / "nowhere", "--doc-type", "markdown").returncode == 2


def test_bench_on_a_folder_never_writes_the_tracked_results(tree: Path):
    tracked = [ROOT / "benchmarks" / "results" / "latest.json", ROOT / "docs" / "benchmarks.md"]
    before = [path.read_bytes() for path in tracked]
    options = ("--splitters", "outline-splitter", "--budgets", "16", "--no-memory")
    done = run("bench", "--corpus", tree, "--doc-type", "markdown", *options, cwd=tree)
    assert done.returncode == 0, done.stderr
    assert (tree / "bench-results" / "latest.json").is_file()  # the untracked default, in this folder
    into_tracked = run("bench", "--corpus", tree, "--doc-type", "markdown", *options, "--output-dir",
                       ROOT / "benchmarks" / "results")  # fmt: skip
    assert into_tracked.returncode == 2 and "only --update-docs" in into_tracked.stdout
    docs_of_a_folder = run("bench", "--corpus", tree, "--doc-type", "markdown", *options, "--update-docs")
    assert docs_of_a_folder.returncode == 2 and "does not take --corpus" in docs_of_a_folder.stdout
    assert [path.read_bytes() for path in tracked] == before


def test_text_output_applies_to_html_and_leaves_other_formats_as_source(tmp_path: Path):
    (tmp_path / "page.html").write_text("<h1>Title</h1><p>Hello <b>world</b>.</p>", encoding="utf-8")
    (tmp_path / "notes.md").write_text("# Notes\n\nSome *text*.\n", encoding="utf-8")
    done = run("split", tmp_path, "--output", "text")
    assert done.returncode == 0, done.stderr
    records = {Path(r["source"]).name: r for r in map(json.loads, done.stdout.splitlines())}
    assert records["page.html"]["text"] == "Title\nHello world."
    assert records["notes.md"]["text"] == "# Notes\n\nSome *text*."


def test_folder_split_with_workers_matches_one_worker_and_summarises(tree: Path):
    (tree / "sub" / "c.md").write_text("# C\n\n" + "Words in a row. " * 200, encoding="utf-8")
    (tree / "dangling.md").symlink_to(tree / "gone.md")
    (tree / "photo.png").write_bytes(b"\x89PNG")
    pooled = run("split", tree, "--workers", "2", "--chunk-size", "64")
    single = run("split", tree, "--workers", "1", "--chunk-size", "64")
    assert pooled.returncode == single.returncode == 0, pooled.stderr
    assert pooled.stdout == single.stdout
    chunks = records(pooled.stdout)
    line = summary(pooled.stderr)
    assert line.startswith(
        f"outline-splitter: 4 files, {len(chunks)} chunks, {sum(c['token_count'] for c in chunks)} tokens"
    )
    assert "MB/s" in line
    assert line.endswith("3 skipped: 2 unknown extension (.bin, .png), 1 dangling link")


def test_only_other_formats_are_skipped_with_their_reason(tree: Path):
    done = run("split", tree, "--doc-type", "markdown")
    assert done.returncode == 0
    assert summary(done.stderr).endswith("2 skipped: 1 not markdown, 1 unknown extension (.bin)")


def test_bad_workers_is_a_usage_error(tree: Path):
    done = run("split", tree, "--workers", "0")
    assert done.returncode == 2 and "--workers" in done.stderr and done.stdout == ""


def test_a_run_that_splits_nothing_exits_non_zero(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "a.png").write_bytes(b"\x89PNG")
    for folder in ("empty", "photos"):
        done = run("split", tmp_path / folder)
        assert done.returncode == 2, done.stderr
        assert "nothing was split" in done.stderr and not done.stdout
    (tmp_path / "photos" / "empty.md").write_text("", encoding="utf-8")  # a file split into no chunk is split
    assert run("split", tmp_path / "photos").returncode == 0
    assert "splits no file at all" in " ".join(run("split", "--help").stdout.split())


def test_outline_of_a_directory_says_it_is_one(tree: Path):
    done = run("outline", tree)
    assert done.returncode == 2
    assert f"{tree}: a directory, not a file" in done.stderr and "extension" not in done.stderr
