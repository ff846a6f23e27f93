"""`python -m outline_splitter`: the same command line as `outline-splitter`."""

from outline_splitter.cli import main

raise SystemExit(main())
