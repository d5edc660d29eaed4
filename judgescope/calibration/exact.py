"""Bootstrap intervals of small-table statistics without avoidable Monte Carlo noise.

Resampling n items with replacement and counting them by pattern (a confusion cell) is one
multinomial draw over the observed pattern counts. When the number of possible resampled tables
is small enough, every one is enumerated with its multinomial probability and the percentiles
are read off that exact distribution ("exact bootstrap"). Otherwise resamples are drawn, and their
number is doubled until each endpoint's Monte Carlo standard error is below a tolerance.

Conventions (stated in every result's `method`): cells observed 0 times cannot be drawn; a
resampled table on which the statistic is undefined (NaN) is left out and the rest renormalised;
the exact endpoints are the lower quantiles of the discrete distribution (the smallest value v
with P(X <= v) >= q). When the statistic is undefined on every resample, the interval is too: its
endpoints are None and `undefined` says why ("undefined because …"), never an exception.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from judgescope.calibration import agreement
from judgescope.calibration.agreement import (  # noqa: F401  (the reasons are used through here)
    NO_ITEMS, NO_VARIATION, kappa_pi_of_tables, undefined_text)
from judgescope.stats import DEFAULT_SEED

MAX_OUTCOMES = 400_000
MC_TOLERANCE = 0.002
MC_START, MC_MAX = 10_000, 1_280_000
_CHUNK = 100_000
_Z95 = 1.959963984540054
def n_outcomes(n: int, k: int) -> int:
    """How many tables k cells of total n can hold: C(n + k - 1, k - 1)."""
    return math.comb(n + k - 1, k - 1) if k else 0


@lru_cache(maxsize=1024)
def compositions(n: int, k: int) -> np.ndarray:
    """Every vector of k non-negative integers summing to n (rows), by stars and bars."""
    if k == 1:
        return np.array([[n]], dtype=np.int64)
    out = [np.column_stack([np.full(len(rest), first, dtype=np.int64), rest])
           for first in range(n + 1) for rest in (compositions(n - first, k - 1),)]
    return np.concatenate(out)


def _weighted_quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    order = np.argsort(values, kind="stable")
    cdf = np.cumsum(weights[order])
    cdf /= cdf[-1]
    # 1e-12 forgives float rounding when q lands exactly on a step of the CDF.
    return float(values[order][min(np.searchsorted(cdf, q - 1e-12), len(cdf) - 1)])


@lru_cache(maxsize=16)
def _exact_distribution(counts: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Every resampled table of the observed counts and its log multinomial probability."""
    from scipy.special import gammaln  # here, not at import: scipy.special takes ~0.4 s to import

    c = np.asarray(counts, dtype=np.int64)
    n, keep = int(c.sum()), c > 0
    tables = np.zeros((n_outcomes(n, int(keep.sum())), c.size), dtype=np.int64)
    tables[:, keep] = compositions(n, int(keep.sum()))
    log_p = np.log(c[keep] / n)
    logw = gammaln(n + 1) - gammaln(tables[:, keep] + 1).sum(1) + tables[:, keep] @ log_p
    tables.setflags(write=False)
    return tables, logw


def exact_bootstrap(counts, stat, level: float = 0.95) -> dict:
    """Percentile interval of stat over the exact multinomial bootstrap distribution."""
    c = np.asarray(counts, dtype=np.int64).ravel()
    tables, logw = _exact_distribution(tuple(int(x) for x in c))
    values = np.asarray(stat(tables), dtype=float)
    ok = ~np.isnan(values)
    out = {"low": None, "high": None, "exact": True, "outcomes": int(len(tables)),
           "mc_error": 0.0, "undefined_mass": float(np.exp(logw[~ok]).sum())}
    if ok.any():  # else: undefined on every resampled table (the caller says why)
        w, tail = np.exp(logw[ok]), (1 - level) / 2
        out.update(low=_weighted_quantile(values[ok], w, tail),
                   high=_weighted_quantile(values[ok], w, 1 - tail))
    return out


def _endpoint_se(sorted_values: np.ndarray, q: float) -> float:
    """Distribution-free Monte Carlo SE of the q-quantile of B draws: half the width of the
    order-statistic 95% interval around it, divided by 1.96 (binomial counts of draws below)."""
    b = sorted_values.size
    half = _Z95 * math.sqrt(b * q * (1 - q))
    lo = int(max(0, math.floor(b * q - half)))
    hi = int(min(b - 1, math.ceil(b * q + half)))
    return float(sorted_values[hi] - sorted_values[lo]) / (2 * _Z95)


