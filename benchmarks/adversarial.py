"""Growth of time on adversarial input: for each case, the CPU time at doubling sizes and
the ratio time(2n) / time(n). A linear step stays near 2; the robustness issue asks for at
most 2.5 up to 1 MB.

    python -m benchmarks.adversarial [--max-bytes 1048576] [--case NAME ...] [--repeat 3] [--steps]

Each case is a pattern repeated to the size and one function run over it: the HTML
scanner alone (where backtracking would live) or a whole split (the deep-nesting cases:
doubling the size doubles the depth; deep Python nesting, indented, in sizes halving
from 50 MB whatever `--max-bytes` says: issue 39 saw it grow faster than linear past
13 MB). The two sizes of each step are timed in turns.
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
    make: Callable[[int], str] | None = None  # the text of a size, for a case no unit repeats
    up_to: int = 0  # bytes: this case's largest size, whatever --max-bytes says

    def text(self, size: int) -> str:
        if self.make is not None:
            return self.make(size)
        count = max(1, size // (len(self.unit) + len(self.close)))
        return self.head + self.unit * count + self.close * count + self.tail


def python_nesting(size: int) -> str:
    """`if a:` blocks each inside the one before, to about `size` characters: a line's
    indentation is its depth, so the depth grows as the square root of the size (some
    10,000 levels at 50 MB)."""
    lines: list[str] = []
    total = 0
    while total < size:
        lines.append(" " * len(lines) + "if a:\n")
        total += len(lines[-1])
    lines.append(" " * len(lines) + "x = 1\n")
    return "".join(lines)


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
    Case('scan "<a b=\'"', "<a b='", _scan_all),
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
    Case("split python nested if", "", _split("python"), make=python_nesting, up_to=50 << 20),
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


def halving_sizes(largest: int, smallest: int = 1024) -> list[int]:
    """Sizes halving from `largest` down to no less than `smallest`, smallest first."""
    sizes = [largest]
    while sizes[-1] // 2 >= smallest:
        sizes.append(sizes[-1] // 2)
    return sizes[::-1]


def doubling_ratios(case: Case, sizes: list[int], repeat: int = 3) -> list[tuple[int, float, float]]:
    """(size 2n, least CPU seconds at 2n, time(2n) / time(n)) for each step of `sizes`,
    stopping after the first size whose run takes over 20 s (but for a case's own
    largest size, `up_to`, which is the point of that case).

    The two sizes of a step take turns, run after run, and each one's least time counts:
    this VM's speed drifts by up to 20% within seconds, and a size timed a few seconds
    after the other (or after other sizes had left their garbage in the allocator) could
    read 50% over twice the other's time. A step whose runs are short gets more turns,
    so that each side is timed over at least a fifth of a second in all."""
    rows: list[tuple[int, float, float]] = []
    for small, large in itertools.pairwise(sizes):
        texts = case.text(small), case.text(large)
        best = [cpu_seconds(functools.partial(case.run, text)) for text in texts]
        turns = max(repeat, min(200, int(0.2 / max(best[1], 1e-6))))
        for _ in range(turns - 1):
            for side, text in enumerate(texts):
                best[side] = min(best[side], cpu_seconds(functools.partial(case.run, text)))
        rows.append((large, best[1], best[1] / best[0]))
        if best[1] > 20 and large < case.up_to:
            break
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bytes", type=int, default=1 << 20)
    parser.add_argument("--case", action="append", help="only the cases whose name contains this")
    parser.add_argument("--repeat", type=int, default=3, help="least turns of the two sizes of each step")
    parser.add_argument("--steps", action="store_true", help="print every step's time and ratio too")
    args = parser.parse_args()
    sizes = doubling_sizes(args.max_bytes)
    worst_overall = 0.0
    print(f"{'case':34} {'time at the largest size':>28} {'worst time(2n)/time(n)':>34}")
    for case in CASES:
        if args.case and not any(part in case.name for part in args.case):
            continue
        rows = doubling_ratios(case, halving_sizes(case.up_to) if case.up_to else sizes, args.repeat)
        if args.steps:
            for size, seconds, ratio in rows:
                print(f"  {size:>10} bytes {seconds * 1e3:11.1f} ms {ratio:6.2f}")
        # steps from under a millisecond are timer noise, not growth
        worst, at = max(((ratio, size) for size, seconds, ratio in rows if seconds / ratio > 1e-3), default=(0.0, 0))
        worst_overall = max(worst_overall, worst)
        size, seconds, _ = rows[-1]
        step = f"{worst:8.2f}   (the step to {at} bytes)" if at else "       -   (every size under 1 ms)"
        print(f"{case.name:34} {seconds * 1e3:9.1f} ms at {size:>8} bytes {step}")
    print(f"worst ratio over all cases: {worst_overall:.2f}")


if __name__ == "__main__":
    main()
