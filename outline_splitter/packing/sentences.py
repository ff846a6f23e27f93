"""Sentence ends, for cutting a leaf that does not fit, in any letter case and script.

A sentence ends with terminal punctuation: `.`, `!`, `?`, `…`, the CJK full stop and
full-width marks (and their half-width forms), the Devanagari danda `।` / `॥`, the
Arabic question mark `؟` and the Urdu full stop;
then any closing quotes or brackets, closing tags (in markup) and citation marks
(`[12]`, `[n 8]`); then white space, which CJK text does without. What follows may be
anything, a lower-case letter too: lower-cased prose and transcripts have sentences.

A full stop does not end a sentence after a common abbreviation (`Dr.`, `e.g.`, `vs.`,
`Fig. 3`), an initial (`J. R. R. Tolkien`), capital initials before a name (`U.S.
Army`; before `The`, `He`, `In` and other words that mostly open a sentence they end
one), in a decimal (no white space follows) or as
an ellipsis going on in lower case (`and then... we left`). Abbreviations that often
end a sentence too (`etc.`, `Inc.`) end one where a capital follows.
"""

from __future__ import annotations

import re

Span = tuple[int, int]

_TERMINALS = ".!?…。！？｡।॥؟۔"
# A candidate end, one terminal character first (a pattern that opens with a single
# character class is searched twice as fast by `re`), then the rest: more terminals,
# closers, and white space, or no white space after a CJK terminal or closing bracket.
# A candidate starts only at the first terminal of a run: 1 MB of "." would otherwise be
# retried from each of its characters (quadratic; benchmarks/adversarial.py), and a start
# inside a run matches only where the run's first terminal matches too.
_CANDIDATE = re.compile(
    rf"[{_TERMINALS}](?<![{_TERMINALS}][{_TERMINALS}])(?:[{_TERMINALS}]*"
    r"""(?:["'”’»)\]」』》〉】）］]|</[A-Za-z][\w-]*>|\[[^\[\]\s][^\[\]\n]{0,23}\])*"""
    r"(?:\s+|(?<=[。！？｡」』）])))"
)
# Abbreviations (lower case, without the full stop) after which no sentence ends...
_NEVER_ENDS = frozenset(
    {
        "mr", "mrs", "ms", "mx", "dr", "prof", "rev", "fr", "sr", "st", "mt", "gen", "col", "lt", "sgt",
        "capt", "cmdr", "gov", "sen", "rep", "hon", "pres", "supt", "insp", "messrs", "mme", "mlle", "vs",
        "v", "cf", "eg", "ie", "viz", "approx", "ca", "esp", "incl", "resp", "dept", "univ", "assn", "bros",
        "est",
    }
)  # fmt: skip
# ...before a number...
_BEFORE_NUMBERS = frozenset(
    {
        "no", "nos", "fig", "figs", "eq", "eqs", "vol", "vols", "p", "pp", "ch", "chap", "sec", "sect",
        "art", "op", "ed", "eds", "ref", "refs", "tab", "par", "jan", "feb", "mar", "apr", "jun", "jul",
        "aug", "sep", "sept", "oct", "nov", "dec",
    }
)  # fmt: skip
# ...and unless a capital follows.
_UNLESS_CAPITAL = frozenset({"etc", "al", "inc", "ltd", "co", "corp", "jr", "llc", "plc"})
_DOTTED_NEVER_ENDS = frozenset({"e.g", "i.e"})
_LONGEST_ABBREVIATION = 10
# Capital initials (`U.S`, `U.K`, `D.C`): a name goes on after them ("U.S. Army") more
# often than a sentence ends, so they end one only before a word that mostly opens one.
_CAPITAL_INITIALS = re.compile(r"[A-Z](?:\.[A-Z])+")
_OPENING_WORD = re.compile(
    r"[\"'“‘(]?(?:The|A|An|This|That|These|Those|It|Its|He|She|We|They|I|You|There|In|On|At|But|And|So|"
    r"If|When|While|After|Before|As|For|Our|His|Her|Their|My|Your|However|Then|Now|Yet|Some|Many|Most|"
    r"No|Not|One|What|Why|How|Who|Where)\b"
)
# Opening quotes and brackets, looked past for what starts the next sentence.
_OPENERS = "\"'“‘([«「『"


def sentences(source: str, start: int, end: int) -> list[Span]:
    """The sentences of `source[start:end]`, as spans that together cover it (each runs
    to the white space after its end)."""
    cuts = [match.end() for match in _CANDIDATE.finditer(source, start, end) if _ends(source, match, start)]
    if not cuts or cuts[-1] < end:
        cuts.append(end)
    return list(zip([start, *cuts], cuts))


def _ends(source: str, match: re.Match[str], start: int) -> bool:
    """Whether the candidate `match` ends a sentence (see the module docstring)."""
    first = match.start()
    terminal = source[first]
    following = source[match.end() : match.end() + 2].lstrip(_OPENERS)[:1]
    if terminal == "…" or source.startswith("..", first):
        return following.isupper() or not following.isalnum()  # an ellipsis going on in lower case
    if terminal != "." or source.startswith(".", first + 1):
        return True
    word_start = first
    while word_start > start and first - word_start < _LONGEST_ABBREVIATION and _in_word(source[word_start - 1]):
        word_start -= 1
    word = source[word_start:first].lower()
    if "." in word:  # dotted: e.g., U.S., a.m.
        if _CAPITAL_INITIALS.fullmatch(source, word_start, first):  # U.S. Army, but: the U.S. The next...
            return _OPENING_WORD.match(source, match.end()) is not None
        return following.isupper() and word not in _DOTTED_NEVER_ENDS
    if not word:
        return True  # after a number, a bracket or a quote
    if len(word) == 1 and source[word_start].isupper():
        return False  # an initial
    if word in _NEVER_ENDS:
        return False
    if word in _BEFORE_NUMBERS:
        return not following.isdigit()
    if word in _UNLESS_CAPITAL:
        return following.isupper()
    return True


def _in_word(character: str) -> bool:
    return character.isalpha() or character == "."
