"""Issue #28: the Distributions page's default intervals are computed once, at the first open,
and are exactly the intervals the page would draw (audit/interval_tables.py)."""

import pandas as pd
import pytest

from apptest import open_page
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.schema import label
from judgescope.sources import derived
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES, get_catalog
from judgescope.ingest.manifest import load_manifest
from test_binned_scores import float_manifest  # noqa: F401  (a module fixture: the float audit)


def _drawn(run, facet: str, resamples=audit.DEFAULT_RESAMPLES, seed=audit.DEFAULT_SEED):
    """summary.mean_intervals drawn now, with the stored table's string columns."""
    ci = audit.mean_intervals(audit.score_counts(run, facet), facet != "none", resamples, seed)
    out = ci.assign(unit=ci["unit"].astype(str))
    return out.assign(facet=out["facet"].astype(str)) if "facet" in out else out


def _check_every_facet(store, missing_columns):
    """Every facet the page offers has its stored table; a facet whose column the audit lacks
    (the page does not offer it) has none."""
    assert store.has(interval_tables.VIEW)
    offered = audit.available_facets(missing_columns)
    for facet in set(audit.FACETS) - set(offered):
        assert interval_tables.stored(store.run, facet) is None
    for facet in offered:
        stored = interval_tables.stored(store.run, facet)
        drawn = _drawn(store.run, facet)
        pd.testing.assert_frame_equal(stored, drawn, check_dtype=False)
        assert stored.attrs["ci_method"] == drawn.attrs["ci_method"]
        assert stored["low"].notna().all() and (stored["low"] <= stored["high"]).all()


def test_the_demo_audit_s_stored_intervals_are_those_drawn_for_every_facet():
    """Per-score counts (integer scores): every facet's stored table, row for row."""
    catalog = get_catalog()
    audit_set = catalog.dataset(catalog.roles("xhotpotqa")["audit"].spec.name)
    assert audit_set.report["columns_missing"]  # the demo lacks some facets: both cases are met
    _check_every_facet(catalog.store("xhotpotqa"), audit_set.report["columns_missing"])


def test_a_float_audit_s_stored_intervals_are_those_drawn_for_every_facet(float_manifest):  # noqa: F811
    """Binned counts (4-decimal scores, drawn over score bins with a stated bound)."""
    store = Catalog(load_manifest(float_manifest), providers=TABLES).store("c")
    _check_every_facet(store, [])
    assert "bins" in interval_tables.stored(store.run, "none").attrs["ci_method"]


def test_a_group_met_again_is_drawn_once_and_its_interval_is_the_same(monkeypatch):
    """The memo of bootstrap_table: the overall group of a second facet is not drawn again, and
    what it returns equals a fresh draw."""
    run = get_catalog().store("xhotpotqa").run
    calls = []
    real = audit._interval
    monkeypatch.setattr(audit, "_interval", lambda *a: calls.append(1) or real(*a))
    memo = {}
    first = audit.mean_intervals(audit.score_counts(run, "none"), False, 500, 3, memo=memo)
    drawn_first = len(calls)
    again = audit.mean_intervals(audit.score_counts(run, "none"), False, 500, 3, memo=memo)
    assert len(calls) == drawn_first  # every group of the same counts: from the memo
    pd.testing.assert_frame_equal(first, again)
    fresh = audit.mean_intervals(audit.score_counts(run, "none"), False, 500, 3)
    pd.testing.assert_frame_equal(first, fresh)
    other_seed = audit.mean_intervals(audit.score_counts(run, "none"), False, 500, 4, memo=memo)
    assert not other_seed[["low", "high"]].equals(first[["low", "high"]])  # the seed is in the key


def test_computed_views_are_built_once_per_inputs_and_code(tmp_path, monkeypatch):
    """sources/derived.computed_views: cached on disk; a change of `code` or of an input builds
    again; a damaged file is rebuilt and named."""
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    notes: list[str] = []  # the asking catalog's own list of rebuilt entries (Catalog.rebuilt)
    source = tmp_path / "in.parquet"
    pd.DataFrame({"x": [1, 2, 3]}).to_parquet(source)
    built = []

    def compute(run):
        built.append(1)
        return {"doubled": pd.DataFrame({"x2": [2 * v for v in (1, 2, 3)]})}

    first = derived.computed_views("t", {"audit": source}, "doubling", compute, "code 1")
    assert pd.read_parquet(first["doubled"][0])["x2"].tolist() == [2, 4, 6]
    assert derived.computed_views("t", {"audit": source}, "doubling", compute, "code 1") == first
    assert len(built) == 1
    second = derived.computed_views("t", {"audit": source}, "doubling", compute, "code 2")
    assert second != first and len(built) == 2
    first["doubled"][0].write_bytes(b"not parquet")
    assert notes == []
    again = derived.computed_views("t", {"audit": source}, "doubling", compute, "code 1", notes)
    assert again == first and len(built) == 3
    assert pd.read_parquet(again["doubled"][0])["x2"].tolist() == [2, 4, 6]
    assert any(first["doubled"][0].parent.name in note for note in notes)


