"""Hardening, part 3: the SQL console cannot write or balloon (hostile fixtures built here)."""

import os
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgescope.duck import console_guard

from judgescope.duck import db

from judgescope.sources import exports
from judgescope.console import sql_console
from stores import write_select


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("console3")
    spill, data = root / "spill", root / "data"
    spill.mkdir()
    data.mkdir()
    path = write_select(data / "audit.parquet",
                        "SELECT i AS id, 'th' AS target_language, i % 100 AS score FROM range(50) t(i)")
    return root, spill, path


@pytest.fixture(scope="module")
def store(folders):
    _, spill, path = folders
    with db.Store({"audit": [path]}, temp_dir=spill) as s:
        yield s


def listing(root: Path) -> dict:
    return {str(p): (p.stat().st_size if p.is_file() else None) for p in root.rglob("*")}


@pytest.mark.parametrize("sql", [
    "WITH x AS (COPY (SELECT 1) TO '{spill}/f.csv') SELECT 1",
    "WITH x AS (COPY (SELECT repeat('x', 100) FROM range(10)) TO '{spill}/g.csv') SELECT * FROM x",
    "WITH a AS (SELECT 1), x AS (COPY (SELECT * FROM a) TO '{spill}/h.parquet') SELECT 1",
    "SELECT * FROM (WITH x AS (COPY (SELECT 1) TO '{spill}/i.csv') SELECT 1)",
    "WITH x AS (INSERT INTO audit VALUES (1, 'th', 2) RETURNING *) SELECT 1",
    "SELECT * FROM query('COPY (SELECT 1) TO ''{spill}/j.csv''')",
])
def test_writes_hidden_inside_a_select_are_refused(store, folders, sql):
    root, spill, _ = folders
    before = listing(root)
    with pytest.raises(db.Refused, match="refused"):
        sql_console.run_console(store, sql.format(spill=spill))
    assert listing(root) == before


def test_the_console_connection_has_no_spill_folder(store, folders):
    # Even a plan that got past the checks could not write: the console's connection has no
    # temp directory, and reading back the Store's spill folder is refused by the lock.
    _, spill, _ = folders
    (spill / "planted.csv").write_text("a\n1\n")
    try:
        with pytest.raises(duckdb.PermissionException):
            sql_console.run_console(store, f"SELECT * FROM read_csv('{spill}/planted.csv')")
    finally:
        (spill / "planted.csv").unlink()


@pytest.mark.parametrize("sql", [
    "SELECT current_setting('temp_directory')",
    "SELECT current_setting('extension_directory')",
    "SELECT * FROM duckdb_settings()",
    "SELECT sql FROM duckdb_views()",
    "SELECT * FROM duckdb_extensions()",
    "SELECT * FROM duckdb_databases()",
    "SELECT * FROM information_schema.views",
    "SELECT sql FROM sqlite_master",
    "SELECT * FROM pragma_database_list",
    "SELECT * FROM duckdb_temporary_files()",
])
def test_settings_and_catalogue_functions_are_refused(store, sql):
    with pytest.raises(db.Refused, match="refused"):
        sql_console.run_console(store, sql)


def test_error_text_names_no_server_path(store, folders):
    root, _, path = folders
    with pytest.raises(duckdb.Error) as err:
        sql_console.run_console(store, f"SELECT * FROM read_csv('{root}/nothing/here.csv')")
    assert str(root) not in str(err.value)
    assert console_guard.redact(f"Cannot open {path}: no") == "Cannot open <server path>: no"


def test_a_wide_result_is_cut_by_the_byte_cap_while_fetching(store):
    # 700 rows of 1 MB each fit the row cap; the byte cap stops the fetch at 50 MB.
    rows, truncated = sql_console.run_console(
        store, "SELECT repeat('x', 1000000) || i AS s FROM range(700) t(i)", seconds=300)
    assert truncated == "bytes"
    assert 0 < len(rows) < 700
    assert rows.s.str.len().sum() <= sql_console.BYTE_CAP
    assert "byte cap" in sql_console.truncation_note(truncated, len(rows))


def test_the_row_cap_is_named():
    assert "row cap" in sql_console.truncation_note("rows", 5000)
    assert sql_console.truncation_note(None, 5) is None
    prov = sql_console.provenance_filters("SELECT 1", "bytes")
    assert prov["truncated"] is True and prov["truncated_by"] == "bytes"


def test_a_huge_single_value_is_stopped(store):
    with pytest.raises((db.Refused, duckdb.OutOfMemoryException), match="(?i)stopped|memory"):
        sql_console.run_console(store, "SELECT repeat('x', 1500000000) AS s", seconds=5)


