"""What the distribution installs and what importing a detector costs."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_importing_a_detector_loads_neither_the_splitter_nor_pydantic_nor_tiktoken() -> None:
    probe = (
        "import json, sys\n"
        "import outline_splitter.detectors.text, outline_splitter.nodes\n"
        "print(json.dumps(sorted(m for m in ('pydantic', 'tiktoken', 'numpy', 'outline_splitter.splitter',"
        " 'outline_splitter.packing') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(result.stdout) == []


def test_the_wheel_installs_only_the_project_package(tmp_path: Path) -> None:
    # built from a copy: an in-tree build leaves a build/ folder whose stale files a later
    # build would package
    project = tmp_path / "project"
    junk = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "tests")
    shutil.copytree(ROOT, project, symlinks=True, ignore=junk)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), "."],
        check=True,
        cwd=project,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/", 1)[0] for name in names if not name.split("/", 1)[0].endswith(".dist-info")}
    assert top_level == {"outline_splitter"}
    # the detectors/ folder of the layout is installed inside the project's namespace
    assert "outline_splitter/detectors/code/languages.py" in names
    assert "outline_splitter/detectors/markdown.py" in names
    assert not any(name.startswith("detectors/") for name in names)


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
