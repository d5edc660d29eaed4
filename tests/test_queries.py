"""Every queries/*.sql: a header saying what it returns, it parses and binds against the views of
a demo collection, and DuckDB rejects a missing or an extra parameter."""

import re

import duckdb
import pytest

from judgescope.sources import db
from judgescope.sources.catalog import get_catalog
from judgescope.schema import SCHEMAS

COLLECTIONS = ("xhotpotqa", "localgate", "transevalnia")


def _views(sql: str) -> set[str]:
    return set(re.findall(r"(?i)\b(?:from|join)\s+\"?([a-z_]+)\"?", re.sub(r"--[^\n]*", "", sql)))


ROLES = {s.role for s in SCHEMAS.values()} | {"audit_previous", "ledger"}
KNOWN_VIEWS = (ROLES | {f"{r}_{s}" for r in ROLES for s in ("counts", "excluded")}
               | {"hash_verification", "hash_verification_summary", "snapshot_numbered",
                  "audit_record_index", "audit_exact_copies", "audit_exact_copy_summary",
                  "audit_version_overlap", "audit_paired_diffs", "audit_model_provenance_summary"})


def _store_for(name: str):
    """The first demo collection whose store has every view the query reads."""
    wanted = _views(db.query_text(name)) & KNOWN_VIEWS
    cat = get_catalog()
    for coll in COLLECTIONS:
        store = cat.store(coll)
        if wanted <= set(store.views):
            return store
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
