"""A float audit's figures from the binned counts and exact order statistics of validation.

An audit with more distinct scores than stats.MAX_CATEGORIES has about one per-score count per
row; its summaries read instead the counts on one audit-wide grid of score bins of width h
(views audit_bins and audit_order_stats, written by ingest/build.py), a few thousand rows:
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

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from judgescope import stats

ORDER_STATS = {50: "median", 5: "p5", 10: "p10"}  # percentile → column of audit_order_stats
BELOW_COLUMNS = ["unit", "target_language", "facet", "threshold", "below"]
EXACT_COLUMNS = ["unit", "target_language", "facet", "score", "n"]
CELL = ["unit", "target_language", "facet"]
# A group's binned interval is used when its stated endpoint bound is at most this share of the
# interval's expected width (2 × 1.96 SE); else its cells' own scores are read (narrow_cells).
BOUND_SHARE = 0.05
MAX_EXACT_ROWS = 2_000_000  # rows of narrow cells read at most; beyond, the bins and their bound
GROUPINGS = (["unit", "facet"], ["unit"], [], ["target_language", "unit"], ["target_language"])
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
    # Per-score counts (unit, target_language, facet, score, n) of the cells too narrow for the
    # grid (narrow_cells): their groups' intervals are drawn from their own scores.
    exact: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=EXACT_COLUMNS))


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
    scores: tuple | None = None  # (values, counts) of its rows when its cells are all narrow

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
    cells = narrow_cells(scores)
    if cells:
        exact = run("audit_score_counts_cells", facet=read, cells=cells)
        scores = replace(scores, exact=exact[EXACT_COLUMNS])
    return by_language(scores) if facet == "target_language" else scores


def cell_key(values) -> str:
    """A cell's key as audit_score_counts_cells.sql builds it (NULL as chr(30), joined by chr(31))."""
    return chr(31).join(chr(30) if pd.isna(v) else str(v) for v in values)


def _pool(key: np.ndarray, n, total, total_sq, low, high) -> tuple:
    """Rows with equal `key` added up (n, Σx, Σx²) with min low and max high; (keys, sums…)."""
    keys, at = np.unique(key, return_inverse=True)
    lows, highs = np.full(keys.size, np.inf), np.full(keys.size, -np.inf)
    np.minimum.at(lows, at, low)
    np.maximum.at(highs, at, high)
    return (keys, np.bincount(at, n, keys.size), np.bincount(at, total, keys.size),
            np.bincount(at, total_sq, keys.size), lows, highs)


