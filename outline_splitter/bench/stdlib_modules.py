"""The 40 standard-library modules that the code tests and benchmarks read.

One fixed, sorted list, so every test and benchmark reads the same code: a varied mix of
large modules (`argparse`, `typing`, `inspect`), class-heavy ones (`email/message`,
`xml/dom/minidom`), function-heavy ones (`heapq`, `shlex`) and some with non-ASCII
source (`fractions`, `statistics`, `urllib/parse`). Every name exists as a `.py` file
on CPython 3.10 and later (modules that became packages or were removed are left out).
Importing this module needs nothing but the standard library.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

STDLIB_MODULES: tuple[str, ...] = (
    "abc",
    "argparse",
    "ast",
    "asyncio/tasks",
    "base64",
    "bisect",
    "calendar",
    "collections/__init__",
    "configparser",
    "contextlib",
    "csv",
    "dataclasses",
    "difflib",
    "email/message",
    "enum",
    "fnmatch",
    "fractions",
    "functools",
    "heapq",
    "html/parser",
    "http/client",
    "inspect",
    "ipaddress",
    "json/decoder",
    "logging/__init__",
    "pprint",
    "sched",
    "shlex",
    "shutil",
    "statistics",
    "subprocess",
    "tarfile",
    "textwrap",
    "threading",
    "tokenize",
    "typing",
    "unittest/case",
    "urllib/parse",
    "uuid",
    "xml/dom/minidom",
)


def stdlib_module_paths() -> list[Path]:
    """The source files of `STDLIB_MODULES` in this interpreter's standard library."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return [root / f"{name}.py" for name in STDLIB_MODULES]
