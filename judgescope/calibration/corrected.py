"""A judge's pass rate over unlabelled judgements, corrected with the labelled calibration items.

Two estimators, both from counts, with the raw judge rate beside them:
- Rogan–Gladen adjusted classify-and-count (Rogan & Gladen 1978, Am J Epidemiol 107:71):
  (q + Sp − 1) / (Se + Sp − 1), Se and Sp the judge's sensitivity and specificity against the
  human majority on the labelled items, q its raw pass rate on the unlabelled ones; clipped to
  [0, 1]; delta-method CI (the three binomial variances, independent samples).
- Prediction-powered inference for a mean (Angelopoulos et al., Science 382:669, 2023): the
  judge's mean on the unlabelled items minus its mean error on the labelled ones (the rectifier),
  normal CI; and PPI++ (Angelopoulos, Duchi & Zrnic 2023, arXiv 2311.01453), the same with the
  judge's verdicts weighted by the variance-minimising λ in [0, 1], as ppi-python computes it.
Both assume the labelled items are a random sample of the population the unlabelled come from.
"""

from __future__ import annotations

import math

import pandas as pd
from statistics import NormalDist

ASSUMPTION = ("assumes the labelled items are a random sample of the same population as the "
              "unlabelled judgements")


def _z(level: float) -> float:
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def rogan_gladen(tp: int, fp: int, fn: int, tn: int, passes: int, n_unlabelled: int,
                 level: float = 0.95) -> dict:
    """Adjusted classify-and-count from the labelled confusion (truth = humans) and the judge's
    passes among n_unlabelled judgements."""
    pos, neg = tp + fn, tn + fp
    out = {"estimate": None, "ci": [None, None], "sensitivity": tp / pos if pos else None,
           "specificity": tn / neg if neg else None,
           "method": ("Rogan–Gladen (q + Sp − 1) / (Se + Sp − 1), clipped to [0, 1]; "
                      f"{level:.0%} delta-method CI from the binomial variances of q, Se, Sp")}
    if not (pos and neg and n_unlabelled):
        return out
    se, sp, q = tp / pos, tn / neg, passes / n_unlabelled
    youden = se + sp - 1
    if youden <= 0:
        out["note"] = "Se + Sp ≤ 1: the judge does not separate the classes; no correction"
        return out
    est = (q + sp - 1) / youden
    var = (q * (1 - q) / n_unlabelled + est ** 2 * se * (1 - se) / pos
           + (1 - est) ** 2 * sp * (1 - sp) / neg) / youden ** 2
    half = _z(level) * math.sqrt(var)
    out.update(estimate=_clip(est), unclipped=est, ci=[_clip(est - half), _clip(est + half)])
    return out


def _moments(tp: int, fp: int, fn: int, tn: int) -> tuple[int, float, float, float, float]:
    """n, mean Y (human), mean Ŷ (judge), and the sums of squares/cross-products about them."""
    n = tp + fp + fn + tn
    y, yhat = (tp + fn) / n, (tp + fp) / n
    cov = (tp * (1 - y) * (1 - yhat) + fn * (1 - y) * (0 - yhat) + fp * (0 - y) * (1 - yhat)
           + tn * y * yhat) / n
    return n, y, yhat, cov, yhat * (1 - yhat)


def ppi_mean(tp: int, fp: int, fn: int, tn: int, passes: int, n_unlabelled: int,
             level: float = 0.95, tuned: bool = False) -> dict:
    """Prediction-powered estimate and CI of the human pass rate on the unlabelled judgements
    (binary Y = human majority, Ŷ = judge); tuned = PPI++ (λ as in ppi-python), else λ = 1."""
    name = "PPI++ (power-tuned λ)" if tuned else "PPI (λ = 1)"
    out = {"estimate": None, "ci": [None, None], "lambda": None,
           "method": (f"{name}: judge mean on the unlabelled minus λ·(judge − human) mean on "
                      f"the labelled, {level:.0%} normal CI (population SDs, as ppi-python)")}
    n, big_n = tp + fp + fn + tn, n_unlabelled
    if not (n and big_n):
        return out
    _, y, yhat_l, cov, _ = _moments(tp, fp, fn, tn)
    f_u = passes / big_n
    lam = 1.0
    if tuned:
        # ppi-python's _calc_lam_glm for a mean: cov(Y, Ŷ) / ((1 + n/N) · var(Ŷ pooled, ddof 1)).
        total, pooled = n + big_n, (tp + fp + passes) / (n + big_n)
        var_pooled = pooled * (1 - pooled) * total / (total - 1) if total > 1 else 0.0
        lam = _clip(cov / ((1 + n / big_n) * var_pooled)) if var_pooled > 0 else 0.0
    est = lam * f_u + y - lam * yhat_l
    # SD of Y − λŶ on the labelled items (population form), from the four cells.
    cells = ((tp, 1, 1), (fp, 0, 1), (fn, 1, 0), (tn, 0, 0))
    resid_mean = y - lam * yhat_l
    var_r = sum(c * ((yv - lam * fv) - resid_mean) ** 2 for c, yv, fv in cells) / n
    var_u = (lam ** 2) * f_u * (1 - f_u)
    half = _z(level) * math.sqrt(var_u / big_n + var_r / n)
    out.update(estimate=est, ci=[est - half, est + half], **{"lambda": lam})
    return out


