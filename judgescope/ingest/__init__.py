"""Files read into validated tables: the manifest (sources.toml), where a dataset's files are,
what kind each is, the readers (JSON lines, CSV, Parquet, nested snapshots and, in importers/,
the files other evaluation tools write), validation with its ledger, and the build that writes
a dataset's cache entry."""
