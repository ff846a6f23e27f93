"""A long source file is parsed a window of top-level statements at a time
(`detectors.code.WINDOW_BYTES`): its outline, deferred parts and all, is the outline of
one parse of the whole file; past `WHOLE_ON_ERROR_BYTES`, a file with a syntax error keeps
its windows too (a window in error grown a bounded share of the file at most), and its
outline every invariant."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import outline_splitter.detectors.code as code
import outline_splitter.detectors.code.offsets as offsets
import outline_splitter.detectors.code.outline as outline
from outline_splitter import OutlineTextSplitter
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
from outline_splitter.nodes import Node, check_outline
from outline_splitter.registry import load_detector, resolve_doc_type
from tests.invariants import assert_source_chunks
from tests.test_code_detector import FIXTURES, LANGUAGES
from tests.test_code_properties import SYNTAXES, programs

_EXTENSIONS = {"python": "py", "javascript": "js", "typescript": "ts", "go": "go", "rust": "rs", "java": "java",
               "c": "c", "cpp": "cpp", "csharp": "cs", "ruby": "rb", "php": "php", "scala": "scala",
               "swift": "swift", "kotlin": "kt", "solidity": "sol", "proto": "proto", "tsx": "tsx"}  # fmt: skip


def _signature(root: Node) -> list[tuple[object, ...]]:
    return [
        (node.kind, node.start, node.end, node.traits, repr(node.label), sorted(node.public_meta().items()))
        for node in root.expand_all().walk()
    ]


def _outline(
    language: str, text: str, window: int | None, whole_on_error: int = code.WHOLE_ON_ERROR_BYTES
) -> tuple[list[tuple[object, ...]], int]:
    """The outline signature of `text` parsed whole (`window` None) or in windows of
    `window` bytes (a file with a syntax error parsed whole up to `whole_on_error` bytes),
    and how many windows it took."""
    windows = 0
    cut = code._cut

    def counted(*args):  # called once per window but the last
        nonlocal windows
        windows += 1
        return cut(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code, "WINDOW_BYTES", window if window is not None else 1 << 62)
        patch.setattr(code, "_cut", counted)
        patch.setattr(code, "WHOLE_ON_ERROR_BYTES", whole_on_error)
        return _signature(load_detector(resolve_doc_type(language))(text)), windows


def test_stdlib_modules_parsed_in_windows_have_the_outline_of_one_parse():
    windows = 0
    for path in stdlib_module_paths()[:12]:
        text = path.read_text(encoding="utf-8")
        whole = _outline("python", text, None)[0]
        for window in (1, 3000):
            outline, used = _outline("python", text, window)
            assert outline == whole, (path.name, window)
            windows = max(windows, used)
    assert windows > 100  # really read in windows


@pytest.mark.parametrize("language", LANGUAGES)
def test_fixtures_parsed_in_windows_have_the_outline_of_one_parse(language):
    text = (FIXTURES / f"commented.{_EXTENSIONS[language]}").read_text(encoding="utf-8")
    whole = _outline(language, text, None)[0]
    for window in (1, 10):
        assert _outline(language, text, window)[0] == whole, window


@settings(max_examples=300, deadline=None)
@given(
    language=st.sampled_from(sorted(SYNTAXES)),
    data=st.data(),
    window=st.sampled_from([1, 5, 25]),
)
def test_generated_source_parsed_in_windows_has_the_outline_of_one_parse(language, data, window):
    # several programs in a row (the generator puts a syntax error in some of them)
    text = "\n".join(data.draw(programs(language)) for _ in range(data.draw(st.integers(1, 4))))
    assert _outline(language, text, window)[0] == _outline(language, text, None)[0], text


def _one_liners(count: int) -> str:
    return "".join(f"def f_{n}(x): return x * {n} + {n % 7}\n" for n in range(count))


def _detected_with_peak(text: str) -> tuple[Node, int]:
    """The Python outline of `text` and the peak of what was allocated to detect it."""
    detect = load_detector(resolve_doc_type("python"))
    detect(text[:2000])  # the grammar loaded
    tracemalloc.start()
    try:
        root = detect(text)
        return root, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_file_is_detected_in_a_fraction_of_its_syntax_tree():
    # tree-sitter allocates through Python's allocator, so tracemalloc sees its trees: one
    # parse of this file peaks at some 60 times its size, a window at a time far less
    text = _one_liners(30_000)
    root, peak = _detected_with_peak(text)
    assert len(root.children) == 30_000
    assert peak < 25 * len(text), peak / len(text)


def test_a_long_file_cut_mid_line_keeps_its_windows_and_their_outline():
    # a truncated file: its last line opens a parenthesis that nothing closes. Parsed whole,
    # its tree was some 40 times its text; its windows have the outline of that one parse
    text = _one_liners(30_000)
    text = text[: text.rindex("(") + 1]
    assert len(text.encode()) > code.WHOLE_ON_ERROR_BYTES
    root, peak = _detected_with_peak(text)
    assert peak < 25 * len(text), peak / len(text)
    assert [node.kind for node in root.children[-2:]] == ["definition", "statement"]
    assert len(root.children) == 30_000  # 29,999 functions and the one cut short
    assert _outline("python", text, code.WINDOW_BYTES)[0] == _outline("python", text, None)[0]


def _with_error_at(text: str, share: float) -> str:
    """`text` (one-line functions) with the function about `share` of the way through cut
    short after its opening parenthesis: a syntax error that what follows parses past."""
    line = text.index("def ", int(len(text) * share))
    cut = text.index("(", line) + 1
    return text[:cut] + text[text.index("\n", cut) :]


def _window_sizes(text: str) -> list[int]:
    """The size in bytes of each window `text` is parsed in (as Python)."""
    sizes: list[int] = []
    parse = code.Parser.parse

    def spied(parser, *args):
        ranges = parser.included_ranges
        if ranges != code._WHOLE_RANGE:
            sizes.append(ranges[0].end_byte - ranges[0].start_byte)
        return parse(parser, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code, "_parser", lambda spec: _Spied(code.grammar_parser(spec.name, spec.grammar), spied))
        load_detector(resolve_doc_type("python"))(text)
    return sizes


class _Spied:
    """A parser whose `parse` calls are seen (tree-sitter's Parser takes no new attribute)."""

    def __init__(self, parser, parse):
        object.__setattr__(self, "_parser", parser)
        object.__setattr__(self, "_parse", parse)

    def __getattr__(self, name):
        return getattr(self._parser, name)

    def __setattr__(self, name, value):
        setattr(self._parser, name, value)

    def parse(self, *args):
        return self._parse(self._parser, *args)


@pytest.mark.parametrize("share", [0.05, 0.5])
def test_a_syntax_error_above_the_last_window_grows_its_window_a_bounded_share(share):
    # a function cut short early in a 1 MB file, or in its middle: its window grew to the
    # end of the file (the rest parsed whole, a tree some 40 times its text); now at most
    # to two windows or a thirty-second of the file, then it is taken as tree-sitter recovered it
    clean = _one_liners(30_000)
    text = _with_error_at(clean, share)
    size = len(text.encode())
    assert size > code.WHOLE_ON_ERROR_BYTES
    windows = _window_sizes(text)
    assert max(windows) <= max(2 * code.WINDOW_BYTES, size // code.ERROR_WINDOW_SHARE) + 100, max(windows)
    assert max(windows) > code.WINDOW_BYTES + 100  # (it did grow: the error may be the window end's)
    root, peak = _detected_with_peak(text)
    assert peak < 25 * len(text), peak / len(text)
    # the window in error is the only tree alive while it is parsed (its tree before it grew
    # is let go of first), so the error costs no peak the file without it does not have
    # (four windows' tree beside the one before it grew: 10.4 times the text, 8.3 without the error)
    assert peak < 1.05 * _detected_with_peak(clean)[1], peak / len(text)
    # every function where it is in the file without the error; the one cut short a statement
    error = text.index("(\n")
    shift = len(clean) - len(text)
    detect = load_detector(resolve_doc_type("python"))
    starts = [node.start if node.start < error else node.start - shift for node in detect(clean).children]
    assert [node.start for node in root.children] == starts
    assert [node.kind for node in root.children if node.start <= error < node.end] == ["statement"]
    assert [node.kind for node in root.children].count("definition") == 29_999
    check_outline(root.expand_all(), len(text))


@pytest.mark.parametrize("share", [0.05, 0.5])
def test_a_file_whose_error_is_taken_as_recovered_keeps_the_invariants(share, cl100k):
    # windows of 1,000 bytes, a file of some 14 KB: its windows grow to a sixteenth of it at most
    text = _with_error_at(_one_liners(400), share) + "class Open(\n    x = 1\n" + _one_liners(60)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code, "WINDOW_BYTES", 250)
        patch.setattr(code, "WHOLE_ON_ERROR_BYTES", 0)
        windows = _window_sizes(text)
        root = load_detector(resolve_doc_type("python"))(text)
        chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(text)
    assert max(windows) < len(text.encode()) // 8  # (parsed whole, or grown to the end, it was longer)
    check_outline(root.expand_all(), len(text))
    assert_source_chunks(text, chunks, cl100k, 64)


def test_a_file_with_a_syntax_error_in_its_last_window_keeps_the_invariants(cl100k):
    text = _one_liners(400)
    text = text[: text.rindex(" * ")] + " * (\n" + _one_liners(3)  # a parenthesis left open
    outline, windows = _outline("python", text, 1000, whole_on_error=0)
    assert windows > 5
    assert outline[:100] == _outline("python", text, None)[0][:100]  # (the error is in the last window)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code, "WINDOW_BYTES", 1000)
        patch.setattr(code, "WHOLE_ON_ERROR_BYTES", 0)
        chunks = OutlineTextSplitter(doc_type="python", chunk_size=64).split(text)
    assert_source_chunks(text, chunks, cl100k, 64)


@settings(max_examples=200, deadline=None)
@given(
    language=st.sampled_from(sorted(SYNTAXES)),
    data=st.data(),
    window=st.sampled_from([1, 5, 25]),
    chunk_size=st.sampled_from([8, 40]),
)
def test_generated_source_with_its_last_window_taken_as_recovered_keeps_the_invariants(
    language, data, window, chunk_size, cl100k
):
    # as `test_generated_source_parsed_in_windows_has_the_outline_of_one_parse`, where a
    # syntax error is taken as tree-sitter recovered it in its window (the last one, or one
    # grown to four windows)
    text = "\n".join(data.draw(programs(language)) for _ in range(data.draw(st.integers(1, 4))))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(code, "WINDOW_BYTES", window)
        patch.setattr(code, "WHOLE_ON_ERROR_BYTES", 0)
        check_outline(load_detector(resolve_doc_type(language))(text).expand_all(), len(text))
        chunks = OutlineTextSplitter(doc_type=language, chunk_size=chunk_size).split(text)
    assert_source_chunks(text, chunks, cl100k, chunk_size)


def test_a_quote_out_of_place_is_recovered_from_as_in_one_parse():
    # a Ruby string opened by mistake inside a method pairs the file's quotes anew: the
    # whole file's recovery reached back into a method that a window had taken as it was
    text = (
        '\ndef v_(v_______ß)\n    v___ßßßßß = "0\xa0\xa0"\n    v_ß = "00\xa0\xa0𐀀"\nend\n# 00\xa0\xa0\xa0\xa0ࠀ\n'
        'def v_(v_)\n    v_ = "00\xa0ࠀ"\n000000"\nend\nv__ = "0000\xa0\xa0\xa0\xa0\xa0\xa0𐀀"\n# 0000\xa0\xa0\xa0\xa0\n'
        'def v_(v_)\n    v__名 = "00000\xa0\xa0ࠀ"\nend\n'
        '\ndef v_(v_______ß)\n    v___ßßßßß = "00\xa0\xa0\xa0\xa0ࠀ"\n    v_ = ":@\xa0\xa0𐀀"\nend\n'
        '# 00\xa0\xa0\xa0\xa0ࠀ\ndef v_(v_)\n    v_ = ""\nend'
    )
    assert _outline("ruby", text, 5)[0] == _outline("ruby", text, None)[0]


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \n\r\té日😀\ud800")), max_size=300), st.integers(1, 64))
def test_the_line_end_table_holds_every_newline_of_the_source(text, block):
    # blocks of a few bytes here (64 KiB in use), so lines run across them
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outline, "_LINE_END_BLOCK", block)
        source = offsets.encode_source(text)
        ends = outline._line_ends(source)
    data = text.encode("utf-8", "replace")
    assert ends.tolist() == [at for at, byte in enumerate(data) if byte == ord("\n")]
    assert ends.itemsize == 4


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("a\n\n \té日")), max_size=60), st.integers(1, 16))
def test_a_span_spans_enough_lines_where_it_holds_enough_line_ends(text, scan):
    # every span of the text: the first `scan` bytes are counted, the table of line ends
    # searched past them
    source = offsets.encode_source(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outline, "_LINE_SCAN", scan)
        spans_lines = outline.CodeOutline(code.LANGUAGES_BY_NAME["python"], text, source)._spans_lines
        for start in range(len(source) + 1):
            for end in range(start, len(source) + 1):
                expected = source.count(b"\n", start, end) >= outline.MIN_SPLIT_LINES - 1
                assert spans_lines(start, end) == expected, (start, end)
