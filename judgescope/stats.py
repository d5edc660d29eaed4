"""Pure statistics for JudgeScope: descriptives, seeded bootstraps, agreement, gates.

numpy and the standard library only; no streamlit. Undefined values (n = 0, chance agreement
= 1) are None.
Every randomised function takes an integer ``seed`` and uses ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

from fractions import Fraction
from statistics import NormalDist

import numpy as np

DEFAULT_SEED = 20260810
# The standard normal (stdlib: AS241, accurate to double precision; scipy.stats would add half a
# second to the app's start for this one quantile).
_Z = NormalDist()
MAX_DISTINCT = 1_000  # above this, non-integer values are bootstrapped row by row
_CHUNK_CELLS = 4_000_000  # bounds memory of one vectorised resample block


def _floats(values) -> np.ndarray:
    return np.asarray(values, dtype=float).ravel()


def _bounds(draws: np.ndarray, level: float) -> tuple[float, float]:
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(low), float(high)


def _label(t) -> str:
    return f"{t:g}" if isinstance(t, (int, float, np.number)) else str(t)


def describe(scores, thresholds=(60, 80, 90)) -> dict:
    """n, mean, median, sample sd (ddof=1) and threshold counts; NaN scores are ignored."""
    x = _floats(scores)
    x = x[~np.isnan(x)]
    n, (t1, t2, t3) = x.size, thresholds
    return {
        "n": int(n),
        "mean": float(x.mean()) if n else None,
        "median": float(np.median(x)) if n else None,
        "sd": float(x.std(ddof=1)) if n >= 2 else None,
        f"below_{_label(t1)}": int((x < t1).sum()),
        f"below_{_label(t2)}": int((x < t2).sum()),
        f"at_least_{_label(t3)}": int((x >= t3).sum()),
    }


def _count_means(rng, values: np.ndarray, counts: np.ndarray, resamples: int) -> np.ndarray:
    """Means of `resamples` multinomial draws of n over the distinct values: each is exactly a
    resample of the n rows. Drawn as a chain of conditional binomials (value i takes
    Binomial(draws left, c_i / count left)), vectorised over the resamples: one numpy call per
    distinct value, O(resamples) memory, and numpy releases the GIL so groups run in parallel."""
    n = int(counts.sum())
    order = np.argsort(-counts, kind="stable")
    left = np.full(resamples, n, dtype=np.int64)
    total = np.zeros(resamples)
    rest = n
    for i in order[:-1]:
        c = int(counts[i])
        drawn = rng.binomial(left, c / rest)
        total += drawn * values[i]
        left -= drawn
        rest -= c
    total += left * values[order[-1]]
    return total / n


def _clean_counts(values, counts) -> tuple[np.ndarray, np.ndarray]:
    v, c = _floats(values), np.asarray(counts, dtype=np.int64).ravel()
    if v.shape != c.shape or (c < 0).any():
        raise ValueError("values and counts must align and counts must be >= 0")
    return v[c > 0], c[c > 0]


def bootstrap_mean_ci_from_counts(values, counts, resamples=10_000, seed=DEFAULT_SEED,
                                  level=0.95) -> dict:
    """Percentile bootstrap CI of the mean from distinct values and their counts (SQL GROUP BY)."""
    v, c = _clean_counts(values, counts)
    out = {"mean": None, "low": None, "high": None,
           "method": f"percentile bootstrap, multinomial over {v.size} distinct values",
           "resamples": resamples, "seed": seed, "level": level}
    if c.sum() == 0:
        return out
    means = _count_means(np.random.default_rng(seed), v, c, resamples)
    out["mean"] = float(v @ c / c.sum())
    out["low"], out["high"] = _bounds(means, level)
    return out


def bootstrap_mean_ci(values, resamples=10_000, seed=DEFAULT_SEED, level=0.95) -> dict:
    """Percentile bootstrap CI of the mean (NaN ignored); integer or few-valued data use counts."""
    x = _floats(values)
    x = x[~np.isnan(x)]
    distinct, counts = np.unique(x, return_counts=True)
    if distinct.size <= MAX_DISTINCT or np.all(distinct == np.round(distinct)):
        return bootstrap_mean_ci_from_counts(distinct, counts, resamples, seed, level)
    rng, n = np.random.default_rng(seed), x.size
    step = max(1, _CHUNK_CELLS // n)
    means = np.concatenate([x[rng.integers(0, n, size=(min(step, resamples - i), n))].mean(1)
                            for i in range(0, resamples, step)])
    low, high = _bounds(means, level)
    return {"mean": float(x.mean()), "low": low, "high": high,
            "method": "percentile bootstrap, row resampling",
            "resamples": resamples, "seed": seed, "level": level}


def bootstrap_share_ci(k, n, resamples=10_000, seed=DEFAULT_SEED, level=0.95) -> dict:
    """Percentile bootstrap CI of a share k/n (e.g. rows below a threshold) by binomial draws."""
    out = {"share": None, "low": None, "high": None, "method": "percentile bootstrap, binomial",
           "resamples": resamples, "seed": seed, "level": level}
    if n == 0:
        return out
    draws = np.random.default_rng(seed).binomial(int(n), k / n, size=resamples) / n
    out["share"] = k / n
    out["low"], out["high"] = _bounds(draws, level)
    return out


def wilson_ci(k, n, level=0.95) -> dict:
    """Wilson score interval for a binomial share k/n."""
    if n == 0:
        return {"share": None, "low": None, "high": None, "method": "Wilson score", "level": level}
    z = float(_Z.inv_cdf(1 - (1 - level) / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return {"share": p, "low": float(max(0.0, centre - half)),
            "high": float(min(1.0, centre + half)), "method": "Wilson score", "level": level}


def bootstrap_diff_ci(a_values, a_counts, b_values, b_counts, resamples=10_000,
                      seed=DEFAULT_SEED, level=0.95) -> dict:
    """Unpaired percentile bootstrap CI of mean(b) - mean(a), each sample resampled on its own."""
    (av, ac), (bv, bc) = _clean_counts(a_values, a_counts), _clean_counts(b_values, b_counts)
    out = {"diff": None, "low": None, "high": None,
           "method": "percentile bootstrap, independent multinomial resampling of each sample",
           "resamples": resamples, "seed": seed, "level": level}
    if ac.sum() == 0 or bc.sum() == 0:
        return out
    rng = np.random.default_rng(seed)
    a_means = _count_means(rng, av, ac, resamples)
    b_means = _count_means(rng, bv, bc, resamples)
    out["diff"] = float(bv @ bc / bc.sum() - av @ ac / ac.sum())
    out["low"], out["high"] = _bounds(b_means - a_means, level)
    return out


def paired_bootstrap_diff_ci(a, b, resamples=10_000, seed=DEFAULT_SEED, level=0.95) -> dict:
    """Paired percentile bootstrap CI of mean(b - a): items are resampled with both scores."""
    d = _floats(b) - _floats(a)
    # Resampling pairs and averaging their differences is the bootstrap of the mean difference.
    out = bootstrap_mean_ci(d, resamples, seed, level)
    out["diff"] = out["mean"]
    out["method"] = "paired " + out["method"] + " (of b - a)"
    return out


def percentile(values, q):
    """numpy's default (linear) percentile, q in 0..100; None when empty."""
    x = _floats(values)
    x = x[~np.isnan(x)]
    return float(np.percentile(x, q)) if x.size else None


