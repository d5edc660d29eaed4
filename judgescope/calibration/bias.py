"""Which way a judge errs, and the human ceiling measured like for like.

Bias direction: the judge's pass rate against the humans' on the same items, the paired
difference with Newcombe's hybrid score interval, and exact McNemar on the judge's false
negatives against its false positives. The ceiling: each judge against each single human and each
human against each other human, all on the gate's binary scale, Cohen's κ and Scott's π with
bootstrap intervals over items (exact where the tables are few, calibration/exact.py).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from judgescope import stats
from judgescope.calibration import exact
from judgescope.significance.paired import mcnemar_exact

ALPHA = 0.05
POWER = 0.80
MEAN_UNDEFINED = ("undefined because a pair's κ has chance agreement 1 on every resample (both "
                  "raters of the pair use one class throughout)")
NEWCOMBE = ("Newcombe's hybrid score interval for a paired difference (method 10, Wilson "
            "intervals of each rate combined with the continuity-corrected φ)")


def newcombe_paired_ci(both: int, only_a: int, only_b: int, neither: int,
                       level: float = 0.95) -> list[float | None]:
    """CI of rate(A) − rate(B) on paired binary data (Newcombe 1998, Stat Med 17:2635, method
    10): both = A and B pass, only_a = A passes and B fails, and so on."""
    n = both + only_a + only_b + neither
    if n == 0:
        return [None, None]
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    w1, w2 = stats.wilson_ci(both + only_a, n, level), stats.wilson_ci(both + only_b, n, level)
    l1, u1, l2, u2 = w1["low"], w1["high"], w2["low"], w2["high"]
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross = both * neither - only_a * only_b
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0)
    phi = corrected / math.sqrt(margins) if margins else 0.0
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return [max(-1.0, low), min(1.0, high)]


def _reject_prob(n: int, discordant: float, diff: float, alpha: float) -> float:
    """Exact power of the two-sided exact McNemar test at level alpha with n pairs, a discordant
    share `discordant` and a difference in rates `diff` (so P(FP | discordant) = (ψ+δ)/2ψ)."""
    from scipy import stats as sps
    d = np.arange(n + 1)
    p_d = sps.binom.pmf(d, n, discordant)
    q = min(1.0, max(0.0, (discordant + diff) / (2 * discordant)))
    total = 0.0
    for m in range(1, n + 1):
        if p_d[m] < 1e-15:
            continue
        # Reject when the smaller discordant count k has 2·P(Bin(m, ½) ≤ k) ≤ alpha.
        k_max = int(sps.binom.ppf(alpha / 2, m, 0.5))
        while k_max >= 0 and 2 * sps.binom.cdf(k_max, m, 0.5) > alpha:
            k_max -= 1
        if k_max < 0:
            continue
        total += p_d[m] * (sps.binom.cdf(k_max, m, q) + sps.binom.sf(m - k_max - 1, m, q))
    return float(total)


def min_detectable_difference(n: int, discordant: float, alpha: float = ALPHA,
                              power: float = POWER, step: float = 0.001) -> float | None:
    """The smallest |difference in pass rates| that exact McNemar detects with `power` at n
    items, holding the observed discordant share, on a grid of `step` that ends at the share
    itself (a difference can never exceed it); None ("none within reach") when even the largest
    possible difference (every discordant item one way) falls short."""
    if n == 0 or discordant <= 0:
        return None
    # Multiples of step below the share, then the share: the largest difference there is.
    grid = np.append(np.arange(1, math.ceil(discordant / step - 1e-9)) * step, discordant)
    lo, hi = 0, len(grid) - 1
    if _reject_prob(n, discordant, float(grid[hi]), alpha) < power:
        return None
    while lo < hi:  # power rises with the difference: bisect the grid
        mid = (lo + hi) // 2
        if _reject_prob(n, discordant, float(grid[mid]), alpha) >= power:
            hi = mid
        else:
            lo = mid + 1
    return round(float(grid[lo]), 6)


def mdd_text(mdd: float | None, discordant: float, n: int) -> str:
    """The minimum detectable difference, or why there is none within reach at this n."""
    if mdd is not None:
        return f"{mdd:.3f}"
    if n == 0 or discordant <= 0:
        return "none within reach (no discordant items: the rates cannot differ)"
    return (f"none within reach (even a difference of {discordant:.3f}, every discordant item one "
            f"way, is detected with less than {POWER:.0%} power at n = {n})")


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def fmt_p(p) -> str:
    if p is None:
        return "n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def bias_direction(truth, pred, alpha: float = ALPHA, level: float = 0.95) -> dict:
    """Judge (pred) against human (truth) pass rates on the same items: the paired difference
    with its CI, exact McNemar on FN vs FP, the direction as a sentence, and, when the test is
    not significant, the minimum detectable difference at this n."""
    t, p = np.asarray(truth).astype(bool), np.asarray(pred).astype(bool)
    n = int(t.size)
    tp, fp = int((t & p).sum()), int((~t & p).sum())
    fn, tn = int((t & ~p).sum()), int((~t & ~p).sum())
    out = {"n": n, "judge_pass": None, "human_pass": None, "diff": None, "ci": [None, None],
           "fn": fn, "fp": fp, "mcnemar_p": mcnemar_exact(fn, fp), "direction": "n/a",
           "sentence": "no items", "alpha": alpha,
           "method": (f"pass = binary verdict 1; difference = judge − human pass rate, "
                      f"{level:.0%} CI: {NEWCOMBE}; test: exact McNemar (two-sided binomial on "
                      "the judge's false negatives vs false positives, p = ½)")}
    if n == 0:
        return out
    jp, hp = (tp + fp) / n, (tp + fn) / n
    pv = out["mcnemar_p"]
    direction = ("no clear direction" if pv is None or pv >= alpha
                 else "stricter" if fn > fp else "more lenient")
    rates = f"{_pct(jp)} vs {_pct(hp)} pass, {fmt_p(pv)}"
    sentence = (f"{direction} than the humans ({rates})" if direction != "no clear direction"
                else f"no clear direction ({rates}, FN {fn} vs FP {fp})")
    out.update(judge_pass=jp, human_pass=hp, diff=jp - hp, direction=direction,
               sentence=sentence, ci=newcombe_paired_ci(tp, fp, fn, tn, level))
    if direction == "no clear direction":
        out["min_detectable_diff"] = mdd = min_detectable_difference(n, (fn + fp) / n, alpha)
        out["min_detectable_text"] = mdd_text(mdd, (fn + fp) / n, n)
        out["min_detectable_method"] = (
            f"smallest pass-rate difference exact McNemar (α = {alpha}) detects with "
            f"{POWER:.0%} power at n = {n}, holding the observed discordant share "
            f"{(fn + fp) / n:.2f} (exact binomial power, no simulation)")
    return out


def binary_pair(a, b, level: float = 0.95, seed: int = stats.DEFAULT_SEED,
                clusters=None, column: str = "cluster") -> dict:
    """Cohen's κ and Scott's π of two aligned binary label vectors, with bootstrap CIs over
    items, or over clusters when `clusters` (one label per item) is given (exact enumeration
    where feasible, else Monte Carlo to a stated tolerance)."""
    a, b = np.asarray(a).astype(int), np.asarray(b).astype(int)
    table = np.bincount(a * 2 + b, minlength=4)
    kappa, pi = exact.kappa_of(table)[0], exact.pi_of(table)[0]
    if clusters is None:
        k_ci = exact.table_ci(table, exact.kappa_of, level, seed)
        p_ci = exact.table_ci(table, exact.pi_of, level, seed)
    else:
        k_ci = exact.clustered_table_ci(clusters, a * 2 + b, 4, exact.kappa_of, level, seed,
                                        column)
        p_ci = exact.clustered_table_ci(clusters, a * 2 + b, 4, exact.pi_of, level, seed, column)
    # Each interval names its own method: κ's and π's enumerations can differ (a table on which
    # only one of them is undefined counts different outcomes).
    return {"n": int(a.size), "agreement": float((a == b).mean()) if a.size else None,
            "cohen_kappa": None if np.isnan(kappa) else float(kappa),
            "kappa_ci": [k_ci["low"], k_ci["high"]], "kappa_ci_undefined": k_ci["undefined"],
            "kappa_ci_method": k_ci["method"],
            "scotts_pi": None if np.isnan(pi) else float(pi), "pi_ci": [p_ci["low"], p_ci["high"]],
            "pi_ci_undefined": p_ci["undefined"], "pi_ci_method": p_ci["method"]}


def _pattern_counts(columns: list[np.ndarray]) -> np.ndarray:
    """Items counted by their joint binary pattern over the columns (2^len cells)."""
    code = sum(np.asarray(c, dtype=int) << i for i, c in enumerate(columns))
    return np.bincount(code, minlength=2 ** len(columns))


def _pair_tables(draws: np.ndarray, width: int, i: int, j: int) -> np.ndarray:
    """2 × 2 tables [00, 01, 10, 11] of columns i and j from pattern counts (m, 2^width)."""
    codes = np.arange(2 ** width)
    cell = ((codes >> i) & 1) * 2 + ((codes >> j) & 1)
    return np.stack([draws[:, cell == c].sum(1) for c in range(4)], axis=1)


def mean_pairwise_kappa(columns: list[np.ndarray], pairs: list[tuple[int, int]],
                        level: float = 0.95, seed: int = stats.DEFAULT_SEED, clusters=None,
                        column: str = "cluster") -> dict:
    """Mean Cohen's κ over the given column pairs, with a bootstrap CI resampling items jointly
    (every column of an item together), or whole clusters when `clusters` is given, on items
    every column rated."""
    cols = [np.asarray(c, dtype=float) for c in columns]
    ok = np.all([~np.isnan(c) for c in cols], axis=0)
    cols = [c[ok].astype(int) for c in cols]
    width = len(cols)

    def stat(draws):
        draws = np.atleast_2d(draws)
        return np.mean([exact.kappa_of(_pair_tables(draws, width, i, j)) for i, j in pairs],
                       axis=0)

    counts = _pattern_counts(cols)
    if not pairs or counts.sum() == 0:
        reason = "undefined because there are no pairs" if not pairs else exact.NO_ITEMS
        return {"mean_kappa": None, "ci": [None, None], "ci_undefined": reason,
                "n": int(ok.sum()), "pairs": len(pairs), "ci_method": reason}
    point = float(stat(counts[None, :])[0])
    if clusters is None:
        ci = exact.table_ci(counts, stat, level, seed, undefined=MEAN_UNDEFINED)
    else:
        code = sum(c << i for i, c in enumerate(cols))
        ci = exact.clustered_table_ci(np.asarray(clusters)[ok], code, 2 ** width, stat, level,
                                      seed, column, undefined=MEAN_UNDEFINED)
    return {"mean_kappa": None if np.isnan(point) else point, "ci": [ci["low"], ci["high"]],
            "ci_undefined": ci["undefined"], "n": int(ok.sum()), "pairs": len(pairs),
            "ci_method": ci["method"]}


def human_ceiling(raters: dict, humans: dict, level: float = 0.95,
                  seed: int = stats.DEFAULT_SEED, clusters=None, column: str = "cluster") -> dict:
    """Like for like on the binary scale: each rater (judges, panel) against each single human,
    beside each human against each other human. raters / humans: name → aligned 0/1 arrays
    (NaN = not rated; a pair uses the items both rated); clusters: one label per item, whole
    clusters resampled (None: items)."""
    # Numbered once: every pair below and each mean κ resample the same clusters.
    clusters = None if clusters is None else exact.cluster_codes(clusters)

    def pair(x, y):
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        both = ~np.isnan(x) & ~np.isnan(y)
        groups = None if clusters is None else np.asarray(clusters)[both]
        return binary_pair(x[both], y[both], level, seed, groups, column)

    judge_rows = [{"rater": r, "human": h, **pair(v, hv)}
                  for r, v in raters.items() for h, hv in humans.items()]
    human_rows = [{"human_a": a, "human_b": b, **pair(humans[a], humans[b])}
                  for a, b in itertools.combinations(humans, 2)]

    def span(rows, key):
        vals = [r[key] for r in rows if r[key] is not None]
        return [min(vals), max(vals)] if vals else [None, None]

    per_rater = {r: span([x for x in judge_rows if x["rater"] == r], "cohen_kappa")
                 for r in raters}
    h = list(humans.values())
    means = {r: mean_pairwise_kappa([v, *h], [(0, i + 1) for i in range(len(h))], level, seed,
                                    clusters, column) for r, v in raters.items()}
    human_mean = mean_pairwise_kappa(h, list(itertools.combinations(range(len(h)), 2)),
                                     level, seed, clusters, column)
    return {"judge_vs_human": judge_rows, "human_vs_human": human_rows,
            "judge_kappa_range": per_rater, "judge_mean_kappa": means,
            "human_mean_kappa": human_mean,
            "human_kappa_range": span(human_rows, "cohen_kappa"),
            "human_pi_range": span(human_rows, "scotts_pi"),
            "scale": "binary: match = 1, no_match and no_answer = 0, for judges and humans alike",
            "kappa_ci_method": _first(judge_rows + human_rows, "kappa_ci_method"),
            "pi_ci_method": _first(judge_rows + human_rows, "pi_ci_method")}


def _first(rows: list[dict], key: str) -> str | None:
    """The method of the first pair whose interval has endpoints (else of the first pair)."""
    defined = [r for r in rows if r[key.replace("_method", "")][0] is not None]
    return (defined or rows)[0][key] if rows else None


def _mean_text(m: dict) -> str:
    lo, hi = m["ci"]
    ci = f" {exact.undefined_text(m.get('ci_undefined'))}" if lo is None else f" [{lo:.2f}, {hi:.2f}]"
    if m["mean_kappa"] is None:  # undefined on the observed table too: one reason for both
        return exact.undefined_text(m.get("ci_undefined"))
    return f"{m['mean_kappa']:.2f}{ci}"


def ceiling_sentence(ceiling: dict, names: dict | None = None) -> str:
    """Each rater's mean κ against single humans beside the humans' mean κ with each other."""
    names = names or {}
    parts = [f"{names.get(r, r)} {_mean_text(m)}" for r, m in ceiling["judge_mean_kappa"].items()]
    return ("Like for like (binary verdicts, each against one human at a time; mean Cohen's κ "
            "over the pairs, 95% CI): " + "; ".join(parts)
            + f". Human against human: {_mean_text(ceiling['human_mean_kappa'])}.")
