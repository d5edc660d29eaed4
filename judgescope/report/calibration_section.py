"""The calibration part of a report: one gate badge per judge and the panel, their confusion
matrices, human–human agreement and the disagreements, from calibration.panel.report (the
function Judges vs humans and `calibrate --json` use)."""

from __future__ import annotations

from judgescope.calibration import calibration_findings
from judgescope import format as fmt
from judgescope.calibration import panel as cal
from judgescope.report import svg
from judgescope.report.ledger import Ledger, bound, key as idkey

F = "judgescope.calibration.panel.report"
MF = "judgescope.report.calibration_section.build (the method as the report states it)"
Q = "calib_items + calib_item_judgements"
MAX_ROWS = 50
TEXT_CHARS = 160


def short(text, limit: int = TEXT_CHARS) -> str:
    """Data text cut to a readable length (the report never carries whole rows)."""
    text = "" if text is None else str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def build(run, ledger: Ledger, deviations: dict) -> tuple[dict | None, list[str]]:
    items = run("calib_items", **cal.split_params([]))
    judgements = run("calib_item_judgements", **cal.split_params([]))
    if items.empty or judgements.empty:
        return None, ["Judge calibration: no judgement shares a key with the calibration items."]
    rep = cal.report(items, judgements)
    raters = []
    # The panel first: its gate is the decision the collection's report exists for.
    for rid, label, r in sorted(cal.rater_reports(rep), key=lambda x: x[0] != cal.PANEL):
        key = "panel" if rid == cal.PANEL else label
        raters.append(_rater(ledger, key, label, r, deviations.get(key)))
    methods = [{"ref": "m-gate", "name": "Gate rule",
                "text": ledger.text("method.gate_rule", calibration_findings.GATE_RULE, MF)},
               {"ref": "m-pi", "name": "Scott's π and its 95 % CI",
                "text": ledger.text("method.calibration.pi_ci", "Scott's π of each judge and the panel "
                                    "against the human 2-of-3 majority; interval: " + rep["pi_ci_method"] + ".", MF)},
               {"ref": "m-majority", "name": "Panel and human majority",
                "text": ledger.text("method.calibration.definitions", cal.definitions_sentence(rep), MF)}]
    gates = sorted({(float(r["gate_value"]), r["gate"]) for r in raters}, key=lambda g: g[0])
    section = {"n_items": ledger.add("calibration.n_items", rep["n_items"], fmt.count(rep["n_items"]),
                                     query=Q, function=F, cli=["calibrate", "--json", "n_items"]),
               "raters": raters, "methods": methods,
               "forest": svg.forest([{"label": r["label"], "value": r["pi_value"], "low": r["low_value"],
                                      "high": r["high_value"], "tag": r["badge"]} for r in raters],
                                    0.0, 1.0, [{"value": v, "label": "gate ", "shown": shown} for v, shown in gates])}
    section["humans"] = _humans(ledger, rep["humans"])
    section["disagreements"] = _disagreements(ledger, items, rep)
    return section, []


def _rater(ledger: Ledger, key: str, label: str, r: dict, deviation: str | None) -> dict:
    cli = ["calibrate", "--json"] + (["panel"] if key == "panel" else ["judges", key])
    id = f"calibration.{idkey(key)}"
    out = {"key": key, "label": short(label), "label_shown": ledger.label(id, short(label)), "deviation": deviation}
    for name in ("n", "tp", "fp", "fn", "tn"):
        out[name] = ledger.add(f"{id}.{name}", r[name], fmt.count(r[name]), query=Q, function=F,
                               cli=cli + [name])
    out["agreement"] = ledger.add(f"{id}.agreement", r["agreement"], fmt.agreement(r["agreement"]),
                                  query=Q, function=F, cli=cli + ["agreement"])
    out["pi"] = ledger.add(f"{id}.scotts_pi", r["scotts_pi"], r["scotts_pi_shown"] or fmt.NA,
                           query=Q, function=F, cli=cli + ["scotts_pi"])
    out["kappa"] = ledger.add(f"{id}.cohen_kappa", r["cohen_kappa"], fmt.agreement(r["cohen_kappa"]),
                              query=Q, function=F, cli=cli + ["cohen_kappa"])
    low, high = r["ci"]
    out["ci"] = bound("[{}, {}]",
        ledger.add(f"{id}.ci_low", low, fmt.agreement(low), query=Q, function=F, cli=cli + ["ci", 0]),
        ledger.add(f"{id}.ci_high", high, fmt.agreement(high), query=Q, function=F, cli=cli + ["ci", 1]))
    out["gate"] = ledger.add(f"{id}.gate", float(r["gate"]), fmt.gate_value(r["gate"]), query=None,
                             function=F, cli=cli + ["gate"])
    badge, out["colour"], sentence = calibration_findings.gate_badge(r)
    fn = "judgescope.calibration.calibration_findings.gate_badge"
    out["badge"] = ledger.text(f"{id}.badge", badge, fn)
    out["sentence"] = ledger.text(f"{id}.sentence", sentence, fn)
    out["verdict"] = ledger.add(f"{id}.verdict", r["verdict"], r["verdict"], query=Q, function=F,
                                cli=cli + ["verdict"])
    out.update(pi_value=r["scotts_pi"], low_value=low, high_value=high, gate_value=r["gate"],
               matrix=svg.confusion(r["tp"], r["fp"], r["fn"], r["tn"]))
    for cell in out["matrix"]["cells"]:
        cell["n"] = out[cell["name"].lower()]  # the count as shown, bound to its entry
    return out


