"""outline-splitter: cut documents into token-budgeted chunks along their structure.

from outline_splitter import OutlineTextSplitter
chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=512).split(text)

The public names are loaded on first use: a detector that imports
`outline_splitter.nodes` (or `outline_splitter.detectors.*`) loads neither the splitter
nor pydantic nor tiktoken.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from outline_splitter.batch import SplitError, SplitResult, split_many
    from outline_splitter.documents import Document
    from outline_splitter.hierarchy import section_chunks
    from outline_splitter.html_text_splitter import HTMLTextSplitter
    from outline_splitter.models import OutlineNode, TextChunk
    from outline_splitter.nodes import Node
    from outline_splitter.reconstruct import reconstruct
    from outline_splitter.registry import doc_types
    from outline_splitter.splitter import OutlineTextSplitter
    from outline_splitter.tokens import FastTokenizer, Tokenizer

# public name -> the module that defines it
_PUBLIC: dict[str, str] = {
    "Document": "outline_splitter.documents",
    "FastTokenizer": "outline_splitter.tokens",
    "HTMLTextSplitter": "outline_splitter.html_text_splitter",
    "Node": "outline_splitter.nodes",
    "OutlineNode": "outline_splitter.models",
    "OutlineTextSplitter": "outline_splitter.splitter",
    "SplitError": "outline_splitter.batch",
    "SplitResult": "outline_splitter.batch",
    "TextChunk": "outline_splitter.models",
    "Tokenizer": "outline_splitter.tokens",
    "doc_types": "outline_splitter.registry",
    "reconstruct": "outline_splitter.reconstruct",
    "section_chunks": "outline_splitter.hierarchy",
    "split_many": "outline_splitter.batch",
}

__all__ = [
    "Document",
    "FastTokenizer",
    "HTMLTextSplitter",
    "Node",
    "OutlineNode",
    "OutlineTextSplitter",
    "SplitError",
    "SplitResult",
    "TextChunk",
    "Tokenizer",
    "doc_types",
    "reconstruct",
    "section_chunks",
    "split_many",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'outline_splitter' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])
