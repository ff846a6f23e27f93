"""Chunks are made once with their metadata (issue 41): every way of splitting gives
chunks whose metadata cannot be changed afterwards, and `source` is passed in, not set
on the chunks after they are made."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from outline_splitter import OutlineTextSplitter
from outline_splitter.batch import split_many
from outline_splitter.models import Metadata, TextChunk

MARKDOWN = "# Guide\n\nIntro.\n\n" + "".join(
    f"## Part {n}\n\n" + "".join(f"Paragraph {n}.{i} with a few words of its own, and more.\n\n" for i in range(5))
    for n in range(4)
)

MIXES = [
    {},
    {"hierarchy": True},
    {"hierarchy": True, "parents": "outline"},
    {"chunk_overlap": 8},
    {"context_in_budget": True},
]


def _refuses_change(chunk: TextChunk) -> None:
    metadata = chunk.metadata
    before = dict(metadata)
    changes = [
        lambda: metadata.__setitem__("index", 99),
        lambda: metadata.__setitem__("new", 1),
        lambda: metadata.__delitem__("id"),
        lambda: metadata.update(index=99),
        lambda: metadata.setdefault("new", 1),
        lambda: metadata.pop("id"),
        lambda: metadata.popitem(),
        lambda: metadata.clear(),
        lambda: metadata.__ior__({"new": 1}),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert chunk.metadata == before


@pytest.mark.parametrize("options", MIXES)
def test_the_metadata_of_every_chunk_is_read_only(options, tmp_path: Path) -> None:
    splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64, **options)
    path = tmp_path / "guide.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    made = [
        splitter.split(MARKDOWN),
        splitter.split(MARKDOWN, overlap_in_text=True, source="guide"),
        splitter.split_file(path),
    ]
    for chunks in made:
        assert len(chunks) > 2
        for chunk in chunks:
            assert isinstance(chunk.metadata, Metadata)
            _refuses_change(chunk)
    if options.get("hierarchy"):
        assert {chunk.metadata["role"] for chunk in made[0]} == {"parent", "leaf"}


def test_split_many_and_the_pool_give_read_only_metadata(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    for workers in (1, 2):
        results = list(split_many([path, MARKDOWN], workers=workers, chunk_size=64, hierarchy=True))
        assert [result.error for result in results] == [None, None]
        for result in results:
            for chunk in result.chunks:
                _refuses_change(chunk)
        assert all(chunk.metadata["source"] == str(path) for chunk in results[0].chunks)
        assert all("source" not in chunk.metadata for chunk in results[1].chunks)


def test_a_copy_of_a_chunk_keeps_its_metadata_read_only() -> None:
    chunk = OutlineTextSplitter(doc_type="markdown", chunk_size=64).split(MARKDOWN)[1]
    copies = [
        chunk.model_copy(update={"metadata": {**chunk.metadata, "extra": 1}}),
        chunk.model_copy(deep=True),
        copy.deepcopy(chunk),
        pickle.loads(pickle.dumps(chunk)),
        TextChunk.model_validate_json(chunk.model_dump_json()),
        TextChunk(**chunk.model_dump()),
    ]
    assert copies[0].metadata["extra"] == 1
    for made in copies:
        _refuses_change(made)
        assert {key: value for key, value in made.metadata.items() if key != "extra"} == chunk.metadata
    # it is read and written as the dict it is
    assert json.loads(json.dumps(chunk.metadata)) == dict(chunk.metadata)
    assert chunk.model_dump()["metadata"] == dict(chunk.metadata)
    assert {**chunk.metadata, "index": 5}["index"] == 5 and chunk.metadata["index"] == 1


def test_source_is_passed_in_as_split_file_passes_the_path(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    for options in MIXES:
        splitter = OutlineTextSplitter(doc_type="markdown", chunk_size=64, **options)
        from_file = splitter.split_file(path)
        from_text = splitter.split(MARKDOWN, document_id=str(path), source=str(path))
        assert from_file == from_text
        assert all(chunk.metadata["source"] == str(path) for chunk in from_file)
        # the key comes last: after what the hierarchy adds, as it did when it was set afterwards
        assert all(list(chunk.metadata)[-1] == "source" for chunk in from_file)
        assert all("source" not in chunk.metadata for chunk in splitter.split(MARKDOWN))


@pytest.mark.parametrize("source", [3, b"guide.md", Path("guide.md")])
def test_a_source_that_is_no_str_is_refused(source: object) -> None:
    with pytest.raises(ValueError, match="source must be a str"):
        OutlineTextSplitter(doc_type="markdown").split(MARKDOWN, source=source)  # type: ignore[arg-type]
