"""The node kinds more than one format makes, and those the packer makes: one namespace.

A detector that makes many of them reads them as `kinds.SECTION`, `kinds.PARAGRAPH`
(beside its own kinds, which it defines next to its code); one that needs one or two
imports them by name. The packer reads none of them (it reads `Trait`s, `nodes.py`):
they name nodes in the outline and in chunk metadata, and `nodes.SHARED_TRAITS` gives
the traits of the shared ones that a format's own table starts from.
"""

from __future__ import annotations

# Node kinds the built-in detectors share.
DOCUMENT = "document"
SECTION = "section"
HEADING = "heading"
PARAGRAPH = "paragraph"
LIST = "list"
LIST_ITEM = "list_item"
CODE = "code"
TABLE = "table"
TABLE_ROW = "table_row"
BLOCKQUOTE = "blockquote"
HTML_BLOCK = "html_block"
THEMATIC_BREAK = "thematic_break"
FRONT_MATTER = "front_matter"
# A comment of source code or of a data file (YAML, JSON with comments).
COMMENT = "comment"
# The head of what follows it: HTML's <header>, a split definition's opening line.
HEADER = "header"

# Nodes the packer itself makes: text a detector left between children, and a
# separator with the siblings it groups.
GAP = "text"
GROUP = "group"
