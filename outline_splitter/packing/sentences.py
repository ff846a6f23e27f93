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
from itertools import compress, islice, takewhile
from operator import attrgetter, not_

Span = tuple[int, int]

_TERMINALS = ".!?…。！？｡।॥؟۔"
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
# The three sets as one table, each word's rule the first set above that holds it.
_NEVER, _BEFORE_NUMBER, _UNLESS = "never", "before a number", "unless a capital follows"
_RULES: dict[str, str] = {
    **dict.fromkeys(_UNLESS_CAPITAL, _UNLESS),
    **dict.fromkeys(_BEFORE_NUMBERS, _BEFORE_NUMBER),
    **dict.fromkeys(_NEVER_ENDS, _NEVER),
}
_LONGEST_RULE = max(map(len, _RULES))  # (6: a word of 7 letters is no abbreviation)
_LONGEST_ABBREVIATION = 10
# Capital initials (`U.S`, `U.K`, `D.C`): a name goes on after them ("U.S. Army") more
# often than a sentence ends, so they end one only before a word that mostly opens one.
_CAPITAL_INITIALS = re.compile(r"[A-Z](?:\.[A-Z])+")
_OPENING_WORD = re.compile(
    r"[\"'“‘(]?(?:The|A|An|This|That|These|Those|It|Its|He|She|We|They|I|You|There|In|On|At|But|And|So|"
    r"If|When|While|After|Before|As|For|Our|His|Her|Their|My|Your|However|Then|Now|Yet|Some|Many|Most|"
    r"No|Not|One|What|Why|How|Who|Where)\b"
)


def _sure_full_stop() -> str:
    """Lookbehinds, at a full stop just matched (not of ".."), of which one holds only
    where `_ends` says it ends a sentence: no letter before it (a digit, a bracket, a
    quote), a word of ASCII letters longer than every abbreviation and no full stop in
    `_LONGEST_ABBREVIATION` characters, or one of 2 to `_LONGEST_RULE` ASCII letters
    after white space that is none of `_RULES` in any letter case. (Where `\\w` and
    `str.isalpha` differ, "²" is a word character but no letter: only ASCII letters
    are read as letters here.)"""
    no_word = r"(?<=[\W\d_]\.)"
    long_word = r"(?<=[A-Za-z]{7}\.)" + "".join(rf"(?<!\.[\s\S]{{{n}}}\.)" for n in range(7, _LONGEST_ABBREVIATION))
    short_words = []
    for n in range(2, _LONGEST_RULE + 1):
        rules = "|".join(sorted(word for word in _RULES if len(word) == n))
        short_words.append(rf"(?<=\s[A-Za-z]{{{n}}}\.)" + (rf"(?<!(?i:{rules})\.)" if rules else ""))
    return "|".join(f"(?:{lookbehind})" for lookbehind in (no_word, long_word, *short_words))


# A candidate end, one terminal character first (a pattern that opens with a single
# character class is searched twice as fast by `re`), then the rest: more terminals,
# closers, and white space, or no white space after a CJK terminal or closing bracket.
# A candidate starts only at the first terminal of a run: 1 MB of "." would otherwise be
# retried from each of its characters (quadratic; benchmarks/adversarial.py), and a start
# inside a run matches only where the run's first terminal matches too.
# Right after its first terminal, the group `doubt` is matched (empty) unless that
# terminal surely ends a sentence: one other than a full stop or an ellipsis, or a full
# stop that `_sure_full_stop` vouches for. Only the doubtful are read by `_ends`, a
# Python call each (plain text: 700 of 9,100 candidates).
_CANDIDATE = re.compile(
    rf"[{_TERMINALS}](?<![{_TERMINALS}][{_TERMINALS}])"
    rf"(?:(?<=[{_TERMINALS.replace('.', '').replace('…', '')}])|(?!\.)(?:{_sure_full_stop()})|(?P<doubt>))"
    rf"(?:[{_TERMINALS}]*"
    r"""(?:["'”’»)\]」』》〉】）］]|</[A-Za-z][\w-]*>|\[[^\[\]\s][^\[\]\n]{0,23}\])*"""
    r"(?:\s+|(?<=[。！？｡」』）])))"
)
_DOUBTFUL = attrgetter("lastindex")  # (`doubt` is the pattern's one group)
_BATCH = 1024
# Opening quotes and brackets, looked past for what starts the next sentence.
_OPENERS = "\"'“‘([«「『"


