"""A prebuilt cache (`judgescope build --out DIR`) read through fsspec where it is published
(issue #28 item 6). fsspec's memory filesystem stands in for the Hub: no network. The answers
equal a local cache's; bytes and round trips are counted; footers and file metadata are fetched
once per connection, not on every query."""

import uuid
from pathlib import Path

import pandas as pd
import pytest
from fsspec.implementations.memory import MemoryFileSystem

from bench import generate as gen
from bench import pages as bench_pages
from judgescope import wiring
from judgescope.cli import main
from judgescope.sources import catalog
from judgescope.wiring import TABLES
from judgescope.remote import prebuilt as remote
from judgescope.ingest.manifest import SourceError

ROWS = 3_000


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        data = tmp_path_factory.mktemp("data")
        manifest = gen.generate(ROWS, data / "bench")
        out = tmp_path_factory.mktemp("prebuilt")
        mp.setenv("JUDGESCOPE_CACHE", str(tmp_path_factory.mktemp("elsewhere")))  # build sets its own
        assert main(["build", "--out", str(out), "--manifest", str(manifest)]) == 0
        local = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)  # the same cache, read from disk
        mp.setenv("JUDGESCOPE_CACHE", str(out))
        store = local.store(gen.COLLECTION)
        # Publish: every file of the folder into the memory filesystem, under a fresh root.
        mem, root = MemoryFileSystem(), f"/published-{uuid.uuid4().hex}"
        for path in out.rglob("*"):
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(out).parts):
                mem.pipe(f"{root}/{path.relative_to(out).as_posix()}", path.read_bytes())
        yield manifest, out, store, mem, f"memory://{root}"
    finally:
        mp.undo()


def test_build_writes_an_index_of_files_inside_the_folder(built):
    _, out, store, _, _ = built
    import json
    index = json.loads((out / remote.INDEX).read_text())
    views = index["collections"][gen.COLLECTION]["views"]
    assert {"audit", "audit_counts", "snapshot", "hash_verification", "hash_verification_by_id",
            "ledger"} <= set(views)
    assert all((out / f).is_file() for files in views.values() for f in files)
    assert index["datasets"]["bench_audit"]["rows_used"] == ROWS


def _prebuilt(built):
    manifest, _, _, mem, url = built
    counted = remote.CountingFileSystem(mem)
    cat = catalog.Catalog(catalog.load_manifest(manifest), prebuilt=url, filesystem=counted, providers=TABLES)
    return cat, counted


def test_a_prebuilt_cache_read_through_fsspec_answers_as_the_local_one(built):
    _, _, local, _, _ = built
    cat, _ = _prebuilt(built)
    assert cat.dataset("bench_audit").report["rows_used"] == ROWS
    store = cat.store(gen.COLLECTION)
    assert isinstance(store, remote.RemoteStore) and cat.verify_problems(gen.COLLECTION) == []
    page = dict(bench_pages.ALL, after_score=-1.0, after_id="", page_size=50)
    for name, params in [("audit_score_counts", {"facet": "run_group"}), ("audit_review_page", page),
                         ("verify_summary", {})]:
        pd.testing.assert_frame_equal(store.run(name, **params), local.run(name, **params))
    rid = str(local.run("audit_review_page", **page).judge_record_id.iloc[17])
    pd.testing.assert_frame_equal(bench_pages.open_record(store.run, rid), bench_pages.open_record(local.run, rid))


def test_bytes_and_round_trips_are_counted_and_footers_fetched_once(built):
    _, out, local, _, _ = built
    cat, counted = _prebuilt(built)
    store = cat.store(gen.COLLECTION)  # opening reads the index and every view's footer
    rid = str(local.run("audit_review_page", **dict(bench_pages.ALL, after_score=-1.0, after_id="",
                                                    page_size=5)).judge_record_id.iloc[2])
    seen = []
    for _ in range(2):
        counted.reset()
        store.run("audit_record", record_id=rid)
        seen.append((counted.counts(), dict(counted.kinds)))
    (first, kinds), (second, _) = seen
    assert first == second and first[0] > 0 and first[1] > 0
    assert set(kinds) == {"read"}  # no metadata call after the open: info and footers are kept
    # It reads the columns it needs of the record's row groups in the audit and the id index
    # (one row group each at this size; tests/test_lookups_prune.py checks the pruning).
    read = sum(Path(local.views[v][0]).stat().st_size for v in ("audit", "audit_record_index"))
    assert first[0] < read


def test_a_hub_cache_is_read_at_a_pinned_commit_only():
    with pytest.raises(SourceError, match="pinned commit"):
        remote.check_url("hf://datasets/org/cache@main")
    with pytest.raises(SourceError, match="pinned commit"):
        remote.check_url("hf://datasets/org/cache")
    url = "hf://datasets/org/cache@" + "ab" * 20
    assert remote.check_url(url + "/") == url


def test_a_missing_index_or_collection_is_named(built):
    manifest, _, _, mem, url = built
    with pytest.raises(SourceError, match="no readable prebuilt.json"):
        remote.open_store("memory:///no-such-cache", gen.COLLECTION, mem, derived=wiring.VIEWS.by_name)
    with pytest.raises(SourceError, match="no collection 'other'"):
        remote.open_store(url, "other", mem, derived=wiring.VIEWS.by_name)


def test_build_refuses_an_unknown_collection(built, tmp_path, capsys):
    manifest = built[0]
    assert main(["build", "nope", "--out", str(tmp_path / "o"), "--manifest", str(manifest)]) == 2
    assert "no collection named nope" in capsys.readouterr().err


def test_the_app_serves_pages_from_a_prebuilt_cache(built, monkeypatch):
    """JUDGESCOPE_PREBUILT: the app reads the published cache; nothing is validated locally."""
    from apptest import open_page
    manifest, _, local, _, url = built
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    monkeypatch.setenv("JUDGESCOPE_PREBUILT", url)
    empty = manifest.parent / "no-local-cache"
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(empty))
    at = open_page("pages/review.py", gen.COLLECTION)
    rid = str(local.run("audit_review_page", **dict(bench_pages.ALL, after_score=-1.0, after_id="",
                                                    page_size=5)).judge_record_id.iloc[0])
    shown = " ".join(str(df.value.to_csv()) for df in at.dataframe)
    assert rid in shown
    assert not list(empty.glob("bench_*"))  # no dataset validated into a local cache
