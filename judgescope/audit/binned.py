"""A float audit's figures from the binned counts and exact order statistics of validation.

An audit with more distinct scores than stats.MAX_CATEGORIES has about one per-score count per
row; its summaries read instead the counts on one audit-wide grid of score bins of width h
(views audit_bins and audit_order_stats, written by sources/build.py), a few thousand rows:
- n, mean and SD exact, from each bin's n, Σx and Σx² (stats.mean_sd_from_bins);
- median, P5 and P10 exact, computed by DuckDB over the rows per grouping set (unit × facet,
  language × unit, language, unit, overall);
- the bootstrap drawn over the bins, adjacent ones merged into at most stats.DRAW_BINS per group
  (so its chain of binomials is no longer than an integer audit's), each at its rows' mean, with
  its stated endpoint bound (stats._bins_plan);
- a count below a threshold exact from the bins when no bin holds rows on both sides of it
  (always so when it falls on a bin edge, as integer thresholds do on a grid of 1, 0.5, 0.2, …);
  else counted by a query over the per-score counts (load), never estimated.
Pure (pandas and judgescope.stats); `load` takes the query runner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from judgescope import stats

ORDER_STATS = {50: "median", 5: "p5", 10: "p10"}  # percentile → column of audit_order_stats
BELOW_COLUMNS = ["unit", "target_language", "facet", "threshold", "below"]
SUMS = {"n": ("n", "sum"), "total": ("total", "sum"), "total_sq": ("total_sq", "sum"),
        "low": ("low", "min"), "high": ("high", "max")}


@dataclass(frozen=True, eq=False)
class Binned:
    """A binned audit's scores as read for one facet split (queries/audit_score_bins.sql,
    audit_score_order_stats.sql, audit_score_counts_below.sql)."""
    bins: pd.DataFrame  # unit, target_language, facet, bin, n, total, total_sq, low, high
    order: pd.DataFrame  # by_language, by_unit, by_facet, target_language, unit, facet, n, median, p5, p10
    below: pd.DataFrame  # BELOW_COLUMNS: exact rows below the thresholds that fall inside a bin
    width: float  # bin m holds the scores in [m·width, (m + 1)·width)
    distinct: int  # the audit's distinct scores


@dataclass(frozen=True)
class Group:
    """One group's bins pooled by index (`bin`, the grid index m), its exact order statistics
    (None when its grouping set has none) and its exact counts below the thresholds that fall
    inside a bin."""
    bin: np.ndarray
    n: np.ndarray
    total: np.ndarray
    total_sq: np.ndarray
    low: np.ndarray
    high: np.ndarray
    order: dict | None
    below: dict
    width: float

    @property
    def rows(self) -> int:
        return int(self.n.sum())


def distinct_scores(order: pd.DataFrame) -> int:
    """The audit's distinct scores, from audit_score_order_stats (0 without rows)."""
    return int(order["distinct_scores"].max()) if len(order) else 0


def is_binned(run) -> bool:
    """Whether the audit is summarised from its score bins: more distinct scores than
    stats.MAX_CATEGORIES (the rule of load)."""
    return distinct_scores(run("audit_score_order_stats", facet="none")) > stats.MAX_CATEGORIES


def load(run, facet: str, thresholds=()) -> Binned | None:
    """The binned scores of an audit split by `facet`, or None when it has at most
    stats.MAX_CATEGORIES distinct scores (every group then too): its per-score counts are
    exact, as small, and the pages read them as before."""
    read = "none" if facet == "target_language" else facet
    order = run("audit_score_order_stats", facet=read)
    distinct = distinct_scores(order)
    if distinct <= stats.MAX_CATEGORIES:
        return None
    bins = run("audit_score_bins", facet=read)
    # Rows below a threshold are counted from the bins when no bin of the audit holds rows on
    # both sides of it; a threshold inside a bin is counted by a query, never estimated.
    edges = bins.groupby("bin").agg(low=("low", "min"), high=("high", "max"))
    inside = sorted({float(t) for t in thresholds
                     if ((edges["low"] < t) & (edges["high"] >= t)).any()})
    below = (run("audit_score_counts_below", facet=read, thresholds=inside) if inside
             else pd.DataFrame(columns=BELOW_COLUMNS))
    scores = Binned(bins.drop(columns="bin_width"), order.drop(columns="distinct_scores"), below,
                    float(bins["bin_width"].iloc[0]), distinct)
    return _split_by_language(scores) if facet == "target_language" else scores


def _split_by_language(scores: Binned) -> Binned:
    """Split by language: the facet is the language, and unit × facet is language × unit."""
    o = scores.order
    cells = o[o.by_language & o.by_unit & ~o.by_facet]
    split = cells.assign(by_language=False, by_facet=True, facet=cells["target_language"],
                         target_language=None)
    return replace(scores, bins=scores.bins.assign(facet=scores.bins["target_language"]),
                   order=pd.concat([o, split], ignore_index=True),
                   below=scores.below.assign(facet=scores.below["target_language"]))


