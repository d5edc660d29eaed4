"""Issue #17 item 3: a cache built in one place is used as is in another (a Space's persistent
storage, a cache shipped beside the data): entries are keyed by content hashes only and hold no
absolute path, so a copy with new paths and new mtimes rebuilds nothing."""

import shutil
from pathlib import Path

import duckdb
import pytest

from judgescope.sources import catalog, derived
from judgescope.wiring import TABLES

ROOT = Path(__file__).resolve().parent.parent
COLLECTION = "xhotpotqa"  # validation entries plus every kind of derived table (verify, copies, compare)


def _build(cache: Path, monkeypatch) -> catalog.Catalog:
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(cache))
    cat = catalog.Catalog(catalog.load_manifest(ROOT / "data" / "sources.toml"), providers=TABLES)
    cat.store(COLLECTION)
    return cat


def _strings(cache: Path) -> list[str]:
    """Every text file's content and every VARCHAR value of every Parquet file in the cache."""
    out = [p.read_text(encoding="utf-8") for p in cache.rglob("*.json")]
    con = duckdb.connect()
    for p in cache.rglob("*.parquet"):
        cols = con.execute("SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet($p)) "
                           "WHERE column_type = 'VARCHAR'", {"p": str(p)}).fetchall()
        for (c,) in cols:
            out += [v for (v,) in con.execute(f'SELECT DISTINCT "{c}" FROM read_parquet($p) '
                                              f'WHERE "{c}" IS NOT NULL', {"p": str(p)}).fetchall()]
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    cache = tmp_path_factory.mktemp("built-here") / "cache"
    _build(cache, mp)
    mp.undo()
    return cache


def test_no_absolute_path_inside_the_cache(built):
    values = _strings(built)
    assert len(values) > 100  # the entries were read
    for where in (str(built), str(ROOT), str(Path.home())):
        assert not [v for v in values if where in v], where


def test_a_copied_cache_is_used_without_rebuilding(built, tmp_path, monkeypatch):
    # copyfile: new paths and new mtimes, as after an upload or a Space restart on new storage
    moved = tmp_path / "elsewhere" / "cache"
    shutil.copytree(built, moved, copy_function=shutil.copyfile)
    before = sorted(p.name for p in moved.iterdir())

    def refuse(*args, **kwargs):
        raise AssertionError("rebuilt an entry the copied cache holds")

    monkeypatch.setattr(catalog, "build_dataset", refuse)
    monkeypatch.setattr(derived, "build_derived", refuse)
    cat = _build(moved, monkeypatch)
    assert all(d.ok for d in cat.collection_datasets(COLLECTION))
    assert sorted(p.name for p in moved.iterdir()) == before
    assert int(cat.store(COLLECTION).run("verify_summary")["rows"].sum()) > 0


def test_a_changed_input_is_rebuilt(built, tmp_path, monkeypatch):
    """The relative key still tells a different clean file apart (its folder is its content hash)."""
    moved = tmp_path / "cache"
    shutil.copytree(built, moved, copy_function=shutil.copyfile)
    for entry in moved.glob("verify-*"):
        shutil.rmtree(entry)
    calls = []
    real = derived.build_derived
    monkeypatch.setattr(derived, "build_derived", lambda *a: calls.append(a) or real(*a))
    _build(moved, monkeypatch)
    assert len(calls) == 1
