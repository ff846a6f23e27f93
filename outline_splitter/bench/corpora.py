"""The documents the harness splits: the shared corpora, the standard library, a user's folder."""

from __future__ import annotations

import json
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from outline_splitter.bench.peers import BENCH_INSTALL
from outline_splitter.bench.stdlib_modules import stdlib_module_paths
from outline_splitter.registry import FORMATS

# ../shared/corpora beside the source checkout this package is in (the project's CI has it;
# a clone or an installed wheel has not).
SHARED_CORPORA = Path(__file__).resolve().parents[2].parent / "shared" / "corpora"

# The shared corpora: folder name -> doc type.
SHARED_FOLDERS: dict[str, str] = {"markdown": "markdown", "html-spec": "html", "html-web": "html"}
STDLIB_CORPUS = "stdlib"
PLAIN_TEXT_CORPUS = "plain-text"
PLAIN_TEXT_PAGES = "html-web-expected"  # (whose readable text stands in: see benchmarks/plain_text.py)

# Extensions per doc type for formats not (yet) in the registry, so a folder of them can
# still be benchmarked against the peers.
_EXTRA_EXTENSIONS: dict[str, tuple[str, ...]] = {"html": (".html", ".htm"), "python": (".py",)}


@dataclass(frozen=True)
class Document:
    """One file of a corpus, read whole."""

    path: Path
    text: str


@dataclass(frozen=True)
class Corpus:
    """Documents of one doc type, split together and reported as one table."""

    name: str
    doc_type: str
    documents: tuple[Document, ...]

    @property
    def megabytes(self) -> float:
        """The corpus size in MB (10**6 bytes of UTF-8)."""
        return sum(len(doc.text.encode("utf-8")) for doc in self.documents) / 1e6


def extensions_for(doc_type: str) -> tuple[str, ...]:
    """File extensions that belong to `doc_type` (registry first, then the fallback table)."""
    for fmt in FORMATS:
        if doc_type in (fmt.name, *fmt.aliases):
            return fmt.extensions
    return _EXTRA_EXTENSIONS.get(doc_type, ())


def read_documents(paths: list[Path]) -> tuple[Document, ...]:
    """The files read as UTF-8 (undecodable bytes replaced: a benchmark must not stop on one)."""
    return tuple(Document(path, path.read_text(encoding="utf-8", errors="replace")) for path in paths)


def folder_corpus(folder: Path, doc_type: str, name: str | None = None) -> Corpus:
    """Every file under `folder` (recursively) whose extension belongs to `doc_type`;
    all files when the doc type has no known extension."""
    suffixes = extensions_for(doc_type)
    paths = sorted(p for p in folder.rglob("*") if p.is_file() and (not suffixes or p.suffix.lower() in suffixes))
    if not paths:
        raise ValueError(f"no {doc_type} files under {folder}")
    return Corpus(name or folder.name, doc_type, read_documents(paths))


def stdlib_corpus() -> Corpus:
    """The 40 standard-library modules of `STDLIB_MODULES` (any missing on this interpreter are left out)."""
    paths = [path for path in stdlib_module_paths() if path.is_file()]
    return Corpus(STDLIB_CORPUS, "python", read_documents(paths))


# No plain-text corpus ships with the project: the readable text of the html-web-expected
# pages stands in, with its blocks as paragraphs and flattened to one line (as scraped text
# and transcripts come), each as written and lower-cased (as much scraped text comes).
FORMS = ("paragraphs", "flat", "paragraphs, lower case", "flat, lower case")


def plain_texts(form: str, pages: Path) -> list[str]:
    """The plain-text corpus in one of `FORMS` (the pages of `pages`, sorted by name)."""
    from outline_splitter.detectors.html_text import extract_text

    texts = [extract_text(path.read_text(encoding="utf-8")) for path in sorted(pages.glob("*.html"))]
    texts = [" ".join(t.split()) if form.startswith("flat") else t.replace("\n", "\n\n") for t in texts]
    return [t.lower() for t in texts] if form.endswith("lower case") else texts