def _group_plans(scores: "Binned", by: list[str], resamples: int = 10_000) -> tuple:
    """(group codes of the bins' rows, and per group code: n, SD and the endpoint bound of its
    binned plan), for every group of `by` at once as stats._bins_plan computes one: its bins
    merged k adjacent at a time into at most stats.DRAW_BINS, each at its rows' mean; bound 0
    when every bin holds one score (the plan is then exact)."""
    bins = scores.bins
    codes = (bins.groupby(by, sort=False, dropna=False).ngroup().to_numpy() if by
             else np.zeros(len(bins), dtype=np.int64))
    groups_n = int(codes.max()) + 1 if len(codes) else 0
    b = bins["bin"].to_numpy(dtype=np.int64)
    b = b - b.min() if b.size else b
    span = int(b.max()) + 1 if b.size else 1
    cols = [bins[c].to_numpy(dtype=float) for c in ("n", "total", "total_sq", "low", "high")]
    key, n, total, total_sq, low, high = _pool(codes * span + b, *cols)
    g, b = key // span, key % span
    first, last = np.full(groups_n, span), np.zeros(groups_n, dtype=np.int64)
    np.minimum.at(first, g, b)
    np.maximum.at(last, g, b)
    k = np.ones(groups_n, dtype=np.int64)
    while (over := (last // k - first // k + 1 > stats.DRAW_BINS)).any():
        k[over] += 1
    all_single = np.bincount(g, low != high, groups_n) == 0
    key, n, total, total_sq, low, high = _pool(g * span + b // k[g], n, total, total_sq, low, high)
    g = key // span
    single = low == high
    value = np.where(single, low, total / np.maximum(n, 1))
    rows = np.bincount(g, n, groups_n)
    mean = np.bincount(g, total, groups_n) / np.maximum(rows, 1)
    within = np.bincount(g, np.where(single, 0.0, np.maximum(total_sq - total * value, 0.0)), groups_n)
    between = np.bincount(g, n * (value - mean[g]) ** 2, groups_n)
    shift = np.zeros(groups_n)
    np.maximum.at(shift, g, np.maximum(high - value, value - low))
    bound = stats.endpoint_bounds(rows, np.sqrt(within) / np.maximum(rows, 1), shift, resamples)
    sd = np.sqrt((within + between) / np.maximum(rows - 1, 1))
    return codes, rows, sd, np.where(all_single, 0.0, bound)


def narrow_cells(scores: "Binned") -> list[str]:
    """Keys of the cells (unit × language × facet value) of every group, in every grouping a page
    draws, whose binned plan's stated endpoint bound is more than BOUND_SHARE of the interval's
    expected width (2 × 1.96 × SD / √n): a group of a few points inside a 0–100 audit spans two or
    three bins of the audit-wide grid. Empty when they hold more than MAX_EXACT_ROWS rows (then the
    bins are drawn, with their stated bound)."""
    bins = scores.bins
    chosen = np.zeros(len(bins), dtype=bool)
    for by in GROUPINGS:
        codes, n, sd, bound = _group_plans(scores, by)
        narrow = (n >= 2) & (bound > BOUND_SHARE * 2 * 1.96 * sd / np.sqrt(np.maximum(n, 1)))
        chosen |= narrow[codes]
    if not chosen.any() or bins.loc[chosen, "n"].sum() > MAX_EXACT_ROWS:
        return []
    return sorted({cell_key(k) for k in bins.loc[chosen, CELL].itertuples(index=False, name=None)})


def by_language(scores: Binned) -> Binned:
    """The unsplit scores (load(run, "none", …)) split by language: the facet is the language,
    and unit × facet is language × unit. load(run, "target_language", …) is exactly this of the
    unsplit scores loaded with the same thresholds (it reads the unsplit counts)."""
    o = scores.order
    cells = o[o.by_language & o.by_unit & ~o.by_facet]
    split = cells.assign(by_language=False, by_facet=True, facet=cells["target_language"],
                         target_language=None)
    return replace(scores, bins=scores.bins.assign(facet=scores.bins["target_language"]),
                   order=pd.concat([o, split], ignore_index=True),
                   below=scores.below.assign(facet=scores.below["target_language"]),
                   exact=scores.exact.assign(facet=scores.exact["target_language"]))


def relabelled(scores: Binned, label) -> Binned:
    """`label` (a frame → frame function, e.g. summary.with_facet_labels) applied to each frame."""
    return replace(scores, bins=label(scores.bins), order=label(scores.order),
                   below=label(scores.below), exact=label(scores.exact))


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
    keys = zip(*(rows[c].tolist() for c in by)) if by else [()] * len(rows)
    return {_key(k): dict(zip(stat, v)) for k, v in zip(keys, zip(*(rows[c].tolist() for c in stat)))}


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
    exact = _exact_by_key(scores.exact, by)
    # The pooled rows are sorted by group, so each group is one slice of each column (read once,
    # not a frame per group); the keys in ngroup's numbering, as iterating the groupby yields them.
    columns = {c: pooled[c].to_numpy() for c in ["bin", *SUMS]}
    if by:
        grouped = pooled.groupby(by, sort=False, dropna=False)
        bounds = np.searchsorted(grouped.ngroup().to_numpy(), np.arange(grouped.ngroups + 1))
        keys = grouped.size().index
        keys = keys if len(by) > 1 else ((k,) for k in keys)
    else:
        bounds, keys = np.array([0, len(pooled)]), [()]
    for g, key in enumerate(keys):
        arrays = {c: v[bounds[g]:bounds[g + 1]] for c, v in columns.items()}
        own = exact.get(_key(key))
        # Its own scores only when every row of the group is among them (all its cells narrow).
        own = own if own is not None and own[1].sum() == arrays["n"].sum() else None
        yield key, Group(**arrays, order=None if order is None else order.get(_key(key)),
                         below=below.get(_key(key), {}), width=scores.width, scores=own)


def _exact_by_key(exact: pd.DataFrame, by: list[str]) -> dict:
    """Per group key of `by`: the pooled (values, counts) of the narrow cells' scores."""
    if exact.empty:
        return {}
    parts = exact.groupby(by, sort=False, dropna=False) if by else [((), exact)]
    out = {}
    for key, part in parts:
        g = part.groupby("score", sort=True)["n"].sum()
        out[_key(key if isinstance(key, tuple) else (key,))] = (g.index.to_numpy(dtype=float),
                                                               g.to_numpy(dtype=np.int64))
    return out


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
    stats.DRAW_BINS (stats._bins_plan); for a group too narrow for the grid, from its own scores
    (bins on its own range, or every distinct score where those are still too coarse)."""
    if g.scores is None:
        return stats.bootstrap_mean_ci_from_bins(g.n, g.total, g.total_sq, g.low, g.high, g.width,
                                                 resamples, seed, level, index=g.bin)
    ci = stats.bootstrap_mean_ci_from_counts(*g.scores, resamples, seed, level)
    if ci["low"] is not None and ci["endpoint_bound"] > BOUND_SHARE * (ci["high"] - ci["low"]):
        ci = stats.bootstrap_mean_ci_from_counts(*g.scores, resamples, seed, level,
                                                 max_categories=g.scores[0].size)
    return ci


def method(width: float, bound: float | None = None, own: int = 0) -> str:
    """How a binned audit's figures are made, next to them: `bound`, the largest endpoint bound
    of the intervals shown (None: the rule, as in BOOTSTRAP.json); `own`, how many of them were
    drawn from their own scores (too narrow for the grid)."""
    within = "a stated bound" if bound is None else f"{bound:.2g}"
    narrow = (f"a group whose bound would exceed {BOUND_SHARE:.0%} of its interval's width is drawn "
              "from its own scores instead (bins on its own range, or every distinct score)"
              if bound is None else f"{own} groups too narrow for that grid drawn from their own "
              "scores (bins on their own range, or every distinct score)")
    return (f"percentile bootstrap, multinomial over the audit-wide score bins of width {width:g} "
            f"(adjacent ones merged into at most {stats.DRAW_BINS} per group, each at its rows' "
            f"mean; {narrow}): endpoints within {within} of a row resample's (99%); mean "
            f"and SD exact (from each bin's n, Σx and Σx²), median, P5 and P10 exact (computed in "
            f"DuckDB over the rows)")
