"""Agreement statistics of items × raters, vectorised over bootstrap resamples (numpy only).

Resampling n items with replacement and counting them by pattern (a confusion cell, or an
item's counts per category) is one multinomial draw over those patterns, so a 10,000-resample
bootstrap is one `rng.multinomial` call and array arithmetic — the same idea as
stats.bootstrap_mean_ci_from_counts. Point values agree with stats.py (tests check it).
Undefined values (chance agreement 1, nothing pairable) are NaN inside, None outside.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from judgescope.stats import DEFAULT_SEED

RESAMPLES = 10_000
LEVEL = 0.95
_EPS = 1e-12

# Why an agreement interval is undefined when no resample has a value (κ, π, Fleiss' κ, α alike).
NO_VARIATION = ("undefined because chance agreement is 1 on every resample (the raters use one "
                "class throughout)")
NO_ITEMS = "undefined because there are no items"


def undefined_text(reason: str | None) -> str:
    """'n/a (undefined because …)' for an interval without endpoints; 'n/a' without a reason."""
    return f"n/a ({reason})" if reason else "n/a"


def ci_method(resamples: int = RESAMPLES, seed: int = DEFAULT_SEED, level: float = LEVEL) -> str:
    return (f"{level:.0%} percentile bootstrap over items ({resamples:,} resamples, "
            f"seed {seed}, multinomial over item patterns)")


def _none(x):
    return None if x is None or np.isnan(x) else float(x)


def kappa_pi_of_tables(tables) -> tuple[np.ndarray, np.ndarray]:
    """Cohen's κ and Scott's π of a stack of square tables (..., C, C); NaN where undefined."""
    t = np.asarray(tables, dtype=float)
    n = t.sum((-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = np.trace(t, axis1=-2, axis2=-1) / n
        rows, cols = t.sum(-1) / n[..., None], t.sum(-2) / n[..., None]
        pe_kappa = (rows * cols).sum(-1)
        pe_pi = (((rows + cols) / 2) ** 2).sum(-1)
        kappa = np.where(1 - pe_kappa > _EPS, (p_o - pe_kappa) / (1 - pe_kappa), np.nan)
        pi = np.where(1 - pe_pi > _EPS, (p_o - pe_pi) / (1 - pe_pi), np.nan)
    return kappa, pi


def fleiss_of_patterns(patterns, weights) -> np.ndarray:
    """Fleiss' κ of items grouped by pattern: patterns (K, C) ratings per category, the same
    number r >= 2 per item; weights (..., K) items per pattern."""
    x, w = np.asarray(patterns, dtype=float), np.asarray(weights, dtype=float)
    r = x.sum(1)[0]
    n = w.sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_bar = w @ (((x * x).sum(1) - r) / (r * (r - 1))) / n
        p_j = (w @ x) / (n[..., None] * r)
        p_e = (p_j * p_j).sum(-1)
        return np.where(1 - p_e > _EPS, (p_bar - p_e) / (1 - p_e), np.nan)


def alpha_nominal_of_patterns(patterns, weights) -> np.ndarray:
    """Krippendorff's α (nominal) of items grouped by pattern (ratings per category)."""
    x, w = np.asarray(patterns, dtype=float), np.asarray(weights, dtype=float)
    m = x.sum(1)
    x, w, m = x[m >= 2], w[..., m >= 2], m[m >= 2]  # only pairable items carry information
    c = x.shape[1]
    # Coincidences of one item: every ordered pair of its values weighs 1 / (m - 1).
    per_item = (x[:, :, None] * x[:, None, :] - x[:, :, None] * np.eye(c)) / (m - 1)[:, None, None]
    o = (w @ per_item.reshape(len(x), c * c)).reshape(*w.shape[:-1], c, c)
    n_c = o.sum(-1)
    n = n_c.sum(-1)
    d_o = n - np.trace(o, axis1=-2, axis2=-1)
    d_e = n * n - (n_c * n_c).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d_e > _EPS, 1 - (n - 1) * d_o / d_e, np.nan)


def undefined_reason(counts, ci) -> str | None:
    """Why (low, high) from multinomial_ci has no endpoints (None when it has them)."""
    if ci[0] is not None:
        return None
    return NO_ITEMS if int(np.asarray(counts).sum()) == 0 else NO_VARIATION


# Cells of one batch of drawn tables (resamples × patterns): a batch holds at most this many
# cells (exact.monte_carlo_bootstrap's batches also at most 100,000 resamples), so that thousands
# of patterns (a cluster bootstrap over thousands of documents) do not make one batch gigabytes.
# The draws come from one generator in order, so the resamples, and the interval, are the same
# whatever the batch size.
DRAW_CELLS = 4_000_000


