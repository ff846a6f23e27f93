"""The splitters compared, each behind a small adapter: `text -> list of chunk texts`.

Every adapter is built for one budget (tokens of cl100k_base) and one doc type, with no
overlap. Adapters that cannot run here raise `Unavailable` with the reason, which the
harness prints. All count cl100k_base tokens: the Python peers get the offline
`tiktoken.Encoding` (or its `encode`); semantic-text-splitter gets its own built-in
cl100k_base tables (`from_tiktoken_model("gpt-4")`, compiled into the wheel), the way its
users call it. Peers that only take a character budget get 4 characters per token, and
say so in their name. A library's generic splitter is left out where its specialised one
runs (semantic-text-splitter and LlamaIndex on Markdown and code); chonkie's
`RecursiveChunker` runs everywhere, since its `CodeChunker` fetches grammars at run time.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from outline_splitter.registry import doc_types

if TYPE_CHECKING:
    import tiktoken

Chunker = Callable[[str], list[str]]
CHARS_PER_TOKEN = 4
OUTLINE = "outline-splitter"

# The doc types the harness knows structure for; a user's folder of another type runs
# the generic peers only.
LANGUAGES = {"markdown": "MARKDOWN", "html": "HTML", "python": "PYTHON"}


# What installs the splitters compared and the ground truth's parsers (the `bench` extra).
BENCH_INSTALL = "pip install 'outline-splitter[bench]'"


class Unavailable(Exception):
    """A splitter cannot run here (not installed, needs the network, no such doc type)."""


@dataclass(frozen=True)
class Peer:
    """A splitter under test: its display name, the doc types it applies to (`None`: any),
    how to build its chunker for a budget and a doc type, and the doc types where a
    specialised splitter of the same library runs instead (`instead_of`); `emits_text`
    when its chunks are readable text rather than slices of markup."""

    name: str
    doc_types: frozenset[str] | None
    build: Callable[[int, str, tiktoken.Encoding], Chunker]
    instead_of: frozenset[str] = frozenset()
    emits_text: bool = False

    def applies_to(self, doc_type: str) -> bool:
        return (self.doc_types is None or doc_type in self.doc_types) and doc_type not in self.instead_of


def _require(module: str, package: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise Unavailable(f"{package} is not installed ({exc}); {BENCH_INSTALL} installs it") from exc


# -- outline-splitter ---------------------------------------------------------------


def _outline(budget: int, doc_type: str, encoding: tiktoken.Encoding, markdown_parser: str = "markdown-it") -> Chunker:
    if doc_type not in doc_types():
        raise Unavailable("doc type not available")
    from outline_splitter import OutlineTextSplitter

    splitter = OutlineTextSplitter(
        doc_type=doc_type, chunk_size=budget, tokenizer=encoding, markdown_parser=markdown_parser
    )
    return lambda text: [chunk.text for chunk in splitter.split(text)]


def _outline_pulldown(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    """Markdown read by pulldown-cmark (`markdown_parser`, the `markdown-fast` extra)."""
    _require("pyromark", "pyromark (the markdown-fast extra)")
    return _outline(budget, doc_type, encoding, markdown_parser="pulldown-cmark")


def _outline_text(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    """HTML's text mode: chunks of readable text, sized in tokens of that text."""
    if doc_type not in doc_types():
        raise Unavailable("doc type not available")
    from outline_splitter import OutlineTextSplitter

    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, tokenizer=encoding, output="text")
    return lambda text: [chunk.text for chunk in splitter.split(text)]


# -- LangChain ----------------------------------------------------------------------


def _langchain_recursive(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    splitters = _require("langchain_text_splitters", "langchain-text-splitters")
    splitter = splitters.RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=encoding.name, chunk_size=budget, chunk_overlap=0
    )
    return splitter.split_text  # type: ignore[no-any-return]


