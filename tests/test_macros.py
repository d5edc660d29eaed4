"""Issue #14 item 9: db.create_macros creates a macro file only on a connection holding the views
it declares, and any other DuckDB error in a macro file is raised, naming the file."""

import duckdb
import pytest

from judgescope.duck import db


def _macro_dir(tmp_path, text: str):
    (tmp_path / "macros").mkdir()
    (tmp_path / "macros" / "broken.sql").write_text(text, encoding="utf-8")
    return tmp_path


def test_every_macro_file_declares_its_views():
    files = sorted(p.stem for p in (db.QUERIES_DIR / "macros").glob("*.sql"))
    assert files == sorted(db.MACRO_VIEWS) == ["audit", "calibration", "review", "review_bins", "review_rows", "verify"]


def test_a_typo_in_a_macro_is_raised_with_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(db, "QUERIES_DIR", _macro_dir(
        tmp_path, "CREATE MACRO m() AS TABLE SELECT no_such_column FROM audit;"))
    monkeypatch.setitem(db.MACRO_VIEWS, "broken", {"audit"})
    con = duckdb.connect()
    con.execute("CREATE VIEW audit AS SELECT 1 AS score")
    with pytest.raises(db.MacroError, match=r"queries/macros/broken\.sql.*no_such_column"):
        db.create_macros(con)


def test_a_macro_whose_views_are_absent_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(db, "QUERIES_DIR", _macro_dir(
        tmp_path, "CREATE MACRO m() AS TABLE SELECT score FROM audit;"))
    monkeypatch.setitem(db.MACRO_VIEWS, "broken", {"audit"})
    con = duckdb.connect()
    db.create_macros(con)
    assert con.execute("SELECT count(*) FROM duckdb_functions() WHERE function_name = 'm'"
                       ).fetchone()[0] == 0


def test_real_macros_on_a_connection_without_views():
    con = duckdb.connect()
    db.create_macros(con)  # verify.sql needs audit and snapshot_numbered: skipped, not failed
    names = {r[0] for r in con.execute("SELECT function_name FROM duckdb_functions() "
                                       "WHERE function_type IN ('macro', 'table_macro')").fetchall()}
    assert {"review_match", "audit_facet"} <= names and "verify_classified" not in names
