"""Where rows come from: manifest, Hub, readers, validation, cache, view registry, catalog, DuckDB."""
