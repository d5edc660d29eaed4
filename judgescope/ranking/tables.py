"""Display tables for the ranking pages: result rows and parsed decisions -> DataFrames and text."""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd

from judgescope.ranking.decisions import (ALL_DATASETS, CI_METHOD, decision_label,
                                          flatten_annotations, outcome, preference)
from judgescope.schema import RANKING_METHODS

NO_DECISIONS = ("This dataset has human scores but no model decision columns (named "
                "`<method>/<model>` with method one of " + ", ".join(RANKING_METHODS) + "), so "
                "there is no accuracy or position bias to show. Its pairs and human ties are "
                "summarised below; the Pairs page still shows each pair.")


def fmt_rate(rate: dict | None) -> str:
    """'0.712 [0.601, 0.803] (52/73)', or n/a when undefined."""
    if not rate or rate.get("rate") is None:
        return "n/a"
    return f"{rate['rate']:.3f} [{rate['low']:.3f}, {rate['high']:.3f}] ({rate['k']}/{rate['n']})"


def _accuracy(r: dict) -> dict:
    return {"rate": r["accuracy"], "low": r["ci"][0], "high": r["ci"][1], "k": r["correct"], "n": r["n"]}


def accuracy_frame(rows: list[dict]) -> pd.DataFrame:
    """The accuracy results as a flat table, CIs and baselines as text beside the numbers."""
    return pd.DataFrame([{
        "method": r["method"], "model": r["model"], "dataset": r["dataset"], "n": r["n"],
        "accuracy": r["accuracy"], "accuracy_ci": fmt_rate(_accuracy(r)),
        "always_translation_1": fmt_rate(r["always_first"]), "fair_coin": 0.5 if r["n"] else None,
        "human_ties": r["human_ties"], "model_ties": r["model_ties"], "unparsed": r["unparsed"]}
        for r in rows])


def cell_summary(rows: list[dict], dataset: str, column: str) -> str:
    """One line about one grid cell: accuracy with CI, baselines, exclusions."""
    r = next((r for r in rows if r["dataset"] == dataset and f"{r['method']}/{r['model']}" == column), None)
    if r is None:
        return "n/a"
    return (f"Accuracy {fmt_rate(_accuracy(r))} ({CI_METHOD}) · always Translation 1 "
            f"{fmt_rate(r['always_first'])} · fair coin 0.500 · human ties excluded {r['human_ties']}"
            f" · model ties {r['model_ties']} and unparsed {r['unparsed']} counted wrong")


def bias_frame(rows: list[dict]) -> pd.DataFrame:
    """Position bias per method x model: picks of Translation 1 vs humans, accuracy by position."""
    return pd.DataFrame([{
        "method": r["method"], "model": r["model"], "decisive_pairs": r["first_choice"]["n"],
        "model_picks_1": fmt_rate(r["first_choice"]), "human_prefers_1": fmt_rate(r["human_first"]),
        "accuracy_better_shown_first": fmt_rate(r["acc_human_first"]),
        "accuracy_better_shown_second": fmt_rate(r["acc_human_second"])} for r in rows])


def pair_link(collection: str, file: str, row) -> str:
    """Relative URL of the Pairs page showing one pair."""
    return "pairs?" + urlencode({"collection": collection, "file": file, "row": int(row)})


def cell_rows(decisions: pd.DataFrame, pairs: pd.DataFrame, dataset: str, column: str,
              collection: str) -> pd.DataFrame:
    """The pairs behind one grid cell, with what the model decided and the full decision text."""
    d = decisions[decisions["decision_column"] == column]
    if dataset != ALL_DATASETS:
        d = d[d["dataset"] == dataset]
    d = d.merge(pairs[["file", "row", "human_1", "human_2"]], on=["file", "row"], how="left")
    return pd.DataFrame({
        "open": [pair_link(collection, f, r) for f, r in zip(d["file"], d["row"])],
        "dataset": d["dataset"], "row": d["row"], "human_1": d["human_1"], "human_2": d["human_2"],
        "human_prefers": d["human"].map(decision_label),
        "model_decision": d["decision"].map(decision_label),
        "outcome": [outcome(x, h) for x, h in zip(d["decision"], d["human"])],
        "decision_text": d["decision_text"], "file": d["file"]})


def pair_decisions(decisions: pd.DataFrame, file: str, row: int) -> pd.DataFrame:
    """Every decision column's text and parsed decision for one pair, in method order."""
    d = decisions[(decisions["file"] == file) & (decisions["row"] == row)].copy()
    d["_order"] = d["method"].map({m: i for i, m in enumerate(RANKING_METHODS)})
    d = d.sort_values(["_order", "model"])
    return pd.DataFrame({"method": d["method"], "model": d["model"],
                         "decision": d["decision"].map(decision_label),
                         "outcome": [outcome(x, h) for x, h in zip(d["decision"], d["human"])],
                         "text": d["decision_text"]})


def pair_list(pairs: pd.DataFrame, datasets: list[str], human: list[str]) -> pd.DataFrame:
    """Pairs filtered by dataset and human preference label, for the row browser."""
    keep = pairs["dataset"].isin(datasets) if datasets else pairs["dataset"].notna()
    labels = pairs["human"].map(decision_label).replace({"unparsed": "no human score"})
    if human:
        keep &= labels.isin(human)
    out = pairs[keep].assign(human_prefers=labels[keep])
    return out[["dataset", "row", "src_preview", "human_1", "human_2", "human_prefers", "file"]]


def annotation_frame(annotations) -> pd.DataFrame:
    return pd.DataFrame(flatten_annotations(annotations), columns=["key", "value"])


def annotation_counts(annotations) -> pd.DataFrame:
    """How often each annotation key takes each value, across the given rows."""
    flat = [kv for a in annotations for kv in flatten_annotations(a)]
    if not flat:
        return pd.DataFrame(columns=["key", "value", "rows"])
    frame = pd.DataFrame(flat, columns=["key", "value"])
    return frame.value_counts().rename("rows").reset_index().sort_values(["key", "value"])


HUMAN_LABELS = ["Translation 1", "Translation 2", "tie", "no human score"]


def human_label(a, b) -> str:
    """What the humans prefer, from the two scores."""
    code = preference(a, b)
    return "no human score" if code is None else decision_label(code)

NO_DECISIONS_PAIRS = ("This dataset has no model decision columns: the pairs below show the "
                      "source, both translations and the human scores only.")


def fmt_score(value) -> str:
    """A human score, short: 4 significant digits, n/a when missing."""
    return "n/a" if value is None or pd.isna(value) else f"{float(value):.4g}"
