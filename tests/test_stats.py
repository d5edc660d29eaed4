"""Statistics against published reference values, then the seeded bootstraps and gates."""

import ast
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from judgescope import stats as S

STATS_PY = Path(__file__).resolve().parent.parent / "judgescope" / "stats.py"
nan = np.nan

# Artstein & Poesio (2008), "Inter-coder agreement for computational linguistics", 2 coders x
# 100 items; values as in NLTK's agreement doctest. (coder A label, coder B label, items).
AP_TABLE = [("stat", "stat", 46), ("ireq", "stat", 6), ("ireq", "ireq", 32),
            ("ireq", "chck", 6), ("chck", "chck", 10)]
AP_A = [a for a, _, k in AP_TABLE for _ in range(k)]
AP_B = [b for _, b, k in AP_TABLE for _ in range(k)]

# Fleiss (1971) 30 subjects x 6 raters, 5 diagnoses, as in statsmodels
# stats/tests/test_inter_rater.py (`diagnoses`); kappa 0.4302445 (R irr::kappam.fleiss).
FLEISS_1971 = np.array([
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5]])
FLEISS_1971_COUNTS = (FLEISS_1971[:, :, None] == np.arange(1, 6)).sum(1)

# Wikipedia "Fleiss' kappa" worked example: 10 subjects x 14 raters, 5 categories; kappa 0.210.
WIKIPEDIA_FLEISS = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                    [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                    [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]

# SAS PROC FREQ AGREE example table, as in statsmodels test_inter_rater.py (`table10`).
SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", coders A-D x 12 units.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]

# LocalGate (seed 001), panel majority vs human majority: TP 44, TN 46, FP 2, FN 8 (STYLE.md).
GATE_TRUTH = np.array([1] * 44 + [0] * 46 + [0] * 2 + [1] * 8)
GATE_PRED = np.array([1] * 44 + [0] * 46 + [1] * 2 + [0] * 8)


def test_stats_does_not_import_streamlit():
    tree = ast.parse(STATS_PY.read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in names if m.split(".")[0] == "streamlit"}


@pytest.mark.parametrize("fn, expected, tol", [
    (S.observed_agreement, 0.88, 1e-12),
    (S.scotts_pi, 0.79953, 1e-4),
    (lambda a, b: S.bennett_s(a, b, ["stat", "ireq", "chck"]), 0.82, 1e-12),
    (S.cohen_kappa, 0.8013, 1e-4),
])
def test_artstein_poesio_2008(fn, expected, tol):
    assert fn(AP_A, AP_B) == pytest.approx(expected, abs=tol)


@pytest.mark.parametrize("counts, expected, tol", [
    (FLEISS_1971_COUNTS, 0.4302445, 1e-7),
    (WIKIPEDIA_FLEISS, 0.210, 5e-4),
])
def test_fleiss_kappa(counts, expected, tol):
    assert S.fleiss_kappa(counts) == pytest.approx(expected, abs=tol)


@pytest.mark.parametrize("fn, expected", [
    (S.cohen_kappa_from_table, 0.4842),
    (lambda t: S.weighted_kappa_from_table(t, "linear"), 0.4701),
    (lambda t: S.weighted_kappa_from_table(t, [[0, 1, 2], [1, 0, 1], [2, 1, 0]]), 0.4701),
])
def test_sas_proc_freq_kappa(fn, expected):
    assert fn(SAS_TABLE) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("level, expected", [
    ("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797),
])
def test_krippendorff_2011(level, expected):
    assert S.krippendorff_alpha(KRIPPENDORFF_2011, level) == pytest.approx(expected, abs=5e-4)


def test_localgate_panel():
    assert S.confusion_binary(GATE_TRUTH, GATE_PRED) == {"tp": 44, "fp": 2, "fn": 8, "tn": 46}
    assert S.observed_agreement(GATE_TRUTH, GATE_PRED) == pytest.approx(0.90)
    pi = S.scotts_pi_fraction(GATE_TRUTH, GATE_PRED)
    assert pi == Fraction(1999, 2499)
    assert S.scotts_pi(GATE_TRUTH, GATE_PRED) == pytest.approx(0.79992, abs=1e-5)
    assert S.gate_verdict(pi, 0.80)["verdict"] == "FAIL"
    assert S.gate_verdict(0.8, 0.80)["verdict"] == "PASS"
    assert S.format_fraction_decimal(pi, 5) == "1999/2499 = 0.79992"


@pytest.mark.parametrize("call", [
    lambda: S.cohen_kappa([1, 1, 1], [1, 1, 1]),  # p_e = 1
    lambda: S.cohen_kappa_from_table([[0, 0], [0, 0]]),  # n = 0
    lambda: S.scotts_pi(["a", "a"], ["a", "a"]),
    lambda: S.scotts_pi_fraction([], []),
    lambda: S.observed_agreement([], []),
    lambda: S.bennett_s([1], [1], [1]),
    lambda: S.fleiss_kappa([[3, 0], [3, 0]]),
    lambda: S.krippendorff_alpha([[1, nan], [nan, 2]]),  # no unit has two values
    lambda: S.krippendorff_alpha([[1, 1], [1, 1]]),
    lambda: S.percentile([], 5),
    lambda: S.describe([])["mean"],
    lambda: S.describe([70])["sd"],
    lambda: S.bootstrap_mean_ci([])["low"],
    lambda: S.bootstrap_share_ci(0, 0)["share"],
    lambda: S.wilson_ci(0, 0)["low"],
])
def test_undefined_is_none(call):
    assert call() is None


def test_describe_hand_computed():
    # Deviations from 80: -30, -10, 5, 15, 20; squares sum to 1650; sd = sqrt(1650 / 4).
    d = S.describe([50, 70, 85, 95, 100])
    assert d == {"n": 5, "mean": 80.0, "median": 85.0, "sd": pytest.approx((1650 / 4) ** 0.5),
                 "below_60": 1, "below_80": 2, "at_least_90": 2}
    assert set(S.describe([1, 2], thresholds=(50, 75, 95))) >= {"below_50", "below_75",
                                                                  "at_least_95"}


@pytest.mark.parametrize("values, counts, qs", [
    ([0, 50, 100], [1, 1, 1], [0, 5, 10, 50, 100]),
    ([10, 20, 30, 40], [3, 1, 5, 2], [0, 5, 10, 33.3, 50, 90, 100]),
    ([7, 3, 99, 45], [100, 7, 1, 20], [5, 10, 25, 99]),
    ([2.5], [4], [5, 95]),
])
def test_percentiles_from_counts_match_numpy(values, counts, qs):
    rows = np.repeat(values, counts)
    expected = [float(np.percentile(rows, q)) for q in qs]
    assert S.percentiles_from_counts(values, counts, qs) == pytest.approx(expected)
    assert [S.percentile(rows, q) for q in qs] == pytest.approx(expected)


FIXTURE = np.random.default_rng(7).integers(0, 101, size=400)


def test_bootstrap_is_seeded():
    first = S.bootstrap_mean_ci(FIXTURE, resamples=2_000, seed=1)
    assert S.bootstrap_mean_ci(FIXTURE, resamples=2_000, seed=1) == first
    other = S.bootstrap_mean_ci(FIXTURE, resamples=2_000, seed=2)
    assert (other["low"], other["high"]) != (first["low"], first["high"])
    assert first["low"] < first["mean"] < first["high"]
    assert first["seed"] == 1 and first["resamples"] == 2_000


def test_row_version_delegates_to_counts():
    distinct, counts = np.unique(FIXTURE, return_counts=True)
    ci = S.bootstrap_mean_ci(FIXTURE, seed=3)
    assert ci == S.bootstrap_mean_ci_from_counts(distinct, counts, seed=3)
    assert ci["method"] == f"percentile bootstrap, multinomial over {distinct.size} distinct values"


def test_multinomial_agrees_with_row_resampling():
    # Continuous data with > 1000 distinct values takes the row path; the same data as counts
    # (each value once) takes the multinomial path. Same distribution, so the endpoints agree
    # within Monte-Carlo error: each 2.5% endpoint wanders ~0.03 SE at 10,000 resamples, so
    # 0.2 SE is about five sigma of the difference between two independent runs.
    x = np.random.default_rng(11).normal(70, 15, size=1_500)
    rows = S.bootstrap_mean_ci(x, seed=5)
    counts = S.bootstrap_mean_ci_from_counts(x, np.ones_like(x, dtype=int), seed=6)
    assert rows["method"] == "percentile bootstrap, row resampling"
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert rows["mean"] == pytest.approx(counts["mean"])
    assert rows["low"] == pytest.approx(counts["low"], abs=0.2 * se)
    assert rows["high"] == pytest.approx(counts["high"], abs=0.2 * se)
    assert rows["high"] - rows["low"] == pytest.approx(2 * 1.96 * se, rel=0.05)


def test_counts_path_ten_million_rows():
    counts = np.full(101, 10_000_000 // 101)
    counts[0] += 10_000_000 - counts.sum()
    ci = S.bootstrap_mean_ci_from_counts(np.arange(101), counts, resamples=10_000, seed=9)
    assert ci["low"] < ci["mean"] < ci["high"]


def test_share_intervals():
    ci = S.bootstrap_share_ci(30, 200, resamples=5_000, seed=4)
    assert ci == S.bootstrap_share_ci(30, 200, resamples=5_000, seed=4)
    assert ci["low"] < 0.15 < ci["high"]
    # Wilson with k = 0 has the closed form [0, z^2 / (n + z^2)].
    z = 1.959963984540054
    assert S.wilson_ci(0, 20) == pytest.approx(
        {"share": 0.0, "low": 0.0, "high": z * z / (20 + z * z),
         "method": "Wilson score", "level": 0.95})
    w = S.wilson_ci(30, 200)
    assert w["low"] < 0.15 < w["high"]


def test_unpaired_and_paired_differences():
    b = FIXTURE + 10
    diff = S.bootstrap_diff_ci(*np.unique(FIXTURE, return_counts=True),
                               *np.unique(b, return_counts=True), seed=8)
    assert diff["diff"] == pytest.approx(10.0)
    assert 0 < diff["low"] < 10 < diff["high"]
    paired = S.paired_bootstrap_diff_ci(FIXTURE, b, seed=8)
    # Every pair differs by exactly 10, so the paired interval collapses onto it.
    assert (paired["diff"], paired["low"], paired["high"]) == (10.0, 10.0, 10.0)


@pytest.mark.parametrize("columns, expected", [
    (([1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0]), [True, True, True, False]),
    (([True, False], [True, False], [False, True]), [True, False]),
    (([1, 0, 1],), [True, False, True]),
])
def test_majority_binary(columns, expected):
    assert S.majority_binary(*columns).tolist() == expected


def test_majority_binary_rejects_ties():
    with pytest.raises(ValueError):
        S.majority_binary([1], [0])


def test_bootstrap_agreement_ci():
    args = (S.scotts_pi, [GATE_TRUTH, GATE_PRED])
    low, high = S.bootstrap_agreement_ci(*args, resamples=500, seed=1)
    assert (low, high) == S.bootstrap_agreement_ci(*args, resamples=500, seed=1)
    assert low < 1999 / 2499 < high
    # Tiny samples often resample to one category (kappa undefined); those are skipped.
    low, high = S.bootstrap_agreement_ci(S.cohen_kappa, [[0, 1, 1], [0, 1, 0]], 300, seed=2)
    assert low is not None and -1 <= low <= high <= 1
    assert S.bootstrap_agreement_ci(lambda a: None, [[1, 2]], 10, seed=0) == (None, None)


@pytest.mark.parametrize("point, gate, low, high, verdict, inconclusive", [
    (Fraction(1999, 2499), 0.80, None, None, "FAIL", False),
    (0.8, 0.80, None, None, "PASS", False),
    (0.7, 0.7, None, None, "PASS", False),  # float repr, not binary expansion, meets gate
    (Fraction(4, 5), "0.80", None, None, "PASS", False),
    (0.85, 0.80, 0.75, 0.9, "PASS", True),  # CI straddles: low < gate <= high
    (0.85, 0.80, 0.80, 0.9, "PASS", False),  # whole CI passes
    (0.75, 0.80, 0.70, 0.80, "FAIL", True),  # high == gate passes
    (0.75, 0.80, 0.70, 0.79, "FAIL", False),
    (None, 0.80, None, None, "FAIL", False),  # undefined statistic cannot meet a gate
])
def test_gate_verdict(point, gate, low, high, verdict, inconclusive):
    assert S.gate_verdict(point, gate, low, high) == {"verdict": verdict,
                                                      "inconclusive": inconclusive}


@pytest.mark.parametrize("frac, digits, gate, expected", [
    (Fraction(1999, 2499), 5, None, "1999/2499 = 0.79992"),
    (Fraction(1999, 2499), 3, None, "1999/2499 = 0.7999"),  # never "0.800"
    (Fraction(1999, 2499), 2, 0.8, "1999/2499 = 0.7999"),
    (Fraction(4, 5), 5, None, "4/5 = 0.80000"),
    (Fraction(-1, 3), 3, None, "-1/3 = -0.333"),
])
def test_format_fraction_decimal(frac, digits, gate, expected):
    assert S.format_fraction_decimal(frac, digits, gate) == expected


def test_pandas_input_is_accepted():
    pd = pytest.importorskip("pandas")
    assert S.bootstrap_mean_ci(pd.Series(FIXTURE), seed=1) == S.bootstrap_mean_ci(FIXTURE, seed=1)
    frame = pd.DataFrame(KRIPPENDORFF_2011)
    assert S.krippendorff_alpha(frame) == pytest.approx(0.743, abs=5e-4)
