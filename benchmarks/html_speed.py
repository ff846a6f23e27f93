"""Speed of the HTML splitter on every page of ../shared/corpora/html-web, in both output
modes, with all content and with `content="main"`, as a ratio to one tiktoken pass
(`encode_ordinary`) over the raw HTML and over the extracted text. Also the share of
lists, tables and `pre` blocks whose readable text fits the budget that land whole in one
chunk in text mode. And the CPU of the phases before packing, on the same scale: the scan
and the detector (beside which the page's encode runs on its own threads), and the
rendering that text mode counts; what is left of a split (the encode, packing, the chunks)
is the split's figure less these (`python -m benchmarks.pack_speed --corpus html-web` has
packing's share).

    .venv/bin/python -m benchmarks.html_speed [chunk_size]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from benchmarks.timing import best_per_document, cpu_seconds
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.corpora import shared_corpus
from outline_splitter.detectors.html import detect_html
from outline_splitter.detectors.html_scan import tokens
from outline_splitter.detectors.html_text import extract_text, rendered_text
from outline_splitter.tokens import TiktokenTokenizer

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "html-web"
WHOLE_BLOCKS = "ol, ul, table, pre"


def main() -> None:
    shared_corpus("html-web")  # stops with a message on a clone without ../shared
    chunk_size = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    pages = {path.name: path.read_text(encoding="utf-8") for path in sorted(CORPUS.glob("*.html"))}
    encoding = TiktokenTokenizer.from_name("cl100k_base").encoding
    texts = {name: extract_text(html) for name, html in pages.items()}
    texts_by_page = {html: texts[name] for name, html in pages.items()}

    splitters = {
        f"{mode}, content={content}": OutlineTextSplitter(
            doc_type="html", chunk_size=chunk_size, output=mode, content=content
        )
        for mode in ("html", "text")
        for content in ("all", "main")
    }
    best = best_per_document(
        {
            "raw": encoding.encode_ordinary,
            "text pass": lambda page: encoding.encode_ordinary(texts_by_page[page]),
            "detection": _detection,
            "rendering": _rendering,
            **{output: splitter.split for output, splitter in splitters.items()},
        },
        pages.values(),
        repeat=5,
    )
    raw_pass, text_pass = best["raw"], best["text pass"]
    print(
        f"{len(pages)} pages, {sum(map(len, pages.values())) / 1e6:.1f} M characters of HTML, "
        f"{sum(map(len, texts.values())) / 1e6:.1f} M of text, chunk_size {chunk_size}"
    )
    print(f"tiktoken pass: raw HTML {raw_pass:.2f} s, extracted text {text_pass:.2f} s")
    for phase in ("detection", "rendering"):
        print(f"{phase} (scan included): {best[phase]:.2f} s, {best[phase] / raw_pass:.2f}x the raw-HTML pass")
    for output, splitter in splitters.items():
        elapsed = best[output]
        chunks = {name: splitter.split(html) for name, html in pages.items()}
        count = sum(map(len, chunks.values()))
        over = sum(c.token_count > chunk_size for page in chunks.values() for c in page)
        print(
            f"output={output}: {elapsed:.2f} s, {elapsed / raw_pass:.2f}x the raw-HTML pass, "
            f"{elapsed / text_pass:.2f}x the text pass; {count} chunks, {over} over budget"
        )
        if output.endswith("main"):
            extra = (elapsed - best[output.replace("main", "all")]) / raw_pass
            print(f"  content=main costs {extra:+.2f}x the raw-HTML pass over content=all")
            continue
        for name in ("wikipedia.html", "wikipedia-2.html"):
            print(f"  {name}: {cpu_seconds(_splitting(splitter, [pages[name]]), 3):.2f} s")
        if output.startswith("text"):
            whole, fitting = whole_blocks(pages, chunks, encoding, chunk_size)
            print(
                f"  lists, tables, pre whose text fits: {whole}/{fitting} whole in one chunk "
                f"({100 * whole / max(fitting, 1):.1f}%)"
            )


def _detection(page: str) -> object:
    """The outline of `page` from a scan of its own (the scan is kept for the last page)."""
    tokens.cache_clear()
    return detect_html(page)


def _rendering(page: str) -> object:
    """The readable text of `page` (text mode counts it), from a scan of its own."""
    tokens.cache_clear()
    rendered_text.cache_clear()
    return rendered_text(page)


def _splitting(splitter: OutlineTextSplitter, pages: Iterable[str]) -> Callable[[], object]:
    return lambda: [splitter.split(page) for page in pages]


def whole_blocks(pages: dict[str, str], chunks: dict[str, list], encoding: object, chunk_size: int) -> tuple[int, int]:  # type: ignore[type-arg]
    """Blocks found by lexbor (not by our own outline), whose readable text fits the
    budget, whose text is inside one chunk's text."""
    whole = fitting = 0
    for name, html in pages.items():
        texts = [c.text for c in chunks[name]]
        for element in LexborHTMLParser(html).css(WHOLE_BLOCKS):
            text = extract_text(element.html or "")
            if not text or len(encoding.encode_ordinary(text)) > chunk_size:  # type: ignore[attr-defined]
                continue
            fitting += 1
            whole += any(text in chunk for chunk in texts)
    return whole, fitting


if __name__ == "__main__":
    main()
