"""Which parts of a web page the chunks keep: `content="all"` (everything, the default)
or `"main"`, the page's main content as reader modes find it, plus the user's `include`
and `exclude` CSS selectors.

The choice is made on the outline (block elements with exact offsets) and marked with
traits, so every chunk is still a span of the source: what is left out is `OMITTED` (no
chunk holds it or spans across it), a kept node that holds a left-out one is `HOLLOW`
(always broken into its children).

`"main"` keeps, in this order of preference, the one `<main>` or `[role=main]`
element, or the `<article>` that holds most of the page's prose; where the page has
none (or the one it has holds little of the prose), a scoring pass picks the element
whose paragraphs weigh most: each paragraph-like leaf of 25 characters or more scores
1, plus 1 per comma, plus 1 per 100 characters (at most 3), given to its parent in
full, its grandparent by half and the three elements above by a third of their
distance; class and id hints (`article`, `content`, ... for, `comment`, `sidebar`, ...
against) add or take 25, and each score is scaled by the element's share of text that
is not link text. Siblings of the winner that score nearly as well, or are prose
paragraphs, are kept with it. Inside what is kept, `nav`, `aside`, `dialog`, elements
with the roles navigation, banner, contentinfo, complementary, search or dialog,
`[hidden]`, `[aria-hidden=true]`, `display:none` or `visibility:hidden` styles go, and
so do forms and cookie, consent, share, social and newsletter widgets (by class or id)
that hold little of the prose. Chrome is also known by its structure, whatever its words:
an element whose readable text is all buttons' labels (a player's "Play Video" and
"Fullscreen", a bar of share buttons), a button between the blocks of an element (made a
node of its own to be left out), a video or audio player with no prose and no
caption (its text is its controls'), and elements with the role of a control (`button`,
`toolbar`, `tooltip`, `slider`, `progressbar`, `menubar`, `timer`) that hold little of
the prose. `include` selectors choose the kept elements instead;
`exclude` selectors drop elements in either mode.

Only block elements are nodes, so an inline element (a hidden `span`) stays with the
paragraph around it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import attrgetter

from outline_splitter.detectors.html_text import ExtractedText
from outline_splitter.nodes import Node, Trait

# A selector matcher: the numbers (in document order) of the element nodes matching
# selectors, with the argument name for the error message.
Matcher = Callable[[Sequence[str], str], set[int]]

_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_START_TAG = re.compile(r"""<[^\s/>]+((?:[^>"']|"[^"]*"|'[^']*')*)>""")
_LINK_START = re.compile(r"<a[\s>]", re.IGNORECASE)
_LINK_END = re.compile(r"</a[\s>]", re.IGNORECASE)
_BUTTON_START = re.compile(r"<button[\s>]", re.IGNORECASE)
_BUTTON_END = re.compile(r"</button[\s>]", re.IGNORECASE)
_BUTTON = "button"
_START = attrgetter("start")
_MEDIA = re.compile(r"<(?:video|audio)[\s/>]", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_FOR = re.compile(r"article|body|content|entry|main|post|story|text|blog", re.IGNORECASE)
_AGAINST = re.compile(
    r"comment|sidebar|footer|masthead|related|share|social|sponsor|promo|advert|banner|breadcrumb|"
    r"menu|nav|widget|cookie|consent|gdpr|newsletter|subscribe|popup|modal|toolbar|tags|pagination|pager",
    re.IGNORECASE,
)
# widgets dropped from inside the content when they hold little of its prose
_WIDGET = re.compile(
    r"cookie|consent|gdpr|share|sharing|social|newsletter|subscribe|signup|promo|advert|sponsor|related|"
    r"comment|byline-tools|toolbar|popup|modal",
    re.IGNORECASE,
)
_DROPPED_TAGS = frozenset({"nav", "aside", "dialog", "form", "select", "button"})
_DROPPED_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "menu"})
# the roles of controls: a player's buttons and sliders, a toolbar of share buttons
_CONTROL_ROLES = frozenset({"button", "toolbar", "tooltip", "slider", "progressbar", "menubar", "timer"})
_CAPTIONS = frozenset({"figcaption", "caption"})
_PROSE_TAGS = frozenset({"p", "pre", "td", "div", "blockquote", "dd", "section", "article", "li"})
_TAG_WEIGHT = {"div": 5, "article": 5, "main": 5, "pre": 3, "td": 3, "blockquote": 3, "form": -3, "ol": -3, "ul": -3}
_MIN_PROSE = 25  # characters: a shorter leaf is a label, not a paragraph


class _Element:
    """An element node of the outline with what the selection reads of it."""

    __slots__ = ("node", "parent", "tag", "attributes", "length", "links", "controls", "player", "score", "inner")

    def __init__(self, node: Node, parent: _Element | None, attributes: dict[str, str]) -> None:
        self.node = node
        self.parent = parent
        self.tag: str = node.meta["tag"]
        self.attributes = attributes
        self.length = 0  # readable characters
        self.links = 0  # readable characters inside links
        self.controls = False  # all its readable text is buttons' labels
        self.player = False  # it holds a video or audio element and no caption
        self.score = 0.0  # the paragraph scores given to it, decayed by distance
        self.inner = 0.0  # the paragraph scores inside it, not decayed

    def hints(self) -> str:
        return f"{self.attributes.get('class', '')} {self.attributes.get('id', '')}"

    def link_density(self) -> float:
        return self.links / self.length if self.length else 0.0


def select_content(
    text: str,
    root: Node,
    rendered: ExtractedText,
    content: str,
    include: Sequence[str],
    exclude: Sequence[str],
    matcher: Callable[[list[Node]], Matcher],
) -> None:
    """Mark what `content`, `include` and `exclude` leave out of the chunks of `text`
    (see the module docstring). `matcher(elements)` gives the function that runs CSS
    selectors over the element nodes."""
    if content == "all" and not include and not exclude:
        return
    elements = _elements(text, root)
    if content == "main":
        _measure(text, rendered, elements)
    match = matcher([element.node for element in elements]) if include or exclude else None
    if match is not None and include:
        kept = {id(elements[i].node) for i in match(include, "include")}
    elif content == "main":
        kept = {id(element.node) for element in _main(elements)} or {id(root)}
    else:
        kept = {id(root)}
    dropped = {id(elements[i].node) for i in match(exclude, "exclude")} if match is not None and exclude else set()
    if content == "main":
        dropped |= _boilerplate(elements, kept) | {id(button) for button in _loose_buttons(text, root)}
    _mark(root, kept, dropped)


def _loose_buttons(text: str, root: Node) -> list[Node]:
    """A node for each `button` element that lies between the children of a node (a
    "More" button after a slideshow's captions), made a child of that node: inline, it
    is no node of the outline, and its label would be text of the node around it. A
    button inside a leaf (a paragraph) stays part of it."""
    made: list[Node] = []
    for opening in _BUTTON_START.finditer(text):
        closing = _BUTTON_END.search(text, opening.end())
        if closing is None:
            break
        start, end = opening.start(), text.find(">", closing.end() - 1) + 1 or len(text)
        node, in_gap = root, False
        while node.children:
            i = bisect_left(node.children, end, key=_START)  # the children before its end
            inside = node.children[i - 1] if i else None
            if inside is None or inside.end <= start:
                in_gap = True  # in the gap before child i
                break
            if not (inside.start <= start and end <= inside.end):
                break  # it crosses a child's edge: no gap holds it
            node = inside
        if in_gap:
            button = Node(_BUTTON, start, end, None, {"tag": _BUTTON})
            node.children.insert(i, button)
            made.append(button)
    return made


def _elements(text: str, root: Node) -> list[_Element]:
    """The element nodes of the outline, in document order, with their parents."""
    elements: list[_Element] = []
    stack: list[tuple[Node, _Element | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if "tag" in node.meta:
            parent = _Element(node, parent, _attributes(text, node.start))
            elements.append(parent)
        stack.extend((child, parent) for child in reversed(node.children))
    return elements


def _attributes(text: str, start: int) -> dict[str, str]:
    tag = _START_TAG.match(text, start)
    if tag is None:
        return {}
    attributes: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(tag.group(1)):
        name, *values = match.groups()
        attributes.setdefault(name.lower(), next((v for v in values if v is not None), ""))
    return attributes


def _measure(text: str, rendered: ExtractedText, elements: list[_Element]) -> None:
    """Each element's readable length, link and button lengths, whether it is a media
    player, and the paragraph scores."""
    starts = rendered.starts
    links = _ReadableIn(text, rendered, _LINK_START, _LINK_END)
    buttons = _ReadableIn(text, rendered, _BUTTON_START, _BUTTON_END)
    media = [match.start() for match in _MEDIA.finditer(text)]
    for element in elements:
        node = element.node
        lo, hi = bisect_left(starts, node.start), bisect_left(starts, node.end)
        element.length = hi - lo
        element.links = min(links.between(lo, hi), element.length)
        element.controls = buttons.holds_all(rendered.text, lo, hi)
        element.player = bisect_left(media, node.start) < bisect_left(media, node.end)
        if not node.children and element.tag in _PROSE_TAGS and element.length >= _MIN_PROSE:
            words = rendered.text[lo:hi]
            _give(element, 1 + words.count(",") + min(element.length // 100, 3))
        if element.tag in _CAPTIONS:  # a captioned video is a figure, not a bare player
            _uncaptioned(element)


def _uncaptioned(caption: _Element) -> None:
    ancestor = caption.parent
    while ancestor is not None:
        ancestor.player = False
        ancestor = ancestor.parent


class _ReadableIn:
    """The readable text inside the elements of one inline tag (links, buttons), as
    spans of the rendering in order, with their running total length."""

    def __init__(self, text: str, rendered: ExtractedText, opening: re.Pattern[str], closing: re.Pattern[str]) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.totals = [0]
        starts = rendered.starts
        last_end = 0
        for start_tag in opening.finditer(text):
            end_tag = closing.search(text, start_tag.end())
            end = end_tag.start() if end_tag is not None else len(text)
            lo, hi = bisect_left(starts, start_tag.end()), bisect_left(starts, end)
            if hi > lo and lo >= last_end:
                self.starts.append(lo)
                self.ends.append(hi)
                self.totals.append(self.totals[-1] + hi - lo)
                last_end = hi

    def between(self, lo: int, hi: int) -> int:
        """The readable characters inside the tag among those of the rendering's `[lo, hi)`."""
        first, last = bisect_left(self.starts, lo), bisect_left(self.starts, hi)
        return self.totals[last] - self.totals[first]

    def holds_all(self, rendering: str, lo: int, hi: int) -> bool:
        """Whether every character of the rendering's `[lo, hi)` but white space is
        inside the tag (two buttons with a space between them)."""
        first, last = bisect_left(self.starts, lo), bisect_left(self.starts, hi)
        if first == last:
            return False
        cursor = lo
        for start, end in zip(self.starts[first:last], self.ends[first:last]):
            if rendering[cursor:start].strip():
                return False
            cursor = end
        return not rendering[cursor:hi].strip()


def _give(element: _Element, score: float) -> None:
    """A paragraph's score, to the elements above it (see the module docstring)."""
    ancestor = element.parent
    level = 0
    while ancestor is not None:
        if level < 5:
            ancestor.score += score / (1 if level == 0 else 2 if level == 1 else level * 3)
        ancestor.inner += score
        ancestor = ancestor.parent
        level += 1


def _weight(element: _Element) -> float:
    hints = element.hints()
    weight = float(_TAG_WEIGHT.get(element.tag, 0))
    if _FOR.search(hints):
        weight += 25
    if _AGAINST.search(hints):
        weight -= 25
    return weight


def _main(elements: list[_Element]) -> list[_Element]:
    """The elements that hold the page's main content; none where no element holds a
    paragraph (a page of inline markup or bare text): then the whole page is kept."""
    if not elements:
        return []
    total = elements[0].inner or 1.0
    semantic = _semantic(elements)
    if semantic is not None and semantic.inner >= 0.3 * total:
        return [semantic]
    scored = [element for element in elements if element.score > 0]
    if not scored:
        return []
    final = {id(e): (e.score + _weight(e)) * (1 - e.link_density()) for e in scored}
    ranked = sorted(scored, key=lambda e: -final[id(e)])
    top = _climb(ranked[0], ranked[1:5], final)
    if top.parent is None:
        return [top]
    threshold = max(10.0, 0.2 * final.get(id(top), 0.0))
    kept = []
    for sibling in (e for e in elements if e.parent is top.parent):
        if sibling is top or final.get(id(sibling), 0.0) >= threshold or _is_prose(sibling):
            kept.append(sibling)
    return kept


def _climb(top: _Element, runners_up: list[_Element], final: dict[int, float]) -> _Element:
    """The winner, or the element above it that holds it and at least two close runners-up
    (the parts of one article, each scored on its own), or an ancestor that scores
    higher (the prose was spread over its children)."""
    close = [e for e in runners_up if final[id(e)] >= 0.75 * final[id(top)]]
    if len(close) >= 2:
        ancestor = top.parent
        while ancestor is not None and ancestor.parent is not None:
            if sum(_holds(ancestor, e) for e in close) >= 2:
                top = ancestor
                break
            ancestor = ancestor.parent
    last = final.get(id(top), 0.0)
    ancestor = top.parent
    while ancestor is not None and ancestor.parent is not None:
        score = final.get(id(ancestor), 0.0)
        if score < last / 3:
            break
        if score > last:
            top = ancestor
            break
        last, ancestor = score, ancestor.parent
    return _widen(top)


def _widen(top: _Element) -> _Element:
    """The lowest element above `top` that holds half as much prose again, if it is not
    mostly links: an article whose parts sit in separate containers."""
    ancestor = top.parent
    while ancestor is not None and ancestor.parent is not None:
        if ancestor.inner >= 1.5 * top.inner:
            return ancestor if ancestor.link_density() < 0.15 else top
        ancestor = ancestor.parent
    return top


def _holds(ancestor: _Element, element: _Element) -> bool:
    node = element.parent
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False


def _semantic(elements: list[_Element]) -> _Element | None:
    """The page's own mark of its main content: its one `main` (or `[role=main]`), or
    the `article` with the most prose if that holds most of main's."""
    mains = [e for e in elements if e.tag == "main" or e.attributes.get("role") == "main"]
    articles = [e for e in elements if e.tag == "article"]
    best_main = max(mains, key=lambda e: e.inner) if mains else None
    best_article = max(articles, key=lambda e: e.inner) if articles else None
    if best_article is not None and (best_main is None or best_article.inner >= 0.5 * best_main.inner):
        return best_article
    return best_main


def _is_prose(element: _Element) -> bool:
    """A paragraph beside the winner that reads as part of it."""
    if element.tag not in _PROSE_TAGS or element.node.children or not element.length:
        return False
    density = element.link_density()
    return (element.length > 80 and density < 0.25) or (density == 0 and element.inner == 0 and element.length > 0)


def _boilerplate(elements: list[_Element], kept: set[int]) -> set[int]:
    """The elements inside the kept ones that are page furniture, not content."""
    dropped: set[int] = set()
    inside: dict[int, _Element] = {}  # id(element) -> the kept element it is in
    for element in elements:
        parent = element.parent
        if id(element.node) in kept:
            inside[id(element)] = element
            continue
        holder = inside.get(id(parent)) if parent is not None else None
        if holder is None:
            continue
        inside[id(element)] = holder
        if _furniture(element, holder):
            dropped.add(id(element.node))
    return dropped


def _furniture(element: _Element, holder: _Element) -> bool:
    attributes = element.attributes
    if "hidden" in attributes or attributes.get("aria-hidden", "").lower() == "true":
        return True
    if _HIDDEN_STYLE.search(attributes.get("style", "")):
        return True
    role = attributes.get("role", "").lower()
    if role in _DROPPED_ROLES or element.tag in ("nav", "aside", "dialog"):
        return True
    if element.controls:
        return True  # buttons' labels alone ("Play Video", "Fullscreen", "Share")
    if element.player and element.inner == 0:
        return True  # a video or audio player without prose: its text is its controls'
    little = element.inner <= 0.2 * holder.inner
    return little and (element.tag in _DROPPED_TAGS or role in _CONTROL_ROLES or bool(_WIDGET.search(element.hints())))


def _mark(root: Node, kept: set[int], dropped: set[int]) -> None:
    """`OMITTED` for every node outside the kept ones or inside a dropped one, `HOLLOW`
    for a kept node that holds an omitted one."""
    order: list[tuple[Node, Node | None]] = []
    omitted: set[int] = set()
    stack: list[tuple[Node, Node | None, bool, bool]] = [(root, None, False, False)]
    while stack:
        node, parent, inside_kept, inside_dropped = stack.pop()
        inside_kept = inside_kept or id(node) in kept
        inside_dropped = inside_dropped or id(node) in dropped
        if inside_dropped or not inside_kept:
            node.traits |= Trait.OMITTED
            omitted.add(id(node))
        order.append((node, parent))
        stack.extend((child, node, inside_kept, inside_dropped) for child in node.children)
    holds: set[int] = set()
    for node, parent in reversed(order):
        if parent is not None and (id(node) in omitted or id(node) in holds):
            holds.add(id(parent))
    for node, _ in order:
        if id(node) in holds and id(node) not in omitted:
            node.traits |= Trait.HOLLOW
