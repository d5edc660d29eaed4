"""The judge calibrated on blind labels in the report (issue 43 item 6), when reviewers gave blind
labels on this audit: the 2 × 2 table, Cohen's κ with its CI beside the base rate, TPR and TNR
with Wilson CIs, the gate and the label budget, the corrected pass rate over the unlabelled rows.
The numbers are calibration.blind.calibration's at the default threshold, as `judgescope reviews
blind AUDIT --json` prints them; check-report recomputes them from the reviews log."""

from __future__ import annotations

from judgescope.calibration import blind as blind_cal
from judgescope.reviews import blind_labels
from judgescope.reviews import database
from judgescope.report.ledger import Ledger, bound

F = "judgescope.calibration.blind.calibration"
Q = "audit_blind_unlabelled"


def _pct(add, id: str, r: dict):
    if r["share"] is None:
        return "n/a", "n/a"
    low, high = add(f"{id}.low", r["low"], f"{r['low']:.1%}"), add(f"{id}.high", r["high"], f"{r['high']:.1%}")
    return add(id, r["share"], f"{r['share']:.1%}"), bound("[{}, {}]", low, high)


def _est(add, id: str, e: dict):
    if e is None or e["estimate"] is None:
        return "n/a"
    return bound("{} [{}, {}]", add(id, e["estimate"], f"{e['estimate']:.3f}"),
                 add(f"{id}.low", e["ci"][0], f"{e['ci'][0]:.3f}"), add(f"{id}.high", e["ci"][1], f"{e['ci'][1]:.3f}"))


def build(run, ledger: Ledger, dataset: str) -> dict | None:
    """The section, or None when the audit has no blind label (or the log cannot be read)."""
    try:
        labels = blind_labels.latest(dataset=dataset)
    except (database.ReviewStoreUnavailable, database.ReviewStoreBusy):
        return None
    if labels.empty:
        return None
    threshold = blind_cal.DEFAULT_THRESHOLD
    counts = run(Q, ids=sorted(labels.judge_record_id.astype(str).unique().tolist()), threshold=threshold)
    c = blind_cal.calibration(labels, int(counts.passes.iloc[0]), int(counts.n.iloc[0]), threshold)

    def add(key, value, shown):
        return ledger.add(f"blind.{key}", value, shown, query=Q, function=F)

    kappa = "n/a" if c["kappa"] is None else add("kappa", c["kappa"], f"{c['kappa']:.3f}")
    low, high = c["kappa_ci"]
    verdict = c["gate_verdict"]
    return {
        "n": add("n", c["n"], f"{c['n']:,}"),
        "cells": {k: add(k, c[k], f"{c[k]:,}") for k in ("tp", "fp", "fn", "tn")},
        "kappa": kappa, "kappa_ci": "n/a" if low is None else bound(
            "[{}, {}]", add("kappa.low", low, f"{low:.3f}"), add("kappa.high", high, f"{high:.3f}")),
        "base": _pct(add, "base_rate", c["base_rate"]), "tpr": _pct(add, "tpr", c["tpr"]),
        "tnr": _pct(add, "tnr", c["tnr"]),
        "ppi": _est(add, "ppi", (c["corrected"] or {}).get("ppi")),
        "rogan_gladen": _est(add, "rogan_gladen", (c["corrected"] or {}).get("rogan_gladen")),
        "gate": ledger.text("blind.gate", "n/a" if verdict is None else f"κ ≥ {c['gate']:g}: {verdict['verdict']}"
                            + (" · inconclusive" if verdict["inconclusive"] else ""), F),
        "budget": ledger.text("blind.budget", c["label_budget"]["sentence"], F) if c["label_budget"] else None,
        "rule": ledger.text("blind.rule", c["rule"], F), "method": ledger.text("blind.method", c["kappa_ci_method"], F)}