def plain_text_corpus(shared: Path = SHARED_CORPORA) -> Corpus | None:
    """Plain text, split as `text`: the stand-in corpus (the readable text of the pages of
    html-web-expected, in each of `FORMS`, as `python -m benchmarks.text_speed` splits
    it); None where those pages are missing."""
    folder = shared / PLAIN_TEXT_PAGES
    pages = sorted(folder.glob("*.html"))
    if not pages:
        return None
    documents = [
        Document(page.with_name(f"{page.stem} ({form}).txt"), text)
        for form in FORMS
        for page, text in zip(pages, plain_texts(form, folder), strict=True)
    ]
    return Corpus(PLAIN_TEXT_CORPUS, "text", tuple(documents))


# Data files that installed packages ship (the `ray` extra's configs, schemas and
# dashboards, jsonschema's and setuptools' schemas, markdown-it's port notes), read where
# they are installed: never copied into this repository.
INSTALLED_JSON = (
    "ray/autoscaler/ray-schema.json",
    "ray/autoscaler/_private/_azure/azure-vm-template.json",
    "ray/dashboard/modules/metrics/dashboards/serve_grafana_dashboard_base.json",
    "jsonschema_specifications/schemas/draft202012/metaschema.json",
    "jsonschema_specifications/schemas/draft7/metaschema.json",
    "setuptools/config/setuptools.schema.json",
)
INSTALLED_YAML = ("ray/autoscaler/aws/defaults.yaml", "ray/autoscaler/gcp/defaults.yaml", "markdown_it/port.yaml")
# Realistic documents written for the tests: an OpenAPI spec, a CI workflow, a compose
# file with anchors and merge keys, Kubernetes manifests.
DATA_FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "data"


def installed(relative: Sequence[str]) -> list[Path]:
    """The files of `relative` (paths inside site-packages) that are installed."""
    site = Path(sysconfig.get_paths()["purelib"])
    return [site / path for path in relative if (site / path).is_file()]


def data_corpora() -> list[Corpus]:
    """JSON (the installed packages' JSON files and the OpenAPI fixture as JSON) and YAML
    (the fixtures and the installed packages' YAML files); a corpus without files is left out."""
    try:
        import yaml
    except ImportError as exc:
        raise ImportError(f"the benchmark's JSON and YAML corpora need PyYAML: {BENCH_INSTALL}") from exc

    json_documents = list(read_documents(installed(INSTALLED_JSON)))
    spec_path = DATA_FIXTURES / "petstore.openapi.yaml"
    if spec_path.is_file():
        spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
        json_documents.append(Document(spec_path.with_suffix(".json"), json.dumps(spec, indent=2)))
    yaml_paths = sorted(DATA_FIXTURES.glob("*.y*ml")) + installed(INSTALLED_YAML)
    corpora = [Corpus("json", "json", tuple(json_documents)), Corpus("yaml", "yaml", read_documents(yaml_paths))]
    return [corpus for corpus in corpora if corpus.documents]


def default_corpora(shared: Path = SHARED_CORPORA) -> list[Corpus]:
    """The shared corpora that are present, the plain-text corpus made of one of them,
    the data corpora, then the standard library."""
    corpora = [
        folder_corpus(shared / folder, doc_type, folder)
        for folder, doc_type in SHARED_FOLDERS.items()
        if (shared / folder).is_dir()
    ]
    plain = plain_text_corpus(shared)
    return [*corpora, *([plain] if plain is not None else []), *data_corpora(), stdlib_corpus()]


def missing_shared_corpora(shared: Path = SHARED_CORPORA) -> list[Path]:
    """The folders of `SHARED_FOLDERS` that are not under `shared`."""
    return [shared / folder for folder in SHARED_FOLDERS if not (shared / folder).is_dir()]


def shared_corpus(folder: str, shared: Path = SHARED_CORPORA) -> Path:
    """`shared / folder`, for a script that measures that corpus alone; where it is missing
    (a clone without ../shared), the script stops with a message saying so (`SystemExit`)."""
    path = shared / folder
    if not path.is_dir():
        raise SystemExit(f"{path} is not here: this benchmark reads it (../shared/corpora comes with the project's CI)")
    return path
