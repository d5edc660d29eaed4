"""The Drift page's result for the active collection (cached across reruns) and its tables: each
row carries its CI, its test and whether there are too few anchors to decide."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.audit import drift_charts, drift_report
from judgescope.schema import language_name
from judgescope.significance.paired import fmt_p
from judgescope.web.context import catalog, per_collection


@per_collection(max_entries=16, show_spinner="Measuring the judge's drift on anchors…")
def measured(collection: str, resamples: int, seed: int, threshold: float | None) -> tuple[dict, pd.DataFrame]:
    """drift_report.measure over the collection's audit (new) and earlier audit (old): the result
    and the Bland–Altman points of its anchors (drift_charts.ba_points)."""
    result, pairs = drift_report.measure(catalog().store(collection).run, threshold, resamples, seed)
    return result, drift_charts.ba_points(pairs[pairs["anchor"] & pairs["stable"]])


NUMBER_FORMAT = {c: st.column_config.NumberColumn(format="%+.2f")
                 for c in ("Mean new − old", "Headline", "Judge", "Systems")}


def sentence(text: str) -> str:
    """A method or definition as the start of a sentence: its first letter capitalised only."""
    return text[:1].upper() + text[1:]


def binned_note(result: dict) -> str | None:
    """A sentence when some shift was resampled over bins (drift.draw_plan: float differences),
    with the overall row's draws named; None when every one was drawn over its distinct values."""
    from judgescope import stats

    shift = result["judge_shift"]
    rows = [shift["overall"]] + [r for k in ("by_language", "by_unit", "by_language_unit") for r in shift[k]]
    binned = sum(r["binned"] for r in rows)
    if not binned:
        return None
    return (f"{binned:,} of {len(rows):,} shifts (overall, per language, per unit, per language × unit) "
            f"have more than {stats.MAX_CATEGORIES} distinct differences: their resamples are drawn "
            f"over at most {stats.DRAW_BINS} bins of equal width, each at its rows' mean. Overall: "
            f"{shift['overall']['draws']}.")


def _ci(ci) -> str:
    return "n/a" if ci[0] is None else f"{ci[0]:+.2f} to {ci[1]:+.2f}"


def _where(row: dict) -> dict:
    out = {}
    if "target_language" in row:
        out["Language"] = language_name(row["target_language"])
    if "unit" in row:
        out["Unit"] = row["unit"]
    return out


def shift_frame(rows: list[dict]) -> pd.DataFrame:
    """The judge's shift rows: anchors, mean new − old, CI, sign test and Wilcoxon p."""
    return pd.DataFrame([{**_where(r), "Anchors": r["anchors"], "Mean new − old": r["mean_diff"],
                          "95% interval": _ci(r["ci"]), "Up / down / same": (
                              f"{r['sign_test']['up']} / {r['sign_test']['down']} / {r['sign_test']['unchanged']}"),
                          "Sign test p": fmt_p(r["sign_test"]["p"]), "Wilcoxon p": fmt_p(r["wilcoxon"]["p"]),
                          "Decide?": "too few anchors" if r["too_few_to_decide"] else "enough anchors"}
                         for r in rows])


def split_frame(overall: dict, by_language: list[dict]) -> pd.DataFrame:
    """Judge change vs system change: overall, then per language."""
    rows = [{"target_language": None, **overall}] + by_language
    return pd.DataFrame([{"Language": "all languages" if r["target_language"] is None
                          else language_name(r["target_language"]),
                          "Paired": r["paired_units"], "Anchors": r["anchors"], "Changed": r["changed"],
                          "Headline": r["headline"], "Headline 95% interval": _ci(r["headline_ci"]),
                          "Judge": r["judge_shift"], "Judge 95% interval": _ci(r["judge_ci"]),
                          "Systems": r["system_shift"], "Systems 95% interval": _ci(r["system_ci"]),
                          "Alarm": "opposite directions" if r["alarm"] else
                          ("too few anchors" if r["too_few_to_decide"] else "")} for r in rows])


def moved_frame(moved: list[dict]) -> pd.DataFrame:
    """The anchors that moved most, both versions' scores side by side."""
    cols = ["target_language", "unit", "old_score", "new_score", "diff", "paired_on", "unit_id", "paragraph_id",
            "new_record_id", "old_record_id"]
    frame = pd.DataFrame(moved, columns=cols)
    return frame.assign(target_language=frame["target_language"].map(language_name))


def not_paired(result: dict) -> list[tuple[str, str, pd.DataFrame]]:
    """Per run with rows that are not compared: (run, its sentence (drift_report.not_paired), the
    rows listed: the first of each kind, units the other run did not score, rows without a key)."""
    out = []
    for run, line in drift_report.not_paired(result):
        c = result["counts"]["by_run"][run]
        listed = ([{"why": "the other run did not score this unit", **r} for r in c["unpaired_listed"]]
                  + [{"why": "no unit key", **r} for r in c["unkeyed_listed"]])
        out.append((run, line, pd.DataFrame(listed)))
    return out
