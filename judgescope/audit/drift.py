"""Drift of a judge between two runs, measured on anchors: units whose source and candidate texts
are byte-identical in both runs (equal SHA-256), so any change of their score is the judge's.
Pure statistics over drift_pairs rows (one row per unit scored once in each run, diff = new −
old): the paired shift with a seeded bootstrap CI, an exact sign test and Wilcoxon's test;
Bland–Altman limits of agreement with their CIs; for verdicts the flip rate, McNemar and κ."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

from judgescope import defaults
from judgescope import stats
from judgescope.significance import paired

MIN_ANCHORS = 30  # fewer anchors: the shift is shown but marked too few to decide
MIN_KAPPA = 50  # fewer anchors: κ between the versions is marked too few to decide
DEFAULT_RESAMPLES = defaults.RESAMPLES
DEFAULT_SEED = stats.DEFAULT_SEED
LEVEL = 0.95

SHIFT_METHOD = ("mean of new − old over the anchors; CI: percentile bootstrap over the anchors "
                "(resampled with replacement)")
SIGN_METHOD = ("exact sign test: two-sided binomial (p = ½) on the anchors that moved up vs down; "
               "anchors that did not move are dropped")


def draw_plan(values, resamples: int) -> dict:
    """What the bootstrap of a mean of `values` draws over (stats.bootstrap_plan, as the audit's
    CIs): its distinct values when there are at most stats.MAX_CATEGORIES (exactly a resample of
    the rows), else at most stats.DRAW_BINS bins of equal width, each at its rows' mean, with the
    bound on how far that moves the endpoints named in `method`. A group of float differences has
    as many distinct values as anchors: drawn over each, a million anchors took minutes."""
    distinct, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    return stats.bootstrap_plan(distinct, counts, resamples)


def boot_means(rng, values: np.ndarray, resamples: int, plan: dict | None = None) -> np.ndarray:
    """`resamples` bootstrap means of `values`, drawn over draw_plan's values as the audit's
    intervals are (stats.bootstrap_means); none when there are no values."""
    if np.asarray(values).size == 0:
        return np.array([])
    return stats.bootstrap_means(rng, plan or draw_plan(values, resamples), resamples)


def draws_method(plan: dict | None) -> str:
    """What a CI's resamples were drawn over, from its draw_plan (none: no values)."""
    return "no values to draw" if plan is None else plan["method"]


def _ci(draws: np.ndarray, level: float) -> list:
    if draws.size == 0:
        return [None, None]
    tail = (1 - level) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return [float(low), float(high)]


def sign_test(diffs) -> dict:
    """Exact two-sided sign test on the non-zero differences."""
    d = np.asarray(diffs, dtype=float)
    up, down = int((d > 0).sum()), int((d < 0).sum())
    from scipy import stats as sps  # here, not at import: scipy.stats takes ~1 s to import

    p = None if up + down == 0 else float(sps.binomtest(up, up + down, 0.5).pvalue)
    return {"up": up, "down": down, "unchanged": int((d == 0).sum()), "p": p, "method": SIGN_METHOD}


def shift(diffs, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, level=LEVEL) -> dict:
    """The judge's shift on anchors: mean difference, bootstrap CI, sign test and Wilcoxon."""
    d = np.asarray(diffs, dtype=float)
    n = int(d.size)
    plan = draw_plan(d, resamples) if n else None
    draws = boot_means(np.random.default_rng(seed), d, resamples, plan) if n else np.array([])
    wil = paired.wilcoxon(d)
    return {"anchors": n, "mean_diff": float(d.mean()) if n else None, "ci": _ci(draws, level),
            "sign_test": sign_test(d), "wilcoxon": {"p": wil["p"], "method": f"{paired.WILCOXON}; {wil['method']}"},
            "too_few_to_decide": n < MIN_ANCHORS, "method": SHIFT_METHOD, "draws": draws_method(plan),
            "binned": plan is not None and plan["width"] is not None,
            "resamples": resamples, "seed": seed, "level": level}


def shift_table(anchors: pd.DataFrame, by: list[str], resamples=DEFAULT_RESAMPLES,
                seed=DEFAULT_SEED, level=LEVEL) -> list[dict]:
    """shift() per group of `by` over the anchor rows (columns of drift_pairs), in sorted order."""
    if not by:
        return [shift(anchors["diff"], resamples, seed, level)]
    return [{**dict(zip(by, key if isinstance(key, tuple) else (key,))),
             **shift(part["diff"], resamples, seed, level)}
            for key, part in anchors.groupby(by, sort=True, dropna=False)]


