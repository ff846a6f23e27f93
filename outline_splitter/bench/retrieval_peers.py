"""The splitters the retrieval benchmark compares, each giving the character spans of its
chunks for one chunk size.

Retrieval scores depend on the chunks' size first, so each splitter runs at the three
chunk sizes (`SIZES`) that give it mean chunks near 100, 140 and 200 cl100k_base tokens
on Chroma's corpora; a splitter whose size is in characters (chunkr-rs) says so. Sizes
are in tokens of cl100k_base elsewhere, counted with the offline encoding. The spans of a
splitter that gives only texts are found in order (`retrieval_metrics.located`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from outline_splitter.bench.peers import Unavailable, _require
from outline_splitter.bench.retrieval_metrics import Span, located

if TYPE_CHECKING:
    import tiktoken

SpanChunker = Callable[[str], list[Span]]
# The report's RecursiveTokenChunker: LangChain's recursive splitter with sentence ends.
REPORT_SEPARATORS = ("\n\n", "\n", ".", "?", "!", " ", "")
# The overlap of the overlapping settings, as a share of the chunk size (chunkr-rs's
# default 120 of 1,000 characters).
OVERLAP_SHARE = 0.125


@dataclass(frozen=True)
class Contender:
    """A splitter setting under test: its name, the unit of its size, its chunk sizes
    (for mean chunks near 100, 140, 200 tokens) and how to build it for a size."""

    name: str
    sizes: tuple[int, ...]
    build: Callable[[int, str, tiktoken.Encoding], SpanChunker]
    unit: str = "tokens"


def _spans_of(split: Callable[[str], list[str]]) -> SpanChunker:
    return lambda text: [(place.start, place.end) for place in located(text, split(text), "")]


def _outline(overlap: bool) -> Callable[[int, str, tiktoken.Encoding], SpanChunker]:
    def build(size: int, doc_type: str, encoding: tiktoken.Encoding) -> SpanChunker:
        from outline_splitter import OutlineTextSplitter

        options: dict[str, Any] = {"doc_type": doc_type, "chunk_size": size, "tokenizer": encoding}
        if overlap:
            options["chunk_overlap"] = round(size * OVERLAP_SHARE)
        splitter = OutlineTextSplitter(**options)
        return lambda text: [
            (chunk.start_pos, chunk.end_pos) for chunk in splitter.split(text, overlap_in_text=overlap)
        ]

    return build


def _langchain_recursive(size: int, doc_type: str, encoding: tiktoken.Encoding) -> SpanChunker:
    splitters = _require("langchain_text_splitters", "langchain-text-splitters")
    splitter = splitters.RecursiveCharacterTextSplitter(
        chunk_size=size,
        chunk_overlap=0,
        separators=list(REPORT_SEPARATORS),
        length_function=lambda text: len(encoding.encode_ordinary(text)),
    )
    return _spans_of(splitter.split_text)


def _semantic_text(size: int, doc_type: str, encoding: tiktoken.Encoding) -> SpanChunker:
    sts = _require("semantic_text_splitter", "semantic-text-splitter")
    return _spans_of(sts.TextSplitter.from_tiktoken_model("gpt-4", size).chunks)


def _chonkie_recursive(size: int, doc_type: str, encoding: tiktoken.Encoding) -> SpanChunker:
    chonkie = _require("chonkie", "chonkie")
    chunker = chonkie.RecursiveChunker(tokenizer=encoding, chunk_size=size)
    return lambda text: [(chunk.start_index, chunk.end_index) for chunk in chunker.chunk(text)]


def _chunkr_recursive(size: int, doc_type: str, encoding: tiktoken.Encoding) -> SpanChunker:
    """chunkr-rs's recommended setting: sentence separators and an overlap of 12% (its
    defaults are 1,000 characters and 120)."""
    chunkr = _require("chunkr", "chunkr-rs")
    chunker = chunkr.RecursiveChunker(size, round(size * 0.12), chunkr.SENTENCE_SEPARATORS)
    return _spans_of(lambda text: [document.content for document in chunker.chunk(text)])


OUTLINE_TEXT = "outline-splitter"
CONTENDERS: tuple[Contender, ...] = (
    Contender(OUTLINE_TEXT, (140, 190, 260), _outline(overlap=False)),
    Contender(f"{OUTLINE_TEXT} overlap {OVERLAP_SHARE:.1%}", (130, 180, 245), _outline(overlap=True)),
    Contender("langchain RecursiveCharacter (report separators)", (145, 200, 290), _langchain_recursive),
    Contender("semantic-text-splitter TextSplitter", (130, 180, 255), _semantic_text),
    Contender("chonkie RecursiveChunker", (140, 195, 280), _chonkie_recursive),
    Contender("chunkr-rs RecursiveChunker overlap 12%", (540, 730, 1000), _chunkr_recursive, unit="characters"),
)


__all__ = ["CONTENDERS", "Contender", "SpanChunker", "Unavailable"]
