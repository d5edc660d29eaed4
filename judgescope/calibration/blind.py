"""The judge calibrated on blind labels (issue 43 item 6): on the rows reviewers labelled pass or
fail without seeing the judge's score or explanation, the judge's binarised score against the
reviewers' label — confusion, Cohen's κ with its interval beside the base rate, TPR and TNR with
Wilson intervals — the corrected pass rate over the audit's unlabelled rows (corrected.py) and,
when κ's interval straddles the gate, the label budget (power.py). Only blind labels enter: the
reviewers' verdicts on the judge (reviews table) are never read here. Pure: frames in, dict out."""

from __future__ import annotations

import pandas as pd

from judgescope import defaults, stats
from judgescope.calibration import corrected, exact, power
from judgescope.calibration.panel import JUDGE_GATE

DEFAULT_THRESHOLD = defaults.BLIND_THRESHOLD


def rule(threshold: float) -> str:
    return (f"judge pass = score ≥ {threshold:g}, fail = score below it; reviewers' truth per row = "
            "the majority of their latest blind pass / fail labels (unsure labels are left out, a tied "
            "row is left out); only blind labels are used, never the verdicts on the judge")


def truth_per_row(labels: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """One row per labelled record: the reviewers' majority (1 pass, 0 fail), the judge's score
    saved with the latest label, how many reviewers; and the rows left out (unsure only, ties)."""
    decided = labels[labels["label"].isin(["pass", "fail"])]
    votes = decided.assign(p=(decided["label"] == "pass").astype(int)).sort_values("created_at")
    per = votes.groupby("judge_record_id", sort=True).agg(passes=("p", "sum"), n=("p", "size"),
                                                          score=("score", "last"))
    tie = per["passes"] * 2 == per["n"]
    out = per[~tie & per["score"].notna()].assign(truth=lambda f: (f["passes"] * 2 > f["n"]).astype(int))
    left = {"unsure_only": int(labels.loc[~labels.judge_record_id.isin(per.index), "judge_record_id"].nunique()),
            "tied": int(tie.sum()), "no_score": int((~tie & per["score"].isna()).sum())}
    return out.reset_index(), left


def _rate(k: int, n: int) -> dict:
    return stats.wilson_ci(k, n)


def calibration(labels: pd.DataFrame, passes_unlabelled: int, n_unlabelled: int,
                threshold: float = DEFAULT_THRESHOLD, gate=JUDGE_GATE, seed: int = stats.DEFAULT_SEED,
                budget: bool = True) -> dict:
    """The blind calibration set of one audit. labels: latest blind labels (judge_record_id,
    reviewer, label, score, created_at); the unlabelled counts: the audit's rows with no blind
    label and how many of them the judge passes (score ≥ threshold)."""
    rows, left = truth_per_row(labels)
    truth = rows["truth"].to_numpy(int)
    pred = (rows["score"] >= threshold).to_numpy(int)
    conf = stats.confusion_binary(truth, pred)
    table = [conf["tn"], conf["fp"], conf["fn"], conf["tp"]]  # rows: reviewers, columns: judge
    kappa = stats.cohen_kappa(truth, pred) if len(rows) else None
    ci = exact.table_ci(table, exact.kappa_of, seed=seed)
    verdict = stats.gate_verdict(kappa, gate, ci["low"], ci["high"]) if kappa is not None else None
    n = len(rows)
    return {
        "n": n, "reviewers": sorted(labels["reviewer"].unique().tolist()), "labels": int(len(labels)),
        "left_out": left, **conf, "threshold": float(threshold), "rule": rule(threshold),
        "base_rate": _rate(conf["tp"] + conf["fn"], n), "judge_pass_rate": _rate(conf["tp"] + conf["fp"], n),
        "agreement": stats.observed_agreement(truth, pred),
        "kappa": kappa, "kappa_ci": [ci["low"], ci["high"]], "kappa_ci_method": ci["method"],
        "kappa_ci_undefined": ci["undefined"],
        "tpr": _rate(conf["tp"], conf["tp"] + conf["fn"]), "tnr": _rate(conf["tn"], conf["tn"] + conf["fp"]),
        "gate": float(gate), "gate_verdict": verdict,
        "label_budget": power.label_budget(table, gate, stat=exact.kappa_of, seed=seed)
        if budget and verdict and verdict["inconclusive"] else None,
        "corrected": corrected.corrected_rates(conf["tp"], conf["fp"], conf["fn"], conf["tn"],
                                               passes_unlabelled, n_unlabelled) if n else None,
        "unlabelled": "the audit's rows with no blind label (latest, not retracted) and a score"}


def _pct(r: dict) -> str:
    return "n/a" if r["share"] is None else f"{r['share']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def lines(c: dict) -> list[str]:
    """The calibration in a few sentences, each with its how."""
    if not c["n"]:
        return ["no row has a usable blind label yet (" + c["rule"] + ")"]
    k = "n/a" if c["kappa"] is None else f"{c['kappa']:.3f}"
    ci = (f"[{c['kappa_ci'][0]:.3f}, {c['kappa_ci'][1]:.3f}]" if c["kappa_ci"][0] is not None
          else f"n/a ({c['kappa_ci_undefined']})")
    out = [f"{c['n']:,} rows with a blind label from {len(c['reviewers'])} reviewer(s): TP {c['tp']}, FP {c['fp']}, "
           f"FN {c['fn']}, TN {c['tn']} ({c['rule']})",
           f"Cohen's κ judge vs reviewers {k} {ci} ({c['kappa_ci_method']}); base rate (reviewers' pass share) "
           f"{_pct(c['base_rate'])}, judge pass share {_pct(c['judge_pass_rate'])}",
           f"TPR {_pct(c['tpr'])}, TNR {_pct(c['tnr'])} (Wilson score 95% intervals)"]
    if c["gate_verdict"]:
        v = c["gate_verdict"]
        out.append(f"gate κ ≥ {c['gate']:g}: {v['verdict']}" + (" but INCONCLUSIVE (the interval holds the gate)"
                                                                 if v["inconclusive"] else ""))
    if c["label_budget"]:
        out.append("label budget: " + c["label_budget"]["sentence"])
    if c["corrected"]:
        out.append("corrected pass rate: " + corrected.sentence(c["corrected"]))
    return out


def confusion_table(c: dict) -> pd.DataFrame:
    """The 2 × 2 table: reviewers' blind label (rows) by the judge's binarised score (columns)."""
    return pd.DataFrame({"Reviewers": ["pass", "fail"], "Judge pass": [c["tp"], c["fp"]],
                         "Judge fail": [c["fn"], c["tn"]]})