BA_METHOD = ("Bland–Altman on the anchors: bias = mean of new − old, SD with ddof 1, limits of "
             "agreement = bias ± z·SD (z = 1.96 for 95%); bias CI: bias ± t(n−1)·SD/√n; limit CI: "
             "limit ± t(n−1)·SD·√(1/n + z²/(2(n−1))) (Bland & Altman 1999)")


def bland_altman(old, new, level=LEVEL) -> dict:
    """Bias and limits of agreement of new against old, each with its CI; None when n < 3."""
    o, w = np.asarray(old, dtype=float), np.asarray(new, dtype=float)
    d, n = w - o, int(o.size)
    out = {"anchors": n, "bias": None, "sd": None, "bias_ci": [None, None], "loa": [None, None],
           "loa_ci": [[None, None], [None, None]], "method": BA_METHOD, "level": level,
           "too_few_to_decide": n < MIN_ANCHORS}
    if n < 3:
        return out
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    from scipy import stats as sps

    t = float(sps.t.ppf(1 - (1 - level) / 2, n - 1))
    bias, sd = float(d.mean()), float(d.std(ddof=1))
    # Bland & Altman (1999), "Measuring agreement in method comparison studies", Statistical
    # Methods in Medical Research 8:135-160: the standard error of a limit
    # bias ± z·s is √((1/n + z²/(2(n−1)))·s²), and its CI is the limit ± t(n−1) times that.
    se_bias, se_loa = sd / math.sqrt(n), sd * math.sqrt(1 / n + z * z / (2 * (n - 1)))
    loa = [bias - z * sd, bias + z * sd]
    out.update(bias=bias, sd=sd, z=z, t=t, bias_ci=[bias - t * se_bias, bias + t * se_bias],
               loa=loa, loa_ci=[[x - t * se_loa, x + t * se_loa] for x in loa], se_loa=se_loa)
    return out


def _kappa_ci(table: np.ndarray, resamples: int, seed: int, level: float) -> list:
    """Percentile bootstrap of Cohen's κ over the anchors (multinomial over the 2×2 cells)."""
    n = int(table.sum())
    draws = np.random.default_rng(seed).multinomial(n, table.ravel() / n, size=resamples)
    ks = [stats._cohen_kappa_of_table(cells.reshape(2, 2)) for cells in draws]
    ks = np.array([k for k in ks if k is not None])
    return _ci(ks, level)


def verdict_drift(old_fail, new_fail, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                  level=LEVEL) -> dict:
    """Verdicts on anchors (True = fail): flip rate (Wilson CI), McNemar on the direction of the
    flips, Cohen's κ between the versions (bootstrap CI)."""
    o, w = np.asarray(old_fail, dtype=bool), np.asarray(new_fail, dtype=bool)
    n = int(o.size)
    to_fail, to_pass = int((~o & w).sum()), int((o & ~w).sum())
    flip = stats.wilson_ci(to_fail + to_pass, n, level)
    table = np.array([[(~o & ~w).sum(), (~o & w).sum()], [(o & ~w).sum(), (o & w).sum()]])
    kappa = stats._cohen_kappa_of_table(table) if n else None
    direction = ("no anchor changed verdict" if to_fail == to_pass == 0 else
                 "more anchors went from pass to fail" if to_fail > to_pass else
                 "more anchors went from fail to pass" if to_pass > to_fail else "as many each way")
    return {"anchors": n, "flips": to_fail + to_pass, "flip_rate": flip["share"],
            "flip_ci": [flip["low"], flip["high"]], "flip_method": f"{level:.0%} Wilson score interval",
            "pass_to_fail": to_fail, "fail_to_pass": to_pass, "direction": direction,
            "mcnemar_p": paired.mcnemar_exact(to_fail, to_pass), "mcnemar_method": paired.MCNEMAR,
            "kappa": kappa, "kappa_ci": _kappa_ci(table, resamples, seed, level) if kappa is not None
            else [None, None],
            "kappa_method": f"Cohen's κ, old vs new verdict; CI: percentile bootstrap over the anchors, "
                            f"{resamples:,} resamples, seed {seed}",
            "table": {"pass_pass": int(table[0, 0]), "pass_fail": int(table[0, 1]),
                      "fail_pass": int(table[1, 0]), "fail_fail": int(table[1, 1])},
            "too_few_to_decide": n < MIN_ANCHORS, "kappa_too_few_to_decide": n < MIN_KAPPA}
