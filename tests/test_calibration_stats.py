"""Vectorised agreement statistics (calibration/agreement.py) against published values and the
row-by-row oracles of reference_stats.py."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reference_stats as R
from judgescope.calibration import agreement as cs
from judgescope import stats
from test_stats import (AP_A, AP_B, FLEISS_1971_COUNTS, KRIPPENDORFF_2011,
                        WIKIPEDIA_FLEISS)

WMT = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata" / \
    "multirater_sxs_mqm_wmt23_ende.jsonl"


def _patterns(counts):
    return np.unique(np.asarray(counts), axis=0, return_counts=True)


@pytest.mark.parametrize("counts, expected, tol", [
    (FLEISS_1971_COUNTS, 0.4302, 5e-5),  # Fleiss (1971), via statsmodels' tests
    (WIKIPEDIA_FLEISS, 0.210, 5e-4),     # Wikipedia worked example
])
def test_fleiss_of_patterns_published(counts, expected, tol):
    pats, weights = _patterns(counts)
    assert abs(cs.fleiss_of_patterns(pats, weights) - expected) < tol


def test_alpha_of_patterns_krippendorff_2011():
    counts, _ = cs.category_counts(pd.DataFrame(KRIPPENDORFF_2011).T)
    pats, weights = _patterns(counts)
    assert round(float(cs.alpha_nominal_of_patterns(pats, weights)), 3) == 0.743


def test_kappa_pi_of_tables_artstein_poesio():
    table = pd.crosstab(pd.Series(AP_A), pd.Series(AP_B)).to_numpy()
    kappa, pi = cs.kappa_pi_of_tables(table)
    assert round(float(kappa), 4) == 0.8013 and round(float(pi), 5) == 0.79953


def test_vectorised_matches_stats_on_random_data():
    rng = np.random.default_rng(3)
    ratings = pd.DataFrame(rng.choice(["a", "b", "c"], size=(200, 3), p=[0.6, 0.3, 0.1]))
    ratings.iloc[::7, 1] = ratings.iloc[::7, 0]  # some structure
    counts, cats = cs.category_counts(ratings)
    pats, weights = _patterns(counts)
    assert cs.fleiss_of_patterns(pats, weights) == pytest.approx(R.fleiss_kappa(counts))
    alpha = R.krippendorff_alpha_nominal(ratings.to_numpy().T)
    assert cs.alpha_nominal_of_patterns(pats, weights) == pytest.approx(alpha)
    pair = cs.pairwise_kappa(ratings, cats)[0]
    assert pair["cohen_kappa"] == pytest.approx(stats.cohen_kappa(ratings[0], ratings[1]))


def test_stacked_tables_are_resamples():
    tables = np.array([[[5, 1], [2, 4]], [[6, 0], [0, 6]], [[12, 0], [0, 0]]])
    kappa, pi = cs.kappa_pi_of_tables(tables)
    assert kappa[1] == pi[1] == 1.0 and np.isnan(kappa[2]) and np.isnan(pi[2])
    a = [0] * 5 + [0] + [1] * 2 + [1] * 4
    b = [0] * 5 + [1] + [0] * 2 + [1] * 4
    assert kappa[0] == pytest.approx(stats.cohen_kappa(a, b))
    assert pi[0] == pytest.approx(R.scotts_pi(a, b))


def test_multinomial_ci_is_seeded_and_brackets_the_point():
    table = np.array([46, 2, 8, 44])
    fn = lambda d: cs.kappa_pi_of_tables(d.reshape(-1, 2, 2))[1]  # noqa: E731
    first, again = cs.multinomial_ci(table, fn, seed=11), cs.multinomial_ci(table, fn, seed=11)
    other = cs.multinomial_ci(table, fn, seed=12)
    assert first == again and first != other
    assert first[0] < 1999 / 2499 < first[1]


def test_multinomial_bootstrap_agrees_with_row_resampling():
    truth = np.array([1] * 44 + [0] * 46 + [0] * 2 + [1] * 8)
    pred = np.array([1] * 44 + [0] * 46 + [1] * 2 + [0] * 8)
    rows = R.agreement_row_bootstrap(R.scotts_pi, pred, truth, resamples=2000, seed=5)
    fast = cs.multinomial_ci([46, 2, 8, 44],
                             lambda d: cs.kappa_pi_of_tables(d.reshape(-1, 2, 2))[1], seed=5)
    assert abs(rows[0] - fast[0]) < 0.03 and abs(rows[1] - fast[1]) < 0.03


def test_undefined_is_none():
    out = cs.human_agreement(pd.DataFrame([["a", "a"], ["a", "a"]]))
    assert out["fleiss_kappa"]["value"] is None and out["krippendorff_alpha"]["value"] is None
    assert out["pairwise"][0]["cohen_kappa"] is None
    empty = cs.multinomial_ci([0, 0], lambda d: d[:, 0])
    assert empty == (None, None)


def test_unequal_ratings_per_item_skip_fleiss_but_not_alpha():
    ratings = pd.DataFrame([["a", "a", None], ["a", "b", "b"], ["b", None, "b"], ["a", "a", "a"]])
    out = cs.human_agreement(ratings)
    assert out["fleiss_kappa"]["value"] is None and "note" in out["fleiss_kappa"]
    assert out["krippendorff_alpha"]["value"] == pytest.approx(
        R.krippendorff_alpha_nominal(ratings.to_numpy().T))
    assert out["ratings_per_item"] == [2, 3]


@pytest.mark.skipif(not WMT.exists(), reason="../shared/realdata is not beside this checkout")
def test_wmt23_three_of_ten_raters():
    """Real data: 1,040 items, each rated by 3 of 10 raters, verdict no_error / minor / major."""
    rows = pd.DataFrame([json.loads(line) for line in WMT.open(encoding="utf-8")])
    rows["item"] = rows["global_seg_id"].astype(str) + "|" + rows["system"]
    ratings = cs.ratings_from_long(rows, "item", "rater", "verdict")
    assert ratings.shape[0] == 1040 and ratings.notna().sum(axis=1).eq(3).all()
    out = cs.human_agreement(ratings, ["no_error", "minor", "major"], resamples=2000)
    counts, _ = cs.category_counts(ratings, ["no_error", "minor", "major"])
    assert out["fleiss_kappa"]["value"] == pytest.approx(R.fleiss_kappa(counts))
    assert out["krippendorff_alpha"]["value"] == pytest.approx(
        R.krippendorff_alpha_nominal(ratings.to_numpy().T))
    low, high = out["krippendorff_alpha"]["ci"]
    assert -1 < low < out["krippendorff_alpha"]["value"] < high < 1
    assert out["pairwise"] and all(p["n"] >= 2 for p in out["pairwise"])
