"""A collection as the pages and the CLI see it: the catalog (opens, builds and serves each
collection's store), its derived tables, the explanation of a query's chain, the export writers,
and a manifest inferred from a folder or file. It stands on ingest/, remote/ and duck/."""