def _ci_columns(at) -> pd.DataFrame:
    """The summary table's interval columns as the page sends them (shown as “95% CI low/high”)."""
    table = at.dataframe[0].value
    return table[[label("ci_low"), label("ci_high")]].set_axis(["low", "high"], axis=1)


@pytest.mark.parametrize("facet", ["none", "run_group"])
def test_the_page_reads_the_stored_intervals_at_its_defaults_and_draws_any_other(monkeypatch, facet):
    """Distributions at the default resamples and seed reads audit_default_intervals (no draw);
    with another seed it draws; both tables are the live distribution_table's."""
    reads = []
    real = interval_tables.stored
    monkeypatch.setattr(interval_tables, "stored", lambda run, f: reads.append(f) or real(run, f))
    run = get_catalog().store("xhotpotqa").run
    at = open_page("pages/distributions.py", "xhotpotqa", facet=facet)
    assert reads == [facet]
    want = audit.distribution_table(audit.score_counts(run, facet), facet=facet != "none")
    got = _ci_columns(at)
    assert got["low"].tolist() == pytest.approx(want["ci_low"].tolist())
    assert got["high"].tolist() == pytest.approx(want["ci_high"].tolist())
    reads.clear()
    at = open_page("pages/distributions.py", "xhotpotqa", facet=facet, seed="7")
    assert reads == []
    want = audit.distribution_table(audit.score_counts(run, facet), facet=facet != "none", seed=7)
    got = _ci_columns(at)
    assert got["low"].tolist() == pytest.approx(want["ci_low"].tolist())


def test_a_failed_computation_is_named_and_the_collection_still_opens(monkeypatch, float_manifest):  # noqa: F811
    """A computed table that raises (here the bootstrap) is a SourceError naming it: the app's
    catalog lists it on Overview and opens the collection without the view, and Distributions
    then draws its intervals as it does for any other seed."""
    def broken(*_a, **_k):
        raise ValueError("values and counts must align")
    monkeypatch.setattr(audit, "_interval", broken)  # in the pool's worker
    monkeypatch.setattr(interval_tables, "code_text", lambda: "a code never cached before")
    catalog = Catalog(load_manifest(float_manifest), providers=TABLES)
    store = catalog.store("c")
    assert not store.has(interval_tables.VIEW) and store.has("audit_counts")
    assert any("default intervals" in p and "ValueError: values and counts must align" in p
               for p in catalog.manifest.problems), catalog.manifest.problems


@pytest.mark.parametrize("thresholds", [(), (60,), (85.5,)])
@pytest.mark.parametrize("audit_kind", ["int", "float"])
def test_languages_cells_read_from_the_stored_intervals_are_those_drawn(float_manifest, audit_kind,  # noqa: F811
                                                                       thresholds):
    """Languages' heatmap cells (language × unit) read from the language facet's stored intervals
    equal a fresh draw over the page's counts, whatever the tail threshold it counts exactly."""
    store = (get_catalog().store("xhotpotqa") if audit_kind == "int"
             else Catalog(load_manifest(float_manifest), providers=TABLES).store("c"))
    cols = ["target_language", "unit", "mean", "low", "high", "method"]
    drawn = audit.bootstrap_table(audit.score_counts(store.run, "none", thresholds),
                                  ["target_language", "unit"], method=True)[cols]
    pd.testing.assert_frame_equal(interval_tables.stored_cells(store.run), drawn.astype({"unit": str}),
                                  check_dtype=False)


