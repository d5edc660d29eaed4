"""drift_pairs read in buckets of the paired key (audit/drift_read.py): every paired unit in
exactly one bucket, the same result as the one query over every key, the anchors that moved most
found among the buckets' own; and the Bland–Altman points counted per cell above MAX_POINTS."""

import pickle

import pandas as pd
import pytest

from judgescope.audit import drift_charts, drift_read, drift_report
from judgescope.wiring import get_catalog

KEY = drift_read.KEY


@pytest.fixture(scope="module")
def run():
    return get_catalog().store("xhotpotqa_drift").run


def test_bucket_count_is_one_per_rows_per_bucket_and_at_least_one():
    per = drift_read.ROWS_PER_BUCKET
    assert [drift_read.bucket_count(r) for r in (0, 1, per, per + 1, 10 * per, 10 * per + 1)] == [1, 1, 1, 2, 10, 11]


@pytest.mark.parametrize("buckets", [2, 7])
def test_every_paired_unit_is_in_exactly_one_bucket(run, buckets):
    whole = run("drift_pairs", buckets=1, bucket=0)
    parts = [run("drift_pairs", buckets=buckets, bucket=b) for b in range(buckets)]
    assert all(len(p) for p in parts)  # the demo's units spread over every bucket
    joined = pd.concat(parts, ignore_index=True)
    assert not joined.duplicated(KEY).any()
    order = KEY + ["old_record_id"]
    assert joined.sort_values(order, ignore_index=True).equals(whole.sort_values(order, ignore_index=True))


def test_buckets_give_the_result_of_one_query(run, monkeypatch):
    one = drift_report.measure(run, resamples=300)
    assert drift_read.bucket_count(sum(one[0]["counts"][k] for k in ("old_rows", "new_rows"))) == 1
    monkeypatch.setattr(drift_read, "ROWS_PER_BUCKET", 800)  # the demo's 5,520 rows: 7 buckets
    many = drift_report.measure(run, resamples=300)
    assert len(one[0]["moved_most"]) == drift_report.MOVED_MOST  # more moved than are listed
    assert many[0] == one[0]
    cols = list(drift_read.NARROW)
    a = many[1].astype({c: str for c in drift_read.CATEGORIES}).sort_values(cols, ignore_index=True)
    b = one[1].astype({c: str for c in drift_read.CATEGORIES}).sort_values(cols, ignore_index=True)
    assert a.equals(b)


def test_the_narrow_frame_sorts_languages_as_text_whatever_the_bucket_order(run):
    parts = [drift_read.narrow(run("drift_pairs", buckets=3, bucket=b)) for b in (2, 0, 1)]
    frame = drift_read._joined(parts)
    assert list(frame.columns) == list(drift_read.NARROW)
    cats = list(frame["target_language"].cat.categories)
    assert cats == sorted(cats) and len(cats) > 1
    assert [k for k, _ in frame.groupby("target_language", sort=True)] == cats


def test_moved_most_over_candidates_is_moved_most_over_every_anchor(run):
    pairs = run("drift_pairs", buckets=1, bucket=0)
    anchors = pairs[pairs["anchor"] & pairs["stable"]]
    halves = [anchors.iloc[::2], anchors.iloc[1::2]]
    candidates = drift_report.moved_most(halves[0]) + drift_report.moved_most(halves[1])
    frame = pd.DataFrame(candidates, columns=drift_report.MOVED_COLUMNS)
    assert drift_report.moved_most(frame) == drift_report.moved_most(anchors)


def test_ba_points_count_each_distinct_point_below_the_cap():
    anchors = pd.DataFrame({"old_score": [1.0, 1.0, 3.0, 2.0], "new_score": [3.0, 3.0, 3.0, 2.0]})
    anchors["diff"] = anchors["new_score"] - anchors["old_score"]
    points = drift_charts.ba_points(anchors)
    # (1, 3) twice → mean 2, diff 2; (3, 3) → mean 3, diff 0; (2, 2) → mean 2, diff 0
    assert sorted(map(tuple, points[["mean", "diff", "size"]].to_numpy().tolist())) == [
        (2.0, 0.0, 1), (2.0, 2.0, 2), (3.0, 0.0, 1)]
    assert "cells" not in points.attrs


def test_ba_points_above_the_cap_count_every_anchor_in_a_grid(monkeypatch):
    monkeypatch.setattr(drift_charts, "MAX_POINTS", 3)
    monkeypatch.setattr(drift_charts, "GRID", 2)
    # means 0, 1, 3, 4 and diffs 0, 1, 3, 4: range [0, 4] in two cells per axis, [0, 2) and [2, 4]
    old = pd.Series([0.0, 0.5, 1.5, 2.0, 2.0])
    new = pd.Series([0.0, 1.5, 4.5, 6.0, 6.0])
    points = drift_charts.ba_points(pd.DataFrame({"old_score": old, "new_score": new, "diff": new - old}))
    assert points.attrs["cells"] == {"distinct_points": 4, "grid": 2}
    assert sorted(map(tuple, points[["mean", "diff", "size"]].to_numpy().tolist())) == [(1.0, 1.0, 2), (3.0, 3.0, 3)]
    assert pickle.loads(pickle.dumps(points)).attrs == points.attrs  # st.cache_data pickles it
    title = drift_charts.bland_altman_chart(points, {"bias": None}).layout.title.text
    assert "4 distinct points counted in a 2 × 2 grid" in title


