"""The string a tokenizer really encodes, for a string UTF-8 cannot encode.

A Python string may hold surrogates (a UTF-16 round trip or a JSON `"\\ud83d\\ude00"`
escape decoded one half at a time leaves them behind), and UTF-8 has no bytes for them.
tiktoken's own `encode` then re-decodes the string through UTF-16 with `surrogatepass`:
a surrogate pair becomes the one astral character it stands for, a lone surrogate
U+FFFD. That is the one definition of "the tokens of a string" here, for every tokenizer:
what tiktoken returns for the string, and, for a Hugging Face tokenizer (which refuses
such a string outright), the tokens of the same repaired string.
"""

from __future__ import annotations


def as_encoded(text: str) -> str:
    """`text` as tiktoken encodes it: itself, or, where it holds a surrogate, the
    string its UTF-16 round trip gives (pairs joined, lone surrogates U+FFFD)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
