"""Pairwise significance matrices built from the frames the pages and the CLI already load:
judges on the calibration items both judged, methods/models on the ranking pairs both decided.
Pure (no streamlit); the tests themselves live in paired.py."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from judgescope.significance import paired as sig

JUDGE_RULE = ("A judge is right on an item when its binary verdict (match = 1, else 0) equals the "
              "human 2-of-3 majority; a pair of judges is compared on the items both judged. "
              "b01 = A wrong and B right, b10 = A right and B wrong; agreement difference = "
              "agreement(A) − agreement(B) = (b10 − b01) / n.")
METHOD_RULE = ("A method/model is right on a pair when its decision equals the human preference; "
               "human ties are left out, model ties and unparsed decisions count as wrong (as in "
               "the accuracy grid). Two methods are compared on the pairs both decided.")
CLUSTER_RULE = ("Significance clusters (MT-Metrics-Eval style): ordered by accuracy, a new rank "
                "starts at the first method whose Holm-adjusted permutation p against any member "
                f"of the current cluster is below α = {sig.ALPHA}; methods not separable share a rank.")


def _with_holm(rows: list[dict], key: str, out: str) -> list[dict]:
    for row, p in zip(rows, sig.holm([r[key] for r in rows])):
        row[out] = p
    return rows


def holm_text(rows: list[dict], key: str = "mcnemar_exact_p") -> str:
    """What Holm corrected over: the pairs with a defined p (an undefined test is not counted)."""
    used = sum(r[key] is not None for r in rows)
    left = len(rows) - used
    return (f"{sig.HOLM} over {used} pair{'s' if used != 1 else ''} with a defined p"
            + (f" ({left} undefined pair{'s' if left != 1 else ''} left out)" if left else ""))


def _judges(frame: pd.DataFrame) -> list[str]:
    return sorted(c.removeprefix("binary__") for c in frame.columns if c.startswith("binary__"))


def judge_pairs(frame: pd.DataFrame, resamples=sig.DEFAULT_RESAMPLES,
                seed=sig.DEFAULT_SEED) -> list[dict]:
    """Every pair of judges in a calibration frame (panel.build_frame): McNemar, Holm over
    all the pairs, the agreement difference with its paired bootstrap CI."""
    truth = frame["human_correct"].to_numpy(float)
    rows = []
    for a, b in itertools.combinations(_judges(frame), 2):
        pa, pb = frame[f"binary__{a}"].to_numpy(float), frame[f"binary__{b}"].to_numpy(float)
        both = ~np.isnan(pa) & ~np.isnan(pb)
        res = sig.mcnemar_pair(pa[both] == truth[both], pb[both] == truth[both], resamples, seed)
        rows.append({"a": a, "b": b, **res})
    return _with_holm(rows, "mcnemar_exact_p", "holm_p")


def correctness(decisions: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """One row per pair of one dataset with a human preference, one bool column per
    method/model that decided it (NaN where it did not)."""
    d = decisions[(decisions["dataset"] == dataset) & decisions["human"].isin([1, 2])].copy()
    d["name"] = d["method"] + "/" + d["model"]
    d["correct"] = [dec is not None and not pd.isna(dec) and int(dec) == int(h)
                    for dec, h in zip(d["decision"], d["human"])]
    return d.pivot_table(index=["file", "row"], columns="name", values="correct", aggfunc="first")


def method_pairs(decisions: pd.DataFrame, dataset: str, resamples=sig.DEFAULT_RESAMPLES,
                 seed=sig.DEFAULT_SEED) -> dict:
    """McNemar and the paired permutation test for every method/model pair of one dataset,
    Holm over the dataset's pairs, and the significance clusters."""
    wide = correctness(decisions, dataset)
    names = sorted(wide.columns)
    rows = []
    for a, b in itertools.combinations(names, 2):
        both = wide[[a, b]].dropna()
        ca, cb = both[a].astype(bool).to_numpy(), both[b].astype(bool).to_numpy()
        res = sig.mcnemar_pair(ca, cb, resamples, seed)
        perm = sig.sign_flip_test([1.0, -1.0], [res["b10"], res["b01"]], resamples, seed)
        rows.append({"a": a, "b": b, **res, "permutation_p": perm["p"],
                     "permutation_method": perm["method"], "permutation_test": sig.SIGN_FLIP})
    rows = _with_holm(_with_holm(rows, "mcnemar_exact_p", "holm_p"),
                      "permutation_p", "permutation_holm_p")
    adjusted = {frozenset((r["a"], r["b"])): r["permutation_holm_p"] for r in rows}
    acc = {n: float(wide[n].dropna().astype(bool).mean()) if wide[n].notna().any() else None
           for n in names}
    clusters = sig.clusters(names, [acc[n] for n in names],
                            lambda x, y: adjusted.get(frozenset((x, y))))
    return {"dataset": dataset, "pairs": rows, "clusters": clusters,
            "note": _no_pairs_note(decisions, dataset, names) if not rows else None}


