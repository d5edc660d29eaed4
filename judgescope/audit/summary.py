"""Translation-audit statistics from SQL score-count tables (pure: pandas + judgescope.stats).

Every function takes the output of a queries/audit_*.sql GROUP BY (one row per group and exact
score, with its count `n`), never the audit rows themselves, so the cost does not grow with the
number of rows. Bootstrap CIs are percentile bootstraps drawn as multinomials over the distinct
scores of a group (stats.bootstrap_mean_ci_from_counts): exactly a row resample, seeded; a group
with more than stats.MAX_CATEGORIES distinct scores (float scores) is drawn over at most
stats.DRAW_BINS score bins, with a stated bound on the endpoints (stats.bootstrap_plan), so its
cost does not follow the floats.
An audit with more distinct scores than that is read as binned counts with exact order
statistics instead (score_counts returns a binned.Binned; audit/binned.py): every function here
takes either.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import numpy as np
import pandas as pd

from judgescope import defaults
from judgescope import format as fmt
from judgescope import stats
from judgescope.audit import binned
from judgescope.schema import NOT_RECORDED, language_name, sort_units

DEFAULT_THRESHOLDS = (60, 80, 90)
DEFAULT_RESAMPLES = defaults.RESAMPLES
DEFAULT_SEED = stats.DEFAULT_SEED
LEVEL = 0.95
OVERALL = "overall"
# Facets a page may split by: value → label; the SQL picks the column with a CASE on the value.
FACETS = {"none": "no split", "target_language": "target language", "source_split": "source split",
          "run_group": "run group",
          "score_origin": "score origin", "dataset_version": "dataset version",
          "judge_prompt_version": "prompt version", "requested_judge_model": "requested judge model",
          "system": "system"}
METHOD_COLUMNS = ["method", "bin_width", "endpoint_bound"]
BOOTSTRAP_METHOD = (f"percentile bootstrap, multinomial over per-score counts (exactly a row "
                    f"resample); a group with more than {stats.MAX_CATEGORIES} distinct scores "
                    f"is drawn over at most {stats.DRAW_BINS} equal-width score bins, each at "
                    f"its rows' mean, its endpoints within a stated bound of a row resample's")


def threshold_columns(thresholds=DEFAULT_THRESHOLDS) -> list[str]:
    """Column names of the three threshold counts, e.g. below_60, below_80, at_least_90."""
    t1, t2, t3 = (stats._label(t) for t in thresholds)
    return [f"below_{t1}", f"below_{t2}", f"at_least_{t3}"]


def describe_counts(scores, counts, thresholds=DEFAULT_THRESHOLDS) -> dict:
    """n, mean, median, sample SD (ddof=1) and threshold counts of one group's score counts."""
    v = np.asarray(scores, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    n = int(c.sum())
    names = threshold_columns(thresholds)
    out = {"n": n, "mean": None, "median": None, "sd": None}
    if n:
        mean = float(v @ c / n)
        out["mean"] = mean
        out["median"] = stats.percentiles_from_counts(v, c, [50])[0]
        if n >= 2:
            out["sd"] = float(np.sqrt(((v - mean) ** 2) @ c / (n - 1)))
    t1, t2, t3 = thresholds
    out[names[0]] = int(c[v < t1].sum())
    out[names[1]] = int(c[v < t2].sum())
    out[names[2]] = int(c[v >= t3].sum())
    return out


def _groups(counts: pd.DataFrame, by: list[str]):
    if not by:
        yield (), counts
        return
    for key, part in counts.groupby(by, sort=False, dropna=False):
        yield (key if isinstance(key, tuple) else (key,)), part


def _pooled(part: pd.DataFrame, value: str = "score") -> tuple[np.ndarray, np.ndarray]:
    # The same score may appear in several rows (one per facet value): pool them.
    g = part.groupby(value, sort=True)["n"].sum()
    return g.index.to_numpy(dtype=float), g.to_numpy(dtype=np.int64)


def _samples(counts, by: list[str]):
    """(key, sample) per group of `by`: its pooled per-score (values, counts), or its
    binned.Group when the audit is binned."""
    if isinstance(counts, binned.Binned):
        yield from binned.groups(counts, by)
        return
    yield from _pooled_groups(counts, by)


def _pooled_groups(counts: pd.DataFrame, by: list[str]):
    """_pooled of every group of _groups, in the same order (first appearance), with one sort of
    the whole frame instead of a groupby per group."""
    if not by or counts.empty:
        yield from ((key, _pooled(part)) for key, part in _groups(counts, by))
        return
    grouped = counts.groupby(by, sort=False, dropna=False)
    codes = grouped.ngroup().to_numpy()
    score = counts["score"].to_numpy(dtype=float)
    keep = ~np.isnan(score)  # as _pooled's groupby: a row without a score counts nowhere
    order = np.lexsort((score[keep], codes[keep]))
    code, score = codes[keep][order], score[keep][order]
    n = counts["n"].to_numpy(dtype=np.int64)[keep][order]
    start = np.flatnonzero(np.r_[True, (code[1:] != code[:-1]) | (score[1:] != score[:-1])][:code.size])
    code, score, n = code[start], score[start], np.add.reduceat(n, start) if n.size else n
    bounds = np.searchsorted(code, np.arange(codes.max() + 2))
    keys = grouped.size().index  # the groups' keys in ngroup's numbering, as _groups yields them
    for g, key in enumerate(keys if len(by) > 1 else ((k,) for k in keys)):
        yield key, (score[bounds[g]:bounds[g + 1]], n[bounds[g]:bounds[g + 1]])


def _describe(sample, thresholds) -> dict:
    """describe_counts of one group's sample, binned or per score."""
    if not isinstance(sample, binned.Group):
        return describe_counts(*sample, thresholds)
    below = [binned.below(sample, t) for t in thresholds]
    return {**binned.moments(sample),
            **dict(zip(threshold_columns(thresholds), below[:2] + [sample.rows - below[2]]))}


def _percentiles(sample, qs) -> list:
    if isinstance(sample, binned.Group):
        return binned.percentiles(sample, qs)
    return stats.percentiles_from_counts(*sample, qs)


def _sample_digest(sample, resamples, seed, level) -> str:
    """What a group's interval depends on, as a digest (bootstrap_table's memo)."""
    return hashlib.sha256(pickle.dumps((sample, resamples, seed, level))).hexdigest()


def _interval(sample, resamples, seed, level) -> dict:
    if isinstance(sample, binned.Group):
        return binned.interval(sample, resamples, seed, level)
    return stats.bootstrap_mean_ci_from_counts(*sample, resamples, seed, level)


def count_rows(counts) -> pd.DataFrame:
    """The count rows (unit, target_language, facet, …, n): per score, or a binned audit's bins."""
    return counts.bins if isinstance(counts, binned.Binned) else counts


def summary_table(counts, by: list[str], thresholds=DEFAULT_THRESHOLDS,
                  shares: bool = False) -> pd.DataFrame:
    """One row per group of `by`: describe_counts, plus share columns when `shares`."""
    rows = [{**dict(zip(by, key)), **_describe(sample, thresholds)}
            for key, sample in _samples(counts, by)]
    out = pd.DataFrame(rows, columns=list(by) + ["n", "mean", "median", "sd"]
                       + threshold_columns(thresholds))
    if shares:
        for col in threshold_columns(thresholds):
            out[f"share_{col}"] = out[col] / out["n"].where(out["n"] > 0)
    return _ordered(out, by)


def _ordered(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Units in schema order, everything else alphabetical; `overall` rows last."""
    if frame.empty or not by:
        return frame.reset_index(drop=True)
    keys = []
    for col in by:
        values = frame[col].astype(str)
        order = sort_units(set(values) - {OVERALL}) if col == "unit" else sorted(set(values) - {OVERALL})
        rank = {v: i for i, v in enumerate(order + [OVERALL])}
        keys.append(values.map(rank))
    idx = pd.DataFrame(dict(enumerate(keys))).sort_values(list(range(len(keys))), kind="stable").index
    return frame.loc[idx].reset_index(drop=True)


def with_facet_labels(counts):
    """NULL facet values read `not recorded`."""
    if isinstance(counts, binned.Binned):
        return binned.relabelled(counts, with_facet_labels)
    out = counts.copy()
    if "facet" in out:
        out["facet"] = out["facet"].astype(object).where(out["facet"].notna(), NOT_RECORDED)
    return out


def unit_summary(counts, thresholds=DEFAULT_THRESHOLDS, facet: bool = False,
                 shares: bool = True) -> pd.DataFrame:
    """Per unit (and facet value) plus the weighted overall row over every unit."""
    by = ["unit", "facet"] if facet else ["unit"]
    per = summary_table(with_facet_labels(counts), by, thresholds, shares)
    overall = summary_table(counts, [], thresholds, shares)
    overall.insert(0, "unit", OVERALL)
    if facet:
        overall.insert(1, "facet", "")
    return pd.concat([per, overall], ignore_index=True)


def language_summary(counts, thresholds=DEFAULT_THRESHOLDS) -> pd.DataFrame:
    """Per language × unit, and per language over all its units (unit `overall`)."""
    per = summary_table(counts, ["target_language", "unit"], thresholds)
    whole = summary_table(counts, ["target_language"], thresholds)
    whole.insert(1, "unit", OVERALL)
    return _ordered(pd.concat([per, whole], ignore_index=True), ["target_language", "unit"])


def bootstrap_table(counts, by: list[str], resamples=DEFAULT_RESAMPLES,
                    seed=DEFAULT_SEED, level=LEVEL, on_group=None, method=False,
                    memo: dict | None = None) -> pd.DataFrame:
    """Mean and percentile-bootstrap CI per group, each group drawn from the same seed (so the
    result does not depend on the order groups are computed in: they run on every core).
    on_group(), when given, is called (from any thread) as each group finishes; `method` adds
    the column naming how each group's interval was drawn. `memo`: a dict kept across calls of
    one resamples, seed and level, so a group drawn before (the same counts: the overall row of
    every split, a facet with one value) is not drawn again; its interval is the same."""
    return bootstrap_tables(counts, [by], resamples, seed, level, on_group, method, memo)[0]


def bootstrap_tables(counts, groupings: list[list[str]], resamples=DEFAULT_RESAMPLES,
                     seed=DEFAULT_SEED, level=LEVEL, on_group=None, method=False,
                     memo: dict | None = None) -> list[pd.DataFrame]:
    """bootstrap_table of each grouping, every group of every grouping drawn in one pool (no
    grouping waits for another's last group) and a group met more than once (the same counts:
    a language with one unit, the overall row of every split, or in `memo`) drawn once."""
    return bootstrap_tables_later(counts, groupings, resamples, seed, level, on_group, method, memo)()


def bootstrap_tables_later(counts, groupings: list[list[str]], resamples=DEFAULT_RESAMPLES,
                           seed=DEFAULT_SEED, level=LEVEL, on_group=None, method=False,
                           memo: dict | None = None, pool: Executor | None = None):
    """bootstrap_tables as a function to call for its tables. With `pool` (an executor shared
    by the caller), the groups not in `memo` are handed to it at once and this returns without
    waiting, so the caller reads its next counts while they are drawn (interval_tables.table:
    every facet's groups in one pool, none waiting for another facet's last group); `memo` then
    holds each group's future. The intervals are the same either way: each group is drawn from
    the same seed, whatever the order."""
    memo = {} if memo is None else memo
    tagged = [(i, key, sample, _sample_digest(sample, resamples, seed, level))
              for i, by in enumerate(groupings) for key, sample in _samples(counts, by)]
    todo = {digest: sample for *_, sample, digest in tagged if digest not in memo}

    def draw(sample):
        ci = _interval(sample, resamples, seed, level)
        if on_group:
            on_group()
        return ci

    if pool is not None:
        memo.update((digest, pool.submit(draw, sample)) for digest, sample in todo.items())
    elif len(todo) > 1:
        with ThreadPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as own:
            memo.update(zip(todo, own.map(draw, todo.values())))
    else:
        memo.update((digest, draw(sample)) for digest, sample in todo.items())
    if on_group:  # groups whose interval was already drawn count as done
        for _ in range(len(tagged) - len(todo)):
            on_group()

    def tables() -> list[pd.DataFrame]:
        rows: list[list[dict]] = [[] for _ in groupings]
        for i, key, _, digest in tagged:
            ci = memo[digest]
            ci = ci.result() if isinstance(ci, Future) else ci
            rows[i].append(
                {**dict(zip(groupings[i], key)), "mean": ci["mean"], "low": ci["low"], "high": ci["high"],
                 "method": ci["method"], "bin_width": ci["bin_width"], "endpoint_bound": ci["endpoint_bound"]})
        extra = METHOD_COLUMNS if method else []
        return [_ordered(pd.DataFrame(part, columns=list(by) + ["mean", "low", "high"] + extra), by)
                for by, part in zip(groupings, rows)]
    return tables


def unit_bootstrap(counts, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                   level=LEVEL) -> pd.DataFrame:
    """Bootstrap CI per unit plus the weighted overall row."""
    per = bootstrap_table(counts, ["unit"], resamples, seed, level)
    overall = bootstrap_table(counts, [], resamples, seed, level)
    overall.insert(0, "unit", OVERALL)
    return pd.concat([per, overall], ignore_index=True)


def ci_label(resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, level=LEVEL, method=None) -> str:
    """The interval's name: `method` (method_summary of the groups shown) or the general rule."""
    return f"{level:.0%} CI: {method or BOOTSTRAP_METHOD}, {resamples:,} resamples, seed {seed}"


def method_summary(table: pd.DataFrame, width: float | None = None) -> str:
    """How the groups of a bootstrap_table(method=True) were drawn, in one phrase: exact, or
    over score bins with the widest bin and the largest endpoint bound among them; `width`: a
    binned audit's grid (binned.method, which also says which figures are exact)."""
    if width is not None:
        own = int((~table["method"].astype(str).str.contains("one grid for every group")).sum())
        return binned.method(width, float(table["endpoint_bound"].max()), own)
    exact = "percentile bootstrap, multinomial over per-score counts (exactly a row resample)"
    drawn = table[table["bin_width"].notna()]
    if drawn.empty:
        return exact
    head = exact + f" for {len(table) - len(drawn)} groups; " if len(drawn) < len(table) else \
        "percentile bootstrap, "
    return (head + f"multinomial over score bins of width {drawn['bin_width'].max():g} (each at "
            f"its rows' mean; {len(drawn)} groups with more than {stats.MAX_CATEGORIES} distinct "
            f"scores): endpoints within {drawn['endpoint_bound'].max():.2g} of a row resample's "
            "(99%)")


def interval_rule(counts) -> str:
    """How an audit's intervals are drawn, as a rule: BOOTSTRAP_METHOD, or a binned audit's."""
    return binned.method(counts.width) if isinstance(counts, binned.Binned) else BOOTSTRAP_METHOD


def counts_query(counts, figure: str = "") -> str:
    """The named query a figure (a column of summary_table) of `counts` comes from: the
    per-score counts, or a binned audit's bins (its order statistics for median, p5, p10)."""
    if not isinstance(counts, binned.Binned):
        return "audit_score_counts"
    return "audit_score_order_stats" if figure in binned.ORDER_STATS.values() else "audit_score_bins"


def overall_mean(counts) -> float | None:
    """The row-weighted mean of every score (None without rows)."""
    return summary_table(counts, [])["mean"].iloc[0]


def distinct_scores(counts) -> int:
    """The audit's distinct scores."""
    return counts.distinct if isinstance(counts, binned.Binned) else int(counts["score"].nunique())


def tails_table(counts, threshold=60, level=LEVEL) -> pd.DataFrame:
    """Lower tail per language × unit: P5, P10, rows and share below `threshold` (Wilson CI)."""
    rows = []
    for (lang, unit), sample in _samples(counts, ["target_language", "unit"]):
        d = _describe(sample, (threshold,) * 3)
        n, k = d["n"], d[threshold_columns((threshold,) * 3)[0]]
        p5, p10 = _percentiles(sample, [5, 10])
        ci = stats.wilson_ci(k, n, level)
        rows.append({"target_language": lang, "unit": unit, "n": n,
                     "mean": d["mean"], "p5": p5, "p10": p10,
                     "below": k, "share_below": ci["share"], "share_low": ci["low"],
                     "share_high": ci["high"]})
    return _ordered(pd.DataFrame(rows), ["target_language", "unit"])


def mean_matrix(counts) -> pd.DataFrame:
    """Language × unit matrix of means (rows languages, columns units in schema order)."""
    means = summary_table(counts, ["target_language", "unit"])
    wide = means.pivot(index="target_language", columns="unit", values="mean")
    return wide[sort_units(wide.columns)].sort_index()


def spread_note(tails: pd.DataFrame) -> str | None:
    """The language × unit cell furthest below its unit's median language mean, as a sentence."""
    if tails.empty:
        return None
    t = tails.copy()
    t["gap"] = t["mean"] - t.groupby("unit")["mean"].transform("median")
    worst = t.loc[t["gap"].idxmin()]
    if worst["gap"] >= 0:
        return None
    return (f"Widest spread: {language_name(worst['target_language'])} × {worst['unit']} averages "
            f"{worst['mean']:.2f}, {-worst['gap']:.2f} points below the median language "
            f"for that unit.")


def in_unit_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of a per-unit table in schema unit order."""
    return _ordered(frame, ["unit"])


def score_counts(run, facet: str = "none", thresholds=()):
    """Score counts split by a whitelisted facet, from the prebuilt counts when they carry it;
    a binned.Binned for an audit with more distinct scores than stats.MAX_CATEGORIES, which
    counts exactly below `thresholds` (and DEFAULT_THRESHOLDS) also where they cut a bin."""
    if facet not in FACETS:
        raise ValueError(f"unknown facet {facet!r}")
    scores = binned.load(run, facet, (*DEFAULT_THRESHOLDS, *thresholds))
    if scores is not None:
        return scores
    if facet == "target_language":
        counts = run("audit_score_counts", facet="none")
        return counts.assign(facet=counts["target_language"])
    return run("audit_score_counts", facet=facet)


def worst_cutoff(counts, k: int) -> float:
    """Highest score among every language × unit's k lowest rows (from the score counts): no row
    above it can be among the worst k, so the score-sorted file is read only up to it. A bin
    stands for its highest score: a cell's k lowest rows lie at or below that of the bin where
    the cell's count reaches k."""
    rows = count_rows(counts)
    if rows.empty:
        return -1.0
    step, top = ("bin", "high") if isinstance(counts, binned.Binned) else ("score", "score")
    ordered = rows.groupby(["target_language", "unit", step], as_index=False).agg(
        n=("n", "sum"), top=(top, "max"))
    ordered["before"] = ordered.groupby(["target_language", "unit"])["n"].cumsum() - ordered["n"]
    return float(ordered.loc[ordered["before"] < k, "top"].max())


def available_facets(missing_columns) -> list[str]:
    """Facets whose column the audit has (`none` always)."""
    return [f for f in FACETS if f == "none" or f not in set(missing_columns)]


def mean_intervals(counts, facet: bool = False, resamples=DEFAULT_RESAMPLES,
                   seed=DEFAULT_SEED, memo: dict | None = None, detail: bool = False) -> pd.DataFrame:
    """The bootstrap CI of the mean per unit (× facet) and overall, as distribution_table shows
    them; attrs["ci_method"] names how they were drawn (method_summary). They depend on the
    counts, never on the thresholds, so a page can keep them while a threshold moves. `memo`:
    bootstrap_table's, kept across the facets of one audit; `detail` keeps each group's mean and
    method (the columns `judgescope report` writes)."""
    return mean_intervals_later(counts, facet, resamples, seed, memo, detail)()


def mean_intervals_later(counts, facet: bool = False, resamples=DEFAULT_RESAMPLES,
                         seed=DEFAULT_SEED, memo: dict | None = None, detail: bool = False,
                         pool: Executor | None = None):
    """mean_intervals as a function to call for its table, its groups drawn in `pool` meanwhile
    (bootstrap_tables_later)."""
    memo = {} if memo is None else memo  # one memo for both calls: the overall group once
    by = ["unit", "facet"] if facet else ["unit"]
    per = _table_later(with_facet_labels(counts), by, resamples, seed, memo, pool)
    whole = _table_later(counts, [], resamples, seed, memo, pool)

    def table() -> pd.DataFrame:
        overall = whole()
        overall.insert(0, "unit", OVERALL)
        if facet:
            overall.insert(1, "facet", "")
        ci = pd.concat([per(), overall], ignore_index=True)
        named = method_summary(ci, counts.width if isinstance(counts, binned.Binned) else None)
        ci = ci.drop(columns=METHOD_COLUMNS[1:] if detail else ["mean", *METHOD_COLUMNS])
        ci.attrs["ci_method"] = named
        return ci
    return table


def _table_later(counts, by: list[str], resamples, seed, memo: dict, pool: Executor | None):
    """bootstrap_table(…, method=True) of one grouping as a function to call for it: drawn now
    without `pool`, else handed to it (bootstrap_tables_later)."""
    if pool is None:
        drawn = bootstrap_table(counts, by, resamples, seed, method=True, memo=memo)
        return lambda: drawn
    later = bootstrap_tables_later(counts, [by], resamples, seed, method=True, memo=memo, pool=pool)
    return lambda: later()[0]


def distribution_table(counts, thresholds=DEFAULT_THRESHOLDS, facet: bool = False,
                       resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                       intervals: pd.DataFrame | None = None) -> pd.DataFrame:
    """unit_summary with each mean's bootstrap CI (ci_low, ci_high) beside it; attrs["ci_method"]
    says how those intervals were drawn (method_summary). `intervals`: mean_intervals of the same
    counts, facet, resamples and seed, when the caller kept them."""
    summary = unit_summary(counts, thresholds, facet)
    by = ["unit", "facet"] if facet else ["unit"]
    ci = mean_intervals(counts, facet, resamples, seed) if intervals is None else intervals
    named = ci.attrs["ci_method"]
    out = summary.merge(ci.rename(columns={"low": "ci_low", "high": "ci_high"}), on=by, how="left")
    cols = list(out.columns)
    for name in ("ci_low", "ci_high"):
        cols.insert(cols.index("mean") + 1 + (name == "ci_high"), cols.pop(cols.index(name)))
    out = out[cols]
    out.attrs["ci_method"] = named  # for ci_label(…, method=table.attrs["ci_method"])
    return out


NO_ROWS = "No usable rows: every row of this audit was excluded (see Excluded rows)."


def no_rows(counts) -> str | None:
    """NO_ROWS when the audit's score counts hold no usable row (pages then stop), else None."""
    rows = count_rows(counts)
    return NO_ROWS if rows.empty or int(rows["n"].sum()) == 0 else None


def headline(table: pd.DataFrame, thresholds=DEFAULT_THRESHOLDS) -> str:
    """The audit's story in two sentences, from a distribution_table without facet split."""
    units = table[(table.unit != OVERALL) & (table["n"] > 0)] if "n" in table else table.iloc[:0]
    if units.empty or units["mean"].isna().all():
        return NO_ROWS
    overall = table[table.unit == OVERALL].iloc[0]
    share = f"share_{threshold_columns(thresholds)[0]}"
    low, tail = units.loc[units["mean"].idxmin()], units.loc[units[share].idxmax()]
    # Means and intervals as every page writes them (judgescope.format): 94.67, [94.27, 95.07].
    ci = "" if pd.isna(overall["ci_low"]) else f" (95% CI {fmt.interval(overall['ci_low'], overall['ci_high'])})"
    return (f"{int(overall['n']):,} scored rows; weighted mean {fmt.mean(overall['mean'])}{ci}. "
            f"Lowest unit mean: {low['unit']} ({fmt.mean(low['mean'])}); heaviest lower tail: "
            f"{tail['unit']}, {tail[share]:.1%} of its rows below {thresholds[0]:g}.")


# The facets Review filters by, each with its URL parameter (pages/review.py): a bar or a table
# row of a view split by one of them opens Review filtered to its value ('not recorded' included).
REVIEW_FACET_PARAMS = {"target_language": "lang", "score_origin": "origin", "run_group": "run",
                       "system": "system"}


def review_facet_params(facet: str, value) -> dict:
    """{URL parameter: value} filtering Review to one value of `facet`; {} when Review has no
    filter for that facet or there is no value (the overall row)."""
    if facet not in REVIEW_FACET_PARAMS or value is None or pd.isna(value) or str(value) == "":
        return {}
    return {REVIEW_FACET_PARAMS[facet]: str(value)}


def review_params_for_row(unit, facet: str, value) -> dict | None:
    """Review's URL filters for one row of a summary table split by `facet` (distribution_table):
    its unit (none for `overall`) and its facet value; None when the row has no such filter."""
    params = review_facet_params(facet, value)
    if not params:
        return None
    return params | ({} if unit == OVERALL else {"unit": str(unit)})


def review_params_for_bin(low: float, high: float, unit=None, facet: str = "none", value=None) -> dict:
    """Review's URL filters for one histogram bin [low, high) of `unit` (all when None) and, in a
    view split by `facet`, of that facet's `value`: the score range is inclusive in Review, so
    the top is the largest value below `high` that Review shows (4 decimals)."""
    top = float(high) if high >= 100 else round(float(high) - 1e-4, 4)
    params = {"min": f"{float(low):g}", "max": f"{top:g}"}
    if unit:
        params["unit"] = unit
    return params | review_facet_params(facet, value)