def percentiles_from_counts(values, counts, qs) -> list:
    """Linear-method percentiles (as numpy's default) of the data expanded from value counts."""
    v, c = _clean_counts(values, counts)
    order = np.argsort(v)
    v, cum = v[order], np.cumsum(c[order])
    if v.size == 0:
        return [None for _ in qs]
    h = (cum[-1] - 1) * np.asarray(qs, dtype=float) / 100  # 0-based rank, as numpy
    lo, hi = np.floor(h).astype(np.int64), np.ceil(h).astype(np.int64)
    x_lo = v[np.searchsorted(cum, lo, side="right")]
    x_hi = v[np.searchsorted(cum, hi, side="right")]
    return [float(x) for x in x_lo + (h - lo) * (x_hi - x_lo)]


def confusion_binary(truth, pred) -> dict:
    """tp, fp, fn, tn counts of binary (0/1 or bool) predictions against binary truth."""
    t, p = np.asarray(truth).astype(bool), np.asarray(pred).astype(bool)
    return {"tp": int((t & p).sum()), "fp": int((~t & p).sum()),
            "fn": int((t & ~p).sum()), "tn": int((~t & ~p).sum())}


def observed_agreement(a, b):
    """Share of items on which the two label sequences agree; None when empty."""
    a, b = np.asarray(a), np.asarray(b)
    return float((a == b).mean()) if a.size else None


