"""Hostile prebuilt caches (issue #39 item 10): whoever can push to a published cache writes its
prebuilt.json, so a view name, a file name or a report from it never reaches DuckDB unchecked,
unquoted or before the connection is locked. Each cache is built here, in fsspec's memory
filesystem (no network); the checks name prebuilt.json and where in it."""

import copy
import json
import uuid
from pathlib import Path

import duckdb
import pytest
from fsspec.implementations.memory import MemoryFileSystem

from judgescope import wiring
from judgescope.console import sql_console
from judgescope.duck import cache, db

from judgescope.remote import prebuilt as remote
from judgescope.ingest.manifest import SourceError


def _parquet(path: Path, sql: str = "SELECT 1 AS aaaa") -> Path:
    con = duckdb.connect()
    con.execute(f"COPY ({sql}) TO $p (FORMAT parquet)", {"p": str(path)})
    con.close()
    return path


def _report(name: str) -> dict:
    return {"dataset": name, "kind": "judge_audit", "rows_loaded": 1, "rows_used": 1, "rows_excluded": 0,
            "unreadable_lines": 0, "reasons": {}, "columns_missing": [], "columns_extra": [],
            "files": [{"file": "a.jsonl", "sha256": "0" * 64, "size": 3}], "title": "A"}


@pytest.fixture
def published(tmp_path):
    """(memory filesystem, URL, a valid index) of a one-view cache."""
    path = _parquet(tmp_path / "ledger.parquet")
    mem, url = MemoryFileSystem(), f"memory:///cache-{uuid.uuid4().hex}"
    mem.pipe(f"{url}/l/ledger.parquet", path.read_bytes())
    with path.open("rb") as fh:
        seal = {"size": path.stat().st_size, "footer_sha256": cache.footer_sha256(fh, path.stat().st_size)}
    index = {"format": remote.FORMAT, "judgescope": "x", "datasets": {"d": _report("d")},
             "collections": {"c": {"views": {"ledger": ["l/ledger.parquet"]}, "verify_problems": []}},
             "files": {"l/ledger.parquet": seal}}
    return mem, url, index


def _publish(mem, url, index) -> None:
    mem.pipe(f"{url}/{remote.INDEX}", json.dumps(index).encode() if not isinstance(index, bytes) else index)


def test_a_valid_hand_built_cache_opens(published):
    mem, url, index = published
    _publish(mem, url, index)
    with remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name) as store:
        assert store.execute_raw("SELECT aaaa FROM ledger") == [(1,)]
        with pytest.raises(db.Refused, match="reads a local cache only"):  # said, not a file-access error
            sql_console.run_console(store, "SELECT * FROM ledger", 10, 10.0)


def test_a_view_name_that_would_copy_to_a_file_is_refused_and_writes_nothing(published, tmp_path, monkeypatch):
    mem, url, index = published
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "x.csv"
    hostile = f"zz\" AS SELECT 1; COPY (SELECT 42 AS x) TO '{target}'; CREATE VIEW \"zz2"
    index["collections"]["c"]["views"][hostile] = ["l/ledger.parquet"]
    _publish(mem, url, index)
    declared = r"prebuilt\.json: collections\.c\.views: .* is not a view JudgeScope declares"
    with pytest.raises(SourceError, match=declared):
        remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name)
    assert not target.exists() and not list(tmp_path.glob("*.csv"))


def test_the_connection_refuses_undeclared_names_and_quotes_every_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _parquet(tmp_path / "v.parquet")
    hostile = "zz\" AS SELECT 1; COPY (SELECT 42 AS x) TO 'x.csv'; CREATE VIEW \"zz2"
    with pytest.raises(db.UndeclaredView, match="not declared"):
        db.Store({hostile: [path]})
    con = db.scratch()  # the quoting alone: the name is one identifier, whatever it holds
    con.execute(db.view_sql(hostile, [path]))
    assert con.execute(f"SELECT aaaa FROM {db.ident(hostile)}").fetchall() == [(1,)]
    assert not (tmp_path / "x.csv").exists()
    assert db.ident('a"b') == '"a""b"'


def test_views_are_created_on_an_already_locked_connection(tmp_path, monkeypatch):
    """A view's definition runs after allowed_paths and enable_external_access: one that reads
    another file (as a hostile index's view could, reading the server's environment file) fails."""
    allowed, secret = _parquet(tmp_path / "ledger.parquet"), tmp_path / "secret.env"
    secret.write_text("HF_TOKEN=hf_secret\n")
    real = db.view_sql
    monkeypatch.setattr(db, "view_sql", lambda view, paths: (
        f"CREATE VIEW {db.ident(view)} AS SELECT * FROM read_text({db.sql_path(secret)})"))
    with pytest.raises(duckdb.PermissionException, match="disabled by configuration"):
        db.locked_connection({"ledger": [allowed]}, "256MB", spill=False)
    monkeypatch.setattr(db, "view_sql", real)
    con = db.locked_connection({"ledger": [allowed]}, "256MB", spill=False)
    assert con.execute("SELECT aaaa FROM ledger").fetchall() == [(1,)]  # allowed files still read
    with pytest.raises(duckdb.Error):
        con.execute("SET enable_external_access = true")


