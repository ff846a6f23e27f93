"""`python -m benchmarks`: the benchmark harness (see `outline_splitter.bench.harness`)."""

from outline_splitter.bench.harness import main

raise SystemExit(main())
