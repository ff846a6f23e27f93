"""`python -m benchmarks`: the benchmark harness (see `benchmarks.harness`)."""

from benchmarks.harness import main

raise SystemExit(main())
