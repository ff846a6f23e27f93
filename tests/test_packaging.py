"""What the distribution installs and what importing a detector costs."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_importing_a_detector_loads_neither_the_splitter_nor_pydantic_nor_tiktoken() -> None:
    # every module of detectors/ (a format's hooks into the splitter live in format_hooks/)
    detectors = sorted(
        "outline_splitter." + ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "detectors").rglob("*.py")
    )
    probe = (
        "import json, sys\n"
        f"import {', '.join(detectors)}, outline_splitter.nodes\n"
        "print(json.dumps(sorted(m for m in ('pydantic', 'tiktoken', 'numpy', 'outline_splitter.splitter',"
        " 'outline_splitter.packing') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(result.stdout) == []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy: an in-tree build leaves a build/ folder whose
    stale files a later build would package."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    project = tmp_path / "project"
    junk = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "tests", "bench-results")
    shutil.copytree(ROOT, project, symlinks=True, ignore=junk)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), "."],
        check=True,
        cwd=project,
        capture_output=True,
    )
    (built,) = tmp_path.glob("*.whl")
    return built


def test_the_wheel_installs_only_the_project_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/", 1)[0] for name in names if not name.split("/", 1)[0].endswith(".dist-info")}
    assert top_level == {"outline_splitter"}
    # the detectors/ folder of the layout is installed inside the project's namespace
    assert "outline_splitter/detectors/code/languages.py" in names
    assert "outline_splitter/detectors/code/languages.toml" in names  # the table languages.py reads
    assert "outline_splitter/detectors/markdown.py" in names
    assert not any(name.startswith("detectors/") for name in names)


def test_bench_on_a_folder_runs_from_the_wheel(wheel: Path, tmp_path: Path) -> None:
    # the wheel's package, not the checkout's (its dependencies from this environment)
    installed = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(installed), str(wheel)],
        check=True,
        capture_output=True,
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nFirst document. It has two sentences.\n\n- one\n- two\n", encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    probe = (
        "import sys, outline_splitter, outline_splitter.cli as cli\n"
        "print(outline_splitter.__file__, file=sys.stderr)\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    command = [sys.executable, "-c", probe, "bench", "--corpus", str(docs), "--doc-type", "markdown"]
    command += ["--splitters", "outline-splitter", "--budgets", "32", "--no-memory"]
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run(command, capture_output=True, text=True, cwd=work, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(str(installed))
    assert "| outline-splitter | 32 |" in done.stdout
    rows = json.loads((work / "bench-results" / "latest.json").read_text(encoding="utf-8"))["rows"]
    # (each Markdown parser's row: the markdown-fast extra is installed here)
    assert [(row["splitter"], row["status"]) for row in rows] == [
        ("outline-splitter", "ok"),
        ("outline-splitter pulldown-cmark", "ok"),
    ]


def test_the_token_modules_import_each_other_without_a_cycle() -> None:
    package = ROOT / "outline_splitter" / "tokens"
    imports: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        imports[path.stem] = {name.rsplit(".", 1)[1] for name in names if name.startswith("outline_splitter.tokens.")}
    visiting: list[str] = []

    def visit(module: str) -> None:
        assert module not in visiting, f"import cycle: {' -> '.join([*visiting, module])}"
        visiting.append(module)
        for imported in imports.get(module, set()):
            visit(imported)
        visiting.pop()

    for module in imports:
        visit(module)


def test_the_package_never_imports_benchmarks_nor_changes_sys_path() -> None:
    """The checkout's `benchmarks/` is not installed: the package (the CLI's `bench` too)
    imports its harness from `outline_splitter.bench`, never by putting the checkout on
    `sys.path`."""
    found = []
    for path in sorted((ROOT / "outline_splitter").rglob("*.py")):
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                names = [arg.value for arg in node.args[:1] if isinstance(arg, ast.Constant)]
            elif isinstance(node, ast.Attribute) and node.attr == "path" and ast.unparse(node.value) == "sys":
                found.append(f"{where}:{node.lineno} uses sys.path")
                continue
            else:
                continue
            tops = {str(name).split(".")[0] for name in names}
            found += [f"{where}:{node.lineno} imports benchmarks"] if "benchmarks" in tops else []
    assert not found, "\n".join(found)
