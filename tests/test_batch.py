"""`split_many`: results in order and identical to `split` one by one, per-item errors,
strict mode, a worker killed mid-run, and an input that is read only as it is used."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from outline_splitter import Document, OutlineTextSplitter, SplitError, SplitResult, batch, split_many
from outline_splitter import pool as pool_module
from outline_splitter.cli import main
from outline_splitter.jobs import Job, Splitters
from outline_splitter.pool import Pool
from tests.conftest import corpus_files

EXIT_WORD = "EXIT-THE-WORKER"
KILL_WORD = "KILL-THE-WORKER"


def lethal_word_count(text: str) -> int:
    """A tokenizer (words) that ends its process on a poisoned text, as a crash or the
    out-of-memory killer would."""
    if EXIT_WORD in text:
        os._exit(3)
    if KILL_WORD in text:
        os.kill(os.getpid(), signal.SIGKILL)
    return len(text.split())


def note(number: int) -> str:
    return f"# Note {number}\n\n" + "A sentence of the note. " * (1 + number % 40) + f"\n\n- item {number}\n- two\n"


def texts(count: int) -> list[str]:
    return [note(number) for number in range(count)]


def expected(item: object, splitter: OutlineTextSplitter) -> list:
    if isinstance(item, Path):
        return OutlineTextSplitter(doc_type="auto").split_file(item)
    if isinstance(item, tuple):
        return OutlineTextSplitter(doc_type=item[1]).split(item[0])
    if isinstance(item, Document):
        return splitter.split(item.page_content)
    return splitter.split(item)


@pytest.fixture
def mixed(tmp_path: Path) -> list[object]:
    """Texts, (text, doc_type) pairs, paths of three formats and documents."""
    (tmp_path / "a.md").write_text("# A\n\nSome text.\n\n```py\nx = 1\n```\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("def f():\n    return 1\n\n\nclass C:\n    pass\n", encoding="utf-8")
    (tmp_path / "c.html").write_text("<h1>T</h1><p>Body <b>bold</b>.</p>", encoding="utf-8")
    items: list[object] = [tmp_path / "a.md", tmp_path / "b.py", tmp_path / "c.html"]
    items += texts(12)
    items += [("def g(x):\n    return x\n", "python"), ("Plain text. Two sentences.", "text")]
    items += [Document(page_content="# Doc\n\nBody.", metadata={"source": "doc-1"})]
    return items


def test_results_come_in_input_order_identical_to_split_one_by_one(mixed: list[object]):
    splitter = OutlineTextSplitter()
    results = list(split_many(mixed, workers=2))
    assert [r.index for r in results] == list(range(len(mixed)))
    for item, result in zip(mixed, results):
        assert result.ok, result.describe()
        assert result.chunks == expected(item, splitter)
    assert results[0].source == str(mixed[0]) and results[0].chunks[0].metadata["source"] == str(mixed[0])
    assert results[-1].source == "doc-1" and results[3].source is None
    assert results == list(split_many(mixed, workers=1))


def test_corpus_files_split_in_a_pool_equal_split_file():
    files = corpus_files("markdown", "*.md")[:40]
    splitter = OutlineTextSplitter(doc_type="auto", chunk_size=128)
    results = list(split_many(files, workers=2, chunk_size=128))
    assert [r.chunks for r in results] == [splitter.split_file(path) for path in files]
    assert sum(len(r.chunks) for r in results) > len(files)


def test_unordered_results_are_the_same_results(mixed: list[object]):
    ordered = list(split_many(mixed, workers=2, chunk_size=64))
    unordered = list(split_many(mixed, workers=2, ordered=False, chunk_size=64))
    assert sorted(unordered, key=lambda r: r.index) == ordered


@pytest.mark.parametrize("workers", [1, 2])
def test_each_bad_item_is_a_result_naming_it_and_the_run_goes_on(tmp_path: Path, workers: int):
    (tmp_path / "bad.md").write_bytes(b"# Bad\n\n\xff\xfe not utf-8\n")
    (tmp_path / "image.bin").write_bytes(b"\x00\x01")
    (tmp_path / "link.md").symlink_to(tmp_path / "gone.md")
    items = [
        "# Fine\n\ntext",
        42,
        tmp_path / "missing.md",
        tmp_path / "bad.md",
        tmp_path / "image.bin",
        tmp_path / "link.md",
        ("text", "klingon"),
        "# Fine too",
    ]
    results = list(split_many(items, workers=workers))
    assert [r.ok for r in results] == [True, False, False, False, False, False, False, True]
    assert results[1].describe().startswith("item 1: TypeError:") and "int" in results[1].describe()
    assert results[2].describe() == f"{tmp_path / 'missing.md'}: no such file or directory"
    assert results[3].error == (
        "cannot decode as utf-8 (byte 7: invalid start byte); decode_errors='replace' reads such bytes as U+FFFD"
    )
    assert "extension" in (results[4].error or "") and results[4].source == str(tmp_path / "image.bin")
    assert results[5].error == "a dangling symbolic link"
    assert (results[6].error or "").startswith("ValueError: doc_type 'klingon' is not known")
    assert all(not r.chunks for r in results if not r.ok)


@pytest.mark.parametrize("workers", [1, 2])
def test_strict_raises_at_the_first_bad_item(tmp_path: Path, workers: int):
    results = split_many(["# ok", tmp_path / "missing.md", "# never reached"], workers=workers, strict=True)
    assert next(results).ok
    with pytest.raises(SplitError, match=r"missing\.md: no such file or directory") as raised:
        next(results)
    assert raised.value.result.index == 1


def test_a_worker_that_dies_fails_its_item_and_a_new_worker_goes_on():
    items = texts(10)
    items[2] += f"\n\n{EXIT_WORD}\n"
    items[6] += f"\n\n{KILL_WORD}\n"
    results = list(split_many(items, workers=2, tokenizer=lethal_word_count, chunk_size=64))
    assert [r.index for r in results] == list(range(10))
    assert results[2].error == "WorkerDied: the worker process exited with code 3"
    assert results[6].error == "WorkerDied: the worker process was killed by SIGKILL"
    splitter = OutlineTextSplitter(tokenizer=lethal_word_count, chunk_size=64)
    for number in (0, 1, 3, 4, 5, 7, 8, 9):
        assert results[number].chunks == splitter.split(items[number])
    assert not multiprocessing.active_children()  # the pool is gone when the iterator is done


@pytest.mark.parametrize("workers", [1, 2])
def test_the_input_is_read_only_as_results_are_taken(workers: int):
    taken: list[int] = []

    def endless() -> Iterator[str]:
        number = 0
        while True:
            taken.append(number)
            yield f"# Doc {number}\n\nSome text."
            number += 1

    results = split_many(endless(), workers=workers)
    first = [next(results) for _ in range(3)]
    assert [r.index for r in first] == [0, 1, 2]
    # in-process: one item per result; a pool: at most its window of 4 items per worker ahead
    assert len(taken) <= (3 if workers == 1 else 3 + 4 * workers)
    results.close()
    assert not multiprocessing.active_children()


def test_finished_results_do_not_pile_up_in_the_parent():
    results = split_many((note(number) for number in range(3000)), workers=2)  # the tokenizer loads here
    tracemalloc.start()
    try:
        count = sum(len(r.chunks) for r in results)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count >= 3000
    # the parent's heap while streaming: about 0.1 MB; holding the 3000 results takes 11 MB
    assert peak < 2_000_000


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_workers_is_a_value_error_naming_it(workers: object):
    with pytest.raises(ValueError, match="workers must be an integer >= 1"):
        split_many(["x"], workers=workers)  # type: ignore[arg-type]


def test_bad_splitter_arguments_fail_at_the_call_not_per_item():
    with pytest.raises(ValueError, match="chunk_size"):
        split_many(["x"], workers=2, chunk_size=0)
    with pytest.raises(ValueError, match="output 'pdf'"):
        split_many(["x"], output="pdf")
    with pytest.raises(ValueError, match="encoding"):
        split_many(["x"], encoding="")


def test_output_applies_to_the_formats_that_have_it():
    items = [("<h1>T</h1><p>Hello <b>world</b>.</p>", "html"), "# Notes\n\nSome *text*."]
    html, markdown = split_many(items, workers=1, output="text")
    assert html.chunks[0].text == "T\nHello world."
    assert markdown.chunks[0].text == "# Notes\n\nSome *text*."


def test_output_text_for_a_format_named_outright_without_it_is_an_error_everywhere(tmp_path: Path, capsys):
    """`doc_type="markdown", output="text"`: the one rule (`SplitterOptions.for_format`) is
    lenient under "auto" only; a batch used to drop the option without a word."""
    message = "output 'text' is not available for doc_type 'markdown'; allowed: source"
    with pytest.raises(ValueError, match=message):
        OutlineTextSplitter(doc_type="markdown", output="text")
    with pytest.raises(ValueError, match=message):
        split_many(["# Notes"], workers=1, doc_type="markdown", output="text")
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n", encoding="utf-8")
    assert main(["split", "--doc-type", "markdown", "--html-output", "text", str(path)]) == 2
    assert message in capsys.readouterr().err
    assert main(["split", "--html-output", "text", str(path)]) == 0  # (auto: Markdown stays source)


def test_a_result_names_itself():
    assert SplitResult(3, None, error="TypeError: no").describe() == "item 3: TypeError: no"
    assert SplitResult(0, "a.md").describe() == "a.md: 0 chunks"


# -- the default workers: this process splits, helpers join once the work pays for them ----


def word_count_noting_pid(text: str) -> int:
    """A tokenizer (words) that notes, once per process, the process it ran in, in the
    file that `SPLIT_PIDS` names."""
    if os.getpid() not in _NOTED:
        _NOTED.add(os.getpid())
        with open(os.environ["SPLIT_PIDS"], "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
    return len(text.split())


_NOTED: set[int] = set()


def exit_at_once(*_: object) -> None:
    """A worker that cannot start (as one whose script re-runs split_many unguarded)."""
    os._exit(5)


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Default workers on 2 cores, one of them idle, helpers started after the first item."""
    monkeypatch.setattr(batch, "default_workers", lambda: 2)
    monkeypatch.setattr(batch, "_HELPERS_AFTER", 0.0)
    monkeypatch.setattr(batch.IdleCores, "since_last", lambda self: 1.0)


