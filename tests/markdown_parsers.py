"""The Markdown parsers a test runs with, each against its own reading (`markdown_parser`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from outline_splitter.nodes import Node
from outline_splitter.options import MARKDOWN_PARSERS
from outline_splitter.registry import load_detector, resolve_doc_type


def detector(parser: str) -> Callable[[str], Node]:
    """The Markdown detector of `parser`."""
    return load_detector(resolve_doc_type("markdown"), parser)


# `@EACH_PARSER` runs a test once per parser, its `parser` argument naming it.
EACH_PARSER = pytest.mark.parametrize("parser", MARKDOWN_PARSERS)
