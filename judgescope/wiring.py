"""The composition root: the derived tables every domain declares (each in its own module, as
data, with no registration at import), gathered in one literal tuple in build order, and the
catalog, store and process-wide catalog the app and the CLI open with them. It stands above the
domains and below the two faces (tests/test_layout.py); nothing here is imported by name."""

from __future__ import annotations

from pathlib import Path

from judgescope.audit import interval_tables, record_tables
from judgescope.integrity import verification_tables
from judgescope.sources import catalog as _catalog, derived

# Build order: a table reads the views of those before it (the exact copies carry the texts of
# the rows the hash verification joined). Each domain lists its own tables, in its order, so a
# new table of a domain is one declaration in its module, its views with it.
TABLES = (*verification_tables.TABLES, *record_tables.TABLES, *interval_tables.TABLES)
# Every view a query can read: duck/views.py's and those the tables above declare.
VIEWS = derived.registry(TABLES)


def catalog(manifest, **options) -> _catalog.Catalog:
    """A catalog of `manifest` building the domains' derived tables (options: Catalog's)."""
    return _catalog.Catalog(manifest, providers=TABLES, **options)


def get_catalog(path: Path | str | None = None) -> _catalog.Catalog:
    """The process-wide catalog of the active manifest, with the domains' derived tables."""
    return _catalog.get_catalog(path, providers=TABLES)


def open_store(roles, key: list[str] | None = None):
    """A store over datasets the CLI loaded, with the domains' derived tables (catalog.open_store)."""
    return _catalog.open_store(roles, key, providers=TABLES)