def _draw(rng, n: int, p: np.ndarray, size: int, stat) -> np.ndarray:
    parts, batch = [], min(_CHUNK, agreement.draw_batch(len(p)))
    for start in range(0, size, batch):
        draws = rng.multinomial(n, p, size=min(batch, size - start))
        parts.append(np.asarray(stat(draws), dtype=float))
    return np.concatenate(parts)


def monte_carlo_bootstrap(counts, stat, level: float = 0.95, seed: int = DEFAULT_SEED,
                          tolerance: float = MC_TOLERANCE, start: int = MC_START,
                          max_resamples: int = MC_MAX) -> dict:
    """Percentile interval over seeded multinomial resamples, B doubled from `start` until both
    endpoints' Monte Carlo SE is below `tolerance` (or B reaches max_resamples, then said)."""
    c = np.asarray(counts, dtype=np.int64).ravel()
    n = int(c.sum())
    rng = np.random.default_rng(seed)
    tail = (1 - level) / 2
    values = _draw(rng, n, c / n, start, stat)
    while True:
        ok = np.sort(values[~np.isnan(values)])
        if ok.size == 0:  # undefined on every resample drawn: no percentile to read
            return {"low": None, "high": None, "exact": False, "resamples": int(values.size),
                    "mc_error": 0.0, "seed": seed, "tolerance_met": True}
        low, high = np.percentile(ok, [100 * tail, 100 * (1 - tail)])
        err = max(_endpoint_se(ok, tail), _endpoint_se(ok, 1 - tail))
        if err < tolerance or values.size >= max_resamples:
            break
        values = np.concatenate([values, _draw(rng, n, c / n, values.size, stat)])
    return {"low": float(low), "high": float(high), "exact": False,
            "resamples": int(values.size), "mc_error": float(err), "seed": seed,
            "tolerance_met": bool(err < tolerance)}


def table_ci(counts, stat, level: float = 0.95, seed: int = DEFAULT_SEED,
             max_outcomes: int = MAX_OUTCOMES, unit: str = "items", patterns=None,
             tolerance: float = MC_TOLERANCE, start: int = MC_START,
             max_resamples: int = MC_MAX, undefined: str = NO_VARIATION) -> dict:
    """The interval of stat(tables) over resampled pattern counts: exact when the tables are at
    most max_outcomes, else Monte Carlo to `tolerance`; `method` says which. With `patterns`
    (one row per distinct resampling unit, e.g. a cluster's confusion counts), counts are how
    many units show each pattern and stat sees draws @ patterns. `undefined` (None when the
    interval has endpoints) is the reason given when the statistic has no value on any resample."""
    c = np.asarray(counts, dtype=np.int64).ravel()
    n = int(c.sum())
    if n == 0:
        return {"low": None, "high": None, "exact": None, "method": NO_ITEMS,
                "undefined": NO_ITEMS}
    if patterns is not None:
        rows = np.asarray(patterns, dtype=np.int64)
        inner, stat = stat, (lambda draws: inner(np.asarray(draws) @ rows))
    k = int((c > 0).sum())
    if n_outcomes(n, k) <= max_outcomes:
        out = exact_bootstrap(c, stat, level)
        out["method"] = (f"{level:.0%} exact percentile bootstrap over {unit}: all "
                         f"{out['outcomes']:,} resampled tables enumerated with their multinomial "
                         "probabilities, no Monte Carlo error")
    else:
        out = monte_carlo_bootstrap(c, stat, level, seed, tolerance, start, max_resamples)
        met = "" if out["tolerance_met"] else " (the tolerance was not reached at this cap)"
        out["method"] = (f"{level:.0%} percentile bootstrap over {unit}, {out['resamples']:,} "
                         f"seeded resamples (seed {seed}), raised until each endpoint's Monte "
                         f"Carlo SE < {tolerance}: SE {out['mc_error']:.4f}{met}")
    if any(x is None or np.isnan(x) for x in (out["low"], out["high"])):
        out["low"] = out["high"] = None
    out["undefined"] = undefined if out["low"] is None else None
    return out