@pytest.mark.parametrize("ordered", [True, False])
def test_default_workers_split_here_and_in_a_helper_and_give_one_workers_results(
    mixed: list[object], two_cores: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ordered: bool
):
    pids_file = tmp_path / "pids"
    pids_file.touch()
    monkeypatch.setenv("SPLIT_PIDS", str(pids_file))
    _NOTED.clear()
    items: list[object] = []

    def until_a_helper_splits() -> Iterator[object]:
        """The mixed items, then notes until a second process has split one (a helper
        starts in about a second, more on a busy machine)."""
        for number in itertools.count():
            item = mixed[number] if number < len(mixed) else note(number)
            items.append(item)
            yield item
            if number > len(mixed) + 100 and len(pids_file.read_text(encoding="utf-8").split()) > 1:
                return

    results = list(split_many(until_a_helper_splits(), ordered=ordered, tokenizer=word_count_noting_pid, chunk_size=64))
    assert sorted(r.index for r in results) == list(range(len(items)))
    if ordered:
        assert [r.index for r in results] == list(range(len(items)))
    expected = list(split_many(items, workers=1, tokenizer=word_count_noting_pid, chunk_size=64))
    assert sorted(results, key=lambda r: r.index) == expected
    pids = set((tmp_path / "pids").read_text(encoding="utf-8").split())
    assert str(os.getpid()) in pids and len(pids) == 2  # this process and one helper split
    assert not multiprocessing.active_children()