def test_the_languages_page_reads_its_cells_and_draws_none(monkeypatch):
    """At its defaults Languages draws no bootstrap: the heatmap's and the tails table's
    intervals are the stored ones, equal to a fresh draw of the page's counts. (The sidebar's
    findings, which draw their own, are left out; the store is opened, its intervals built, first.)"""
    from judgescope.audit import audit_findings

    get_catalog().store("xhotpotqa")
    monkeypatch.setattr(audit_findings, "collect", lambda *a, **k: [])
    calls = []
    real = audit._interval
    monkeypatch.setattr(audit, "_interval", lambda *a: calls.append(1) or real(*a))
    at = open_page("pages/languages.py", "xhotpotqa")
    assert calls == []
    heatmap, tails = (next(d.value for d in at.dataframe if col in d.value.columns) for col in ("Low", "Mean ci low"))
    monkeypatch.setattr(audit, "_interval", real)
    run = get_catalog().store("xhotpotqa").run
    drawn = audit.bootstrap_table(audit.score_counts(run), ["target_language", "unit"])
    for shown, col in ((heatmap, "Low"), (heatmap, "High"), (tails, "Mean ci low"), (tails, "Mean ci high")):
        assert len(shown) == len(drawn)
        assert sorted(shown[col]) == pytest.approx(sorted(drawn[col.split()[-1].lower()]))


def test_the_findings_read_the_stored_intervals_and_say_the_same(monkeypatch):
    """Overview's findings (the mean's CI, the weak language × unit cells) read the stored
    default intervals: headlines.collect draws no interval, and its findings equal those drawn."""
    from judgescope import headlines
    from judgescope.audit import audit_findings

    cat = get_catalog()
    store = cat.store("xhotpotqa")
    report = cat.roles("xhotpotqa")["audit"].report
    drawn = audit_findings.collect(store.run, report, None, stored=False)
    calls = []
    real = audit._interval
    monkeypatch.setattr(audit, "_interval", lambda *a: calls.append(1) or real(*a))
    assert audit_findings.collect(store.run, report, None, stored=True) == drawn
    findings, _ = headlines.collect(cat, "xhotpotqa")
    assert calls == []
    shown = [f for f in drawn if f.text.startswith(("Mean judge score", "Weak cell", "No weak cell"))]
    assert len(shown) >= 2 and all(f in findings for f in shown)


def _facet_names(store, view: str) -> set[str]:
    """The facet_name values a stored intervals view's file holds."""
    return set(pd.concat([pd.read_parquet(p) for p in store.views[view]])["facet_name"])


def test_the_first_open_stores_the_shared_facets_and_the_distributions_page_s_others_when_read(
        tmp_path, monkeypatch, float_manifest):  # noqa: F811
    """Issue 45: the first open draws the facets several readers share (none, target_language,
    and each language over its units); every other facet, which only Distributions shows, is
    drawn when it is first read, once, and equals a fresh draw."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(cache))
    drawn = []
    real = audit._interval
    monkeypatch.setattr(audit, "_interval", lambda sample, *a: drawn.append(1) or real(sample, *a))
    store = Catalog(load_manifest(float_manifest), providers=TABLES).store("c")
    assert interval_tables.FACETS_VIEW in store.pending() and interval_tables.VIEW in store.views
    assert len(list(cache.glob("intervals-*"))) == 1 and list(cache.glob("facet-intervals-*")) == []
    at_open = len(drawn)
    others = [f for f in audit.available_facets([]) if f not in interval_tables.PRIMARY]
    assert at_open and others and set(interval_tables.PRIMARY) <= set(audit.available_facets([]))
    for facet in interval_tables.PRIMARY:
        assert interval_tables.stored(store.run, facet) is not None
    assert interval_tables.FACETS_VIEW in store.pending() and len(drawn) == at_open  # read, not drawn

    found = interval_tables.stored(store.run, others[0])  # the page's first read builds the others
    assert interval_tables.FACETS_VIEW not in store.pending() and len(drawn) > at_open
    assert len(list(cache.glob("facet-intervals-*"))) == 1
    pd.testing.assert_frame_equal(found, _drawn(store.run, others[0]), check_dtype=False)
    built = len(drawn)
    for facet in others:
        assert interval_tables.stored(store.run, facet) is not None
    assert len(drawn) == built  # every other facet read from the table that one read built
    # The shared table holds the shared facets (and each language's own row), the other the rest.
    assert _facet_names(store, interval_tables.VIEW) == {*interval_tables.PRIMARY, interval_tables.LANGUAGES}
    assert _facet_names(store, interval_tables.FACETS_VIEW) == set(others)


def test_report_on_a_fresh_cache_draws_no_facet_only_the_distributions_page_shows(
        tmp_path, monkeypatch, float_manifest):  # noqa: F811
    from judgescope.cli import main

    cache = tmp_path / "cache"
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(cache))
    assert main(["report", str(float_manifest.parent / "audit.parquet"), "--out", str(tmp_path / "out")]) == 0
    assert len(list(cache.glob("intervals-*"))) == 1 and list(cache.glob("facet-intervals-*")) == []
