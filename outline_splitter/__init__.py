"""outline-splitter: cut documents into token-budgeted chunks along their structure.

from outline_splitter import OutlineTextSplitter
chunks = OutlineTextSplitter(doc_type="markdown", chunk_size=512).split(text)
"""

from outline_splitter.models import OutlineNode, TextChunk
from outline_splitter.nodes import Node
from outline_splitter.registry import doc_types
from outline_splitter.splitter import OutlineTextSplitter
from outline_splitter.tokens import FastTokenizer, Tokenizer

__all__ = ["FastTokenizer", "Node", "OutlineNode", "OutlineTextSplitter", "TextChunk", "Tokenizer", "doc_types"]
__version__ = "0.1.0"
