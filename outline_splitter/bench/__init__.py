"""The benchmark harness (`outline-splitter bench`): outline-splitter and other splitters on the
same documents, one table per corpus. It ships in the package so that `bench --corpus DIR`
runs from an installed wheel; the scripts of the checkout's `benchmarks/` import from it."""