def cluster_patterns(clusters, cells, n_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct per-cluster cell counts and how many clusters show each: clusters and cells
    are aligned per item (cluster label, cell index 0..n_cells-1)."""
    index = cluster_codes(clusters)
    per_cluster = np.zeros((int(index.max()) + 1 if index.size else 0, n_cells), dtype=np.int64)
    np.add.at(per_cluster, (index, np.asarray(cells, dtype=np.int64)), 1)
    return _distinct_rows(per_cluster)


def cluster_codes(clusters) -> np.ndarray:
    """0 … k-1 per item, one number per distinct cluster label (compared as text), by hashing
    rather than sorting the labels: at a million items the sort of their text took most of
    `calibrate`'s cluster bootstraps. The numbering only groups items (the patterns below are
    sorted), so any numbering gives the same result, and codes it returned may be passed again
    (integers are grouped as they are: two differ exactly when their text does)."""
    import pandas as pd
    labels = np.asarray(clusters) if not isinstance(clusters, pd.Series) else clusters.to_numpy()
    if labels.dtype.kind in "iu":
        return pd.factorize(labels)[0].astype(np.int64)
    return pd.factorize(pd.Series(labels.astype(object)).astype(str))[0].astype(np.int64)


def _distinct_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(table, axis=0, return_counts=True) for a table of non-negative counts, by one
    integer per row (column 0 most significant, so the order is the same) when it fits in 63
    bits: unique rows of several columns sort as raw bytes, about 20 times slower."""
    base = int(table.max()) + 1 if table.size else 1
    if table.shape[1] == 0 or table.shape[1] * math.log2(base) >= 62:
        return np.unique(table, axis=0, return_counts=True)
    code = np.zeros(len(table), dtype=np.int64)
    for k in range(table.shape[1]):
        code = code * base + table[:, k]
    codes, counts = np.unique(code, return_counts=True)
    patterns = np.empty((len(codes), table.shape[1]), dtype=np.int64)
    rest = codes.copy()
    for k in range(table.shape[1] - 1, -1, -1):
        patterns[:, k], rest = rest % base, rest // base
    return patterns, counts


def clustered_table_ci(clusters, cells, n_cells: int, stat, level: float = 0.95,
                       seed: int = DEFAULT_SEED, column: str = "cluster", **kwargs) -> dict:
    """Cluster bootstrap of stat(summed table): whole clusters are resampled with replacement
    (a multinomial over the distinct cluster patterns), so items of one cluster stay together."""
    patterns, counts = cluster_patterns(clusters, cells, n_cells)
    out = table_ci(counts, stat, level, seed, patterns=patterns,
                   unit=f"clusters of {column} ({int(counts.sum()):,} clusters, "
                        f"{int(patterns.sum(1) @ counts):,} items)", **kwargs)
    out["clusters"], out["cluster_column"] = int(counts.sum()), column
    return out


def agreement_of(tables) -> np.ndarray:
    """Observed agreement of flattened 2 × 2 tables."""
    t = np.asarray(tables, dtype=float).reshape(-1, 4)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (t[:, 0] + t[:, 3]) / t.sum(1)


def _binary_parts(tables):
    """p_o and the two '1' marginals of flattened 2 × 2 tables [00, 01, 10, 11] (rows: A)."""
    t = np.asarray(tables, dtype=float).reshape(-1, 4)
    n = t.sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (t[:, 0] + t[:, 3]) / n, (t[:, 2] + t[:, 3]) / n, (t[:, 1] + t[:, 3]) / n


def kappa_of(tables, k: int = 2) -> np.ndarray:
    """Cohen's κ of each table (NaN where chance agreement is 1); 2 × 2 column-wise, fast."""
    if k != 2:
        return kappa_pi_of_tables(np.asarray(tables).reshape(-1, k, k))[0]
    p_o, a, b = _binary_parts(tables)
    p_e = a * b + (1 - a) * (1 - b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(1 - p_e > 1e-12, (p_o - p_e) / (1 - p_e), np.nan)


def pi_of(tables, k: int = 2) -> np.ndarray:
    """Scott's π of each table (pooled marginals; NaN where chance agreement is 1)."""
    if k != 2:
        return kappa_pi_of_tables(np.asarray(tables).reshape(-1, k, k))[1]
    p_o, a, b = _binary_parts(tables)
    m = (a + b) / 2
    p_e = m * m + (1 - m) * (1 - m)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(1 - p_e > 1e-12, (p_o - p_e) / (1 - p_e), np.nan)