def _no_pairs_note(decisions: pd.DataFrame, dataset: str, scored: list[str]) -> str:
    """Why a dataset has no method/model pair to test, said from its numbers."""
    d = decisions[decisions["dataset"] == dataset]
    methods = sorted(set(d["method"] + "/" + d["model"]))
    decided = int(d.loc[d["human"].isin([1, 2]), ["file", "row"]].drop_duplicates().shape[0])
    if len(methods) < 2:
        return f"one method/model only ({', '.join(methods)}): nothing to compare"
    if decided == 0:
        return (f"{len(methods)} methods/models, but no pair has a decided human preference (every "
                "human preference is tied or missing), so none can be scored: nothing to compare")
    return (f"{len(methods)} methods/models, but only {', '.join(scored) or 'none'} decided any of "
            f"the {decided:,} pairs with a human preference: nothing to compare")


def all_method_pairs(decisions: pd.DataFrame, resamples=sig.DEFAULT_RESAMPLES,
                     seed=sig.DEFAULT_SEED) -> list[dict]:
    return [method_pairs(decisions, ds, resamples, seed)
            for ds in sorted(decisions["dataset"].dropna().unique())]


PAIR_COLUMNS = ("a", "b", "n", "b01", "b10", "mcnemar_exact_p", "holm_p", "agreement_diff", "ci")


def json_pairs(rows: list[dict], extra=()) -> list[dict]:
    """The CLI's pair shape (issue #19), plus the names of the test and interval."""
    return [{k: r[k] for k in (*PAIR_COLUMNS, *extra)} | {
        "test": r["test"], "ci_method": r["ci_method"], "seed": r["seed"],
        "resamples": r["resamples"]} for r in rows]


def pair_table(rows: list[dict], permutation: bool = False) -> pd.DataFrame:
    """A display table: one row per pair with its counts, p-values and CI."""
    out = pd.DataFrame([{
        "a": r["a"], "b": r["b"], "n": r["n"], "b01": r["b01"], "b10": r["b10"],
        "agreement_diff": r["agreement_diff"], "ci_low": r["ci"][0], "ci_high": r["ci"][1],
        "mcnemar_p": sig.fmt_p(r["mcnemar_exact_p"]), "holm_p": sig.fmt_p(r["holm_p"]),
        **({"permutation_p": sig.fmt_p(r["permutation_p"]),
            "permutation_holm_p": sig.fmt_p(r["permutation_holm_p"])} if permutation else {}),
    } for r in rows])
    return out


def p_matrix(rows: list[dict], key: str = "holm_p") -> pd.DataFrame:
    """A symmetric names × names matrix of formatted p-values (diagonal '—')."""
    names = sorted({r["a"] for r in rows} | {r["b"] for r in rows})
    m = pd.DataFrame("—", index=names, columns=names)
    for r in rows:
        m.loc[r["a"], r["b"]] = m.loc[r["b"], r["a"]] = sig.fmt_p(r[key])
    return m


VERSION_RULE = ("Paired on the truly paired overlap only: one pairing key (source_id, "
                "target_language, unit, paragraph_id) held by exactly one row in each version; "
                "difference = current − previous. Holm over the units, per test.")


def version_tests(diff_counts: pd.DataFrame, resamples=sig.DEFAULT_RESAMPLES,
                  seed=sig.DEFAULT_SEED) -> pd.DataFrame:
    """Per unit, from (unit, diff, n) rows: the sign-flip permutation test and Wilcoxon's
    signed-rank test of the paired differences, each Holm-corrected across the units."""
    rows = []
    for unit, g in diff_counts.groupby("unit", sort=False):
        perm = sig.sign_flip_test(g["diff"], g["n"], resamples, seed)
        wil = sig.wilcoxon(g["diff"], g["n"])
        rows.append({"unit": unit, "pairs": perm["n"], "nonzero_pairs": perm["n_nonzero"],
                     "mean_diff": perm["mean_diff"], "permutation_p": perm["p"],
                     "permutation_method": perm["method"], "wilcoxon_p": wil["p"],
                     "wilcoxon_method": wil["method"]})
    for key in ("permutation_p", "wilcoxon_p"):
        rows = _with_holm(rows, key, key.replace("_p", "_holm_p"))
    cols = ["unit", "pairs", "nonzero_pairs", "mean_diff", "permutation_p", "permutation_holm_p",
            "permutation_method", "wilcoxon_p", "wilcoxon_holm_p", "wilcoxon_method"]
    return pd.DataFrame(rows, columns=cols)
