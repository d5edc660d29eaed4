"""Every queries/*.sql: a header saying what it returns, it parses and binds against the views of
a demo collection, and DuckDB rejects a missing or an extra parameter."""

import functools
import re

import duckdb
import pytest

from judgescope.duck import db
from judgescope import wiring
from judgescope.wiring import get_catalog

COLLECTIONS = ("xhotpotqa", "localgate", "transevalnia")


def _views(sql: str) -> set[str]:
    return set(re.findall(r"(?i)\b(?:from|join)\s+\"?([a-z_]+)\"?", re.sub(r"--[^\n]*", "", sql)))


KNOWN_VIEWS = set(wiring.VIEWS.by_name)  # the one registry of views (tests/test_views.py)


@functools.lru_cache(maxsize=1)
def _ratings_store():
    """The demo has no long-format ratings: a tiny collection built here (2 items × 3 raters)."""
    import json
    import tempfile
    from pathlib import Path

    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    folder = Path(tempfile.mkdtemp(prefix="ratings-queries-"))
    rows = [{"item_id": f"i{i}", "rater": f"r{r}", "score": float(i + r), "verdict": "minor"}
            for i in range(2) for r in range(3)]
    (folder / "ratings.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    (folder / "m.toml").write_text('[[collection]]\nname = "r"\ndatasets = ["ratings"]\n'
                                   '[[dataset]]\nname = "ratings"\nkind = "human_ratings"\n'
                                   'path = "ratings.jsonl"\n')
    return Catalog(load_manifest(folder / "m.toml"), providers=TABLES).store("r")


def _store_for(name: str):
    """The first demo collection whose store has every view the query reads, a lazy table's
    built (store.ready, as Store.run would; execute_raw below builds nothing)."""
    wanted = _views(db.query_text(name)) & KNOWN_VIEWS
    cat = get_catalog()
    for coll in COLLECTIONS:
        store = cat.store(coll)
        if all(store.has(v) for v in wanted):
            store.ready(db.query_text(name))
            return store
    if wanted <= set(_ratings_store().views):
        return _ratings_store()
    pytest.fail(f"{name}.sql: no demo collection has the views {sorted(wanted)}")


@pytest.mark.parametrize("name", db.query_names())
def test_query_has_a_header_comment(name):
    first = db.query_text(name).lstrip().splitlines()[0]
    assert first.startswith("--") and len(first) > 10, f"{name}.sql needs a header comment"


@pytest.mark.parametrize("name", db.query_names())
def test_query_parses_and_binds(name):
    store = _store_for(name)
    store.execute_raw(f"PREPARE q_{name} AS {db.query_text(name).rstrip().rstrip(';')}")
    store.execute_raw(f"DEALLOCATE q_{name}")


@pytest.mark.parametrize("name", [n for n in db.query_names() if db.query_params(n)])
def test_missing_parameter_is_rejected(name):
    store = _store_for(name)
    with pytest.raises(duckdb.InvalidInputException, match="(?i)param"):
        store.run(name)


@pytest.mark.parametrize("name", db.query_names())
def test_extra_parameter_is_rejected(name):
    store = _store_for(name)
    # DuckDB names the surplus value when the query has parameters, and a count mismatch when
    # it has none.
    error = duckdb.InvalidInputException if db.query_params(name) else duckdb.BinderException
    with pytest.raises(error, match="(?i)param"):
        store.run(name, **{p: None for p in db.query_params(name)}, not_a_parameter=1)


def test_unknown_query_names_are_refused():
    for bad in ("read_csv('/etc/passwd')", "../app", "ledger_rows; DROP", "Ledger_rows"):
        with pytest.raises(db.UnknownQuery):
            db.query_text(bad)
