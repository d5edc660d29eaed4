"""Textbook implementations used only as test oracles, row by row and unvectorised, so that the
app's vectorised and count-based statistics are compared with something other than themselves.
Each is pinned to published values in tests/test_reference_stats.py."""

import numpy as np


def describe(scores, thresholds=(60, 80, 90)) -> dict:
    """n, mean, median, sample sd (ddof=1) and threshold counts of raw scores."""
    x = np.asarray(scores, dtype=float)
    t1, t2, t3 = thresholds
    return {"n": int(x.size), "mean": float(x.mean()) if x.size else None,
            "median": float(np.median(x)) if x.size else None,
            "sd": float(x.std(ddof=1)) if x.size >= 2 else None,
            f"below_{t1:g}": int((x < t1).sum()), f"below_{t2:g}": int((x < t2).sum()),
            f"at_least_{t3:g}": int((x >= t3).sum())}


def row_bootstrap_means(values, resamples: int, seed: int) -> np.ndarray:
    """Means of `resamples` plain row resamples (indices drawn with replacement)."""
    x = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    return np.array([x[rng.integers(0, x.size, x.size)].mean() for _ in range(resamples)])


def scotts_pi(a, b) -> float:
    """Scott (1955): (p_o - p_e) / (1 - p_e), p_e from the pooled label shares."""
    a, b = list(a), list(b)
    p_o = sum(x == y for x, y in zip(a, b)) / len(a)
    pooled = a + b
    p_e = sum((pooled.count(c) / len(pooled)) ** 2 for c in set(pooled))
    return (p_o - p_e) / (1 - p_e)


def fleiss_kappa(counts_matrix) -> float:
    """Fleiss (1971) κ of a subjects × categories count matrix, the same raters per subject."""
    x = np.asarray(counts_matrix, dtype=float)
    r = x.sum(1)[0]
    p_bar = ((x * x).sum(1) - r).mean() / (r * (r - 1))
    p_j = x.sum(0) / x.sum()
    p_e = float((p_j * p_j).sum())
    return float((p_bar - p_e) / (1 - p_e))


def krippendorff_alpha_nominal(reliability_data) -> float:
    """Krippendorff (2011) α, nominal: coders × units, None/NaN missing; pairable units only."""
    units = np.asarray(reliability_data, dtype=object).T
    values = [[v for v in u if v is not None and v == v] for u in units]
    values = [u for u in values if len(u) >= 2]
    cats = sorted({v for u in values for v in u})
    o = np.zeros((len(cats), len(cats)))
    for u in values:
        for i, c in enumerate(u):
            for j, k in enumerate(u):
                if i != j:
                    o[cats.index(c), cats.index(k)] += 1 / (len(u) - 1)
    n_c, n = o.sum(1), o.sum()
    d_o = n - np.trace(o)
    d_e = (n * n - (n_c * n_c).sum()) / (n - 1)
    return float(1 - d_o / d_e)


def agreement_row_bootstrap(stat, a, b, resamples: int, seed: int, level=0.95):
    """Percentile (low, high) of stat(a*, b*) over item resamples (both labels kept together)."""
    a, b = np.asarray(a), np.asarray(b)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        idx = rng.integers(0, a.size, a.size)
        if len(set(a[idx]) | set(b[idx])) > 1:  # undefined when one label is left
            draws.append(stat(a[idx], b[idx]))
    tail = 100 * (1 - level) / 2
    return tuple(float(q) for q in np.percentile(draws, [tail, 100 - tail]))


def holm_reference(pvalues) -> list[float]:
    """Holm (1979) step-down adjusted p-values, written from the definition: the i-th smallest of
    m p-values times (m - i + 1), made monotone by a running maximum, capped at 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