def draw_batch(patterns: int) -> int:
    """Resamples per batch of drawn tables over `patterns` patterns (DRAW_CELLS)."""
    return max(1, DRAW_CELLS // max(int(patterns), 1))


def multinomial_ci(counts, stat, resamples=RESAMPLES, seed=DEFAULT_SEED, level=LEVEL):
    """Percentile (low, high) of stat(draws) over multinomial resamples of pattern counts;
    (None, None) when there are no items or stat is undefined on every resample."""
    c = np.asarray(counts, dtype=np.int64).ravel()
    n = int(c.sum())
    if n == 0 or resamples < 1:
        return None, None
    rng, batch = np.random.default_rng(seed), draw_batch(c.size)
    values = np.concatenate([np.asarray(stat(rng.multinomial(n, c / n, size=min(batch, resamples - start))),
                                        dtype=float).ravel() for start in range(0, resamples, batch)])
    values = values[~np.isnan(values)]
    if values.size == 0:
        return None, None
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def ratings_from_long(frame: pd.DataFrame, item: str, rater: str, label: str) -> pd.DataFrame:
    """Long (item, rater, label) rows → an items × raters frame, missing ratings as None."""
    wide = frame.pivot(index=item, columns=rater, values=label)
    return wide.astype(object).where(wide.notna(), None)


def category_counts(ratings, categories=None) -> tuple[np.ndarray, list]:
    """items × categories counts of an items × raters matrix (None/NaN = not rated)."""
    r = pd.DataFrame(ratings).astype(object)
    r = r.where(r.notna(), None)
    cats = list(categories) if categories is not None else sorted(
        {v for v in r.to_numpy().ravel() if v is not None}, key=str)
    counts = np.stack([(r == c).sum(axis=1).to_numpy() for c in cats], axis=1) if cats else \
        np.zeros((len(r), 0), dtype=int)
    return counts.astype(np.int64), cats


def _patterns(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.unique(counts, axis=0, return_counts=True)


UNPAIRABLE = "undefined because no item has two ratings or more: there is nothing to pair"


def _estimate(fn, patterns, weights, resamples, seed, level) -> dict:
    point = _none(fn(patterns, weights.astype(float)).item())
    ci = list(multinomial_ci(weights, lambda d: fn(patterns, d), resamples, seed, level))
    reason = undefined_reason(weights, ci)
    if reason == NO_VARIATION and not (np.asarray(patterns).sum(1) >= 2).any():
        reason = UNPAIRABLE
    return {"value": point, "ci": ci, "ci_undefined": reason}


def pairwise_kappa(ratings, categories, resamples=RESAMPLES, seed=DEFAULT_SEED,
                   level=LEVEL, min_items: int = 2) -> list[dict]:
    """Cohen's κ for each pair of raters (columns) on the items both rated."""
    r = pd.DataFrame(ratings).astype(object)
    code = {c: i for i, c in enumerate(categories)}
    codes = r.apply(lambda col: col.map(code)).to_numpy(dtype=float)  # NaN = not rated
    k, out = len(categories), []
    for a, b in itertools.combinations(range(r.shape[1]), 2):
        both = ~np.isnan(codes[:, a]) & ~np.isnan(codes[:, b])
        if both.sum() < min_items:
            continue
        cells = (codes[both, a] * k + codes[both, b]).astype(np.int64)
        table = np.bincount(cells, minlength=k * k)
        kappa, _ = kappa_pi_of_tables(table.reshape(k, k))
        low, high = multinomial_ci(table, lambda d: kappa_pi_of_tables(d.reshape(-1, k, k))[0],
                                   resamples, seed, level)
        out.append({"rater_a": str(r.columns[a]), "rater_b": str(r.columns[b]),
                    "n": int(both.sum()), "agreement": float(np.trace(table.reshape(k, k))
                                                             / both.sum()),
                    "cohen_kappa": _none(kappa.item()), "ci": [low, high],
                    "ci_undefined": undefined_reason(table, (low, high))})
    return out


def _fleiss_note(per_item: np.ndarray) -> str:
    """Why Fleiss' κ is undefined, said plainly."""
    if per_item.size == 0:
        return "no rated items"
    if per_item.max() < 2:
        return "one rating per item (one rater): agreement needs two raters or more"
    return "items have different numbers of ratings"


def human_agreement(ratings, categories=None, resamples=RESAMPLES, seed=DEFAULT_SEED,
                    level=LEVEL) -> dict:
    """Pairwise Cohen's κ, Fleiss' κ and Krippendorff's α (nominal) of items × raters, each
    with a bootstrap CI over items. Fleiss needs the same number of ratings on every item."""
    counts, cats = category_counts(ratings, categories)
    per_item = counts.sum(1)
    pats, weights = _patterns(counts)
    same = per_item.size > 0 and (per_item == per_item[0]).all() and per_item[0] >= 2
    fleiss = (_estimate(fleiss_of_patterns, pats, weights, resamples, seed, level) if same
              else {"value": None, "ci": [None, None], "note": _fleiss_note(per_item),
                    "ci_undefined": f"undefined because {_fleiss_note(per_item)}"})
    return {
        "n_items": int(len(counts)), "categories": [str(c) for c in cats],
        "ratings_per_item": sorted({int(m) for m in per_item}),
        "fleiss_kappa": fleiss,
        "krippendorff_alpha": _estimate(alpha_nominal_of_patterns, pats, weights,
                                        resamples, seed, level),
        "pairwise": pairwise_kappa(ratings, cats, resamples, seed, level),
        "ci_method": ci_method(resamples, seed, level),
    }
