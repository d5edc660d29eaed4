"""Streamlit sections that put the paired tests on the pages that already hold the data:
Judges vs humans (judge × judge McNemar), Compare versions (sign-flip and Wilcoxon on the
paired overlap), Ranking accuracy (method/model pairs and significance clusters)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.significance import paired as sig
from judgescope.significance import matrices
from judgescope.text import md_literal
from judgescope.web import export, render
from judgescope.web import urls

RESAMPLES_HELP = "Resamples of the paired bootstrap / permutation test (seeded)."


@st.cache_data(max_entries=16, show_spinner="Testing judge pairs…")
def _judge_pairs(frame: pd.DataFrame, resamples: int, seed: int) -> list[dict]:
    return matrices.judge_pairs(frame, resamples, seed)


@st.cache_data(max_entries=16, show_spinner="Testing method pairs…")
def _method_pairs(decisions: pd.DataFrame, dataset: str, resamples: int, seed: int) -> dict:
    return matrices.method_pairs(decisions, dataset, resamples, seed)


@st.cache_data(max_entries=16, show_spinner="Testing paired differences…")
def _version_tests(diff_counts: pd.DataFrame, resamples: int, seed: int) -> pd.DataFrame:
    return matrices.version_tests(diff_counts, resamples, seed)


def _settings() -> tuple[int, int]:
    """Resamples and seed of the paired tests, the page's URL parameters sig_resamples, sig_seed."""
    c = st.columns(2)
    resamples = urls.url_number(c[0], "Resamples", step=1000, key="sig_resamples")
    seed = urls.url_number(c[1], "Seed", key="sig_seed")
    return int(resamples), int(seed)


def _matrix(rows: list[dict], key: str, caption: str) -> None:
    if not rows:
        st.info("Fewer than two raters: no pair to test.")
        return
    st.caption(caption)
    render.table(matrices.p_matrix(rows, key).reset_index(names="").astype(str))


def judges_section(frame: pd.DataFrame) -> None:
    """Judge × judge: exact McNemar on the items both judged, Holm across the matrix."""
    st.header("Do two judges really differ?")
    resamples, seed = _settings()
    rows = _judge_pairs(frame, resamples, seed)
    st.caption(matrices.JUDGE_RULE)
    _matrix(rows, "holm_p", f"Holm-adjusted p ({matrices.holm_text(rows)}) of the "
            f"{sig.MCNEMAR}; p < {sig.ALPHA} means the two judges' agreement with the humans "
            "differs.")
    if rows:
        table = matrices.pair_table(rows)
        render.table(table, placeholder="n/a")
        st.caption(f"Agreement difference CI: {rows[0]['ci_method']}. n = items both judged.")
        export.rows(table, "judge_pairs", {"test": sig.MCNEMAR, "correction": sig.HOLM,
                                           "resamples": resamples, "seed": seed})


def versions_section(diff_counts: pd.DataFrame, resamples: int, seed: int) -> None:
    """Sign-flip permutation and Wilcoxon per unit on the paired overlap."""
    st.header("Did the scores really change on the same units?")
    tests = _version_tests(diff_counts, resamples, seed)
    st.caption(f"{matrices.VERSION_RULE} Tests: {sig.SIGN_FLIP} (exact enumeration up to "
               f"{sig.EXACT_MAX} non-zero pairs, else Monte Carlo with {resamples:,} resamples, "
               f"seed {seed}; p = (1 + hits)/(1 + resamples)) and {sig.WILCOXON}. The unpaired "
               "bootstrap above applies to the full samples; these tests apply to the pairs only.")
    if tests.empty:
        st.info("No pair: the two versions share no pairing key.")
        return
    shown = tests.copy()
    for col in ("permutation_p", "permutation_holm_p", "wilcoxon_p", "wilcoxon_holm_p"):
        shown[col] = shown[col].map(sig.fmt_p)
    render.table(shown, placeholder="n/a")
    export.rows(tests, "compare_paired_tests", {"tests": [sig.SIGN_FLIP, sig.WILCOXON],
                                                "resamples": resamples, "seed": seed})


def methods_section(decisions: pd.DataFrame, dataset: str) -> None:
    """Method/model pairs of one dataset: McNemar, permutation, Holm and clusters."""
    st.header(f"Which methods really differ on {md_literal(dataset)}?")
    resamples, seed = _settings()
    if dataset not in set(decisions["dataset"]):  # "All datasets": every dataset's pairs pooled
        decisions = decisions.assign(dataset=dataset)
    out = _method_pairs(decisions, dataset, resamples, seed)
    st.caption(matrices.METHOD_RULE)
    clusters = pd.DataFrame(out["clusters"]).rename(columns={"name": "method_model",
                                                             "score": "accuracy"})
    st.caption(matrices.CLUSTER_RULE)
    render.table(clusters, placeholder="n/a")
    _matrix(out["pairs"], "permutation_holm_p",
            f"Holm-adjusted p of the {sig.SIGN_FLIP} of the accuracy difference ({resamples:,} "
            f"resamples, seed {seed}, exact when ≤ {sig.EXACT_MAX} discordant pairs).")
    if out["pairs"]:
        table = matrices.pair_table(out["pairs"], permutation=True)
        render.table(table, placeholder="n/a")
        st.caption(f"McNemar: {sig.MCNEMAR}, Holm over the dataset's pairs. n = pairs both "
                   f"decided; CI: {out['pairs'][0]['ci_method']}.")
        export.rows(table, "method_pairs", {"dataset": dataset, "resamples": resamples,
                                            "seed": seed})