def corrected_rates(tp: int, fp: int, fn: int, tn: int, passes: int, n_unlabelled: int,
                    level: float = 0.95) -> dict:
    """The raw judge rate on the unlabelled judgements beside its three corrections."""
    raw = passes / n_unlabelled if n_unlabelled else None
    return {"n_labelled": tp + fp + fn + tn, "n_unlabelled": n_unlabelled,
            "raw_judge_rate": raw,
            "human_rate_labelled": (tp + fn) / (tp + fp + fn + tn) if tp + fp + fn + tn else None,
            "rogan_gladen": rogan_gladen(tp, fp, fn, tn, passes, n_unlabelled, level),
            "ppi": ppi_mean(tp, fp, fn, tn, passes, n_unlabelled, level),
            "ppi_tuned": ppi_mean(tp, fp, fn, tn, passes, n_unlabelled, level, tuned=True),
            "assumption": ASSUMPTION}


def for_report(rep: dict, unlabelled, level: float = 0.95) -> dict:
    """Per judge: corrected_rates from its labelled confusion in a calibration report and its
    row of calib_unlabelled_counts (judge_model, n, passes); judges without one get N = 0."""
    counts = {str(r.judge_model): (int(r.n), int(r.passes)) for r in unlabelled.itertuples()}
    return {name: {**corrected_rates(r["tp"], r["fp"], r["fn"], r["tn"],
                                     counts.get(name, (0, 0))[1], counts.get(name, (0, 0))[0],
                                     level),
                   "unlabelled": "judgements whose key is not a calibration item"}
            for name, r in rep["judges"].items()}


def _est(e: dict) -> str:
    if e["estimate"] is None:
        return "n/a"
    return f"{e['estimate']:.3f} [{e['ci'][0]:.3f}, {e['ci'][1]:.3f}]"


def sentence(c: dict) -> str:
    """'raw 0.45 on N unlabelled; Rogan–Gladen …; PPI …; PPI++ …' or why there is none."""
    if not c["n_unlabelled"]:
        return (f"no unlabelled judgements (every judgement is on a calibration item), so there "
                f"is nothing to correct; the human rate on the {c['n_labelled']} labelled items "
                f"is {c['human_rate_labelled']:.3f}")
    return (f"raw judge rate {c['raw_judge_rate']:.3f} on {c['n_unlabelled']:,} unlabelled; "
            f"Rogan–Gladen {_est(c['rogan_gladen'])}; PPI {_est(c['ppi'])}; "
            f"PPI++ {_est(c['ppi_tuned'])} (95% CIs; {c['assumption']})")


def table(rates: dict):
    """One display row per judge: N unlabelled, raw rate, and each corrected rate with its CI."""
    return pd.DataFrame([{
        "Judge": name, "Labelled n": c["n_labelled"], "Unlabelled N": c["n_unlabelled"],
        "Raw judge rate": "n/a" if c["raw_judge_rate"] is None else f"{c['raw_judge_rate']:.3f}",
        "Rogan–Gladen [95% CI]": _est(c["rogan_gladen"]), "PPI [95% CI]": _est(c["ppi"]),
        "PPI++ [95% CI]": _est(c["ppi_tuned"]),
        "PPI++ λ": "n/a" if c["ppi_tuned"]["lambda"] is None else f"{c['ppi_tuned']['lambda']:.2f}"}
        for name, c in rates.items()])


METHODS_NOTE = (
    "Unlabelled: the judgements whose key is not a calibration item; labelled: the calibration "
    "items, truth = the human 2-of-3 binary majority, pass = match. Rogan–Gladen: (q + Sp − 1) / "
    "(Se + Sp − 1), clipped to [0, 1], delta-method CI. PPI: judge rate on the unlabelled minus "
    "its mean error on the labelled (Angelopoulos et al., Science 2023), normal CI; PPI++: the "
    "same with the variance-minimising λ. Each " + ASSUMPTION + "; a calibration set drawn on "
    "purpose (edge cases, strata) is not one, and the corrections inherit that selection.")
