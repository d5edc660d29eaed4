"""A collection's datasets are validated together (issue 45: the first open within 1.5x raw
DuckDB): two builds at once, each DuckDB bounded by its share of the lane's memory bound, so
the builds running at once never hold more than one build did alone; the tables are those of
one build after the other. No timing is asserted."""

import json
import threading
from fractions import Fraction

import pytest

from bench import generate as gen
from judgescope.duck import cache, progress
from judgescope.ingest import build
from judgescope.sources import catalog
from judgescope.wiring import TABLES


def test_a_lane_lets_shares_run_together_and_a_whole_build_alone():
    lane = cache.Lane()
    order, whole_in = [], threading.Event()
    with lane.share(Fraction(2, 3)):
        with lane.share(Fraction(1, 3)):  # fits beside the 2/3: does not wait
            assert lane.free == 0

            def whole():
                with lane.share():
                    whole_in.set()
                    order.append(("whole", lane.free))

            waiter = threading.Thread(target=whole)
            waiter.start()
            assert not whole_in.is_set()  # nothing is free: it cannot have started
        assert not whole_in.is_set() and lane.free == Fraction(1, 3)  # still not enough
    waiter.join()
    assert order == [("whole", 0)] and lane.free == 1


def _manifest(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    return gen.generate(2_000, tmp_path / "data")


def _tables(folder) -> dict:
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return {k: report[k] for k in ("rows_used", "rows_excluded", "columns_missing")}


def test_an_audit_and_its_snapshot_are_built_at_once_within_one_builds_memory(tmp_path, monkeypatch):
    manifest = _manifest(tmp_path, monkeypatch)
    lane = cache._LANES[False]
    seen, both = [], threading.Barrier(2, timeout=60)
    real = build.build_dataset

    def recording(spec, resolved, files, folder, memory=build.BUILD_MEMORY):
        seen.append((spec.name, memory, lane.free, threading.current_thread().name))
        both.wait()  # returns only once the other build has started too: they run at once
        return real(spec, resolved, files, folder, memory)

    monkeypatch.setattr(catalog, "build_dataset", recording)
    cat = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)
    loaded = cat.collection_datasets(gen.COLLECTION)
    assert all(d.ok for d in loaded)
    by_name = {name: (memory, free, thread) for name, memory, free, thread in seen}
    # the audit sorts (weight 2), the snapshot streams (weight 1): 2/3 and 1/3 of 1536MB
    assert by_name["bench_audit"][0] == build.build_memory(Fraction(2, 3)) == "1024MB"
    assert by_name["bench_snapshot"][0] == build.build_memory(Fraction(1, 3)) == "512MB"
    assert min(free for _, free, _ in by_name.values()) == 0  # both shares held at once, no more
    assert {t for *_, t in by_name.values()} == {"judgescope-validate-0", "judgescope-validate-1"}
    assert lane.free == 1

    # The same tables as validated one at a time (a fresh cache, the real builder)
    monkeypatch.setattr(catalog, "build_dataset", real)
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache-alone"))
    alone = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)
    one_by_one = [alone.dataset(d.spec.name) for d in loaded]
    for together, single in zip(loaded, one_by_one):
        assert _tables(together.folder) == _tables(single.folder)
        assert together.folder.name == single.folder.name  # the same cache key: the same inputs
        parts = [p.name for p in sorted(single.folder.glob("*.parquet"))]
        assert parts == [p.name for p in sorted(together.folder.glob("*.parquet"))] and "clean.parquet" in parts
        for part in parts:
            assert (together.folder / part).read_bytes() == (single.folder / part).read_bytes(), part


def test_a_dataset_that_fails_is_named_and_the_other_still_loads(tmp_path, monkeypatch):
    manifest = _manifest(tmp_path, monkeypatch)
    snapshot = next((tmp_path / "data" / "snapshot" / "data").glob("*.parquet"))
    snapshot.write_bytes(b"not parquet")
    cat = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)
    loaded = {d.spec.name: d for d in cat.collection_datasets(gen.COLLECTION)}
    assert loaded["bench_audit"].ok
    assert not loaded["bench_snapshot"].ok and "bench_snapshot" in loaded["bench_snapshot"].error


def test_builds_together_report_each_stage_once_in_order(tmp_path, monkeypatch):
    """The progress of two builders at once: every stage begun raises the stage number, so a
    piped CLI prints one line per stage, numbers increasing, and the bar ends at 100 %; the
    builders' threads are attached to the listener."""
    manifest = _manifest(tmp_path, monkeypatch)
    events, attached = [], []
    with progress.reporting(events.append, attach=attached.append):
        catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES).collection_datasets(gen.COLLECTION)
    # the builders' threads are handed to the listener before they start (the web attaches its
    # script context, so the bar moves from them), as the pollers within their stages are
    assert {"judgescope-validate-0", "judgescope-validate-1"} <= {t.name for t in attached}
    assert all(not t.is_alive() for t in attached)
    begun = [e.index for e in events if not e.done]
    assert begun == sorted(begun)
    assert {e.stage.split(":")[0] for e in events} >= {"bench_audit", "bench_snapshot"}
    assert events[-1].done and events[-1].fraction == 1.0
    assert max(e.index for e in events) == events[-1].stages


@pytest.mark.parametrize("part, limit", [(1, "1536MB"), (Fraction(2, 3), "1024MB"), (Fraction(1, 3), "512MB"),
                                         (Fraction(1, 100), "64MB")])
def test_a_builds_memory_is_its_share_of_the_bound(part, limit):
    assert build.build_memory(part) == limit
