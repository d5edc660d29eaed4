"""Bias probes of a judge against the humans: does the judge's verdict move with the length of
the answer, once the human verdict is held fixed?

Length: a linear probability model, judge pass = a + b·(human pass) + c·log2(answer length in
characters), fitted by least squares; c is the change in the judge's pass probability per
doubling of the answer's length among answers the humans judged alike. Its CI is cluster-robust
(CR1 sandwich, clusters = question_id when answers share one, else items; normal quantile).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

LENGTH_METHOD = ("OLS of the judge's binary verdict on log2(answer length, characters) with the "
                 "human majority verdict as a fixed effect; slope = change in pass probability per "
                 "doubling of length, human verdict held fixed; {level:.0%} CI from the "
                 "cluster-robust (CR1) standard error, clusters: {clusters}")


def ols_cluster(y, x, groups, level: float = 0.95) -> dict:
    """OLS coefficients of y on the columns of x (with their intercept already in x) and their
    CR1 cluster-robust SEs: (X'X)⁻¹ Σ_g X_g'u_g u_g'X_g (X'X)⁻¹ · G/(G−1) · (N−1)/(N−K)."""
    y, x = np.asarray(y, dtype=float), np.asarray(x, dtype=float)
    n, k = x.shape
    xtx_inv = np.linalg.pinv(x.T @ x)
    beta = xtx_inv @ x.T @ y
    resid = y - x @ beta
    _, g = np.unique(np.asarray(groups).astype(str), return_inverse=True)
    n_g = int(g.max()) + 1 if g.size else 0
    scores = np.zeros((n_g, k))
    np.add.at(scores, g, x * resid[:, None])
    meat = scores.T @ scores
    correction = (n_g / (n_g - 1)) * ((n - 1) / (n - k)) if n_g > 1 and n > k else np.nan
    cov = xtx_inv @ meat @ xtx_inv * correction
    se = np.sqrt(np.diag(cov))
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    return {"beta": beta, "se": se, "low": beta - z * se, "high": beta + z * se,
            "clusters": n_g, "n": n}


def length_probe(frame, rater_col: str, text_col: str = "model_response",
                 cluster_col: str = "question_id", level: float = 0.95) -> dict | None:
    """The length slope of one rater (a binary column of the calibration frame)."""
    if text_col not in frame or rater_col not in frame:
        return None
    rated = frame[frame[rater_col].notna() & frame[text_col].notna()]
    if len(rated) < 4:
        return None
    length = rated[text_col].astype(str).str.len().clip(lower=1).to_numpy(float)
    human = rated["human_correct"].to_numpy(float)
    x = np.column_stack([np.ones(len(rated)), human, np.log2(length)])
    if cluster_col in rated and rated[cluster_col].notna().all():
        groups, named = rated[cluster_col].to_numpy(), f"{cluster_col}"
    else:
        groups, named = rated["key"].to_numpy(), "items"
    fit = ols_cluster(rated[rater_col].to_numpy(float), x, groups, level)
    slope, low, high = (float(fit[k][2]) for k in ("beta", "low", "high"))
    clusters = f"{named} ({fit['clusters']:,} clusters, {fit['n']:,} items)"
    return {"slope_per_doubling": slope, "ci": [low, high], "n": fit["n"],
            "clusters": fit["clusters"], "cluster_column": named,
            "median_length": float(np.median(length)),
            "method": LENGTH_METHOD.format(level=level, clusters=clusters),
            "sentence": _sentence(slope, low, high)}


def _sentence(slope: float, low: float, high: float) -> str:
    pts = f"{100 * slope:+.1f} points per doubling of length (95% CI {100 * low:+.1f} to {100 * high:+.1f})"
    if low > 0:
        return f"passes longer answers more often, humans held fixed: {pts}"
    if high < 0:
        return f"passes shorter answers more often, humans held fixed: {pts}"
    return f"no clear length effect: {pts}"


AUDIT_METHOD = ("per language: OLS of the score on log2(candidate length, characters) and, "
                "separately, on log2(candidate / source length); slope = score change per "
                "doubling; {level:.0%} CI from the cluster-robust (CR1) SE, clusters = "
                "instance_id (a record without one is its own cluster); rows whose join key finds "
                "exactly one snapshot row")


def audit_length_probe(rows, level: float = 0.95, min_rows: int = 10) -> dict:
    """Per target language: the score's slope on candidate length and on the target/source
    length ratio (both log2), with cluster-robust CIs, from audit_lengths rows."""
    out = []
    for lang, g in rows.groupby("target_language", sort=True):
        g = g[(g["candidate_chars"] > 0) & (g["source_chars"] > 0)]
        if len(g) < min_rows:
            out.append({"target_language": lang, "n": int(len(g)), "note": f"fewer than "
                        f"{min_rows} rows with both texts"})
            continue
        y = g["score"].to_numpy(float)
        row = {"target_language": lang, "n": int(len(g)),
               "clusters": int(g["cluster"].nunique())}
        for name, x in (("length", np.log2(g["candidate_chars"].to_numpy(float))),
                        ("ratio", np.log2(g["candidate_chars"].to_numpy(float)
                                          / g["source_chars"].to_numpy(float)))):
            fit = ols_cluster(y, np.column_stack([np.ones(len(g)), x]), g["cluster"], level)
            row[f"{name}_slope"] = float(fit["beta"][1])
            row[f"{name}_ci"] = [float(fit["low"][1]), float(fit["high"][1])]
        out.append(row)
    return {"languages": out, "method": AUDIT_METHOD.format(level=level)}
