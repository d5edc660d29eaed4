"""Where rows come from: manifest, Hub, readers, snapshots, validation, cache, view registry, catalog and the DuckDB owner."""
