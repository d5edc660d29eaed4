"""Issue #14 item 14: every DuckDB connection db.py opens has a memory limit, including the
Stores the CLI commands and audit_rows.excluded_raw_rows open without naming one."""

import duckdb

from judgescope.duck import db


def _limit(con) -> str:
    return con.execute("SELECT current_setting('memory_limit')").fetchone()[0]


def _expected(limit: str) -> str:
    con = duckdb.connect()
    con.execute("SET memory_limit = $m", {"m": limit})
    return _limit(con)


def test_a_store_opened_without_a_limit_has_the_default():
    store = db.Store({})
    assert store.execute_raw("SELECT current_setting('memory_limit')")[0][0] == \
        _expected(db.DEFAULT_MEMORY_LIMIT)
    assert _expected(db.DEFAULT_MEMORY_LIMIT) != _limit(duckdb.connect())  # not DuckDB's own


def test_a_scratch_connection_has_the_default():
    assert _limit(db.scratch()) == _expected(db.DEFAULT_MEMORY_LIMIT)


def test_an_explicit_limit_wins():
    assert db.Store({}, memory_limit="256MB").execute_raw(
        "SELECT current_setting('memory_limit')")[0][0] == _expected("256MB")


def test_only_db_opens_duckdb_connections():
    """Issue #14 item 15: the README says db.py opens every connection; keep it true."""
    root = db.QUERIES_DIR.parent / "judgescope"
    openers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                     if "duckdb.connect(" in p.read_text(encoding="utf-8"))
    assert openers == ["duck/db.py"]