def sentences(source: str, start: int, end: int) -> list[Span]:
    """The sentences of `source[start:end]`, as spans that together cover it (each runs
    to the white space after its end)."""
    cuts: list[int] = []
    found = _CANDIDATE.finditer(source, start, end)
    # (a batch of matches at a time: a megabyte of short sentences would otherwise hold
    # a match object, some 100 bytes, for each of its 300,000 candidates at once)
    while matches := list(islice(found, _BATCH)):
        doubtful = list(map(_DOUBTFUL, matches))
        # the sure ends, picked in C calls with no Python step a candidate
        sure = list(compress(map(re.Match.end, matches), map(not_, doubtful)))
        if matches[0].start() <= start + _LONGEST_RULE:
            # a word the span's start cuts is read from the start on, the lookbehinds read it whole
            near = takewhile(lambda match: match.start() <= start + _LONGEST_RULE, matches)
            wrong = {match.end() for match in near if match.lastindex is None and not _ends(source, match, start)}
            sure = [at for at in sure if at not in wrong]
        checked = [match.end() for match in compress(matches, doubtful) if _ends(source, match, start)]
        cuts += sorted(sure + checked) if checked else sure
    if not cuts or cuts[-1] < end:
        cuts.append(end)
    return list(zip([start, *cuts], cuts))


def _ends(source: str, match: re.Match[str], start: int) -> bool:
    """Whether the candidate `match` ends a sentence (see the module docstring)."""
    first = match.start()
    terminal = source[first]
    if terminal == "." and not source.startswith(".", first + 1):
        word_start, word = _word_before(source, first, start)
        if not word:
            return True  # after a number, a bracket or a quote
        # (lower case is never shorter: a longer word is in no set, and needs no copy)
        rule = _RULES.get(word.lower()) if len(word) <= _LONGEST_RULE else None
        if rule is None and "." not in word:
            return len(word) > 1 or not word.isupper()  # not an initial
    elif terminal == "…" or source.startswith("..", first):
        following = _following(source, match.end())
        return following.isupper() or not following.isalnum()  # an ellipsis going on in lower case
    else:
        return True
    following = _following(source, match.end())
    if "." in word:  # dotted: e.g., U.S., a.m.
        if _CAPITAL_INITIALS.fullmatch(source, word_start, first):  # U.S. Army, but: the U.S. The next...
            return _OPENING_WORD.match(source, match.end()) is not None
        return following.isupper() and word.lower() not in _DOTTED_NEVER_ENDS
    if len(word) == 1 and word.isupper():
        return False  # an initial
    if rule is _NEVER:
        return False
    if rule is _BEFORE_NUMBER:
        return not following.isdigit()
    return following.isupper()  # _UNLESS_CAPITAL


def _word_before(source: str, first: int, start: int) -> tuple[int, str]:
    """The start and the text of the word (letters and full stops, up to
    `_LONGEST_ABBREVIATION` characters, not before `start`) that ends at `first`."""
    window_start = max(start, first - _LONGEST_ABBREVIATION)
    window = source[window_start:first]
    # mostly a word of letters after a space: one search and one test, not a test a character
    tail = window[window.rfind(" ") + 1 :]
    if tail.isalpha():
        return first - len(tail), tail
    word_start = first
    while word_start > window_start and (source[word_start - 1].isalpha() or source[word_start - 1] == "."):
        word_start -= 1
    return word_start, source[word_start:first]


def _following(source: str, after: int) -> str:
    """The character that starts what follows a candidate end, past an opening quote or
    bracket ('' at the end)."""
    return source[after : after + 2].lstrip(_OPENERS)[:1]
