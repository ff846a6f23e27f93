"""The one loader of `"module:attribute"` references: the registry's detectors, kinds and
hooks, third-party detectors' entry points and the code grammars' bindings are named so,
and imported only when first used (a format's dependencies cost nothing until then).
It imports nothing of the splitter, so a detector may use it and stay light."""

from __future__ import annotations

import importlib
from typing import Any


def load_reference(reference: str) -> Any:
    """The attribute a `"module:attribute"` reference names, its module imported."""
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)
