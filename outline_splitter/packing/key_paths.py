"""A chunk's key path (structured data), spelled in bounded length.

A chunk's `key_path` joins the JSONPath segments of the members and items it lies in,
and the document's depth is the input's to choose: `[[[...]]]` 400,000 deep has chunks
whose paths have 400,000 segments, and a string per chunk spelling the whole path costs
memory quadratic in the depth however it is built. A path of more than `HEAD + TAIL`
segments keeps its first `HEAD` and its last `TAIL` and elides the middle with JSONPath's
descendant segment `..` (RFC 9535): `$[0][0]..[0][0]` still selects the value (among
others), and names both where in the document it is and what it is.

A `KeyPath` is persistent: adding a segment makes a new path that shares the old one,
so the paths of every chunk together cost memory linear in the outline, not a copy of
the whole path per chunk.
"""

from __future__ import annotations

HEAD = 16  # the segments kept from the start of a path that is elided
TAIL = 16  # the segments kept from its end
ELIDED = ".."  # JSONPath's descendant segment: any depth between


class KeyPath:
    """The segments of a key path: the first `HEAD` in a tuple, the rest as a chain of
    links (`last`, `before`), innermost first, `length` in all."""

    __slots__ = ("before", "head", "last", "length")

    def __init__(self, head: tuple[str, ...] = (), last: str = "", before: KeyPath | None = None) -> None:
        self.head = head
        self.last = last  # the innermost segment past the head ("" while the head has room)
        self.before = before  # the path without `last`
        self.length: int = len(head) if before is None else before.length + 1

    def plus(self, segment: str) -> KeyPath:
        """This path with `segment` added at its end."""
        if self.before is None and len(self.head) < HEAD:
            return KeyPath((*self.head, segment))
        return KeyPath(self.head, segment, self)

    def tail(self, count: int) -> list[str]:
        """The last `count` segments past the head (fewer if there are fewer), in order."""
        out: list[str] = []
        path: KeyPath | None = self
        while path is not None and path.before is not None and len(out) < count:
            out.append(path.last)
            path = path.before
        return out[::-1]

    def spelled(self) -> str:
        """The path as `metadata["key_path"]` gives it: whole up to `HEAD + TAIL`
        segments, the middle elided past that."""
        rest = self.length - len(self.head)
        if rest <= TAIL:
            return "".join((*self.head, *self.tail(rest)))
        tail = self.tail(TAIL)
        first = tail[0][1:] if tail[0].startswith(".") else tail[0]  # `..name`, `..[3]`
        return "".join((*self.head, ELIDED, first, *tail[1:]))


EMPTY = KeyPath()
