"""Swap consistency and self-preference sections of the ranking pages (render only)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.ranking import probes
from judgescope.ranking.decisions import ALL_DATASETS, decision_label
from judgescope.text import md_literal
from judgescope import navigation
from judgescope.web import export, render, results
from judgescope.web.context import collection_name

PAIR_LINK = {"Open": st.column_config.LinkColumn("Open", display_text="pair", width="small")}


def _table(frame: pd.DataFrame, **kwargs):
    """Column names as written here (they carry capitals render.table's labels would lower)."""
    return st.dataframe(frame, hide_index=True, width="stretch", **kwargs)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _ci(low, high) -> str:
    return "n/a" if low is None else f"[{low:.3f}, {high:.3f}]"


def swap_section(decisions: pd.DataFrame, dataset: str) -> None:
    """Share of pairs judged in both orders whose decision survives the swap, and the others."""
    st.header("Both orders: swap consistency")
    swapped, _ = results.ranking_probe_frames()
    if dataset != ALL_DATASETS:
        decisions = decisions[decisions["dataset"] == dataset]
    result = probes.swap_consistency(decisions, swapped)
    if not result["rows"]:
        st.caption("No pair here was judged in both orders (a column `<method>_swapped/<model>` "
                   "whose Translation 1 is the pair's second), so there is no swap consistency.")
        return
    st.caption(f"{_sentence(result['method'])}. A position-blind judge is consistent on every pair.")
    _table(pd.DataFrame([{
        "Method": r["method"], "Model": r["model"], "Judged in both orders": r["judged_both"],
        "Unparsed (left out)": r["unparsed"], "Consistent": f"{r['consistent']}/{r['n']}",
        "Share consistent [95% Wilson CI]": "n/a" if r["share"] is None
        else f"{r['share']:.3f} {_ci(*r['ci'])}"} for r in result["rows"]]))
    bad = pd.DataFrame(result["inconsistent"])
    if bad.empty:
        return
    pairs = navigation.page("pairs")
    shown = pd.DataFrame({
        "Open": [navigation.href(pairs, collection=collection_name(), file=f, row=r)
                 for f, r in zip(bad["file"], bad["row"])],
        "Method": bad["method"], "Model": bad["model"], "Dataset": bad["dataset"], "Row": bad["row"],
        "Original order": bad["original"].map(decision_label),
        "Swapped order, mapped back": bad["swapped_mapped_back"].map(decision_label),
        "What happened": bad["kind"]})
    st.caption(f"{len(bad):,} inconsistent pairs; each opens on Pairs, with both orders' decisions.")
    _table(shown, column_config=PAIR_LINK)
    export.rows(shown.drop(columns=["Open"]), "swap_inconsistent", {"dataset": dataset})


def self_preference_section(decisions: pd.DataFrame, dataset: str) -> None:
    """Each judge's rate of picking its own family's translation against another judge's."""
    st.header("Self-preference")
    _, families = results.ranking_probe_frames()
    if dataset != ALL_DATASETS:
        decisions = decisions[decisions["dataset"] == dataset]
    result = probes.self_preference(decisions, families)
    if not result["rows"]:
        st.caption("No system families are known here (a column `tgt_families` naming the family "
                   "of each translation's system, a judge's family being its model name), or no "
                   "pair has exactly one translation of a judge's family.")
        return
    left = result["pairs_without_families"]
    st.caption(f"{_sentence(result['method'])}." + (f" {left:,} pairs without two readable families in "
                                         "tgt_families are left out." if left else ""))
    _table(pd.DataFrame([{
        "Method": r["method"], "Judge (family)": f"{r['judge']} ({r['family']})",
        "Other judge": r["other_judge"], "Pairs": r["n"],
        "Judge picks own family": f"{r['judge_rate']:.3f}",
        "Other judge picks it": f"{r['other_rate']:.3f}",
        "Difference [95% Newcombe CI]": f"{r['difference']:+.3f} {_ci(*r['ci'])}",
        "Discordant (judge only / other only)": f"{r['only_judge']} / {r['only_other']}",
        "Exact McNemar p": "n/a" if r["p"] is None else f"{r['p']:.4f}"}
        for r in result["rows"]]))


def pair_swapped(file: str, row: int) -> None:
    """The decisions a pair got with its translations shown in the other order, if any."""
    swapped, _ = results.ranking_probe_frames()
    mine = swapped[(swapped["file"] == file) & (swapped["row"] == row)]
    if mine.empty:
        return
    st.header("Judged in the other order")
    st.caption("Translation 2 was shown first; the decision is given in this pair's positions.")
    for col, (_, d) in zip(st.columns(len(mine)), mine.iterrows()):
        with col.container(border=True):
            back = probes.mapped_back(None if pd.isna(d["swapped"]) else int(d["swapped"]))
            st.markdown(f"**{md_literal(d['method'])} · {md_literal(d['model'])}** (swapped) → "
                        f"**{decision_label(back)}**")
            render.text_block(d["text"], "en", empty="(no decision text)")
