"""Clustered intervals (coverage simulation) and the label budget of an undecided gate.

Expected behaviour comes from simulations written here with their own resampling code and from
known properties of a 95% interval, never from the functions under test."""

import numpy as np
import pytest
import pandas as pd

from judgescope.calibration import exact, power
from judgescope.calibration import panel as cal


def test_clustered_interval_covers_where_item_level_does_not():
    # Miller (2024), "Adding Error Bars to Evals" (arXiv 2411.00640): with items grouped in
    # clusters, item-level intervals are too narrow. 800 seeded synthetic data sets of 100
    # clusters × 5 items; each cluster agrees with its own rate p_c ~ Beta(1, 1) (true mean
    # agreement 0.5, strong within-cluster correlation). Nominal 95%.
    rng = np.random.default_rng(11)
    sims, clusters_n, size, truth = 800, 100, 5, 0.5
    hit_c = hit_i = 0
    labels = np.repeat(np.arange(clusters_n), size)
    for s in range(sims):
        p_c = rng.beta(1, 1, clusters_n)
        agree = rng.random((clusters_n, size)) < p_c[:, None]
        cells = np.where(agree, 3, 1).ravel()
        fixed = dict(max_outcomes=0, start=1_000, max_resamples=1_000, seed=s)
        c = exact.clustered_table_ci(labels, cells, 4, exact.agreement_of, **fixed)
        i = exact.table_ci(np.bincount(cells, minlength=4), exact.agreement_of, **fixed)
        hit_c += c["low"] <= truth <= c["high"]
        hit_i += i["low"] <= truth <= i["high"]
    assert 0.93 <= hit_c / sims <= 0.97
    assert not 0.93 <= hit_i / sims <= 0.97 and hit_i / sims < 0.90


def test_cluster_patterns_keep_items_of_a_cluster_together():
    patterns, counts = exact.cluster_patterns(["a", "a", "b", "c", "c"], [3, 1, 3, 3, 3], 4)
    as_rows = {tuple(p): int(c) for p, c in zip(patterns, counts)}
    assert as_rows == {(0, 1, 0, 1): 1, (0, 0, 0, 1): 1, (0, 0, 0, 2): 1}


def _frame(question_ids):
    n = len(question_ids)
    truth = np.array([1, 0] * (n // 2))
    pred = truth.copy()
    pred[::7] = 1 - pred[::7]
    return pd.DataFrame({"key": [f"k{i}" for i in range(n)], "question_id": question_ids,
                         "human_correct": truth, "binary__j": pred.astype(float)})


def test_rater_stats_headline_is_clustered_and_names_the_column():
    qids = [f"q{i // 2}" for i in range(60)]  # 30 questions, 2 answers each
    r = cal.rater_stats(_frame(qids), "judge:j", 0.6)
    assert r["clusters"] == {"column": "question_id", "n": 30}
    assert "clusters of question_id (30 clusters, 60 items)" in r["ci_method"]
    assert "exact" in r["ci_item_method"] and r["ci_item"] != r["ci"]
    # Unique question ids: nothing is shared, so the item-level interval is the headline.
    single = cal.rater_stats(_frame([f"q{i}" for i in range(60)]), "judge:j", 0.6)
    assert single["clusters"] is None and single["ci"] == single["ci_item"]


def _independent_clear_rate(table, added, gate, futures=150, resamples=600, seed=99):
    """Share of simulated futures whose percentile bootstrap CI of Scott's π excludes the gate:
    items drawn one by one, resampled by index (no multinomial shortcut), π from its formula."""
    rng = np.random.default_rng(seed)
    cells = np.repeat(np.arange(4), table)
    clear = 0
    for _ in range(futures):
        items = np.concatenate([cells, rng.choice(cells, size=added)])
        idx = rng.integers(0, items.size, size=(resamples, items.size))
        a, b = items[idx] // 2, items[idx] % 2
        p_o = (a == b).mean(1)
        m = (a.mean(1) + b.mean(1)) / 2
        p_e = m * m + (1 - m) * (1 - m)
        pi = (p_o - p_e) / (1 - p_e)
        low, high = np.percentile(pi, [2.5, 97.5])
        clear += high < gate or low >= gate
    return clear / futures


def test_label_budget_decides_a_gate_it_can_decide():
    table = [46, 2, 8, 44]  # the LocalGate panel's confusion (seed 001)
    out = power.label_budget(table, 0.7)
    added = out["added_items"]
    assert added is not None and out["chance"][-1]["chance"] >= 0.80
    assert _independent_clear_rate(table, added, 0.7) >= 0.72  # MC noise of both simulations
    previous = [c["added"] for c in out["chance"]][-2]
    assert _independent_clear_rate(table, previous, 0.7) < 0.80
    assert "seed" in out["method"] and "80%" in out["method"]


def test_label_budget_when_the_gate_sits_on_the_estimate():
    # Seed 001: π = 1999/2499, 0.00008 below the 0.80 gate. When the true value is (almost) the
    # gate, a 95% interval excludes it about 5% of the time whatever n: no budget decides it.
    out = power.label_budget([46, 2, 8, 44], 0.8)
    assert out["added_items"] is None
    assert all(c["chance"] <= 0.12 for c in out["chance"])
    assert "no budget up to 12,800" in out["sentence"]


def _patterns_by_sorting(clusters, cells, n_cells):
    """The reference: clusters numbered by sorting their text, patterns by np.unique(axis=0)."""
    _, index = np.unique(np.asarray(clusters).astype(str), return_inverse=True)
    per_cluster = np.zeros((index.max() + 1, n_cells), dtype=np.int64)
    np.add.at(per_cluster, (index, np.asarray(cells)), 1)
    return np.unique(per_cluster, axis=0, return_counts=True)


@pytest.mark.parametrize("n, k, n_cells", [(5, 3, 4), (5_000, 700, 4), (20_000, 40, 9), (300, 300, 2), (1, 1, 4)])
def test_cluster_patterns_equal_the_sorted_reference(n, k, n_cells):
    """Hashed cluster numbers and one integer per pattern (calibrate at 1M answers: 46 s → 22 s)
    give the patterns, in the same order, and the counts that sorting the labels gives; labels
    given as integers, or as the codes cluster_codes returned, group the same items."""
    rng = np.random.default_rng(n)
    labels, cells = rng.integers(0, k, n), rng.integers(0, n_cells, n)
    want = _patterns_by_sorting(labels.astype(str), cells, n_cells)
    for given in (labels.astype(str), labels, exact.cluster_codes(labels.astype(str)),
                  pd.Series(labels.astype(str)).astype(object)):
        patterns, counts = exact.cluster_patterns(given, cells, n_cells)
        assert patterns.tolist() == want[0].tolist() and counts.tolist() == want[1].tolist()


def test_distinct_rows_too_wide_for_one_integer_fall_back_to_numpy():
    table = np.array([[9] * 40, [3] * 40, [9] * 40])
    patterns, counts = exact._distinct_rows(table)
    assert patterns.tolist() == [[3] * 40, [9] * 40] and counts.tolist() == [1, 2]