def test_a_long_batch_is_left_to_the_helpers_once_one_more_is_warm(
    two_cores: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    pids_file = tmp_path / "pids"
    pids_file.touch()
    monkeypatch.setenv("SPLIT_PIDS", str(pids_file))
    monkeypatch.setattr(batch, "_HAND_OVER_AFTER", 0.0)
    _NOTED.clear()
    here: list[int] = []  # jobs split in this process
    run_here = Splitters.run
    monkeypatch.setattr(Splitters, "run", lambda self, job: here.append(1) or run_here(self, job))
    split_here_at_handover: list[int] = []
    items: list[str] = []

    def until_two_helpers_split_then_more() -> Iterator[str]:
        for number in itertools.count():
            items.append(note(number))
            yield items[-1]
            if not split_here_at_handover and len(pids_file.read_text(encoding="utf-8").split()) == 3:
                split_here_at_handover.append(len(here))
            if split_here_at_handover and number > 300 + split_here_at_handover[0]:
                return

    results = list(split_many(until_two_helpers_split_then_more(), tokenizer=word_count_noting_pid, chunk_size=64))
    assert [r.index for r in results] == list(range(len(items)))
    assert results == list(split_many(items, workers=1, tokenizer=word_count_noting_pid, chunk_size=64))
    assert str(os.getpid()) in pids_file.read_text(encoding="utf-8").split()  # it split before
    assert len(here) - len(items) == split_here_at_handover[0]  # ... and not after (workers=1 added one per item)
    assert not multiprocessing.active_children()


def no_start(self: object, size: int) -> None:
    raise AssertionError("a worker was started")


def test_a_short_batch_with_default_workers_starts_no_process(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(batch, "default_workers", lambda: 2)
    monkeypatch.setattr(batch.IdleCores, "since_last", lambda self: 1.0)
    monkeypatch.setattr(Pool, "start", no_start)
    results = list(split_many(texts(5)))
    assert [r.chunks for r in results] == [r.chunks for r in split_many(texts(5), workers=1)]


def test_no_helper_starts_while_no_core_stands_idle(two_cores: None, monkeypatch: pytest.MonkeyPatch):
    looks: list[int] = []

    def busy(self: object) -> float:
        looks.append(1)
        return 0.2  # other sessions keep every core busy

    monkeypatch.setattr(batch.IdleCores, "since_last", busy)
    monkeypatch.setattr(Pool, "start", no_start)
    results = list(split_many(texts(20)))
    assert [r.chunks for r in results] == [r.chunks for r in split_many(texts(20), workers=1)]
    assert len(looks) >= 10  # looked again after every interval (0 s here: every item)


def test_idle_cores_come_from_the_cpu_line_of_proc_stat(tmp_path: Path):
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8\n", encoding="ascii")
    cores = batch.IdleCores(stat)
    stat.write_text("cpu  200 0 200 1450 150 0 0 0 0 0\n", encoding="ascii")  # 800 of 1000 ticks idle
    assert cores.since_last() == pytest.approx(0.8 * (os.cpu_count() or 1))
    assert cores.since_last() is None  # no tick since: cannot tell
    assert batch.IdleCores(tmp_path / "missing").since_last() is None


@pytest.mark.parametrize(
    ("idle", "most", "helpers"), [(None, 3, 3), (0.0, 3, 0), (0.4, 3, 0), (0.5, 3, 1), (1.6, 3, 2), (7.0, 3, 3)]
)
def test_helpers_started_are_the_idle_cores_up_to_the_most(idle: float | None, most: int, helpers: int):
    assert batch._helpers_to_start(idle, most) == helpers


def test_helpers_that_cannot_start_leave_the_work_to_this_process(two_cores: None, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(pool_module, "_serve", exit_at_once)
    results = list(split_many(texts(30)))
    assert [r.chunks for r in results] == [r.chunks for r in split_many(texts(30), workers=1)]
    with pytest.raises(RuntimeError, match="could not start"):  # N workers asked for: no pool is an error
        list(split_many(texts(3), workers=2))


def test_a_worker_that_dies_holding_two_jobs_fails_the_first_and_hands_back_the_second():
    pool = Pool(({"tokenizer": lethal_word_count, "chunk_size": 64}, "utf-8"), depth=2)
    try:
        pool.start(1)
        worker = pool.idle()
        assert worker is not None
        first = Job(0, note(0) + f"\n\n{KILL_WORD}\n", None, None, None)
        second = Job(1, note(1), None, None, None)
        worker.give(first)
        assert pool.idle() is worker  # room for a second job
        worker.give(second)
        results: list[SplitResult] = []
        while not results:
            results = pool.collect()
        assert [(r.index, r.error) for r in results] == [(0, "WorkerDied: the worker process was killed by SIGKILL")]
        assert list(pool.retry) == [second] and not pool.busy()
    finally:
        pool.close()


def test_results_cross_the_pipe_as_tuples_and_come_back_equal():
    chunks = OutlineTextSplitter(chunk_size=32, chunk_overlap=8).split(note(7) * 3)
    result = SplitResult(4, "a.md", chunks)
    packed = pool_module._pack(result)
    assert all(type(row) is tuple for row in packed[3])
    assert pool_module._unpack(packed) == result
    failed = SplitResult(5, None, error="TypeError: no")
    assert pool_module._unpack(pool_module._pack(failed)) == failed


@pytest.mark.parametrize(("given", "used"), [({}, False), ({"encode_in_background": True}, True)])
def test_a_batch_encodes_in_its_processes_not_on_threads_beside_them_unless_asked(given, used):
    splitters = Splitters({"doc_type": "auto", **given}, "utf-8")
    assert splitters.splitter("markdown").options.encode_in_background is used
    assert splitters.splitter("python").options.encode_in_background is used
