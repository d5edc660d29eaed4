"""Derived tables built when first read (issue 45 item 2): the exact copies' rows are not built
when a collection first opens; the first query that reads them (the Exact copies page, Review's
list opened from it, the console, `explain`, a prebuilt cache) builds them once, with the rows an
open that built them at once gives, and another process reads the entry built."""

import dataclasses
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from judgescope import wiring
from judgescope.audit import interval_tables, record_tables
from judgescope.console import sql_console
from judgescope.duck import db
from judgescope.ingest.manifest import load_manifest
from judgescope.sources import derived
from judgescope.sources.catalog import Catalog
from test_verify import write_fixture

ROOT = Path(__file__).resolve().parent.parent
LAZY = "audit_exact_copies"
FACETS = interval_tables.FACETS_VIEW
ALL = {"languages": [], "units": [], "limit": 100}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache of this test's own, so no entry another test built is found."""
    root = tmp_path / "cache"
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(root))
    return root


@pytest.fixture
def manifest(tmp_path) -> Path:
    return write_fixture(tmp_path / "fx")


def _catalog(manifest: Path, providers=wiring.TABLES) -> Catalog:
    return Catalog(load_manifest(manifest), providers=providers)


def _copies(cache: Path) -> list[Path]:
    """The cache entries of the exact copies' rows (record_tables.exact_copy_views)."""
    return sorted(cache.glob("copies-*"))


# Each lazy view and the queries (other than builders) that read it: each is run by one page.
READERS = {"audit_model_provenance_summary": ["audit_model_provenance"],  # Provenance
           LAZY: ["audit_exact_copy_rows"],  # Exact copies (and Review's list opened from it)
           "audit_version_overlap": ["audit_overlap"],  # Compare versions
           "audit_paired_diffs": ["audit_paired_diff_counts"],  # Compare versions
           "audit_facet_intervals": ["audit_facet_intervals"]}  # Distributions, a facet but none or language


def test_only_single_page_tables_are_declared_lazy():
    lazy = [t for t in wiring.TABLES if t.lazy]
    assert lazy == [record_tables.PROVENANCE, record_tables.EXACT_COPIES, record_tables.COMPARISON,
                    interval_tables.FACET_INTERVALS]
    # Overview's findings, `report` and the page's counts read the counts, and Review opens a
    # record by the record index; the Distributions page's default view, the Languages page,
    # the findings and `report` read the default intervals: they stay at first open.
    assert not record_tables.EXACT_COPY_COUNTS.lazy and not record_tables.RECORD_INDEX.lazy
    assert not interval_tables.DEFAULT_INTERVALS.lazy


def test_no_table_macro_or_first_open_reader_needs_a_lazy_view():
    """A lazy view is handed to no table after it and no macro reads it (db.MACRO_VIEWS), so
    nothing built at open could miss it; the readers of its view are queries run through
    Store.run, which builds it."""
    lazy = {v.name for t in wiring.TABLES if t.lazy for v in t.views}
    assert sorted(lazy) == sorted(READERS)
    for tables in wiring.TABLES:
        for query in tables.queries:
            named = set(wiring.VIEWS.names_in(db.query_text(query))) & lazy
            assert not named or tables.lazy, f"{query} reads {named}, built only when first read"
    assert not any(lazy & views for views in db.MACRO_VIEWS.values())
    for view, readers in READERS.items():
        assert sorted(q for q in db.query_names() if not q.startswith("audit_build_")
                      and view in wiring.VIEWS.names_in(db.query_text(q))) == readers


def test_the_first_open_does_not_build_the_exact_copies_rows(cache, manifest):
    store = _catalog(manifest).store("fx")
    assert store.pending() == ["audit_model_provenance_summary", LAZY, FACETS] and _copies(cache) == []
    assert LAZY not in store.views and store.has(LAZY)
    # The counts are built at open and read without building the rows.
    assert int(store.run("audit_exact_copy_counts").exact_copies.sum()) == 1
    assert _copies(cache) == [] and LAZY in store.pending()


def test_the_first_read_builds_them_with_the_rows_an_eager_open_gives(cache, manifest, monkeypatch):
    store = _catalog(manifest).store("fx")
    rows = store.run("audit_exact_copy_rows", **ALL)
    assert store.pending() == ["audit_model_provenance_summary", FACETS] and len(_copies(cache)) == 1
    assert store.views[LAZY] == [_copies(cache)[0] / f"{LAZY}.parquet"]
    # The one exact copy (r_space), with the candidate text of the snapshot row verification joined.
    assert list(rows.judge_record_id) == ["r_space"] and list(rows.candidate_text) == ["Paris\t"]

    monkeypatch.setenv("JUDGESCOPE_CACHE", str(cache.parent / "eager-cache"))
    eager = [dataclasses.replace(t, lazy=False) for t in wiring.TABLES]
    at_once = _catalog(manifest, eager).store("fx")
    assert at_once.pending() == [] and LAZY in at_once.views
    assert at_once.run("audit_exact_copy_rows", **ALL).equals(rows)


