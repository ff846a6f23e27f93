"""What a JSON or YAML split promises beyond the invariants every split keeps
(`tests/invariants.py`), as checks `tests/test_data_formats.py` and the JSONTestSuite
run of `tests/conformance.py` share: a chunk's key path resolves in the parsed
document, and a value that fits the budget lies in one chunk (with its key, where the
two fit together)."""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from outline_splitter import TextChunk
from outline_splitter.nodes import Node
from outline_splitter.tokens.base import Tokenizer

_SEGMENT = re.compile(r'\.([^.\[]+)|\[(\d+)\]|\[(")')


def resolve(key_path: str, document: Any) -> Any:
    """The value at `key_path` in a parsed document; `KeyError` if it names none. A YAML
    key that is no string (`on:` reads as True in YAML 1.1) is found by its spelling."""
    assert key_path.startswith("$"), key_path
    at, value = 1, document
    while at < len(key_path):
        match = _SEGMENT.match(key_path, at)
        assert match is not None, f"not a key path: {key_path!r} at {at}"
        if match.group(2) is not None:
            value, at = value[int(match.group(2))], match.end()
            continue
        if match.group(1) is not None:
            name, at = match.group(1), match.end()
        else:
            name, end = json.JSONDecoder().raw_decode(key_path, match.start(3))
            assert key_path[end] == "]", key_path
            at = end + 1
        if name in value:
            value = value[name]
        else:
            value = next(v for k, v in value.items() if not isinstance(k, str) and yaml.safe_load(name) == k)
    return value


def held_by_one(chunks: list[TextChunk], start: int, end: int) -> bool:
    """Whether one chunk holds `[start, end)`."""
    return any(chunk.start_pos <= start and end <= chunk.end_pos for chunk in chunks)


def assert_values_kept(text: str, root: Node, chunks: list[TextChunk], chunk_size: int, tokenizer: Tokenizer) -> None:
    """Every node that fits (a value with the comma after it, a member, an item) lies in
    one chunk, and a member's key with its value where the two fit together: no value
    that fits is cut to keep its key company."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        spans = [(node.start, node.end)]
        if node.kind == "member" and len(node.children) > 1:
            spans.append((node.start, node.children[-1].end))
        for start, end in spans:
            part = text[start:end].strip()
            start += len(text[start:end]) - len(text[start:end].lstrip())
            if part and tokenizer.count(part) <= chunk_size:
                assert held_by_one(chunks, start, start + len(part)), f"cut at {chunk_size}: {part[:80]!r}"


_KEY_FIRST = re.compile(r'\s*("(?:[^"\\]|\\.)*")\s*:')


def assert_key_paths_hold(text: str, chunks: list[TextChunk]) -> None:
    """Each chunk's key path resolves in `json.loads(text)`, and a chunk that starts
    with a member's key names that member."""
    document = json.loads(text)
    for chunk in chunks:
        path = chunk.metadata["key_path"]
        resolve(path, document)
        first = _KEY_FIRST.match(chunk.text)
        if first is not None:
            key = json.loads(first.group(1))
            assert path.endswith(f".{key}") or path.endswith(f"[{json.dumps(key, ensure_ascii=False)}]"), (
                f"{path!r} does not name the member {chunk.text[:60]!r} starts with"
            )