def test_ba_points_on_one_mean_keep_it(monkeypatch):
    monkeypatch.setattr(drift_charts, "MAX_POINTS", 1)
    old, new = pd.Series([1.0, 0.0, 2.0]), pd.Series([1.0, 2.0, 0.0])  # every mean is 1
    points = drift_charts.ba_points(pd.DataFrame({"old_score": old, "new_score": new, "diff": new - old}))
    assert points["mean"].tolist() == [1.0, 1.0, 1.0] and points["size"].sum() == 3


def test_the_shift_of_many_distinct_differences_is_drawn_over_bins_and_named():
    """Float differences (every one distinct) are drawn over at most stats.DRAW_BINS bins, as the
    audit's CIs; the interval stays within a tenth of its width of a plain row bootstrap (numpy
    resampling the rows, 20,000 times), and the JSON names the bins and the endpoint bound."""
    import numpy as np

    from judgescope import stats
    from judgescope.audit import drift

    d = np.random.default_rng(5).normal(0.4, 3.0, 5_000).round(4)
    assert np.unique(d).size > stats.MAX_CATEGORIES
    plan = drift.draw_plan(d, 2000)
    assert plan["values"].size <= stats.DRAW_BINS
    out = drift.shift(d, resamples=2000, seed=1)
    assert "score bins" in out["draws"] and "endpoints within" in out["draws"] and out["binned"]
    rng = np.random.default_rng(11)
    ref = np.quantile([d[rng.integers(0, d.size, d.size)].mean() for _ in range(20_000)], [0.025, 0.975])
    width = ref[1] - ref[0]
    assert abs(out["ci"][0] - ref[0]) < width / 10 and abs(out["ci"][1] - ref[1]) < width / 10
    few = drift.shift(np.array([1.0, 2.0, 2.0, -1.0] * 10), resamples=500, seed=1)
    assert few["draws"] == "percentile bootstrap, multinomial over 3 distinct values" and not few["binned"]


def test_judge_vs_system_names_what_each_side_was_drawn_over():
    import numpy as np

    from judgescope.audit import drift_split

    out = drift_split.decompose(np.arange(300) / 7, np.array([]), resamples=200)
    assert "score bins" in out["draws"]["anchors"] and out["draws"]["changed"] == "no values to draw"


def test_the_page_note_on_bins_counts_the_binned_shifts():
    from judgescope.web import drift_view

    def row(draws):
        return {"draws": draws, "binned": "score bins" in draws}
    exact = "percentile bootstrap, multinomial over 3 distinct values"
    binned = "percentile bootstrap, multinomial over 64 score bins of width 0.5 (…)"
    result = {"judge_shift": {"overall": row(binned), "by_language": [row(binned), row(exact)],
                              "by_unit": [row(exact)], "by_language_unit": [row(exact)]}}
    assert drift_view.binned_note(result).startswith("2 of 5 shifts")
    assert binned in drift_view.binned_note(result)
    result["judge_shift"]["overall"] = result["judge_shift"]["by_language"][0] = row(exact)
    assert drift_view.binned_note(result) is None


def test_the_joined_frame_is_one_order_whatever_order_the_rows_came_in(run):
    """Float sums depend on their order in the last digits: the frame the statistics read is
    sorted by every column, so the buckets' order and the rows' order within them do not matter."""
    parts = [drift_read.narrow(run("drift_pairs", buckets=3, bucket=b)) for b in range(3)]
    first = drift_read._joined([p.copy() for p in parts])
    shuffled = [p.sample(frac=1, random_state=i).reset_index(drop=True) for i, p in enumerate(parts)][::-1]
    again = drift_read._joined(list(shuffled))
    assert again.equals(first)
    single = drift_read._joined([pd.concat(shuffled, ignore_index=True).astype(
        {c: str for c in drift_read.CATEGORIES}).astype({c: "category" for c in drift_read.CATEGORIES})])
    assert single.astype(str).equals(first.astype(str))


def test_moved_most_keeps_ties_at_the_cut_in_key_order():
    """Only sizes at least the limit-th largest are sorted: ties at the cut are all kept there and
    ordered by language, unit and key, as a sort of every anchor orders them."""
    rows = [("th", "answer", "source_id", f"s{i}", None, 50.0, 50.0 + d)
            for i, d in enumerate([5, -3, 3, 3, 1, -3, 0])]
    frame = pd.DataFrame(rows, columns=["target_language", "unit", "paired_on", "unit_id", "paragraph_id",
                                        "old_score", "new_score"])
    frame = frame.assign(diff=frame["new_score"] - frame["old_score"], old_record_id="o", new_record_id="n")
    got = [m["unit_id"] for m in drift_report.moved_most(frame, limit=3)]
    assert got == ["s0", "s1", "s2"]  # 5, then the three of size 3 in key order, cut at 3
    assert [m["unit_id"] for m in drift_report.moved_most(frame, limit=10)] == ["s0", "s1", "s2", "s3", "s5", "s4"]


def test_joining_empties_the_list_of_buckets(run):
    parts = [drift_read.narrow(run("drift_pairs", buckets=2, bucket=b)) for b in range(2)]
    rows = sum(len(p) for p in parts)
    frame = drift_read._joined(parts)
    assert parts == [] and len(frame) == rows