def _pair_table(a, b, categories=None) -> np.ndarray:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise ValueError("label sequences must have the same length")
    cats = np.unique(np.concatenate([a, b])) if categories is None else np.asarray(categories)
    cell = np.searchsorted(cats, a) * cats.size + np.searchsorted(cats, b)
    return np.bincount(cell, minlength=cats.size**2).reshape(cats.size, cats.size)


def scotts_pi_fraction(a, b):
    """Scott's pi as an exact Fraction from integer counts with pooled marginals."""
    table = _pair_table(a, b)
    n = int(table.sum())
    pooled = [int(m) for m in table.sum(0) + table.sum(1)]
    p_e = Fraction(sum(m * m for m in pooled), (2 * n) ** 2) if n else Fraction(1)
    if p_e == 1:
        return None
    p_o = Fraction(int(np.trace(table)), n)
    return (p_o - p_e) / (1 - p_e)


def scotts_pi(a, b):
    """Scott's pi (float); None when chance agreement is 1."""
    pi = scotts_pi_fraction(a, b)
    return None if pi is None else float(pi)


def weighted_kappa_from_table(table, weights="linear"):
    """Cohen's kappa of a square table; weights 'linear', 'quadratic', 'none' or a k x k
    disagreement matrix (0 on the diagonal)."""
    t = np.asarray(table, dtype=float)
    i, j = np.indices(t.shape)
    if isinstance(weights, str):
        w = {"linear": np.abs(i - j), "quadratic": (i - j) ** 2, "none": i != j}[weights]
    else:
        w = np.asarray(weights, dtype=float)
    n = t.sum()
    if n == 0:
        return None
    # kappa = 1 - D_o / D_e; D_e == 0 exactly when chance agreement is 1 (sum of non-negatives).
    d_e = (w * np.outer(t.sum(1), t.sum(0))).sum() / n
    return None if d_e == 0 else float(1 - (w * t).sum() / d_e)


def cohen_kappa_from_table(table):
    """Unweighted Cohen's kappa from a square contingency table (rows coder A, columns coder B)."""
    return weighted_kappa_from_table(table, "none")


def cohen_kappa(a, b):
    """Unweighted Cohen's kappa of two aligned label sequences."""
    return cohen_kappa_from_table(_pair_table(a, b))


def bennett_s(a, b, categories):
    """Bennett, Alpert & Goldstein's S: chance agreement 1/q over q possible categories."""
    q = categories if isinstance(categories, int) else len(categories)
    p_o = observed_agreement(a, b)
    return None if p_o is None or q < 2 else (p_o - 1 / q) / (1 - 1 / q)


def fleiss_kappa(counts_matrix):
    """Fleiss' kappa of a subjects x categories count matrix (same raters for every subject)."""
    x = np.asarray(counts_matrix, dtype=float)
    raters = x.sum(1)
    if x.shape[0] == 0 or raters[0] < 2:
        return None
    if not np.all(raters == raters[0]):
        raise ValueError("every subject needs the same number of ratings")
    r = raters[0]
    p_bar = ((x * x).sum(1) - r).mean() / (r * (r - 1))
    p_j = x.sum(0) / x.sum()
    p_e = float((p_j * p_j).sum())
    return None if p_e == 1 else float((p_bar - p_e) / (1 - p_e))


def _is_missing(v) -> bool:
    return v is None or (isinstance(v, (float, np.floating)) and np.isnan(v))


def _krippendorff_delta(vals: np.ndarray, n_c: np.ndarray, level: str) -> np.ndarray:
    if level == "nominal":
        return 1.0 - np.eye(vals.size)
    c, k = np.meshgrid(vals, vals, indexing="ij")
    if level == "interval":
        return (c - k) ** 2
    if level == "ratio":
        s = c + k
        return np.divide((c - k) ** 2, s * s, out=np.zeros_like(s), where=s != 0)
    if level == "ordinal":
        cum = np.cumsum(n_c)
        i, j = np.indices((vals.size, vals.size))
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        # Sum of n_g for g between c and k inclusive, minus half of the two ends.
        between = cum[hi] - cum[lo] + n_c[lo]
        return (between - (n_c[i] + n_c[j]) / 2) ** 2
    raise ValueError(f"unknown level {level!r}")


