"""One visitor's upload never holds up another visitor's pages (issue #39 item 11): a build runs
under its own entry's lock, in the visitors' lane, while loaded datasets are read without any
lock; uploads are capped by rows and uncompressed bytes as well as bytes; an upload is forgotten
(catalog, cache entries, file) when its session ends or beyond the process's MAX_UPLOADS."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path

import pytest

from judgescope.sources import catalog as catalog_module
from judgescope.wiring import TABLES
from judgescope.duck import db
from judgescope.remote import upload
from judgescope.duck.cache import cache_root
from judgescope.sources.catalog import Catalog
from judgescope.ingest.manifest import SourceError, load_manifest

ROWS = "".join(json.dumps({"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment",
                           "score": 50 + i}) + "\n" for i in range(6))
WAIT = 120  # seconds: a bound on waiting, never a timing assertion


@pytest.fixture(autouse=True)
def fresh_uploads(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(upload, "_UPLOADS", OrderedDict())
    monkeypatch.delenv("JUDGESCOPE_ALLOW_UPLOAD", raising=False)
    monkeypatch.delenv("SPACE_ID", raising=False)


@pytest.fixture
def catalog(write_manifest, tmp_path):
    """Two manifest collections, each one audit: `one` and `two`."""
    for name in ("one", "two"):
        (tmp_path / f"{name}.jsonl").write_text(ROWS)
    text = "".join(f'[[collection]]\nname = "{n}"\ndatasets = ["{n}"]\n\n[[dataset]]\nname = "{n}"\n'
                   f'kind = "judge_audit"\npath = "{n}.jsonl"\n\n' for n in ("one", "two"))
    return Catalog(load_manifest(write_manifest(text)), providers=TABLES)


def _parquet(path: Path, rows: int) -> bytes:
    con = db.scratch()
    con.execute(f"COPY (SELECT 'r' || (i % 1000) AS judge_record_id, 'de' AS target_language, "
                f"'segment' AS unit, 50 AS score FROM range({rows}) t(i)) TO {db.sql_path(path)} "
                "(FORMAT parquet, COMPRESSION zstd)")
    con.close()
    return path.read_bytes()


def _count(store) -> int:
    return store.execute_raw("SELECT count(*) FROM audit")[0][0]


def _run(target) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def body():
        try:
            out["value"] = target()
        except Exception as err:  # noqa: BLE001 - handed to the test, which asserts on it
            out["error"] = err
    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    return thread, out


def test_a_held_upload_build_does_not_block_another_collection(catalog, monkeypatch):
    catalog.store("one")  # loaded before the upload: read without any lock
    name = upload.add_upload(catalog, "slow.jsonl", ROWS.encode())
    entered, release = threading.Event(), threading.Event()
    real = catalog_module.build_dataset

    def held(spec, *args):
        if spec.name == name:
            entered.set()
            release.wait(WAIT)
        return real(spec, *args)
    monkeypatch.setattr(catalog_module, "build_dataset", held)
    builder, built = _run(lambda: catalog.dataset(name))
    try:
        assert entered.wait(WAIT), "the upload's build never started"
        reader, read = _run(lambda: (catalog.roles("one"), _count(catalog.store("one")),
                                     _count(catalog.store("two"))))  # two: built now
        reader.join(WAIT)
        assert not reader.is_alive(), "another collection's read waited for the upload's build"
        assert "error" not in read, read.get("error")
        assert builder.is_alive()  # the upload's build is still held
        assert read["value"][1:] == (6, 6)
    finally:
        release.set()
        builder.join(WAIT)
    assert built["value"].ok and built["value"].report["rows_used"] == 6


def test_the_same_dataset_is_built_once_by_concurrent_readers(catalog, monkeypatch):
    calls = []
    real = catalog_module.build_dataset
    gate = threading.Event()

    def counted(spec, *args):
        calls.append(spec.name)
        gate.wait(WAIT)
        return real(spec, *args)
    monkeypatch.setattr(catalog_module, "build_dataset", counted)
    threads = [_run(lambda: catalog.dataset("one")) for _ in range(3)]
    gate.set()
    for thread, _ in threads:
        thread.join(WAIT)
    assert calls == ["one"] and all(out["value"].ok for _, out in threads)


def test_a_parquet_with_more_rows_than_the_cap_is_refused_naming_the_cap(catalog, tmp_path):
    """The red team's 7.5 MB file of 20,000,000 rows, at the default cap: refused before it is kept."""
    data = _parquet(tmp_path / "many.parquet", 20_000_000)
    assert len(data) < upload.max_bytes()
    with pytest.raises(SourceError, match=r"file many\.parquet: 20,000,000 rows, over the upload cap of "
                                          r"2,000,000 rows \(JUDGESCOPE_UPLOAD_MAX_ROWS\): not validated"):
        upload.add_upload(catalog, "many.parquet", data)
    assert not list((cache_root() / "uploads").rglob("*.parquet"))  # nothing kept
    assert len(catalog.manifest.collections) == 2


