"""The read-only SQL console: DuckDB's parser admits one SELECT, the locked Store refuses file
access and configuration, a timer interrupts long queries, rows are capped (issue #19)."""

import time

import duckdb
import pytest

from judgescope.duck import db
from judgescope.console import sql_console
from judgescope.wiring import get_catalog
from stores import write_select


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = write_select(tmp_path_factory.mktemp("console") / "audit.parquet",
                        "SELECT i AS id, 'th' AS target_language, i % 100 AS score, "
                        "'x' || i AS judge_explanation FROM range(50) t(i)")
    with db.Store({"audit": [path]}) as s:
        yield s


def run(store, sql, **kw):
    return sql_console.run_console(store, sql, **kw)


@pytest.mark.parametrize("sql", [
    "COPY audit TO '/tmp/judgescope-console-leak.csv'",
    "COPY (SELECT 1) TO '/tmp/judgescope-console-leak.csv'",
    "ATTACH '/tmp/judgescope-console.duckdb' AS x",
    "DETACH x",
    "PRAGMA database_list",
    "PRAGMA enable_profiling",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "RESET memory_limit",
    "INSTALL httpfs",
    "LOAD httpfs",
    "CALL pragma_version()",
    "EXPLAIN SELECT 1",
    "CREATE TABLE t AS SELECT 1",
    "CREATE OR REPLACE VIEW audit AS SELECT 1",
    "CREATE MACRO m() AS 1",
    "DROP VIEW audit",
    "INSERT INTO audit VALUES (1)",
    "DELETE FROM audit",
    "UPDATE audit SET score = 0",
    "EXPORT DATABASE '/tmp/judgescope-console-export'",
    "CHECKPOINT",
    "BEGIN TRANSACTION",
    "PREPARE p AS SELECT 1",
    "SELECT 1; SELECT 2",
    "SELECT 1; COPY audit TO '/tmp/judgescope-console-leak.csv'",
    "SELECT 1 /* ; */; ATTACH '/tmp/x.duckdb'",
    "SELECT 1 -- comment\n; SET threads = 1",
    "/* only a comment */",
    "-- SELECT 1",
    "",
    "   ",
    "'; DROP TABLE audit; --",
    "x\") OR 1=1; SELECT * FROM read_csv('/etc/passwd') --",
    "$(rm -rf /)",
    "SELECT " + "1 + " * 10_000 + "1",
])
def test_refused_before_running(store, sql):
    with pytest.raises(db.Refused, match="refused"):
        run(store, sql)


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_blob('/etc/hostname')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    "WITH x AS (SELECT * FROM read_csv_auto('/etc/passwd')) SELECT * FROM x",
    "SELECT * FROM read_parquet('https://example.org/x.parquet')",
])
def test_file_access_inside_a_select_is_refused_by_the_lock(store, sql):
    # glob() lists file names, so the console refuses it before the lock is asked.
    with pytest.raises((duckdb.PermissionException, db.Refused),
                       match="(?i)permission|disabled|access|glob"):
        run(store, sql)


def test_file_names_and_python_variables_are_not_tables(store):
    # A bare file name and a Python DataFrame in the caller's frame would be replacement scans;
    # the Store's enable_external_access = false turns both off.
    secret = __import__("pandas").DataFrame({"k": ["LOCAL"]})  # noqa: F841
    for sql in ("FROM '/etc/passwd'", "SELECT * FROM secret"):
        with pytest.raises(duckdb.CatalogException):
            run(store, sql)
    with pytest.raises(duckdb.CatalogException):  # even from this frame, which holds `secret`
        store.con.cursor().execute("SELECT * FROM secret")


def test_statements_inside_strings_and_comments_are_data(store):
    rows, truncated = run(store, "SELECT '; ATTACH ''/tmp/x.duckdb''; COPY audit TO ''/tmp/y''' AS s"
                                 " -- ; SET threads = 1\n")
    assert rows["s"].tolist() == ["; ATTACH '/tmp/x.duckdb'; COPY audit TO '/tmp/y'"]
    assert not truncated
    assert store.execute_raw("SELECT current_setting('lock_configuration')")[0][0] is True


@pytest.mark.parametrize("sql", ["SELECT 7 AS v; -- done", "SELECT 7 AS v -- tail", "SELECT 7 AS v\n;",
                                 "/* lead */ VALUES (7)", "SELECT 7 AS v /* ; */ ;\n-- x;"])
def test_closing_semicolons_and_comments_are_accepted(store, sql):
    assert run(store, sql)[0].iloc[0, 0] == 7


def test_with_select_values_and_row_cap(store):
    rows, truncated = run(store, "WITH a AS (SELECT * FROM audit) SELECT id FROM a ORDER BY id",
                          max_rows=10)
    assert rows["id"].tolist() == list(range(10)) and truncated
    rows, truncated = run(store, "SELECT count(*) AS n FROM audit;")
    assert rows["n"].tolist() == [50] and not truncated


def test_cartesian_product_is_interrupted_by_the_time_limit(store):
    start = time.perf_counter()
    with pytest.raises(db.Refused, match="longer than 0.5 s"):
        run(store, "SELECT count(*) FROM range(1000000000) a, range(1000000000) b", seconds=0.5)
    assert time.perf_counter() - start < 10
    # The connection still answers afterwards.
    assert run(store, "SELECT 1 AS one")[0]["one"].tolist() == [1]


def test_switch(monkeypatch):
    assert sql_console.enabled({})
    for value in ("off", "OFF", "0", "false"):
        assert not sql_console.enabled({"JUDGESCOPE_SQL": value})
    assert sql_console.enabled({"JUDGESCOPE_SQL": "on"})


def test_demo_collection_views_are_listed():
    columns = get_catalog().store("xhotpotqa").run("console_columns")
    listed = sql_console.schema(columns)
    assert "audit" in listed and any(c.startswith("score ") for c in listed["audit"])