def krippendorff_alpha(reliability_data, level="nominal"):
    """Krippendorff's alpha of a coders x units matrix; None/NaN mark missing values."""
    rows = [list(r) for r in np.asarray(reliability_data, dtype=object)]
    cells = [(u, v) for r in rows for u, v in enumerate(r) if not _is_missing(v)]
    if not cells:
        return None
    vals = np.array(sorted({v for _, v in cells}), dtype=object if level == "nominal" else float)
    index = {v: i for i, v in enumerate(vals.tolist())}
    units = np.zeros((len(rows[0]), vals.size))
    for u, v in cells:
        units[u, index[v if level == "nominal" else float(v)]] += 1
    m = units.sum(1)
    units, m = units[m >= 2], m[m >= 2]  # only pairable units carry information
    if units.size == 0:
        return None
    # Coincidence matrix: each ordered pair of values within a unit weighs 1 / (m_u - 1).
    o = (units / (m - 1)[:, None]).T @ units - np.diag((units / (m - 1)[:, None]).sum(0))
    n_c = o.sum(1)
    n = n_c.sum()
    delta = _krippendorff_delta(vals.astype(float) if level != "nominal" else vals, n_c, level)
    d_e = (np.outer(n_c, n_c) * delta).sum()
    return None if d_e == 0 else float(1 - (n - 1) * (o * delta).sum() / d_e)


def majority_binary(*verdict_columns) -> np.ndarray:
    """Strict majority of an odd number of aligned binary label columns (2-of-3 for three)."""
    if len(verdict_columns) % 2 == 0:
        raise ValueError("majority needs an odd number of columns (ties are undefined)")
    votes = np.stack([np.asarray(c).astype(bool) for c in verdict_columns])
    return votes.sum(0) * 2 > len(verdict_columns)


def bootstrap_agreement_ci(stat_fn, arrays, resamples=2_000, seed=DEFAULT_SEED, level=0.95):
    """Percentile bootstrap (low, high) of stat_fn(*arrays), resampling items jointly."""
    arrays = [np.asarray(a) for a in arrays]
    n = arrays[0].shape[0]
    if n == 0:
        return None, None
    rng = np.random.default_rng(seed)
    draws = []
    # One Python call per resample, hence the smaller default resample count.
    for _ in range(resamples):
        idx = rng.integers(0, n, size=n)
        value = stat_fn(*(a[idx] for a in arrays))
        if value is not None and not np.isnan(float(value)):
            draws.append(float(value))
    return _bounds(np.array(draws), level) if draws else (None, None)


def _exact(x) -> Fraction:
    # Floats go through their shortest decimal repr, so a point of 0.7 meets a 0.7 gate.
    return x if isinstance(x, Fraction) else Fraction(str(x))


def gate_verdict(point, gate, low=None, high=None) -> dict:
    """PASS iff point >= gate, exactly; inconclusive iff low < gate <= high (CI on both sides).

    The interval [low, high] holds values that pass and values that fail exactly when
    low < gate <= high. An undefined point (None) FAILs: nothing showed the gate was met.
    """
    g = _exact(gate)
    if point is None:
        return {"verdict": "FAIL", "inconclusive": False}
    straddles = low is not None and high is not None and _exact(low) < g <= _exact(high)
    return {"verdict": "PASS" if _exact(point) >= g else "FAIL", "inconclusive": straddles}


def _round_decimal(frac: Fraction, digits: int) -> str:
    scaled = round(abs(frac) * 10**digits)  # exact, half-to-even
    whole, part = divmod(scaled, 10**digits)
    sign = "-" if frac < 0 and scaled else ""
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def format_fraction_decimal(frac: Fraction, digits: int = 5, gate=None, max_digits=30) -> str:
    """'1999/2499 = 0.79992': at least `digits` decimals, more if rounding could cross a gate.

    With a gate, digits grow until the shown decimal sits on the same side of the gate as
    the exact value. Without one, they grow while the rounded value ends in 0 but is not
    exact, since gates are round numbers (1999/2499 never shows as 0.800).
    """
    frac = Fraction(frac)
    for d in range(digits, max_digits + 1):
        text = _round_decimal(frac, d)
        shown = Fraction(text)
        if gate is not None:
            ok = (shown >= _exact(gate)) == (frac >= _exact(gate))
        else:
            ok = shown == frac or not text.endswith("0")
        if ok:
            break
    return f"{frac.numerator}/{frac.denominator} = {text}"
