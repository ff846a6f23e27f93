# Each target sets itself up: the virtual environment is created and the project
# installed into it when missing or when pyproject.toml changed (a stamp file per set of
# extras). `make demo` installs the core alone; the test tools, front ends, the language
# pack and the benchmark's peers are extras that only the targets needing them install.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CORE_STAMP := $(VENV)/.installed-core
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
RETRIEVAL_STAMP := $(VENV)/.installed-retrieval

.PHONY: demo test lint fuzz conformance bench bench-docs bench-scale bench-retrieval snapshots

# What `make test` (and lint, fuzz, snapshots) install besides the core.
EXTRAS := dev,langchain,llama-index,haystack,ray,stores,languages,markdown-fast
# A download cut short (seen as a hash mismatch) fails one attempt, so up to three are made.
# (The extras are one variable: a comma written inside $(call ...) would split its argument.)
# --no-compile: Python compiles a module when it is first imported; compiling every
# installed module up front was a third of a cold `make demo` (60 -> 39 s, 13 -> 9 s CPU).
PIP_INSTALL = for attempt in 1 2 3; do \
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -e '$(1)' && break; \
	test $$attempt -lt 3 || exit 1; echo "pip install failed; trying again"; done

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(CORE_STAMP): pyproject.toml | $(VENV)/bin/python
	@$(call PIP_INSTALL,.)
	@touch $(CORE_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	@$(call PIP_INSTALL,.[$(EXTRAS)])
	@touch $(STAMP)

# The benchmark's peers are an extra: only `make bench` and `make bench-docs` install them.
$(BENCH_STAMP): pyproject.toml | $(VENV)/bin/python
	@$(call PIP_INSTALL,.[bench])
	@touch $(BENCH_STAMP)

# The retrieval benchmark's model and peers: torch's CPU build goes in first, by itself and
# pinned, so that nothing else pulls torch's CUDA build (gigabytes).
RETRIEVAL_EXTRAS := bench,bench-retrieval
$(RETRIEVAL_STAMP): pyproject.toml | $(VENV)/bin/python
	@$(PY) -m pip install --quiet --disable-pip-version-check --no-compile torch==2.13.0
	@$(call PIP_INSTALL,.[$(RETRIEVAL_EXTRAS)])
	@touch $(RETRIEVAL_STAMP)

# Other projects' test suites as inputs (tests/conformance.py): html5lib-tests, the
# CommonMark spec and JSONTestSuite as the sdists of html5lib 1.1, commonmark 0.9.1 and
# orjson 3.9.15 on PyPI ship them (orjson's built with maturin's wheel, not from source),
# fetched with pip, read in place, never committed. pip prepares an sdist's metadata:
# html5lib's setup.py needs a setuptools that still has pkg_resources (before 81).
CONFORMANCE := $(VENV)/conformance
CONFORMANCE_STAMP := $(CONFORMANCE)/.fetched
$(CONFORMANCE_STAMP): $(STAMP) Makefile
	@mkdir -p $(CONFORMANCE)
	@echo 'setuptools<81' > $(CONFORMANCE)/build-constraints.txt
	@for attempt in 1 2 3; do \
		PIP_CONSTRAINT=$(CONFORMANCE)/build-constraints.txt PIP_BUILD_CONSTRAINT=$(CONFORMANCE)/build-constraints.txt \
		$(PY) -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
			-d $(CONFORMANCE) html5lib==1.1 commonmark==0.9.1 && \
		$(PY) -m pip download --quiet --disable-pip-version-check --no-deps --no-binary orjson \
			-d $(CONFORMANCE) orjson==3.9.15 && break; \
		test $$attempt -lt 3 || exit 1; echo "pip download failed; trying again"; done
	@touch $(CONFORMANCE_STAMP)

demo: $(CORE_STAMP)
	$(PY) -m outline_splitter.demo

test: $(STAMP) $(CONFORMANCE_STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check outline_splitter detectors tests benchmarks
	$(VENV)/bin/ruff format --check outline_splitter detectors tests benchmarks
	$(VENV)/bin/mypy

# Fuzzing split (every doc type, arbitrary text and arguments) for FUZZ_SECONDS, 20
# minutes by default: tests/fuzz.py. A failure it finds becomes an @example in tests/test_fuzz.py.
FUZZ_SECONDS ?= 1200
fuzz: $(STAMP)
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(PY) -m tests.fuzz

# Every input of the suites (tests/conformance.py) in every doc type and option mix, each
# under CONFORMANCE_SECONDS (default 60); prints the counts and the failures by kind.
# OUTLINE_CONFORMANCE_DIR adds the GFM spec, tree-sitter's corpora and yaml-test-suite (its `data`
# branch as OUTLINE_CONFORMANCE_DIR/yaml-test-suite; no PyPI package ships them; `make test` runs a
# committed sample of yaml-test-suite).
conformance: $(STAMP) $(CONFORMANCE_STAMP)
	$(PY) -m tests.conformance $(SUITES)

# On the shared corpora that are there (it names the missing ones) and the stdlib; writes
# the untracked bench-results/. `make bench-docs` writes docs/benchmarks.md and the tracked
# benchmarks/results/latest.* instead.
bench: $(BENCH_STAMP)
	$(PY) -m benchmarks

bench-docs: $(BENCH_STAMP)
	$(PY) -m benchmarks --update-docs

# Retrieval scores (Chroma's chunking benchmark, all-MiniLM-L6-v2 on the CPU, offline; vectors
# cached in bench-results/embeddings/): a table and bench-results/retrieval.png.
# RETRIEVAL_ARGS passes options, e.g. RETRIEVAL_ARGS='--corpora chatlogs wikitexts'.
bench-retrieval: $(RETRIEVAL_STAMP)
	HF_HUB_OFFLINE=1 nice -n 10 $(PY) -m benchmarks --retrieval $(RETRIEVAL_ARGS)

# Synthetic 1-16 MB documents, split_many on 1 and 2 workers, streaming memory: the
# Scaling section of docs/benchmarks.md (`make bench-docs` keeps it).
bench-scale: $(STAMP)
	$(PY) -m benchmarks.scale

# Chunk boundaries of the corpora and some stdlib modules, stored under tests/snapshots/:
# regenerate after a change that moves boundaries on purpose, and review the diff.
snapshots: $(STAMP)
	$(PY) -m tests.boundary_snapshots
