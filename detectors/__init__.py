"""Pass one: one detector per format, each a pure function `text -> Node`.

Detectors know nothing of tokens or budgets; they only say where the structure of a
document is, with exact character offsets. `outline_splitter.registry` maps doc types
to them.
"""