def test_text_rows_and_uncompressed_bytes_are_capped(catalog, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_UPLOAD_MAX_ROWS", "5")
    with pytest.raises(SourceError, match=r"6 rows, over the upload cap of 5 rows"):
        upload.add_upload(catalog, "six.jsonl", ROWS.encode())
    monkeypatch.setenv("JUDGESCOPE_UPLOAD_MAX_ROWS", "100")
    monkeypatch.setenv("JUDGESCOPE_UPLOAD_MAX_UNCOMPRESSED_BYTES", "100")
    with pytest.raises(SourceError, match=r"bytes uncompressed, over the upload cap of 100 bytes "
                                          r"\(JUDGESCOPE_UPLOAD_MAX_UNCOMPRESSED_BYTES\)"):
        upload.add_upload(catalog, "six.jsonl", ROWS.encode())
    monkeypatch.delenv("JUDGESCOPE_UPLOAD_MAX_UNCOMPRESSED_BYTES")
    assert catalog.dataset(upload.add_upload(catalog, "six.jsonl", ROWS.encode())).ok


def test_a_hub_open_is_capped_before_its_build(catalog, monkeypatch, tmp_path):
    """A dataset with limits (as hub_open.open_dataset sets them) is measured before validation."""
    from judgescope.remote import hub_open

    monkeypatch.setenv("JUDGESCOPE_HUB_OPEN_MAX_ROWS", "3")
    catalog.limits["two"] = hub_open.caps()
    loaded = catalog.dataset("two")
    assert not loaded.ok
    assert "file two.jsonl: 6 rows, over the Hub open cap of 3 rows (JUDGESCOPE_HUB_OPEN_MAX_ROWS)" in loaded.error


def _open(catalog, name: str) -> set[Path]:
    """Load and open the upload; the cache folders and file it made."""
    assert catalog.dataset(name).ok
    catalog.store(name)
    return upload._entries(catalog, name) | {upload._UPLOADS[name][1]}


def test_an_upload_is_forgotten_when_its_session_ends(catalog):
    kept = upload.add_upload(catalog, "kept.jsonl", ROWS.encode(), owner="s-alive")
    gone = upload.add_upload(catalog, "gone.jsonl", (ROWS + ROWS.replace('"r', '"q')).encode(), owner="s-ended")
    kept_files, gone_files = _open(catalog, kept), _open(catalog, gone)
    assert all(p.exists() for p in kept_files | gone_files) and len(gone_files) >= 3  # entry, derived, file
    assert upload.prune(catalog, lambda sid: sid == "s-alive") == [gone]
    assert gone not in catalog.manifest.collections and gone not in catalog.manifest.datasets
    assert gone not in upload.UPLOAD_COLLECTIONS and catalog.opened_store(gone) is None
    assert not any(p.exists() for p in gone_files - kept_files)
    assert all(p.exists() for p in kept_files)
    assert _count(catalog.store(kept)) == 6


def test_uploads_beyond_the_cap_forget_the_oldest(catalog, monkeypatch):
    monkeypatch.setattr(upload, "MAX_UPLOADS", 2)
    names, files = [], {}
    for i in range(3):
        text = ROWS.replace('"r', f'"u{i}-')
        names.append(upload.add_upload(catalog, f"u{i}.jsonl", text.encode(), owner="one-visitor"))
        files[names[-1]] = _open(catalog, names[-1])
    assert list(upload._UPLOADS) == names[1:]
    assert names[0] not in catalog.manifest.collections
    assert not any(p.exists() for p in files[names[0]])
    assert all(p.exists() for n in names[1:] for p in files[n])


def test_the_same_bytes_uploaded_twice_keep_their_file_until_both_are_forgotten(catalog):
    first = upload.add_upload(catalog, "same.jsonl", ROWS.encode(), owner="a")
    second = upload.add_upload(catalog, "same.jsonl", ROWS.encode(), owner="b")
    folder = upload._UPLOADS[first][1]
    assert folder == upload._UPLOADS[second][1]
    upload.forget(catalog, first)
    assert folder.is_dir() and catalog.dataset(second).ok
    upload.forget(catalog, second)
    assert not folder.exists()
