"""Growth of time on adversarial input: for each case, the CPU time at doubling sizes and
the ratio time(2n) / time(n). A linear step stays near 2; the robustness issue asks for at
most 2.5 up to 1 MB.

    python -m benchmarks.adversarial [--max-bytes 1048576] [--case NAME ...]

Each case is a pattern repeated to the size and one function run over it: the HTML
scanner alone (where backtracking would live) or a whole split (the deep-nesting cases:
doubling the size doubles the depth).
"""

from __future__ import annotations

import argparse
import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.timing import cpu_seconds
from detectors.html_scan import scan
from detectors.markdown import detect_markdown
from detectors.sections import detect_latex, detect_rst
from detectors.text import detect_text
from outline_splitter import OutlineTextSplitter
from outline_splitter.gc_pause import paused_gc
from outline_splitter.packing.sentences import sentences


@dataclass(frozen=True)
class Case:
    """`unit` repeated to the size (then `close` as many times, to close what it
    opened), wrapped by `head` and `tail`, fed to `run`."""

    name: str
    unit: str
    run: Callable[[str], object]
    head: str = ""
    tail: str = ""
    close: str = ""

    def text(self, size: int) -> str:
        count = max(1, size // (len(self.unit) + len(self.close)))
        return self.head + self.unit * count + self.close * count + self.tail


def _scan_all(text: str) -> object:
    return sum(1 for _ in scan(text))


@functools.cache
def _splitter(doc_type: str) -> OutlineTextSplitter:
    return OutlineTextSplitter(doc_type=doc_type, chunk_size=64)


def _split(doc_type: str) -> Callable[[str], object]:
    def run(text: str) -> object:
        return len(_splitter(doc_type).split(text))

    return run


def _sentences(text: str) -> object:
    return len(sentences(text, 0, len(text)))


def _outline(detect: Callable[[str], object]) -> Callable[[str], object]:
    """Pass one of a format, deferred children built too, with the cyclic garbage
    collector paused as `split` pauses it (`outline_splitter.gc_pause`)."""

    def run(text: str) -> object:
        with paused_gc():
            return detect(text).expand_all()  # type: ignore[attr-defined]

    return run


CASES = (
    Case("scan '<a'", "<a", _scan_all),
    Case("scan '<a title=\"'", '<a title="', _scan_all),
    Case("scan \"<a b='\"", "<a b='", _scan_all),
    Case("scan '<a b=x'", "<a b=x ", _scan_all),
    Case("scan '<'", "<", _scan_all),
    Case("scan '</a'", "</a", _scan_all),
    Case("scan '<!--'", "<!--", _scan_all),
    Case("scan '<![CDATA['", "<![CDATA[", _scan_all),
    Case("scan '<!x'", "<!x", _scan_all),
    Case("scan script '</scrip'", "</scrip", _scan_all, head="<script>"),
    Case("scan script '</script'", "</script", _scan_all, head="<script>"),
    Case("scan textarea '</textarea '", "</textarea ", _scan_all, head="<textarea>"),
    Case("split html nested '<div>'", "<div>", _split("html"), tail="x"),
    Case("split html '<p><b><i><table><tr><td>'", "<p><b><i><table><tr><td>", _split("html")),
    Case("split html closed '<div>x'", "<div>x ", _split("html"), close="</div>"),
    Case("split markdown '- ' markers", "- ", _split("markdown"), tail="x\n"),
    Case("split markdown '>' quotes", ">", _split("markdown"), tail=" x\n"),
    Case("split go '{'", "{", _split("go"), head="package a\nfunc f() ", close="}"),
    Case("split javascript '{'", "{", _split("javascript")),
    Case("split rust nested if", "if a {\n", _split("rust"), head="fn main() {\n", close="}\n", tail="}\n"),
    Case("split php '{'", "{", _split("php"), head="<?php\n", close="}"),
    Case("split c '{'", "{", _split("c"), head="int f(){", close="}", tail="}"),
    # the other patterns that read input: sentence ends, the line and block patterns of
    # the Markdown, text, reStructuredText and LaTeX detectors (nesting is not here:
    # the deep-nesting rows are benchmarks of their own)
    Case("sentences '.'", ".", _sentences),
    Case("sentences 'a. '", "a. ", _sentences),
    Case("sentences 'e.g.'", "e.g.", _sentences),
    Case("sentences '?!)\"'", '?!)"', _sentences),
    Case("markdown '*a'", "*a", _outline(detect_markdown)),
    Case("markdown '[a]('", "[a](", _outline(detect_markdown)),
    Case("markdown '`'", "`", _outline(detect_markdown)),
    Case("markdown 'a\\n---\\n'", "a\n---\n", _outline(detect_markdown)),
    Case("markdown '|a'", "|a", _outline(detect_markdown), head="|a|b|\n|-|-|\n"),
    Case("text '\\n \\t'", "\n \t", _outline(detect_text)),
    Case("rst '::'", "::", _outline(detect_rst)),
    Case("rst 'a\\n---\\n'", "a\n---\n", _outline(detect_rst)),
    Case("rst '.. a::'", ".. a::", _outline(detect_rst)),
    Case("latex '\\section{'", "\\section{", _outline(detect_latex)),
    Case("latex '\\begin{a}'", "\\begin{a}", _outline(detect_latex)),
)


def doubling_sizes(max_bytes: int, smallest: int = 1024) -> list[int]:
    """Sizes from `smallest` doubling up to `max_bytes`."""
    sizes = [smallest]
    while sizes[-1] * 2 <= max_bytes:
        sizes.append(sizes[-1] * 2)
    return sizes


def growth(case: Case, sizes: list[int], rounds: int = 3) -> list[tuple[int, float]]:
    """(size, least CPU seconds) for each size, stopping at the first size whose run
    takes over 20 s. The sizes take turns, round after round, rather than each being
    timed `rounds` times in a row: this VM's speed drifts by up to 20% within seconds,
    and a drift that spans the runs of one size would count as growth."""
    best: dict[int, float] = {}
    texts: dict[int, str] = {}
    for turn in range(rounds):
        for size in sizes:
            if turn > 0 and size not in best:
                break
            text = texts.setdefault(size, case.text(size))
            best[size] = min(best.get(size, float("inf")), cpu_seconds(functools.partial(case.run, text)))
            if turn == 0 and best[size] > 20:
                break
    return sorted(best.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bytes", type=int, default=1 << 20)
    parser.add_argument("--case", action="append", help="only the cases whose name contains this")
    parser.add_argument("--rounds", type=int, default=3, help="turns of every size; each size's least time counts")
    args = parser.parse_args()
    sizes = doubling_sizes(args.max_bytes)
    worst_overall = 0.0
    print(f"{'case':34} {'time at max':>12} {'worst time(2n)/time(n)':>24}")
    for case in CASES:
        if args.case and not any(part in case.name for part in args.case):
            continue
        rows = growth(case, sizes, args.rounds)
        # steps under a millisecond are timer noise, not growth
        ratios = [b / a for (_, a), (_, b) in itertools.pairwise(rows) if a > 1e-3]
        worst = max(ratios, default=0.0)
        worst_overall = max(worst_overall, worst)
        size, seconds = rows[-1]
        print(f"{case.name:34} {seconds * 1e3:9.1f} ms {worst:24.2f}   (at {size} bytes)")
    print(f"worst ratio over all cases: {worst_overall:.2f}")


if __name__ == "__main__":
    main()
