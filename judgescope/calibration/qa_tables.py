"""Display tables of the judge-QA statistics (bias direction, the like-for-like human ceiling):
pure pandas from the report's dicts, shared by the pages and the CLI."""

from __future__ import annotations

import pandas as pd

from judgescope.calibration.bias import fmt_p
from judgescope.calibration.exact import undefined_text


def _f(x, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _ci(ci, reason: str | None = None, digits: int = 3) -> str:
    """[low, high], or 'n/a (undefined because …)' when the interval has no endpoints."""
    if ci is None or ci[0] is None:
        return undefined_text(reason)
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def bias_table(raters: list[tuple[str, str, dict]]) -> pd.DataFrame:
    """One row per judge and the panel: pass rates, paired difference and CI, FN/FP, McNemar p,
    the direction sentence and, when not significant, the minimum detectable difference."""
    rows = []
    for _, label, r in raters:
        b = r["bias"]
        rows.append({"Rater": label, "n": b["n"], "Judge pass": _f(b["judge_pass"]),
                     "Human pass": _f(b["human_pass"]), "Difference": _f(b["diff"]),
                     "Difference 95% CI": _ci(b["ci"]), "FN": b["fn"], "FP": b["fp"],
                     "Exact McNemar": fmt_p(b["mcnemar_p"]), "Direction": b["sentence"],
                     "Min. detectable difference (80% power)":
                     b["min_detectable_text"] if "min_detectable_method" in b else "—"})
    return pd.DataFrame(rows)


def judge_human_table(ceiling: dict) -> pd.DataFrame:
    return pd.DataFrame([{"Rater": r["rater"], "Human": r["human"], "n": r["n"],
                          "Agreement": _f(r["agreement"]), "Cohen's κ": _f(r["cohen_kappa"]),
                          "κ 95% CI": _ci(r["kappa_ci"], r.get("kappa_ci_undefined")),
                          "Scott's π": _f(r["scotts_pi"]),
                          "π 95% CI": _ci(r["pi_ci"], r.get("pi_ci_undefined"))} for r in ceiling["judge_vs_human"]])


def human_human_table(ceiling: dict) -> pd.DataFrame:
    return pd.DataFrame([{"Human A": r["human_a"], "Human B": r["human_b"], "n": r["n"],
                          "Agreement": _f(r["agreement"]), "Cohen's κ": _f(r["cohen_kappa"]),
                          "κ 95% CI": _ci(r["kappa_ci"], r.get("kappa_ci_undefined")),
                          "Scott's π": _f(r["scotts_pi"]),
                          "π 95% CI": _ci(r["pi_ci"], r.get("pi_ci_undefined"))} for r in ceiling["human_vs_human"]])


def mean_table(ceiling: dict) -> pd.DataFrame:
    """Each rater's mean κ over single humans beside the humans' mean κ with each other."""
    rows = [{"Comparison": f"{r} vs each single human", **_mean(m)}
            for r, m in ceiling["judge_mean_kappa"].items()]
    rows.append({"Comparison": "human vs human", **_mean(ceiling["human_mean_kappa"])})
    return pd.DataFrame(rows)


def ceiling_methods(ceiling: dict) -> str:
    """Each interval of the ceiling tables with its own method (κ's, π's, the means')."""
    return (f"Pairwise κ CIs: {ceiling['kappa_ci_method'] or 'n/a'}. Pairwise π CIs: "
            f"{ceiling['pi_ci_method'] or 'n/a'}. Means: {ceiling['human_mean_kappa']['ci_method']}, "
            "every rater of an item resampled together.")


def _mean(m: dict) -> dict:
    return {"pairs": m["pairs"], "n": m["n"], "mean Cohen's κ": _f(m["mean_kappa"]),
            "95% CI": _ci(m["ci"], m.get("ci_undefined"))}


MULTI_CATEGORY_NOTE = (
    "Fleiss' κ, Krippendorff's α and the pairwise Cohen's κ above use the three-way verdicts "
    "(match / no_match / no_answer), not the gates' binary scale (match = 1, anything else = "
    "0). The like-for-like binary comparison is below and on Judges vs humans.")

MDD_NOTE = ("Min. detectable difference (when the test is not significant): the smallest "
            "pass-rate difference exact McNemar at α = 0.05 detects with 80% power at this n, "
            "holding the observed share of discordant items (exact binomial power).")
