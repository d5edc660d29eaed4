"""The human-ratings part of a report: Krippendorff's α per scale and Fleiss' / pairwise Cohen's
κ on verdicts, each with its bootstrap CI, and each rater's summary; from
calibration.human_ratings (the functions Human ratings and `agreement --json` use)."""

from __future__ import annotations

from judgescope import format as fmt
from judgescope.calibration import clustered
from judgescope.report import svg
from judgescope.report.calibration_section import _stat, short
from judgescope.report.ledger import Ledger

F = "judgescope.calibration.clustered.agreement"
Q = "ratings_long"
RESAMPLES = 1_000  # `agreement`'s default


def columns(missing) -> tuple[str | None, str | None]:
    """(score column, verdict column) present, as `agreement` picks them."""
    missing = set(missing)
    score = next((c for c in ("score", "mqm") if c not in missing), None)
    return score, (None if "verdict" in missing else "verdict")


def build(run, ledger: Ledger, missing_columns, seed: int) -> tuple[dict, list[str]]:
    score, verdict = columns(missing_columns)
    frame = run("ratings_long")
    result = clustered.agreement(frame, run("ratings_item_clusters"), score, verdict,
                                 resamples=RESAMPLES, seed=seed)
    cli = ["agreement", "--json"]
    out = {"items": ledger.add("ratings.items", result["items"], fmt.count(result["items"]), query=Q,
                               function=F, cli=cli + ["items"]),
           "raters": ledger.add("ratings.raters", result["raters"], fmt.count(result["raters"]), query=Q,
                                function=F, cli=cli + ["raters"]),
           "ratings": ledger.add("ratings.ratings", result["ratings"], fmt.count(result["ratings"]),
                                 query=Q, function=F, cli=cli + ["ratings"]),
           "alpha": [], "kappa": []}
    missing = []
    for i, (name, value) in enumerate(result["alpha"].items()):
        stat = result["alpha_ci"][name]
        label = f"Krippendorff's α, {name}, 95 % CI by {stat['ci_name']}"
        out["alpha"].append(_stat(ledger, f"ratings.alpha.{i}", label, value, stat["ci"], cli + ["alpha", name],
                                  cli + ["alpha_ci", name, "ci"], F, Q))
    if verdict and "verdicts" in result:
        v = result["verdicts"]
        by = {name: f"95 % CI by {v[name]['ci_name']}" for name in ("fleiss_kappa", "krippendorff_alpha")}
        out["kappa"].append(_stat(ledger, "ratings.fleiss_kappa", f"Fleiss' κ ({verdict}), {by['fleiss_kappa']}",
                                  v["fleiss_kappa"]["value"], v["fleiss_kappa"]["ci"],
                                  cli + ["verdicts", "fleiss_kappa", "value"],
                                  cli + ["verdicts", "fleiss_kappa", "ci"], F, Q))
        out["kappa"].append(_stat(ledger, "ratings.verdict_alpha",
                                  f"Krippendorff's α ({verdict}, nominal), {by['krippendorff_alpha']}",
                                  v["krippendorff_alpha"]["value"], v["krippendorff_alpha"]["ci"],
                                  cli + ["verdicts", "krippendorff_alpha", "value"],
                                  cli + ["verdicts", "krippendorff_alpha", "ci"], F, Q))
        for i, p in enumerate(v["pairwise"]):
            row = _stat(ledger, f"ratings.pairwise.{i}",
                        f"Cohen's κ {short(p['rater_a'], 60)} × {short(p['rater_b'], 60)}",
                        p["cohen_kappa"], p["ci"], cli + ["verdicts", "pairwise", i, "cohen_kappa"],
                        cli + ["verdicts", "pairwise", i, "ci"], F, Q)
            row["n"] = ledger.add(f"ratings.pairwise.{i}.n", p["n"], fmt.count(p["n"]), query=Q, function=F,
                                  cli=cli + ["verdicts", "pairwise", i, "n"])
            out["kappa"].append(row)
    else:
        missing.append("Fleiss' and Cohen's κ: the ratings have no verdict column.")
    if not score:
        missing.append("Krippendorff's α on scores: the ratings have no score or mqm column.")
    shown = out["kappa"][:50]
    out["forest"] = svg.forest([{"label": r["label"], "value": r["value"], "low": r["low"],
                                 "high": r["high"]} for r in out["alpha"] + shown],
                               -0.2, 1.0, [{"value": 0.0, "label": "chance"}])
    out["kappa"] = shown
    return out, missing