def test_a_second_process_reads_the_entry_the_first_built(cache, manifest):
    store = _catalog(manifest).store("fx")
    rows = store.run("audit_exact_copy_rows", **ALL)
    [entry] = _copies(cache)
    before = (entry / f"{LAZY}.parquet").stat()
    script = ("import json, sys\nfrom judgescope import wiring\n"
              "from judgescope.ingest.manifest import load_manifest\n"
              "store = wiring.catalog(load_manifest(sys.argv[1])).store('fx')\n"
              "pending = store.pending()\n"
              "rows = store.run('audit_exact_copy_rows', languages=[], units=[], limit=100)\n"
              f"print(json.dumps({{'pending': pending, 'files': [str(p) for p in store.views['{LAZY}']],"
              " 'ids': list(rows.judge_record_id)}))\n")
    out = subprocess.run([sys.executable, "-c", script, str(manifest)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "JUDGESCOPE_CACHE": str(cache)}, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert LAZY not in got["pending"]  # found intact at open: read from the start, nothing left to build
    assert got["files"] == [str(entry / f"{LAZY}.parquet")] and got["ids"] == list(rows.judge_record_id)
    after = (entry / f"{LAZY}.parquet").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns) and _copies(cache) == [entry]


def test_threads_reading_at_once_build_it_once(cache, manifest, monkeypatch):
    store = _catalog(manifest).store("fx")
    builds = []
    original = derived.build_derived

    def counted(inputs, steps, folder):
        builds.append([view for view, _, _ in steps])
        return original(inputs, steps, folder)
    monkeypatch.setattr(derived, "build_derived", counted)
    start, results = threading.Barrier(3), []

    def read():
        start.wait()
        results.append(store.run("audit_exact_copy_rows", **ALL))
    threads = [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert builds == [[LAZY]] and len(results) == 3 and all(r.equals(results[0]) for r in results)


def test_a_failed_build_raises_on_read_and_the_next_read_builds_it(cache, manifest, monkeypatch):
    store = _catalog(manifest).store("fx")
    original = derived.build_derived

    def broken(*_args):
        raise derived.SourceError("disk full")
    monkeypatch.setattr(derived, "build_derived", broken)
    with pytest.raises(derived.SourceError, match="disk full"):
        store.run("audit_exact_copy_rows", **ALL)
    assert LAZY in store.pending() and _copies(cache) == []
    monkeypatch.setattr(derived, "build_derived", original)
    assert list(store.run("audit_exact_copy_rows", **ALL).judge_record_id) == ["r_space"]


def test_the_console_lists_it_unbuilt_and_a_statement_naming_it_builds_it(cache, manifest):
    store = _catalog(manifest).store("fx")
    listed = sql_console.schema(store.run("console_columns"), store.pending())
    assert listed[LAZY] == [sql_console.NOT_BUILT] and _copies(cache) == []
    rows, _ = sql_console.run_console(store, f"SELECT judge_record_id FROM {LAZY}")
    assert list(rows.judge_record_id) == ["r_space"] and LAZY not in store.pending()
    listed = sql_console.schema(store.run("console_columns"), store.pending())
    assert "judge_record_id VARCHAR" in listed[LAZY]


def test_explain_builds_it_and_names_its_files(cache, manifest):
    from judgescope.sources.explain import chain
    cat = _catalog(manifest)
    out = chain(cat, "fx", "audit_exact_copy_rows")
    [view] = out["views"]
    assert view["view"] == LAZY and view["cached_files"] == [
        f"{_copies(cache)[0].name}/{LAZY}.parquet"]


def test_a_prebuilt_cache_holds_it(cache, manifest):
    from judgescope.remote.prebuilt import write_index
    cat = _catalog(manifest)
    index = write_index(cat, cache, ["fx"])
    assert index["collections"]["fx"]["views"][LAZY] == [f"{_copies(cache)[0].name}/{LAZY}.parquet"]


def test_the_provenance_pages_query_builds_its_table(cache, manifest):
    from test_verify import CASES
    store = _catalog(manifest).store("fx")
    assert list(cache.glob("provenance-*")) == [] and "audit_record_index" in store.views
    got = store.run("audit_model_provenance")
    assert "audit_model_provenance_summary" not in store.pending() and len(list(cache.glob("provenance-*"))) == 1
    assert int(got.n.sum()) == len(CASES)


def test_a_query_that_only_mentions_it_in_a_comment_does_not_build_it(cache, manifest):
    store = _catalog(manifest).store("fx")
    assert not db._names(f"-- reads {LAZY} elsewhere\nSELECT 1", LAZY) and db._names(f"SELECT * FROM {LAZY}", LAZY)
    store.ready(f"-- {LAZY}\nSELECT 1")
    assert LAZY in store.pending() and _copies(cache) == []
