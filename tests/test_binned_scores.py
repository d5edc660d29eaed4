"""Issue #28 item 1: a float audit's figures from binned counts and exact order statistics.

Validation writes the counts on one audit-wide grid of score bins (n, Σx, Σx², min, max) and
the exact median, P5 and P10 per grouping set, computed by DuckDB; the pages read those instead
of one count per distinct score. Every figure is checked against numpy/pandas over the raw rows; the integer
demo keeps its per-score path bit for bit.
"""

import json

import duckdb
import numpy as np
import pandas as pd
import pytest

import reference_stats as R
from apptest import open_page
from judgescope import stats as S
from judgescope.audit import binned
from judgescope.audit import score_charts
from judgescope.audit import summary as audit
from judgescope.cli import main
from judgescope.sources.catalog import Catalog, write_score_summaries
from judgescope.wiring import TABLES, get_catalog
from judgescope.ingest.manifest import load_manifest

ROWS = 6_000
FACET_COLUMNS = [f for f in audit.FACETS if f not in ("none", "target_language")]


def _float_audit(rows: int = ROWS) -> pd.DataFrame:
    """A generated float audit: 4-decimal scores with a heavy lower tail, ties, scores on the bin
    edges (60, 80, 90) and at 0 and 100, NULL facet values and missing explanations."""
    rng = np.random.default_rng(28)
    score = np.where(rng.random(rows) < 0.8, rng.normal(85, 8, rows), 100 * rng.beta(1.2, 3, rows))
    score = np.round(np.clip(score, 0, 100), 4)
    tied = rng.random(rows) < 0.05
    score[tied] = rng.choice([0.0, 60.0, 80.0, 90.0, 100.0, 72.5], tied.sum())
    pick = lambda values, p=None: rng.choice(np.array(values, dtype=object), rows, p=p)  # noqa: E731
    return pd.DataFrame({
        "judge_record_id": [f"r{i}" for i in range(rows)], "score": score,
        "target_language": pick(["de", "th", "ja"]), "unit": pick(["paragraph", "question", "answer"]),
        "score_origin": pick(["explicit", "parsed", None], [0.6, 0.3, 0.1]),
        "run_group": pick(["main", "recovery"], [0.9, 0.1]), "source_split": pick(["validation", "train"]),
        "dataset_version": "v2", "judge_prompt_version": pick(["pq-v3", "a-v2"]),
        "requested_judge_model": "glm-5.2", "system": pick(["sys-a", "sys-b", None]),
        "judge_explanation": pick(["ok", None], [0.95, 0.05])})


@pytest.fixture(scope="module")
def float_manifest(tmp_path_factory):
    """A manifest of one collection `c` holding the float audit."""
    tmp = tmp_path_factory.mktemp("floats")
    _float_audit().to_parquet(tmp / "audit.parquet")
    (tmp / "sources.toml").write_text('[[collection]]\nname = "c"\ndatasets = ["d"]\n[[dataset]]\n'
                                      'name = "d"\nkind = "judge_audit"\npath = "audit.parquet"\n')
    return tmp / "sources.toml"


@pytest.fixture(scope="module")
def floats(float_manifest):
    """(run, raw rows) of the float audit, validated as the app validates it."""
    store = Catalog(load_manifest(float_manifest), providers=TABLES).store("c")
    return store.run, pd.read_parquet(float_manifest.parent / "audit.parquet")


def _raw_groups(rows: pd.DataFrame, by: list[str], facet: str):
    """Raw score arrays per group of `by`, computed here with pandas (NULL facet: its own group)."""
    frame = rows.assign(facet=rows[facet] if facet != "none" else None)
    frame["facet"] = frame["facet"].astype(object).where(frame["facet"].notna(), "not recorded")
    if not by:
        return {(): frame["score"].to_numpy(float)}
    return {(k if isinstance(k, tuple) else (k,)): g["score"].to_numpy(float)
            for k, g in frame.groupby(by, dropna=False)}


@pytest.mark.parametrize("xs", [[3.0], [1.0, 1.0], [1.0, 2.0], [2.0, 1.0, 2.0], [5, 5, 5, 7, 9, 9.5],
                                [0.0, 50.3, 50.3, 50.7, 50.9, 100.0],  # ranks inside one bin
                                [10.5, 10.5, 10.2, 10.9, 99.0, 10.5, 0.5, 10.5, 10.1]])
