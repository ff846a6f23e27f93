"""Every Python example in the README and docs/ runs, so the docs cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
_PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[str, int, str]]:
    found = []
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        for number, match in enumerate(_PYTHON_BLOCK.finditer(path.read_text(encoding="utf-8"))):
            found.append((path.name, number, match.group(1)))
    return found


def test_the_docs_have_examples():
    assert len(_examples()) >= 4


@pytest.mark.parametrize(("page", "number", "code"), _examples(), ids=lambda v: str(v)[:20])
def test_example_runs(page, number, code, capsys):
    exec(compile(code, f"{page}#example{number}", "exec"), {"__name__": "__docs__"})


def test_the_readme_starts_with_an_example_and_links_every_docs_page():
    text = README.read_text(encoding="utf-8")
    assert any(page == "README.md" and number == 0 for page, number, _ in _examples())
    for page in sorted(DOCS.glob("*.md")):
        assert f"](docs/{page.name})" in text, f"README.md does not link docs/{page.name}"
