"""Every Python example in the README and docs/ runs as pasted, so the docs cannot drift
from the code, and names every package it imports.

- The Python blocks of a page (fenced `python` or `py`) run in order, in one namespace
  per page: a block may use what an earlier block of its page defined.
- A block that is deliberately not run has the comment `<!-- not-run: why -->` on the line
  right before its fence (used sparingly: a block that starts a cluster or writes into the
  working folder; the test that runs the same calls says so in the reason). Its imports are
  still checked.
- Every module a block imports is the standard library's, outline-splitter's or one of its
  dependencies', or comes from a package the page names on a `pip install` line: a
  distribution (`pip install chromadb`) or an extra of outline-splitter
  (`pip install 'outline-splitter[langchain]'`, whose packages pyproject.toml lists).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
_PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

_BLOCK = re.compile(r"^(?:<!-- not-run: (?P<reason>.+?) -->\n)?```(?:python|py)\n(?P<code>.*?)^```", re.M | re.S)
_PIP_INSTALL = re.compile(r"pip install ([^`#\n]+)")
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_PROJECT = "outline-splitter"


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(requirements: list[str]) -> set[str]:
    found = (_REQUIREMENT_NAME.match(requirement) for requirement in requirements)
    return {_normal(match.group()) for match in found if match is not None}


def _blocks(page: Path) -> list[tuple[int, str | None, str]]:
    """(number, why it is not run or None, code) of each Python block of `page`."""
    text = page.read_text(encoding="utf-8")
    return [(n, m.group("reason"), m.group("code")) for n, m in enumerate(_BLOCK.finditer(text))]


def _named(page: Path) -> set[str]:
    """The distributions `page` names on its `pip install` lines (an extra's packages too),
    and those every install of outline-splitter brings."""
    named = {_normal(_PROJECT), *_names(_PYPROJECT["dependencies"])}
    extras = _PYPROJECT["optional-dependencies"]
    for line in _PIP_INSTALL.findall(page.read_text(encoding="utf-8")):
        for word in line.split():
            word = word.strip("'\"")
            if word.startswith("-"):
                continue
            name, _, extra = word.partition("[")
            named.add(_normal(name))
            if _normal(name) == _PROJECT:
                for chosen in extra.rstrip("]").split(","):
                    named |= _names(extras.get(chosen.strip(), []))
    return named


def _imports(code: str) -> set[str]:
    """The top-level modules `code` imports."""
    modules = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.partition(".")[0])
    return modules


def _unnamed(page: Path) -> list[str]:
    """The modules the blocks of `page` import that no package it names provides."""
    named, providers = _named(page), packages_distributions()
    missing = []
    for number, _, code in _blocks(page):
        for module in sorted(_imports(code) - set(sys.stdlib_module_names) - {"outline_splitter"}):
            if module not in providers:
                missing.append(f"block {number}: {module} (not installed here: make test installs the extras)")
            elif not named & {_normal(dist) for dist in providers[module]}:
                missing.append(f"block {number}: {module} (from {', '.join(providers[module])})")
    return missing


def test_the_docs_have_examples() -> None:
    assert sum(len(_blocks(page)) for page in PAGES) >= 4


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_block_names_the_packages_it_imports(page: Path) -> None:
    assert _unnamed(page) == [], f"{page.name}: add a `pip install` line (or an extra) naming them"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_the_blocks_of_a_page_run_in_order(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for number, not_run, code in _blocks(page):
        if not_run is None:
            exec(compile(code, f"{page.name}#block{number}", "exec"), namespace)


def test_the_import_check_sees_a_package_a_page_does_not_name(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\nimport json\nimport chromadb\nfrom outline_splitter import OutlineTextSplitter\n```\n")
    assert [line.partition(" (")[0] for line in _unnamed(page)] == ["block 0: chromadb"]
    page.write_text("pip install chromadb\n\n" + page.read_text())
    assert _unnamed(page) == []


def test_the_readme_starts_with_an_example_and_links_every_docs_page_absolutely() -> None:
    text = README.read_text(encoding="utf-8")
    assert _blocks(README)[0][1] is None
    repository = _PYPROJECT["urls"]["Repository"]
    for page in sorted(DOCS.glob("*.md")):
        assert f"]({repository}/blob/main/docs/{page.name})" in text, f"README.md does not link docs/{page.name}"
    # a package index shows the README alone: no link or image may be relative
    relative = [target for target in re.findall(r"\]\(([^)]+)\)", text) if not target.startswith("https://")]
    assert relative == []
