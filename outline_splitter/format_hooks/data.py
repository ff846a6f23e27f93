"""What JSON and YAML add to the splitter beyond their detectors: a view of the source
that knows their punctuation (see `FormatHooks`).

A chunk that holds only the brackets and commas that close a broken value (`},`) shows
nothing, as a closing tag shows nothing in HTML: the view says which side it belongs to
(`blank_side`), so the packer plans no cut before closing punctuation where it can help it,
and such a chunk joins a neighbour where the budget allows instead of standing alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from outline_splitter.nodes import Node
from outline_splitter.packing.view import ChunkView, SourceView
from outline_splitter.registry import FormatHooks
from outline_splitter.tokens.base import SpanCounter

# A span of punctuation alone: what closes (`}`, `]`, `,`) and what opens (`{`, `[`).
_PUNCTUATION = re.compile(r"[\s{}\[\],]*")
_OPENERS = re.compile(r"[{\[]")


class DataView(SourceView):
    """Slices of the source, as `SourceView`, whose `blank_side` knows JSON's and YAML's
    flow punctuation: -1 for a span that only closes, 1 for one that opens."""

    def blank_side(self, start: int, end: int) -> int:
        if _PUNCTUATION.fullmatch(self.source, start, end) is None:
            return 0
        return 1 if _OPENERS.search(self.source, start, end) else -1


def data_view(text: str, root: Node, counter_for: Callable[[str], SpanCounter], output: str) -> ChunkView:
    """The packer's view of a JSON or YAML document (`FormatHooks.view`)."""
    return DataView(text, counter_for(text))


DATA_HOOKS = FormatHooks(view=data_view)
