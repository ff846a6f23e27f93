"""Every Python example in docs/ runs, so the docs cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
_PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(DOCS.glob("*.md")):
        for number, match in enumerate(_PYTHON_BLOCK.finditer(path.read_text(encoding="utf-8"))):
            found.append((path.name, number, match.group(1)))
    return found


def test_the_docs_have_examples():
    assert len(_examples()) >= 4


@pytest.mark.parametrize(("page", "number", "code"), _examples(), ids=lambda v: str(v)[:20])
def test_example_runs(page, number, code, capsys):
    exec(compile(code, f"{page}#example{number}", "exec"), {"__name__": "__docs__"})