def relabelled(scores: Binned, label) -> Binned:
    """`label` (a frame → frame function, e.g. summary.with_facet_labels) applied to each frame."""
    return replace(scores, bins=label(scores.bins), order=label(scores.order),
                   below=label(scores.below))


def score_of(rows: pd.DataFrame, edge: str) -> pd.Series:
    """Each count row's score: its exact score, or for a score bin (Binned.bins) its lowest
    (edge="low") or highest (edge="high") score."""
    return rows["score"] if "score" in rows else rows[edge]


def _key(values) -> tuple:
    """A group key with NULL as None, so a NULL facet value finds its own group."""
    return tuple(None if pd.isna(v) else v for v in values)


def _order_by_key(order: pd.DataFrame, by: list[str]) -> dict | None:
    """The exact order statistics of the grouping set `by`, per group key (None: not computed)."""
    rows = order[(order.by_language == ("target_language" in by)) & (order.by_unit == ("unit" in by))
                 & (order.by_facet == ("facet" in by))]
    if rows.empty:
        return None
    stat = list(ORDER_STATS.values())
    return {_key(k): dict(zip(stat, v)) for k, v in zip(rows[by].itertuples(index=False, name=None),
                                                       rows[stat].itertuples(index=False, name=None))}


def _below_by_key(below: pd.DataFrame, by: list[str]) -> dict:
    counts = below.groupby([*by, "threshold"], dropna=False)["below"].sum()
    out: dict = {}
    for key, n in counts.items():
        key = key if isinstance(key, tuple) else (key,)
        out.setdefault(_key(key[:-1]), {})[float(key[-1])] = int(n)
    return out


def groups(scores: Binned, by: list[str]):
    """(key, Group) for each group of `by` (columns of the bins: unit, target_language, facet)."""
    pooled = scores.bins.groupby([*by, "bin"], sort=True, dropna=False).agg(**SUMS).reset_index()
    order, below = _order_by_key(scores.order, by), _below_by_key(scores.below, by)
    parts = pooled.groupby(by, sort=False, dropna=False) if by else [((), pooled)]
    for key, part in parts:
        key = key if isinstance(key, tuple) else (key,)
        arrays = {c: part[c].to_numpy() for c in ["bin", *SUMS]}
        yield key, Group(**arrays, order=None if order is None else order.get(_key(key)),
                         below=below.get(_key(key), {}), width=scores.width)


def moments(g: Group) -> dict:
    """n, mean, median and sample SD (ddof = 1), all exact."""
    n, mean, sd = stats.mean_sd_from_bins(g.n, g.total, g.total_sq, g.low, g.high)
    return {"n": n, "mean": mean, "median": percentiles(g, [50])[0] if n else None, "sd": sd}


def percentiles(g: Group, qs) -> list:
    """The exact P5, P10 or median (numpy's linear method) DuckDB computed over the rows."""
    if g.order is None:
        raise ValueError("exact order statistics exist per unit × facet, language × unit, "
                         "language, unit and overall only")
    return [float(g.order[ORDER_STATS[q]]) for q in qs]


def below(g: Group, threshold) -> int:
    """Rows scored below `threshold`: from the bins when none holds rows on both sides of it,
    else the exact count load() read for it."""
    t = float(threshold)
    if t in g.below:
        return g.below[t]
    if ((g.low < t) & (g.high >= t)).any():
        raise ValueError(f"threshold {t:g} falls inside a score bin: load the scores with it "
                         "(summary.score_counts(…, thresholds=…))")
    return int(g.n[g.high < t].sum())


def interval(g: Group, resamples: int, seed: int, level: float) -> dict:
    """The mean's percentile bootstrap CI drawn over the group's bins, merged into at most
    stats.DRAW_BINS (stats._bins_plan)."""
    return stats.bootstrap_mean_ci_from_bins(g.n, g.total, g.total_sq, g.low, g.high, g.width,
                                             resamples, seed, level, index=g.bin)


def method(width: float, bound: float | None = None) -> str:
    """How a binned audit's figures are made, next to them: `bound`, the largest endpoint bound
    of the intervals shown (None: the rule, as in BOOTSTRAP.json)."""
    within = "a stated bound" if bound is None else f"{bound:.2g}"
    return (f"percentile bootstrap, multinomial over the audit-wide score bins of width {width:g} "
            f"(adjacent ones merged into at most {stats.DRAW_BINS} per group, each at its rows' "
            f"mean): endpoints within {within} of a row resample's (99%); mean "
            f"and SD exact (from each bin's n, Σx and Σx²), median, P5 and P10 exact (computed in "
            f"DuckDB over the rows)")
