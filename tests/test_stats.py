"""The statistics the app calls (judgescope/stats.py) against published reference values, the
count bootstrap against a plain row bootstrap and the normal-theory width, then gates."""

import ast
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import reference_stats as R
from judgescope.calibration import agreement as cs
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

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
# Medicine 17:857-872, Table I: Wilson score interval (method 3), 95%.
NEWCOMBE_1998 = [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
                 (1, 29, 0.0061, 0.1718)]

# LocalGate (seed 001), panel majority vs human majority: TP 44, TN 46, FP 2, FN 8 (STYLE.md).
GATE_TRUTH = np.array([1] * 44 + [0] * 46 + [0] * 2 + [1] * 8)
GATE_PRED = np.array([1] * 44 + [0] * 46 + [1] * 2 + [0] * 8)


def test_stats_does_not_import_streamlit():
    tree = ast.parse(STATS_PY.read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in names if m.split(".")[0] == "streamlit"}


def test_every_public_function_is_called_by_the_app():
    """Issue #14 item 23: stats.py holds only what judgescope/, pages/ or bench/ call."""
    root = STATS_PY.parent.parent
    public = [n.name for n in ast.parse(STATS_PY.read_text()).body
              if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    callers = [p.read_text(encoding="utf-8") for d in ("judgescope", "pages", "bench")
               for p in (root / d).rglob("*.py") if p != STATS_PY]
    callers = [t for t in callers if "stats" in t]
    unused = [f for f in public if not any(f"{f}(" in t or f"import {f}" in t for t in callers)]
    assert unused == []


def test_artstein_poesio_2008():
    # Artstein & Poesio (2008), Computational Linguistics 34(4), 2 coders x 100 items; the
    # values as in NLTK's agreement doctest: A_o 0.88, Scott's pi 0.79953, Cohen's kappa 0.8013.
    assert S.observed_agreement(AP_A, AP_B) == pytest.approx(0.88, abs=1e-12)
    assert float(S.scotts_pi_fraction(AP_A, AP_B)) == pytest.approx(0.79953, abs=5e-6)
    assert S.cohen_kappa(AP_A, AP_B) == pytest.approx(0.8013, abs=5e-5)


def test_sas_proc_freq_kappa():
    # SAS PROC FREQ AGREE example (statsmodels test_inter_rater.py `table10`): kappa 0.4842.
    rows, cols = zip(*[(i, j) for i, row in enumerate(SAS_TABLE) for j, k in enumerate(row)
                       for _ in range(k)])
    assert S.cohen_kappa(rows, cols) == pytest.approx(0.4842, abs=5e-5)
    assert float(cs.kappa_pi_of_tables(SAS_TABLE)[0]) == pytest.approx(0.4842, abs=5e-5)


def test_localgate_panel():
    assert S.confusion_binary(GATE_TRUTH, GATE_PRED) == {"tp": 44, "fp": 2, "fn": 8, "tn": 46}
    assert S.observed_agreement(GATE_TRUTH, GATE_PRED) == pytest.approx(0.90)
    pi = S.scotts_pi_fraction(GATE_TRUTH, GATE_PRED)
    assert pi == Fraction(1999, 2499)  # STYLE.md: 1999/2499 = 0.79992, below the 0.80 gate
    assert S.gate_verdict(pi, 0.80)["verdict"] == "FAIL"
    assert S.gate_verdict(0.8, 0.80)["verdict"] == "PASS"
    assert S.format_fraction_decimal(pi, 5) == "1999/2499 = 0.79992"


@pytest.mark.parametrize("k, n, low, high", NEWCOMBE_1998)
def test_wilson_newcombe_1998(k, n, low, high):
    ci = S.wilson_ci(k, n)
    assert (round(ci["low"], 4), round(ci["high"], 4)) == (low, high)
    assert ci["share"] == k / n


@pytest.mark.parametrize("call", [
    lambda: S.cohen_kappa([1, 1, 1], [1, 1, 1]),  # p_e = 1
    lambda: S.cohen_kappa([], []),  # n = 0
    lambda: S.scotts_pi_fraction(["a", "a"], ["a", "a"]),
    lambda: S.scotts_pi_fraction([], []),
    lambda: S.observed_agreement([], []),
    lambda: S.bootstrap_mean_ci_from_counts([], [])["low"],
    lambda: S.bootstrap_diff_ci([1.0], [2], [], [])["diff"],
    lambda: S.wilson_ci(0, 0)["low"],
])
def test_undefined_is_none(call):
    assert call() is None


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


FIXTURE = np.random.default_rng(7).integers(0, 101, size=400)


def test_bootstrap_is_seeded():
    distinct, counts = np.unique(FIXTURE, return_counts=True)
    first = S.bootstrap_mean_ci_from_counts(distinct, counts, resamples=2_000, seed=1)
    assert S.bootstrap_mean_ci_from_counts(distinct, counts, resamples=2_000, seed=1) == first
    other = S.bootstrap_mean_ci_from_counts(distinct, counts, resamples=2_000, seed=2)
    assert (other["low"], other["high"]) != (first["low"], first["high"])
    assert (first["seed"], first["resamples"]) == (1, 2_000)
    assert first["method"] == f"percentile bootstrap, multinomial over {distinct.size} distinct values"


def test_counts_bootstrap_matches_a_plain_row_bootstrap():
    # The same data resampled row by row (reference_stats, a loop over index draws): the two
    # 2.5% / 97.5% endpoints are Monte-Carlo estimates of the same quantiles. Each wanders
    # about 0.03 SE at 10,000 resamples, so 0.2 SE is some five sigma of their difference.
    distinct, counts = np.unique(FIXTURE, return_counts=True)
    ci = S.bootstrap_mean_ci_from_counts(distinct, counts, resamples=10_000, seed=6)
    rows = R.row_bootstrap_means(FIXTURE, 10_000, seed=5)
    se = FIXTURE.std(ddof=1) / np.sqrt(FIXTURE.size)
    assert ci["mean"] == pytest.approx(FIXTURE.mean(), abs=1e-12)
    assert ci["low"] == pytest.approx(np.percentile(rows, 2.5), abs=0.2 * se)
    assert ci["high"] == pytest.approx(np.percentile(rows, 97.5), abs=0.2 * se)


def test_counts_path_ten_million_rows_has_the_normal_width():
    # 10M rows spread evenly over 0..100: the bootstrap distribution of the mean is normal with
    # sd = SD/sqrt(n), so the 95% width is 2 * 1.96 * SD / sqrt(n) (0.0361). Monte-Carlo error
    # of the width at 10,000 resamples is about 1%; 5% is the stated tolerance.
    values = np.arange(101.0)
    counts = np.full(101, 10_000_000 // 101)
    counts[0] += 10_000_000 - counts.sum()
    ci = S.bootstrap_mean_ci_from_counts(values, counts, resamples=10_000, seed=9)
    n = counts.sum()
    mean = values @ counts / n
    sd = np.sqrt(((values - mean) ** 2) @ counts / (n - 1))
    assert ci["high"] - ci["low"] == pytest.approx(2 * 1.96 * sd / np.sqrt(n), rel=0.05)
    assert (ci["low"] + ci["high"]) / 2 == pytest.approx(mean, abs=0.1 * sd / np.sqrt(n) * 1.96)


def test_unpaired_difference():
    # b = a + 10: the difference is exactly 10; each mean's SE is se(a), so the unpaired
    # difference's 95% width is 2 * 1.96 * sqrt(2) * se (within 5%).
    b = FIXTURE + 10
    diff = S.bootstrap_diff_ci(*np.unique(FIXTURE, return_counts=True),
                               *np.unique(b, return_counts=True), seed=8)
    se = FIXTURE.std(ddof=1) / np.sqrt(FIXTURE.size)
    assert diff["diff"] == pytest.approx(10.0)
    assert diff["high"] - diff["low"] == pytest.approx(2 * 1.96 * np.sqrt(2) * se, rel=0.05)


@pytest.mark.parametrize("columns, expected", [
    (([1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0]), [True, True, True, False]),
    (([True, False], [True, False], [False, True]), [True, False]),
    (([1, 0, 1],), [True, False, True]),
])
def test_majority_binary(columns, expected):
    assert S.majority_binary(*columns).tolist() == expected


def test_majority_binary_rejects_ties():
    with pytest.raises(ValueError, match="odd number"):
        S.majority_binary([1], [0])


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
    values, counts = np.unique(FIXTURE, return_counts=True)
    assert S.bootstrap_mean_ci_from_counts(pd.Series(values), pd.Series(counts), seed=1) == \
        S.bootstrap_mean_ci_from_counts(values, counts, seed=1)
