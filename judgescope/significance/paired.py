"""Paired significance tests, pure and seeded: exact McNemar, Holm's step-down correction, a
paired bootstrap of a difference in agreement, a sign-flip permutation test of a mean difference
(exact when the pairs are few), Wilcoxon's signed-rank test, and MT-Metrics-Eval-style
significance clusters. No streamlit; every result names its test, n, seed and resamples.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from judgescope import defaults

DEFAULT_SEED = defaults.SEED  # the app's seed (stats.DEFAULT_SEED)
DEFAULT_RESAMPLES = defaults.RESAMPLES
ALPHA = 0.05
EXACT_MAX = 16  # sign-flip: up to 2**16 sign vectors are enumerated exactly
MCNEMAR = "exact McNemar (two-sided binomial on the discordant pairs, p = 0.5)"
SIGN_FLIP = "paired sign-flip permutation of the mean difference (two-sided)"
WILCOXON = "Wilcoxon signed-rank (two-sided; zero differences dropped)"
HOLM = "Holm step-down"


def mcnemar_exact(b01: int, b10: int) -> float | None:
    """Two-sided exact McNemar p: min(1, 2·P(X ≤ min(b01, b10))), X ~ Binomial(b01 + b10, ½).
    None when there is no discordant pair (the test is undefined, shown as n/a)."""
    n = int(b01) + int(b10)
    if n == 0:
        return None
    from scipy import stats as sps  # here, not at import: scipy.stats takes ~1 s to import

    return float(min(1.0, 2.0 * sps.binom.cdf(min(b01, b10), n, 0.5)))


def holm(pvalues) -> list[float | None]:
    """Holm-adjusted p-values in input order; None (an undefined test) stays None and does not
    count towards the number of tests."""
    idx = [i for i, p in enumerate(pvalues) if p is not None]
    m = len(idx)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def discordance(correct_a, correct_b) -> dict:
    """Counts of a paired binary outcome: n, b01 (A wrong, B right), b10 (A right, B wrong)."""
    a, b = np.asarray(correct_a, dtype=bool), np.asarray(correct_b, dtype=bool)
    return {"n": int(a.size), "n11": int((a & b).sum()), "b01": int((~a & b).sum()),
            "b10": int((a & ~b).sum()), "n00": int((~a & ~b).sum())}


def paired_bootstrap_diff(counts: dict, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                          level=0.95) -> list[float | None]:
    """Percentile bootstrap CI of accuracy(A) − accuracy(B) = (b10 − b01) / n, resampling the
    pairs (a multinomial over the four paired cells, so pairs stay paired)."""
    n = counts["n"]
    if n == 0:
        return [None, None]
    cells = np.array([counts["n11"], counts["b01"], counts["b10"], counts["n00"]]) / n
    draws = np.random.default_rng(seed).multinomial(n, cells, size=int(resamples))
    diffs = (draws[:, 2] - draws[:, 1]) / n
    tail = (1 - level) / 2
    low, high = np.quantile(diffs, [tail, 1 - tail])
    return [float(low), float(high)]


def mcnemar_pair(correct_a, correct_b, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED) -> dict:
    """McNemar and the paired bootstrap CI of the agreement difference for one pair."""
    c = discordance(correct_a, correct_b)
    diff = (c["b10"] - c["b01"]) / c["n"] if c["n"] else None
    return {**c, "mcnemar_exact_p": mcnemar_exact(c["b01"], c["b10"]), "agreement_diff": diff,
            "ci": paired_bootstrap_diff(c, resamples, seed), "test": MCNEMAR,
            "ci_method": f"paired percentile bootstrap, 95%, {resamples:,} resamples, seed {seed}",
            "resamples": int(resamples), "seed": int(seed)}


def _as_counts(values, counts=None) -> tuple[np.ndarray, np.ndarray]:
    v = np.asarray(values, dtype=float)
    c = np.ones(v.size, dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
    keep = (c > 0) & (v != 0)  # a zero difference flips to itself and adds nothing
    return v[keep], c[keep]


def sign_flip_test(values, counts=None, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                   exact_max=EXACT_MAX) -> dict:
    """Two-sided sign-flip (approximate randomisation) test that the mean paired difference is 0.

    values[i] occurs counts[i] times. Under H0 each difference's sign is ± with probability ½.
    With ≤ exact_max non-zero differences every sign vector is enumerated (exact p); otherwise
    `resamples` random flips (seeded), p = (1 + #{|T*| ≥ |T|}) / (1 + resamples) so p is never
    0. The statistic is the sum of the differences (n is fixed, so it orders like the mean)."""
    n_all = int(np.sum(counts)) if counts is not None else int(np.asarray(values).size)
    v, c = _as_counts(values, counts)
    nonzero = int(c.sum())
    observed = float(np.dot(v, c))
    mean = observed / n_all if n_all else None
    base = {"test": SIGN_FLIP, "n": n_all, "n_nonzero": nonzero, "mean_diff": mean}
    if nonzero == 0:
        return {**base, "p": None, "method": "undefined (no non-zero difference)",
                "resamples": 0, "seed": None}
    tol = 1e-9 * max(1.0, abs(observed))
    if nonzero <= exact_max:
        diffs = np.repeat(v, c)
        signs = np.array(list(itertools.product((1, -1), repeat=nonzero)))
        stats = signs @ diffs
        p = float(np.mean(np.abs(stats) >= abs(observed) - tol))
        return {**base, "p": p, "method": f"exact enumeration of 2^{nonzero} sign vectors",
                "resamples": 2 ** nonzero, "seed": None}
    rng = np.random.default_rng(seed)
    # Flipping the k copies of one value: the sum becomes v·(k − 2·#negatives), #neg ~ Bin(k, ½).
    negatives = rng.binomial(c, 0.5, size=(int(resamples), c.size))
    stats = (c - 2 * negatives) @ v
    hits = int(np.sum(np.abs(stats) >= abs(observed) - tol))
    return {**base, "p": (1 + hits) / (1 + int(resamples)),
            "method": f"Monte Carlo, {int(resamples):,} resamples, seed {seed}",
            "resamples": int(resamples), "seed": int(seed)}


def wilcoxon(values, counts=None) -> dict:
    """Wilcoxon signed-rank test, two-sided: zero differences dropped (Wilcoxon's convention),
    average ranks for tied |d|. With ≤ 50 non-zero differences and no ties, scipy's exact null;
    otherwise the normal approximation with the tie correction (no continuity correction),
    computed from the counts so millions of pairs are never expanded."""
    v, c = _as_counts(values, counts)
    n_all = int(np.sum(counts)) if counts is not None else int(np.asarray(values).size)
    n = int(c.sum())
    base = {"test": WILCOXON, "n": n_all, "n_nonzero": n}
    if n == 0:
        return {**base, "statistic": None, "p": None, "method": "undefined (no non-zero difference)"}
    if n <= 50 and np.unique(np.abs(v)).size == n:
        from scipy import stats as sps

        res = sps.wilcoxon(np.repeat(v, c), zero_method="wilcox", method="exact")
        return {**base, "statistic": float(res.statistic), "p": float(res.pvalue),
                "method": "exact null distribution"}
    return {**base, **_wilcoxon_normal(v, c), "method": "normal approximation, tie-corrected"}


def _wilcoxon_normal(v: np.ndarray, c: np.ndarray) -> dict:
    """T+ from average ranks of |d| groups; z = (T+ − n(n+1)/4) / σ,
    σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over groups of t tied |d|."""
    n = float(c.sum())
    mags, group = np.unique(np.abs(v), return_inverse=True)
    ties = np.bincount(group, weights=c).astype(float)
    starts = np.concatenate(([0.0], np.cumsum(ties)[:-1]))
    avg_rank = starts + (ties + 1) / 2
    t_plus = float(np.sum(c[v > 0] * avg_rank[group[v > 0]]))
    t_minus = n * (n + 1) / 2 - t_plus
    var = n * (n + 1) * (2 * n + 1) / 24 - float(np.sum(ties ** 3 - ties)) / 48
    if var <= 0:
        return {"statistic": min(t_plus, t_minus), "p": 1.0}
    z = (t_plus - n * (n + 1) / 4) / math.sqrt(var)
    from scipy import stats as sps

    return {"statistic": min(t_plus, t_minus), "p": float(min(1.0, 2 * sps.norm.sf(abs(z))))}


def clusters(names: list[str], scores: list[float], pvalue) -> list[dict]:
    """Significance clusters in the manner of MT-Metrics-Eval: order by score (best first); a
    new rank starts at the first entry that is significantly different (p < ALPHA) from any
    entry of the current cluster, so entries not separable from the cluster share its rank.
    `pvalue(a, b)` gives a pair's p (None = undefined = not separable)."""
    order = sorted(range(len(names)), key=lambda i: (-_score(scores[i]), names[i]))
    out, rank, start = [], 1, 0
    for pos, i in enumerate(order):
        members = [names[j] for j in order[start:pos]]
        if any((p := pvalue(m, names[i])) is not None and p < ALPHA for m in members):
            rank, start = rank + 1, pos
        out.append({"name": names[i], "score": scores[i], "rank": rank})
    return out


def _score(x) -> float:
    return -math.inf if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def fmt_p(p) -> str:
    if p is None:
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"