def test_the_wall_limit_includes_fetching(store):
    # A cheap-to-plan query whose rows take long to produce: stopped at the limit.
    with pytest.raises(db.Refused, match="longer than 1 s"):
        sql_console.run_console(store, "SELECT count(*) FROM range(100000000000)", seconds=1)


def test_result_cache_is_bounded_in_bytes():
    cache = sql_console.ResultCache(max_bytes=3_000_000)
    frame = pd.DataFrame({"s": ["x" * 1000] * 1000})  # about 1 MB
    result = sql_console.console_worker.ConsoleResult(frame, None)
    for key in range(10):
        cache.put(key, result)
    assert cache.size <= 3_000_000
    assert cache.get(0) is None and cache.get(9) is result
    cache.put("huge", sql_console.console_worker.ConsoleResult(
        pd.DataFrame({"s": ["x" * 4_000_000]}), None))
    assert cache.get("huge") is None and cache.size <= 3_000_000


def test_exported_column_names_are_neutralised():
    frame = pd.DataFrame({'=HYPERLINK("http://x","y")': [1], "+cmd": ["=1+1"], "ok": ["a"]})
    header = exports.csv_bytes(frame).decode().splitlines()[0]
    assert header.startswith("\"'=HYPERLINK") and ",'+cmd," in header
    assert "'=1+1" in exports.csv_bytes(frame).decode()


def test_examples_name_views_the_collection_has():
    assert [label for label, _ in sql_console.examples({"audit": []})][0] == \
        "Rows and mean score per language"
    assert [label for label, _ in sql_console.examples({"ranking": []})] == \
        ["First 20 rows of ranking", "Columns of ranking summarised"]
    assert sql_console.examples({"ledger": []}) == []


SAFE_PARTS = st.sampled_from([
    "SELECT 1", "SELECT count(*) FROM audit", "SELECT * FROM audit LIMIT 3", "VALUES (1), (2)",
    "SELECT score FROM audit ORDER BY score DESC", "DESCRIBE audit", "SUMMARIZE audit",
])
HOSTILE = st.sampled_from([
    "COPY (SELECT 1) TO '{p}/a.csv'", "EXPORT DATABASE '{p}/e'", "ATTACH '{p}/x.db' AS x",
    "CREATE TABLE t AS SELECT 1", "SELECT * FROM read_csv('{p}/a.csv')",
    "INSERT INTO audit VALUES (1, 'th', 1)", "SET temp_directory = '{p}'",
    "SELECT current_setting('temp_directory')", "SELECT * FROM query('SELECT 1')",
])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(SAFE_PARTS, HOSTILE), min_size=1, max_size=3),
       st.sampled_from(["WITH x AS ({}) SELECT * FROM x", "{}", "SELECT * FROM ({})", "{};"]))
def test_any_accepted_sql_leaves_the_file_system_unchanged(store, folders, parts, shape):
    root, spill, _ = folders
    cache = Path(os.environ.get("JUDGESCOPE_CACHE", Path.home() / ".cache" / "judgescope"))
    sql = shape.format(" UNION ALL ".join(parts)).replace("{p}", str(spill))
    before, cache_before = listing(root), listing(cache) if cache.exists() else {}
    try:
        sql_console.run_console(store, sql, seconds=10)
    except (db.Refused, duckdb.Error):
        pass
    assert listing(root) == before
    assert (listing(cache) if cache.exists() else {}) == cache_before


@pytest.mark.parametrize("collection", ["xhotpotqa", "transevalnia", "localgate"])
def test_every_example_query_of_a_demo_collection_runs(collection):
    from judgescope.wiring import get_catalog

    store = get_catalog().store(collection)
    listed = sql_console.examples(sql_console.schema(store.run("console_columns")))
    assert listed
    for label, sql in listed:
        rows, _ = sql_console.run_console(store, sql, seconds=120)
        assert len(rows), label


@pytest.mark.parametrize("sql", ["SELECT * FROM sqlite_scan('a.db', 't')",
                                 "SELECT * FROM read_xlsx('a.xlsx')",
                                 "SELECT * FROM st_read('a.shp')"])
def test_extension_error_text_names_no_server_path(store, sql):
    with pytest.raises((duckdb.Error, db.Refused)) as err:
        sql_console.run_console(store, sql)
    text = str(err.value)
    assert str(Path.home()) not in text and "/root" not in text and "/tmp/" not in text
