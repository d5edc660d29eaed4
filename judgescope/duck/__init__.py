"""DuckDB and its disk, the bottom of the data rooms: connections with a memory limit, the named
queries, the locked views and their one registry, the query tracer, the sealed on-disk cache,
build progress, and the checks on what the SQL console may run. It imports nothing above it."""
