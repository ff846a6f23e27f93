"""What tiktoken is given in place of a string it cannot encode."""

from __future__ import annotations


def sanitize(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD, keeping every offset.

    tiktoken cannot encode surrogates; its own fallback re-decodes through UTF-16,
    which joins a surrogate pair into one character and so shifts offsets.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text
