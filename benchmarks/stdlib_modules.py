"""The source-code corpus: 40 modules of the running interpreter's standard library.

Paths are relative to `sysconfig.get_paths()["stdlib"]`, chosen to be present as plain
files on every CPython from 3.10 on (modules that became packages, such as `pathlib`,
`zipfile` or `string`, are left out) and varied: parsers, protocols, data structures,
long classes with decorators and comment blocks, small functional modules.
"""

from __future__ import annotations

STDLIB_MODULES: tuple[str, ...] = (
    "abc.py",
    "argparse.py",
    "ast.py",
    "bisect.py",
    "calendar.py",
    "configparser.py",
    "contextlib.py",
    "csv.py",
    "dataclasses.py",
    "difflib.py",
    "email/message.py",
    "enum.py",
    "fractions.py",
    "ftplib.py",
    "functools.py",
    "gettext.py",
    "heapq.py",
    "http/client.py",
    "inspect.py",
    "ipaddress.py",
    "json/decoder.py",
    "logging/__init__.py",
    "pickle.py",
    "pprint.py",
    "queue.py",
    "random.py",
    "selectors.py",
    "shlex.py",
    "shutil.py",
    "smtplib.py",
    "statistics.py",
    "subprocess.py",
    "tarfile.py",
    "textwrap.py",
    "threading.py",
    "tokenize.py",
    "typing.py",
    "unittest/case.py",
    "urllib/parse.py",
    "uuid.py",
)