def _langchain_language(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    """`from_language`'s separators, sized with `from_tiktoken_encoder` (what
    `from_language` does, with tiktoken lengths instead of characters)."""
    splitters = _require("langchain_text_splitters", "langchain-text-splitters")
    cls = splitters.RecursiveCharacterTextSplitter
    language = getattr(splitters.Language, LANGUAGES[doc_type])
    splitter = cls.from_tiktoken_encoder(
        encoding_name=encoding.name,
        chunk_size=budget,
        chunk_overlap=0,
        separators=cls.get_separators_for_language(language),
        is_separator_regex=True,
    )
    return splitter.split_text  # type: ignore[no-any-return]


def _langchain_html_semantic(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    splitters = _require("langchain_text_splitters", "langchain-text-splitters")
    _require("bs4", "beautifulsoup4")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "in beta"
        splitter = splitters.HTMLSemanticPreservingSplitter(
            headers_to_split_on=[("h1", "h1"), ("h2", "h2"), ("h3", "h3")],
            max_chunk_size=budget * CHARS_PER_TOKEN,
            chunk_overlap=0,
            elements_to_preserve=["table", "ul", "ol", "pre"],
        )
    return lambda text: [document.page_content for document in splitter.split_text(text)]


# -- semantic-text-splitter ---------------------------------------------------------


def _semantic_text(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    sts = _require("semantic_text_splitter", "semantic-text-splitter")
    return sts.TextSplitter.from_tiktoken_model("gpt-4", budget).chunks  # type: ignore[no-any-return]


def _semantic_markdown(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    sts = _require("semantic_text_splitter", "semantic-text-splitter")
    return sts.MarkdownSplitter.from_tiktoken_model("gpt-4", budget).chunks  # type: ignore[no-any-return]


def _semantic_code(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    sts = _require("semantic_text_splitter", "semantic-text-splitter")
    grammar = _require("tree_sitter_python", "tree-sitter-python")
    return sts.CodeSplitter.from_tiktoken_model(grammar.language(), "gpt-4", budget).chunks  # type: ignore[no-any-return]


# -- chonkie ------------------------------------------------------------------------


def _chonkie_recursive(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    chonkie = _require("chonkie", "chonkie")
    chunker = chonkie.RecursiveChunker(tokenizer=encoding, chunk_size=budget)
    return lambda text: [chunk.text for chunk in chunker.chunk(text)]


def _chonkie_code(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    chonkie = _require("chonkie", "chonkie")
    try:
        chunker = chonkie.CodeChunker(tokenizer=encoding, chunk_size=budget, language=doc_type)
    except ImportError as exc:  # tree-sitter-language-pack 0.x, the one that ships its grammars
        reason = "CodeChunker needs tree-sitter-language-pack 1.x, which downloads grammars at run time"
        raise Unavailable(reason) from exc
    except Exception as exc:  # 1.x, trying to download
        raise Unavailable(f"CodeChunker cannot load its grammar offline ({_first_line(exc)})") from exc
    return lambda text: [chunk.text for chunk in chunker.chunk(text)]


# -- LlamaIndex ---------------------------------------------------------------------


def _llama_sentence(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    parsers = _require("llama_index.core.node_parser", "llama-index-core")
    splitter = parsers.SentenceSplitter(chunk_size=budget, chunk_overlap=0, tokenizer=encoding.encode_ordinary)
    return splitter.split_text  # type: ignore[no-any-return]


def _llama_markdown(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    """MarkdownNodeParser cuts at headings only, with no budget; LlamaIndex's pipelines
    follow it with a SentenceSplitter, and so does this adapter."""
    parsers = _require("llama_index.core.node_parser", "llama-index-core")
    schema = _require("llama_index.core.schema", "llama-index-core")
    by_heading = parsers.MarkdownNodeParser()
    by_size = parsers.SentenceSplitter(chunk_size=budget, chunk_overlap=0, tokenizer=encoding.encode_ordinary)

    def split(text: str) -> list[str]:
        sections = by_heading.get_nodes_from_documents([schema.Document(text=text)])
        return [piece for section in sections for piece in by_size.split_text(section.get_content())]

    return split


def _llama_code(budget: int, doc_type: str, encoding: tiktoken.Encoding) -> Chunker:
    parsers = _require("llama_index.core.node_parser", "llama-index-core")
    try:
        # chunk_lines_overlap must be > 0 but is not used when counting tokens; the parser is
        # the one of the grammar wheel this project uses (else it asks tree-sitter-language-pack)
        splitter = parsers.CodeSplitter(
            language=doc_type,
            count_mode="token",
            max_tokens=budget,
            tokenizer=encoding.encode_ordinary,
            chunk_lines_overlap=1,
            parser=_python_parser() if doc_type == "python" else None,
        )
    except Exception as exc:  # tree-sitter-language-pack 1.x fetches grammars at run time
        raise Unavailable(f"CodeSplitter cannot load its grammar offline ({_first_line(exc)})") from exc
    return splitter.split_text  # type: ignore[no-any-return]


def _python_parser() -> Any:
    import tree_sitter
    import tree_sitter_python

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:160]


_CODE = frozenset({"python"})
PEERS: tuple[Peer, ...] = (
    Peer(OUTLINE, None, _outline),
    Peer(f"{OUTLINE} text output", frozenset({"html"}), _outline_text, emits_text=True),
    Peer(f"{OUTLINE} pulldown-cmark", frozenset({"markdown"}), _outline_pulldown),
    Peer("langchain RecursiveCharacter tiktoken", None, _langchain_recursive),
    Peer("langchain RecursiveCharacter from_language", frozenset(LANGUAGES), _langchain_language),
    Peer(
        f"langchain HTMLSemanticPreserving ({CHARS_PER_TOKEN} chars/token)",
        frozenset({"html"}),
        _langchain_html_semantic,
    ),
    Peer("semantic-text-splitter TextSplitter", None, _semantic_text, frozenset({"markdown", *_CODE})),
    Peer("semantic-text-splitter MarkdownSplitter", frozenset({"markdown"}), _semantic_markdown),
    Peer("semantic-text-splitter CodeSplitter", _CODE, _semantic_code),
    Peer("chonkie RecursiveChunker", None, _chonkie_recursive),
    Peer("chonkie CodeChunker", _CODE, _chonkie_code),
    Peer("llamaindex SentenceSplitter", None, _llama_sentence, frozenset({"markdown", *_CODE})),
    Peer("llamaindex MarkdownNodeParser+SentenceSplitter", frozenset({"markdown"}), _llama_markdown),
    Peer("llamaindex CodeSplitter", _CODE, _llama_code),
)


def quiet_peers() -> None:
    """Silence the peers' per-chunk warnings ("Created a chunk of size ...")."""
    for name in ("langchain_text_splitters", "langchain", "llama_index", "chonkie", "httpx"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", module="langchain_text_splitters")
    warnings.filterwarnings("ignore", module="chonkie")