def test_order_statistics_are_numpys_linear_method_on_ties_and_small_n(tmp_path, xs):
    """audit_build_order_stats.sql, on a tiny audit: numpy's percentiles, which are also DuckDB's
    quantile_cont and stats.percentiles_from_counts (the per-score path's)."""
    x = np.array(xs, dtype=float)
    con = duckdb.connect()
    con.register("raw", pd.DataFrame({"score": x, "target_language": "de", "unit": "answer"}))
    con.execute("COPY (SELECT score, target_language, unit, " + ", ".join(
        f"NULL::VARCHAR AS {c}" for c in [*FACET_COLUMNS, "judge_explanation"]) +
        " FROM raw) TO $p (FORMAT parquet)", {"p": str(tmp_path / "clean.parquet")})
    write_score_summaries(con, tmp_path / "clean.parquet", tmp_path)
    stats = pd.read_parquet(tmp_path / "order_stats.parquet")
    want = np.percentile(x, [50, 5, 10])
    for row in stats.itertuples():  # every grouping set holds all the rows here
        assert (row.n, row.median, row.p5, row.p10) == pytest.approx((x.size, *want), abs=1e-12)
    got = con.execute("SELECT quantile_cont(x, [0.5, 0.05, 0.1]) FROM unnest($l) t(x)", {"l": xs}).fetchone()[0]
    values, counts = np.unique(x, return_counts=True)
    assert got == pytest.approx(want, abs=1e-12)
    assert S.percentiles_from_counts(values, counts, [50, 5, 10]) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("facet", list(audit.FACETS))
def test_every_grouping_set_equals_the_rows(floats, facet):
    """n, mean, SD, median, P5, P10 and threshold counts of every grouping set a page shows."""
    run, rows = floats
    scores = audit.with_facet_labels(audit.score_counts(run, facet))
    assert isinstance(scores, binned.Binned) and scores.width == 1.0
    sets = [["target_language", "unit"], ["target_language"], ["unit"], []]
    sets += [["unit", "facet"]] if facet != "none" else []  # split views only
    for by in sets:
        raw = _raw_groups(rows, by, facet if facet != "target_language" else "target_language")
        table = audit.summary_table(scores, by).set_index(by) if by else audit.summary_table(scores, [])
        got = dict(binned.groups(scores, by))
        assert set(got) == set(raw), by
        for key, x in raw.items():
            row = table.loc[key if len(key) > 1 else key[0]] if by else table.iloc[0]
            want = {"n": x.size, "mean": x.mean(), "sd": x.std(ddof=1), "median": np.median(x),
                    "below_60": (x < 60).sum(), "below_80": (x < 80).sum(), "at_least_90": (x >= 90).sum()}
            for name, value in want.items():
                assert row[name] == pytest.approx(value, abs=1e-9), (by, key, name)
            p5, p10 = binned.percentiles(got[key], [5, 10])
            assert (p5, p10) == pytest.approx(tuple(np.percentile(x, [5, 10])), abs=1e-9), (by, key)


def test_a_threshold_inside_a_bin_is_counted_by_a_query(floats):
    run, rows = floats
    scores = audit.score_counts(run, thresholds=(72.25,))
    assert len(scores.below) and set(scores.below["threshold"]) == {72.25}  # 72.25 cuts a bin of width 1
    tails = audit.tails_table(scores, 72.25).set_index(["target_language", "unit"])
    for (lang, unit), x in _raw_groups(rows, ["target_language", "unit"], "none").items():
        assert tails.loc[(lang, unit), "below"] == (x < 72.25).sum()
    with pytest.raises(ValueError, match="falls inside a score bin"):
        audit.tails_table(audit.score_counts(run), 72.25)  # not loaded: never estimated


def test_the_bins_are_few_and_bounded(floats):
    run, rows = floats
    scores = audit.score_counts(run)
    per_score = run("audit_score_counts", facet="none")
    assert len(per_score) > 0.8 * ROWS  # the float audit: about one count per row
    assert len(scores.bins) <= 9 * 101 < len(per_score) / 5
    for _, group in binned.groups(scores, ["target_language", "unit"]):
        assert group.n.size <= S.MAX_CATEGORIES
    stored = run("audit_score_bins", facet="system")
    assert stored.groupby(["unit", "target_language", "facet"], dropna=False).size().max() <= S.MAX_CATEGORIES