def _humans(ledger: Ledger, h: dict) -> dict:
    cli = ["calibrate", "--json", "humans"]
    rows = []
    for name, label in (("fleiss_kappa", "Fleiss' κ (3 humans)"),
                        ("krippendorff_alpha", "Krippendorff's α (nominal, 3 humans)")):
        rows.append(_stat(ledger, f"calibration.humans.{name}", label, h[name], h[f"{name}_ci"],
                          cli + [name], cli + [f"{name}_ci"]))
    for i, p in enumerate(h["pairwise_cohen_kappa"]):
        label = f"Cohen's κ {p['rater_a'].removesuffix('_verdict')} × {p['rater_b'].removesuffix('_verdict')}"
        rows.append(_stat(ledger, f"calibration.humans.pairwise.{i}", label, p["cohen_kappa"], p["ci"],
                          cli + ["pairwise_cohen_kappa", i, "cohen_kappa"],
                          cli + ["pairwise_cohen_kappa", i, "ci"]))
    ties = len(h["three_way_ties"])
    return {"rows": rows, "ties": ledger.add("calibration.humans.three_way_ties", ties, fmt.count(ties), query=Q,
                                             function=F, cli=cli + ["three_way_ties", "len"]),
            "ties_value": ties,
            "forest": svg.forest([{"label": r["label"], "value": r["value"], "low": r["low"],
                                   "high": r["high"]} for r in rows], 0.0, 1.0, ())}


def _stat(ledger, id, label, value, ci, cli, ci_cli, function=F, query=Q) -> dict:
    low, high = ci if ci else (None, None)
    return {"label": ledger.label(id, label), "value": value, "low": low, "high": high,
            "shown": ledger.add(id, value, fmt.agreement(value), query=query, function=function, cli=cli),
            "ci": bound("[{}, {}]",
                ledger.add(f"{id}.ci_low", low, fmt.agreement(low), query=query, function=function,
                           cli=ci_cli + [0]),
                ledger.add(f"{id}.ci_high", high, fmt.agreement(high), query=query, function=function,
                           cli=ci_cli + [1]))}


def _disagreements(ledger: Ledger, items, rep: dict) -> dict:
    summary = rep["disagreement_summary"]
    by_key = items.set_index("key") if "key" in items else None
    rows = []
    for key in summary["keys"][:MAX_ROWS]:
        row = by_key.loc[key] if by_key is not None and key in by_key.index else {}
        if hasattr(row, "ndim") and row.ndim > 1:
            row = row.iloc[0]
        rows.append({"key": short(key, 60), "question": short(row.get("question")) if len(row) else "",
                     "humans": " / ".join(str(row.get(c, "")) for c in cal.HUMAN_COLS) if len(row) else "",
                     "unanimous": key in summary["unanimous_human"]})
    return {"rows": rows,
            "n": ledger.add("calibration.disagreements.n", summary["n"], fmt.count(summary["n"]),
                            query=Q, function="judgescope.calibration.panel.disagreement_summary",
                            cli=["calibrate", "--json", "disagreement_summary", "n"]),
            "supported": ledger.add("calibration.disagreements.with_human_support",
                                    summary["with_human_support"], fmt.count(summary["with_human_support"]),
                                    query=Q, function="judgescope.calibration.panel.disagreement_summary",
                                    cli=["calibrate", "--json", "disagreement_summary", "with_human_support"]),
            "more": _more(ledger, "calibration.disagreements.more", len(summary["keys"]))}


def _more(ledger: Ledger, id: str, total: int, shown: int = MAX_ROWS):
    """How many rows a table leaves out (None when it shows them all), bound to its entry."""
    more = max(0, total - shown)
    return ledger.add(id, more, fmt.count(more), query=None, function="judgescope.report (rows beyond the "
                      "first 50 of a table)") if more else None