def _set(index, dotted: str, value):
    node = index
    *path, last = dotted.split(".", 1) if dotted.startswith("files.") else dotted.split(".")
    for key in path:
        node = node[key]
    node[last] = value
    return index


HOSTILE = [
    ("views as a string", lambda i: _set(i, "collections.c.views", "ledger"),
     r"collections\.c\.views is missing or not an object"),
    ("a view's files as a string", lambda i: _set(i, "collections.c.views.ledger", "l/ledger.parquet"),
     r"collections\.c\.views\.ledger is not a non-empty list"),
    ("rows as text", lambda i: _set(i, "datasets.d.rows_used", "1"),
     r"datasets\.d\.rows_used is text, not a whole number"),
    ("a negative count", lambda i: _set(i, "datasets.d.rows_loaded", -5), r"datasets\.d\.rows_loaded is a JSON int"),
    ("a report that is a list", lambda i: _set(i, "datasets.d", [1]), r"datasets\.d is not an object"),
    ("a file outside the cache", lambda i: _set(i, "collections.c.views.ledger", ["../../etc/passwd"]),
     r"names a file outside the cache"),
    ("an absolute file", lambda i: _set(i, "collections.c.views.ledger", ["/etc/passwd"]), "outside the cache"),
    ("a file with no seal", lambda i: _set(i, "collections.c.views.ledger", ["l/other.parquet"]),
     "has no size and footer digest"),
    ("a seal that is not a digest", lambda i: _set(i, "files.l/ledger.parquet", {"size": 1, "footer_sha256": "x"}),
     "64 hex digits"),
    ("an index that is a list", lambda i: [i], "holds a JSON list"),
    ("an older format", lambda i: _set(i, "format", 1), "format is '1', not 2"),
    ("no files", lambda i: {k: v for k, v in i.items() if k != "files"}, "files is missing"),
]


@pytest.mark.parametrize("what,edit,message", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_malformed_index_is_refused_naming_where(published, what, edit, message):
    mem, url, index = published
    _publish(mem, url, edit(copy.deepcopy(index)))
    with pytest.raises(SourceError, match=message) as err:
        remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name)
    assert str(err.value).startswith("prebuilt.json")


def test_a_deep_array_is_refused_without_a_traceback(published):
    mem, url, index = published
    deep = json.dumps(index).replace('"verify_problems": []', '"verify_problems": ' + "[" * 100_000 + "]" * 100_000)
    _publish(mem, url, deep.encode())
    with pytest.raises(SourceError, match=r"prebuilt\.json nests too deep"):
        remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name)


def test_hf_in_capitals_is_held_to_the_pinned_commit():
    for url in ("HF://datasets/org/cache@main", "Hf://datasets/org/cache", " hf://datasets/org/cache@main"):
        with pytest.raises(SourceError, match="pinned commit"):
            remote.check_url(url)


def _edit_footer(data: bytes) -> bytes:
    """The same bytes with the footer's created_by text changed (same size, still Parquet)."""
    footer = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    at = data.rindex(b"version")
    assert at > footer
    return data[:at] + b"VERSION" + data[at + 7:]


def test_a_same_size_footer_edit_is_caught_in_a_published_cache(published):
    mem, url, index = published
    _publish(mem, url, index)
    path = f"{url}/l/ledger.parquet"
    mem.pipe(path, _edit_footer(mem.cat_file(path)))
    with pytest.raises(SourceError, match="file l/ledger.parquet: its Parquet footer differs"):
        remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name)
    mem.pipe(path, b"PAR1")
    with pytest.raises(SourceError, match=r"file l/ledger.parquet: 4 bytes, but prebuilt\.json recorded"):
        remote.open_store(url, "c", mem, derived=wiring.VIEWS.by_name)


def test_a_same_size_footer_edit_is_caught_by_the_local_seal(tmp_path):
    folder = tmp_path / "entry"
    folder.mkdir()
    path = _parquet(folder / "clean.parquet")
    cache.seal(folder)
    assert cache.damage(folder) is None
    path.write_bytes(_edit_footer(path.read_bytes()))
    assert cache.parquet_ok(path)  # still readable: only the seal can tell
    assert cache.damage(folder) == "clean.parquet was changed (its Parquet footer differs; same size)"
