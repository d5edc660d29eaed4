"""Agreement intervals that resample whole clusters (documents) of human-rated items.

Items of one document share its context and raters, so their agreements are not independent;
resampling documents keeps each document's items together. Each document is the counts of its
items' rating patterns; a resample is a multinomial over the distinct document patterns
(calibration/exact.py), so the interval is exact when the documents are few and Monte Carlo to a
stated tolerance otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope.calibration import agreement as cs
from judgescope.calibration import exact
from judgescope.calibration import human_ratings as hr
from judgescope.stats import DEFAULT_SEED


# Below this many clusters a cluster bootstrap's percentile interval is itself unreliable (too
# few distinct resamples; Cameron, Gelbach & Miller 2008): it is shown, flagged, not headlined.
MIN_CLUSTERS = 10


def verdict_cis(wide: pd.DataFrame, clusters: pd.Series, categories=None, column: str = "doc",
                level: float = 0.95, seed: int = DEFAULT_SEED) -> dict | None:
    """Fleiss' κ (when every item has the same number of ratings) and Krippendorff's α
    (nominal) of items × raters `wide`, with cluster-bootstrap CIs; clusters: item → cluster
    label (None when no two items share a cluster, or a cluster is unknown)."""
    groups = clusters.reindex(wide.index)
    if groups.isna().any() or groups.nunique() == len(groups):
        return None
    counts, _ = cs.category_counts(wide, categories)
    pats, index = np.unique(counts, axis=0, return_inverse=True)
    per_item = counts.sum(1)
    out = {"column": column, "clusters": int(groups.nunique()), "items": int(len(groups)),
           "few_clusters": bool(groups.nunique() < MIN_CLUSTERS)}
    stats = {"krippendorff_alpha": cs.alpha_nominal_of_patterns}
    if per_item.size and (per_item == per_item[0]).all() and per_item[0] >= 2:
        stats["fleiss_kappa"] = cs.fleiss_of_patterns
    for name, fn in stats.items():
        ci = exact.clustered_table_ci(groups.to_numpy(), index.ravel(), len(pats),
                                      lambda w, fn=fn: fn(pats, w), level, seed, column)
        out[name] = {"ci": [ci["low"], ci["high"]], "method": ci["method"],
                     "undefined": ci["undefined"]}
    return out


def for_ratings(frame: pd.DataFrame, item_clusters: pd.DataFrame, verdict: str | None,
                level: float = 0.95, seed: int = DEFAULT_SEED) -> dict | None:
    """verdict_cis of a ratings_long frame, clusters from ratings_item_clusters (item, cluster);
    None without verdicts or without a cluster column shared by items."""
    if not verdict or item_clusters["cluster"].isna().all():
        return None
    wide = cs.ratings_from_long(frame, "item", "rater", verdict)
    order = hr.verdict_order(frame[verdict])
    clusters = item_clusters.drop_duplicates("item").set_index("item")["cluster"]
    return verdict_cis(wide, clusters, list(order) if order else None, "doc", level, seed)


ITEMS = "bootstrap over items"


def alpha_cis(frame: pd.DataFrame, item_clusters: pd.DataFrame, score: str | None, verdict: str | None,
              level: float = 0.95, seed: int = DEFAULT_SEED) -> dict | None:
    """Each Krippendorff's α of a ratings_long frame (human_ratings.alpha_inputs) with a bootstrap
    CI over whole documents: a resample draws documents with replacement (exact.table_ci: exact
    when few, else Monte Carlo to its tolerance), and its α is that of the pairable items the
    drawn documents hold (human_ratings.alpha_of_patterns on their count patterns). Documents map
    to patterns through a sparse matrix, and the items' weights are made a batch of resamples at a
    time: a dense documents × patterns table, at thousands of each, would take gigabytes.
    None without a cluster column; an α whose items share no document is left out."""
    from scipy import sparse

    if item_clusters["cluster"].isna().all():
        return None
    clusters = item_clusters.drop_duplicates("item").set_index("item")["cluster"]
    out = {}
    for name, (values, lvl) in hr.alpha_inputs(frame, score, verdict).items():
        cats, pats, _, index = hr.alpha_patterns(frame["item"], values)
        groups = clusters.reindex(index.index)
        if not len(groups) or groups.isna().any() or groups.nunique() == len(groups):
            continue  # no document shared by items of this α: its interval stays over items
        docs = exact.cluster_codes(groups)
        holds = sparse.csr_matrix((np.ones(len(docs)), (docs, index.to_numpy())),
                                  shape=(int(docs.max()) + 1, len(pats))).T.tocsr()  # patterns × documents

        def stat(draws, cats=cats, pats=pats, lvl=lvl, holds=holds):
            draws = np.asarray(draws, dtype=float)
            step = max(1, hr.ALPHA_CHUNK_CELLS // max(len(pats), 1))
            return np.concatenate([hr.alpha_of_patterns(cats, pats, (holds @ draws[i:i + step].T).T, lvl)
                                   for i in range(0, len(draws), step)])

        n_docs = holds.shape[1]
        ci = exact.table_ci(np.ones(n_docs, dtype=np.int64), stat, level, seed,
                            unit=f"clusters of doc ({n_docs:,} clusters, {len(groups):,} items)")
        out[name] = {"ci": [ci["low"], ci["high"]], "method": ci["method"], "undefined": ci["undefined"],
                     "clusters": n_docs}
    return out


def agreement(frame: pd.DataFrame, item_clusters: pd.DataFrame | None, score: str | None,
              verdict: str | None, resamples: int = 1_000, seed: int = DEFAULT_SEED) -> dict:
    """human_ratings.agreement with one rule for the verdicts' Fleiss' κ and nominal α intervals,
    used by Overview, Human ratings, the report and `agreement --json` alike: resampling whole
    documents when items share them and there are at least MIN_CLUSTERS, else items. Each
    statistic carries its interval (`ci`), its name (`ci_name`) and method (`ci_method`), and the
    item-level interval beside it (`ci_item`)."""
    result = hr.agreement(frame, score, verdict, resamples=resamples, seed=seed)
    by_doc = None if item_clusters is None else for_ratings(frame, item_clusters, verdict, seed=seed)
    result["verdicts_by_doc"] = by_doc
    v = result.get("verdicts")
    for name in ("fleiss_kappa", "krippendorff_alpha") if v else ():
        stat = v[name]
        stat.update(ci_item=stat["ci"], ci_item_undefined=stat.get("ci_undefined"),
                    ci_name=ITEMS, ci_method=v["ci_method"])
        if by_doc and name in by_doc and not by_doc["few_clusters"]:
            doc = by_doc[name]
            stat.update(ci=doc["ci"], ci_undefined=doc["undefined"], ci_method=doc["method"],
                        ci_name=f"bootstrap over whole {by_doc['column']}s "
                                f"({by_doc['clusters']:,} clusters)")
    # Each α of the scores (and of ordered verdicts) by the same rule: whole documents when at
    # least MIN_CLUSTERS of them, else items (human_ratings.alpha_interval).
    alphas = None if item_clusters is None else alpha_cis(frame, item_clusters, score, verdict, seed=seed)
    for name, stat in result["alpha_ci"].items():
        stat.update(ci_item=stat["ci"], ci_item_undefined=stat.get("ci_undefined"), ci_name=ITEMS)
        doc = (alphas or {}).get(name)
        if doc and doc["clusters"] >= MIN_CLUSTERS:
            stat.update(ci=doc["ci"], ci_undefined=doc["undefined"], ci_method=doc["method"],
                        ci_name=f"bootstrap over whole docs ({doc['clusters']:,} clusters)")
    return result


def _ci(ci, reason=None) -> str:
    return exact.undefined_text(reason) if ci[0] is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def headline_caption(stat: dict) -> str:
    """'95% CI [a, b] by <name>; item-level [c, d]' of one verdict statistic of agreement()."""
    text = f"95% CI {_ci(stat['ci'], stat.get('ci_undefined'))} by {stat['ci_name']}"
    if stat["ci_name"] != ITEMS:
        text += f"; item-level {_ci(stat['ci_item'], stat.get('ci_item_undefined'))}"
    return text


def methods_caption(verdicts: dict, by_doc: dict | None) -> str:
    """How the verdict intervals were drawn, and why documents are not the headline when few."""
    text = f"Item-level intervals: {verdicts['ci_method']}."
    if by_doc:
        name = next((n for n in ("fleiss_kappa", "krippendorff_alpha") if n in by_doc), None)
        text += f" Documents: {by_doc[name]['method']}." if name else ""
        if by_doc["few_clusters"]:
            text += (f" With fewer than {MIN_CLUSTERS} documents ({by_doc['clusters']}) the "
                     "document interval is unreliable, so the item-level one is the headline.")
    return text