# A group's ~100 stored bins of width 1, drawn over at most stats.DRAW_BINS (issue #28).
MERGED = "score bins of width 2 (one grid for every group: 2 adjacent bins of the audit-wide width 1 merged"


@pytest.mark.parametrize("by", [["unit"], []])
def test_binned_interval_matches_a_plain_row_bootstrap(floats, by):
    """As tests/test_float_bootstrap.py: the same B, seeded; 0.2 SE plus the stated bound."""
    run, rows = floats
    table = audit.bootstrap_table(audit.score_counts(run), by, 10_000, 6, method=True)
    for key, x in _raw_groups(rows, by, "none").items():
        got = table.set_index(by).loc[key[0]] if by else table.iloc[0]
        means = R.row_bootstrap_means(x, 10_000, seed=5)
        slack = 0.2 * x.std(ddof=1) / np.sqrt(x.size) + got["endpoint_bound"]
        assert got["mean"] == pytest.approx(x.mean(), abs=1e-9)
        assert got["low"] == pytest.approx(np.percentile(means, 2.5), abs=slack)
        assert got["high"] == pytest.approx(np.percentile(means, 97.5), abs=slack)
        assert MERGED in got["method"]


def test_histogram_and_ecdf_draw_from_the_bins(floats):
    run, rows = floats
    bins = audit.count_rows(audit.score_counts(run))
    per_score = run("audit_score_counts", facet="none")
    pd.testing.assert_frame_equal(score_charts.histogram_bins(bins), score_charts.histogram_bins(per_score))
    ecdf = score_charts.ecdf_frame(bins)
    assert ecdf.groupby("unit").size().max() <= S.MAX_CATEGORIES
    for r in ecdf.sample(40, random_state=1).itertuples():
        x = rows.loc[rows.unit == r.unit, "score"]
        assert r.cum_share == pytest.approx((x <= r.score).mean(), abs=1e-12)


def test_worst_rows_from_the_bins_cutoff(floats):
    run, rows = floats
    cutoff = audit.worst_cutoff(audit.score_counts(run), 3)
    got = run("audit_worst_rows", k=3, max_score=cutoff)
    want = rows.sort_values(["score", "judge_record_id"]).groupby(["target_language", "unit"]).head(3)
    assert sorted(got.judge_record_id) == sorted(want.judge_record_id)


@pytest.mark.parametrize("facet", ["none", "run_group"])
def test_intervals_kept_while_a_threshold_moves_are_the_table_s_own(floats, facet):
    """Distributions draws the intervals once from the counts without thresholds and keeps them
    while a threshold moves (web/results.mean_intervals): for thresholds that cut bins (counted
    by a query), the table is the one drawn from its own counts, interval for interval."""
    run, _ = floats
    split, thresholds = facet != "none", (37.25, 61.5, 88.125)
    cut = audit.score_counts(run, facet, thresholds)
    kept = audit.mean_intervals(audit.score_counts(run, facet), split, 500, 4)
    own = audit.distribution_table(cut, thresholds, split, 500, 4)
    pd.testing.assert_frame_equal(audit.distribution_table(cut, thresholds, split, 500, 4, kept), own)
    assert own.attrs["ci_method"] == kept.attrs["ci_method"] and own["ci_low"].notna().all()


def test_the_method_says_what_is_exact_and_how_the_interval_was_drawn(floats, tmp_path):
    run, rows = floats
    table = audit.distribution_table(audit.score_counts(run), resamples=500, seed=1)
    named = table.attrs["ci_method"]
    assert named.startswith("percentile bootstrap, multinomial over the audit-wide score bins of width 1 ")
    assert "mean and SD exact" in named and "median, P5 and P10 exact (computed in DuckDB over the rows)" in named
    assert "endpoints within " in named and "a stated bound" not in named
    src = tmp_path / "audit.parquet"
    rows.to_parquet(src)
    assert main(["report", str(src), "--out", str(tmp_path / "o"), "--resamples", "200"]) == 0
    boot = json.loads((tmp_path / "o" / "BOOTSTRAP.json").read_text())
    assert boot["detail"] == binned.method(1.0)
    assert MERGED in boot["overall"]["method"]
    summary = json.loads((tmp_path / "o" / "SUMMARY.json").read_text())
    x = rows.loc[rows.unit == "answer", "score"]
    assert summary["by_unit"]["answer"]["median"] == pytest.approx(np.median(x), abs=1e-9)
    assert summary["rows"] == ROWS


