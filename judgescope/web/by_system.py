"""The Languages page's "By system" section: the judge's mean score per language × system."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.audit import systems
from judgescope.schema import language_name
from judgescope import navigation
from judgescope.web import context, export, render, results


@st.cache_data(max_entries=16, show_spinner="Bootstrapping each system…")
def _by_system(counts: pd.DataFrame) -> dict:
    return systems.by_system(counts)


def section() -> None:
    """Shown only for an audit with a `system` column."""
    if "system" in context.missing_columns("audit"):
        return
    st.header("By system")
    result = _by_system(results.audit_counts("system"))
    dist = navigation.href(navigation.page("distributions"), collection=context.collection_name(),
                           facet="system")
    method = result["method"][:1].upper() + result["method"][1:]
    st.caption(f"{method}; {result['resamples']:,} resamples, seed {result['seed']}. "
               f"Overall mean {result['overall_mean']:.2f}. Each system's histogram: "
               f"[Distributions split by system]({dist}); each row opens Review on its language and "
               f"system. {result['human_agreement'].capitalize()}.")
    review = navigation.page("review")
    frame = pd.DataFrame([{
        "Review": navigation.href(review, collection=context.collection_name(),
                                  lang=r["target_language"], system=r["system"]),
        "Language": language_name(r["target_language"]), "System": r["system"], "n": r["n"],
        "Mean": r["mean"], "95% CI low": r["ci"][0], "95% CI high": r["ci"][1],
        "Interval": r["interval"]} for r in result["by_language"]])
    st.dataframe(frame, hide_index=True, width="stretch", column_config={
        "Review": st.column_config.LinkColumn("Review", display_text="open rows"),
        **{c: st.column_config.NumberColumn(format="%.2f") for c in ("Mean", "95% CI low", "95% CI high")}})
    export.rows(frame.drop(columns=["Review"]), "by_system", {})


def reviews_section(latest: pd.DataFrame) -> None:
    """The judge against its reviewers per system (Reviews page), for an audit with systems."""
    from judgescope.reviews import verdict_stats as reviews_stats

    if "system" in context.missing_columns("audit") or latest.empty:
        return
    ids = sorted(latest.judge_record_id.astype(str).unique())
    frame = reviews_stats.judge_share_by_system(latest, context.run("audit_record_systems", ids=ids))
    st.caption(f"Per system: {systems.REVIEWED_METHOD}.")
    render.table(frame, placeholder="n/a", column_config=render.SHARE_COLUMNS)
