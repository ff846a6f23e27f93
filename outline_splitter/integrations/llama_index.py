"""LlamaIndex front end (the `llama-index` extra: `pip install 'outline-splitter[llama-index]'`).

`OutlineNodeParser` is a real `llama_index.core.node_parser.NodeParser`: it splits each
document with `OutlineTextSplitter` into `TextNode`s, as a LlamaIndex user expects
(`outline_splitter.integrations.framework`): node ids are the chunk ids, which hold the
document's id (`ref_doc_id`; `SimpleDirectoryReader(filename_as_id=True)` makes it the
file's, so ids are stable across runs), so a docstore keeps every node of every file;
`chunk_overlap` is part of the node text within `chunk_size`; `doc_type="auto"` reads each
document's format off its `file_path` / `file_name`; metadata is flat, and the embed and
LLM texts show the chunk's context once. `start_char_idx`/`end_char_idx` are the exact
offsets of the node text in the document (LlamaIndex's parsers find them with `str.find`,
which picks the first copy of repeated text). `SOURCE`, `PREVIOUS`/`NEXT` (between leaf
chunks) and, for `hierarchy=True` chunks, `PARENT`/`CHILD` relationships are set, which
is what LlamaIndex's `AutoMergingRetriever` follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, cast

try:
    from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, ValidationError
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import BaseNode, Document, NodeRelationship, RelatedNodeInfo, TextNode
except ImportError as exc:
    raise ImportError(
        "outline_splitter.integrations.llama_index needs LlamaIndex: pip install 'outline-splitter[llama-index]'"
    ) from exc

from outline_splitter.integrations.framework import FrameworkSplitter, OnError
from outline_splitter.models import TextChunk
from outline_splitter.options import OPTION_NAMES, SplitterKwargs, SplitterOptions, options_error
from outline_splitter.splitter import OutlineTextSplitter

#: Chunk metadata worth embedding and showing to the LLM: where the chunk is, once (the
#: context holds the heading path or symbol; the other keys are bookkeeping and noise).
CONTEXT_KEYS = frozenset({"context"})


class OutlineNodeParser(NodeParser, SplitterOptions):
    """Parse documents into `TextNode`s with `OutlineTextSplitter`.

    Its fields are `OutlineTextSplitter`'s options (it subclasses
    `outline_splitter.options.SplitterOptions`: `chunk_size` and `chunk_overlap` in tokens
    of `tokenizer`, ...) besides `NodeParser`'s own; `hierarchy=True` asks for parent
    chunks too, which become nodes with `CHILD` relationships to their parts. Bad
    options raise the same `ValueError`s as the splitter, naming them.
    """

    # NodeParser's own settings are mutable; the options are checked once, when it is built
    model_config = ConfigDict(frozen=False, extra="forbid", arbitrary_types_allowed=True)

    nested_metadata: bool = Field(default=False, description="Chunk metadata as TextChunk has it, not flat.")
    on_error: OnError = Field(default="raise", description="skip: leave out (and log) a document that cannot be split.")

    _framework: FrameworkSplitter = PrivateAttr()

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise options_error(exc) from None

    def model_post_init(self, context: Any, /) -> None:
        """Build the splitter once from the options."""
        options = cast("SplitterKwargs", {name: getattr(self, name) for name in OPTION_NAMES})
        self._framework = FrameworkSplitter(options, self.nested_metadata, self.on_error)

    @property
    def _splitter(self) -> OutlineTextSplitter:
        return self._framework.splitter

    @property
    def failures(self) -> list[tuple[str, str]]:
        """The documents skipped with `on_error="skip"`: (file or id, error message)."""
        return self._framework.failures

    @classmethod
    def class_name(cls) -> str:
        return "OutlineNodeParser"

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        parsed: list[BaseNode] = []
        for node in nodes:
            text = node.get_content()
            chunks = self._framework.chunks(text, node.metadata, node.ref_doc_id or node.node_id)
            parsed.extend(chunks_to_nodes(chunks, node, self.include_metadata))
        return parsed

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]) -> list[BaseNode]:
        # LlamaIndex's version re-finds offsets with str.find and links every node in
        # order, parents too; chunks_to_nodes has set both exactly already.
        return nodes


def chunks_to_nodes(chunks: Sequence[TextChunk], source: BaseNode, include_metadata: bool = True) -> list[TextNode]:
    """`TextNode`s of one document's chunks: ids, offsets and metadata from the chunks,
    `SOURCE` to `source`, `PREVIOUS`/`NEXT` between consecutive leaf chunks, and
    `PARENT`/`CHILD` from the `hierarchy=True` keys (`role`, `parent_id`, `subsections`)."""
    nodes = [_node(chunk, source, include_metadata) for chunk in chunks]
    leaves = [node for node, chunk in zip(nodes, chunks, strict=True) if chunk.metadata.get("role") != "parent"]
    for before, after in pairwise(leaves):
        before.relationships[NodeRelationship.NEXT] = after.as_related_node_info()
        after.relationships[NodeRelationship.PREVIOUS] = before.as_related_node_info()
    for parent, children in _children(chunks, nodes):
        parent.relationships[NodeRelationship.CHILD] = [child.as_related_node_info() for child in children]
        for child in children:
            child.relationships[NodeRelationship.PARENT] = parent.as_related_node_info()
    return nodes


def _node(chunk: TextChunk, source: BaseNode, include_metadata: bool) -> TextNode:
    chunk_metadata = {**chunk.metadata, "token_count": chunk.token_count}
    metadata = {**source.metadata, **chunk_metadata} if include_metadata else chunk_metadata
    bookkeeping = sorted(key for key in chunk_metadata if key not in CONTEXT_KEYS)
    return TextNode(
        id_=chunk.metadata["id"],
        text=chunk.text,
        start_char_idx=chunk.start_pos,
        end_char_idx=chunk.end_pos,
        metadata=metadata,
        excluded_embed_metadata_keys=sorted({*source.excluded_embed_metadata_keys, *bookkeeping}),
        excluded_llm_metadata_keys=sorted({*source.excluded_llm_metadata_keys, *bookkeeping}),
        relationships={NodeRelationship.SOURCE: _source_info(source)},
    )


def _source_info(source: BaseNode) -> RelatedNodeInfo:
    # a node parsed out of another node points at that node's own source document
    return source.source_node or source.as_related_node_info()


def _children(chunks: Sequence[TextChunk], nodes: Sequence[TextNode]) -> list[tuple[TextNode, list[TextNode]]]:
    """Each parent node's children, in order: the chunks whose `parent_id` names it, and
    those its `subsections` name. An id names a parent by its chunk id or, for a child
    section, by its `section_id` (the section's first parent chunk)."""
    parents: dict[str, TextNode] = {}
    for chunk, node in zip(chunks, nodes, strict=True):
        if chunk.metadata.get("role") == "parent":
            parents.setdefault(chunk.metadata["id"], node)
            if chunk.metadata.get("section_id") is not None:
                parents.setdefault(chunk.metadata["section_id"], node)
    by_id = {chunk.metadata["id"]: node for chunk, node in zip(chunks, nodes, strict=True)}
    # keyed by node id (nodes are not hashable); the inner dicts keep order, once each
    children: dict[str, dict[str, TextNode]] = {}
    for chunk, node in zip(chunks, nodes, strict=True):
        parent = parents.get(chunk.metadata.get("parent_id") or "")
        if parent is not None and parent is not node:
            children.setdefault(parent.node_id, {})[node.node_id] = node
    for chunk, node in zip(chunks, nodes, strict=True):
        for name in chunk.metadata.get("subsections", ()):
            child = parents.get(name) or by_id.get(name)
            if child is not None and child is not node:
                children.setdefault(node.node_id, {})[child.node_id] = child
    return [(by_id[parent], list(found.values())) for parent, found in children.items()]
