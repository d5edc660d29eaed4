"""Position bias stratified by how clearly the humans preferred one translation.

A model with position bias picks Translation 1 more often than the humans prefer it; the bias
shows most where the humans' two scores are close. Pairs without a human tie are split by the
absolute gap between the two human scores at its tertiles (cut points stated), and within each
stratum the model's share of Translation 1 picks (decisive picks only) is set beside the humans'
share preferring Translation 1 on the same pairs, each with a Wilson CI, and their difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope.ranking.decisions import ALL_DATASETS
from judgescope.stats import wilson_ci

METHOD = ("pairs without a human tie, split at the tertiles of |human score 1 − human score 2| "
          "(cut points shown); per stratum, on the model's decisive picks: share picking "
          "Translation 1 vs share of humans preferring it, 95% Wilson CIs")


def gap_strata(pairs: pd.DataFrame) -> tuple[pd.DataFrame, list[float]]:
    """pairs with a `gap` and a `stratum` label (small / middle / large gap), ties left out."""
    p = pairs.dropna(subset=["human_1", "human_2"]).copy()
    p["gap"] = (p["human_1"].astype(float) - p["human_2"].astype(float)).abs()
    p = p[p["gap"] > 0]
    if p.empty:
        return p.assign(stratum=pd.Series(dtype=object)), []
    cuts = [float(x) for x in np.quantile(p["gap"], [1 / 3, 2 / 3])]
    edges = sorted(set([-np.inf, *cuts, np.inf]))
    labels = [_label(lo, hi) for lo, hi in zip(edges[:-1], edges[1:])]
    p["stratum"] = pd.cut(p["gap"], edges, labels=labels, right=True).astype(str)
    return p, cuts


def _label(lo: float, hi: float) -> str:
    if np.isinf(lo):
        return f"gap ≤ {hi:g}"
    return f"gap > {lo:g}" if np.isinf(hi) else f"{lo:g} < gap ≤ {hi:g}"


def by_gap(decisions: pd.DataFrame, pairs: pd.DataFrame) -> dict:
    """Rows per dataset × method × model × stratum, and the cut points used."""
    strata, cuts = gap_strata(pairs)
    if strata.empty or decisions.empty:
        return {"rows": [], "cuts": cuts, "method": METHOD}
    d = decisions.merge(strata[["file", "row", "gap", "stratum"]], on=["file", "row"])
    d = d[d["decision"].isin([1, 2]) & d["human"].isin([1, 2])]
    rows = []
    keys = ["dataset", "method", "model", "stratum"]
    order = {s: i for i, s in enumerate(dict.fromkeys(strata.sort_values("gap")["stratum"]))}
    for (ds, method, model, stratum), g in d.groupby(keys, sort=False):
        n = len(g)
        model_first = wilson_ci(int((g["decision"] == 1).sum()), n)
        human_first = wilson_ci(int((g["human"] == 1).sum()), n)
        rows.append({"dataset": ds, "method": method, "model": model, "stratum": stratum,
                     "n": n, "model_picks_1": model_first, "human_prefers_1": human_first,
                     "difference": model_first["share"] - human_first["share"]})
    rows.sort(key=lambda r: (r["dataset"], r["method"], r["model"], order.get(r["stratum"], 9)))
    return {"rows": rows, "cuts": cuts, "method": METHOD}


def table(result: dict) -> pd.DataFrame:
    """Display rows: model vs human share of Translation 1 per gap stratum."""
    def rate(r):
        return f"{r['share']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"
    return pd.DataFrame([{"method": r["method"], "model": r["model"], "stratum": r["stratum"],
                          "pairs": r["n"], "model_picks_1": rate(r["model_picks_1"]),
                          "human_prefers_1": rate(r["human_prefers_1"]),
                          "difference": f"{r['difference']:+.3f}"} for r in result["rows"]])


def for_dataset(decisions: pd.DataFrame, pairs: pd.DataFrame, dataset: str) -> dict:
    """by_gap on one dataset's pairs, or on every pair under ALL_DATASETS."""
    if dataset != ALL_DATASETS:
        return by_gap(decisions[decisions["dataset"] == dataset], pairs[pairs["dataset"] == dataset])
    return by_gap(decisions.assign(dataset=ALL_DATASETS), pairs)