DEMO = "xhotpotqa"


@pytest.mark.parametrize("facet", ["none", "target_language", "score_origin", "system"])
def test_the_integer_demo_keeps_its_per_score_path(facet):
    """The demo's figures come from the per-score counts exactly as before the bins."""
    run = get_catalog().store(DEMO).run
    counts = audit.score_counts(run, facet)
    before = run("audit_score_counts", facet="none" if facet == "target_language" else facet)
    if facet == "target_language":
        before = before.assign(facet=before["target_language"])
    pd.testing.assert_frame_equal(counts, before)
    split = facet != "none"
    pd.testing.assert_frame_equal(audit.distribution_table(counts, (60, 80, 90), split, 500, 3),
                                  audit.distribution_table(before, (60, 80, 90), split, 500, 3))


def test_the_integer_demo_binned_gives_the_same_figures(monkeypatch):
    """Forced onto the binned path, the integer demo's bins each hold one score: every figure
    equals the per-score one, and the intervals are the same draws bit for bit."""
    run = get_catalog().store(DEMO).run
    exact = audit.score_counts(run)
    monkeypatch.setattr(S, "MAX_CATEGORIES", 0)
    forced = audit.score_counts(run)
    assert isinstance(forced, binned.Binned) and isinstance(exact, pd.DataFrame)
    for by in (["unit"], ["target_language", "unit"], []):
        a, b = audit.summary_table(exact, by), audit.summary_table(forced, by)
        pd.testing.assert_frame_equal(a, b, check_exact=False, atol=1e-9, rtol=0)
        pd.testing.assert_frame_equal(audit.bootstrap_table(exact, by, 500, 3),
                                      audit.bootstrap_table(forced, by, 500, 3), check_exact=True)
    pd.testing.assert_frame_equal(audit.tails_table(exact), audit.tails_table(forced),
                                  check_exact=False, atol=1e-9, rtol=0)


@pytest.mark.parametrize("page, params", [
    ("pages/distributions.py", {}), ("pages/distributions.py", {"facet": "system"}),
    ("pages/distributions.py", {"facet": "target_language", "t1": "62"}), ("pages/languages.py", {}),
    ("pages/reviews.py", {})])
def test_the_pages_run_on_a_float_audit(float_manifest, monkeypatch, page, params):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(float_manifest))
    at = open_page(page, "c", **params)
    if page == "pages/distributions.py":
        assert any("audit-wide score bins of width 1" in c.value for c in at.caption)


def test_moving_a_threshold_does_not_bootstrap_again(float_manifest, monkeypatch):
    """Distributions on a float audit: a new threshold changes the shares (counted exactly, a
    query for a bin it cuts) but keeps the intervals, so no group is drawn again; a new seed draws
    every group again."""
    import streamlit as st

    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(float_manifest))
    st.cache_data.clear()
    drawn = []
    real = audit.bootstrap_table
    monkeypatch.setattr(audit, "bootstrap_table", lambda *a, **k: drawn.append(a[1]) or real(*a, **k))
    at = open_page("pages/distributions.py", "c", resamples="500")
    first = len(drawn)
    shares = at.dataframe[0].value.copy()
    assert drawn[-2:] == [["unit"], []]  # the page's: per unit, and overall
    at.number_input(key="t1").set_value(37.0).run()
    assert not at.exception and len(drawn) == first
    moved = at.dataframe[0].value
    assert not moved.filter(like="37").empty and moved.filter(like="37").ne(shares.filter(like="37")).any().any()
    at.number_input(key="seed").set_value(5.0).run()
    assert len(drawn) == first + 2


def test_the_language_split_is_the_unsplit_scores_relabelled(floats):
    """interval_tables.table reads a float audit's bins once: binned.by_language of the unsplit
    scores is exactly what loading the language split reads (the unsplit counts, relabelled)."""
    run, _ = floats
    split, plain = binned.load(run, "target_language"), binned.load(run, "none")
    assert isinstance(split, binned.Binned) and len(split.bins) and len(split.order)
    relabelled = binned.by_language(plain)
    for part in ("bins", "order", "below", "exact"):
        pd.testing.assert_frame_equal(getattr(relabelled, part), getattr(split, part))
    assert (relabelled.width, relabelled.distinct) == (split.width, split.distinct)
    assert (split.bins["facet"] == split.bins["target_language"]).all()
