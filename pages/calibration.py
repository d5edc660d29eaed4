"""Judges vs humans: each judge and the panel against the human 2-of-3 majority, with gates."""

import streamlit as st

from judgescope import calib_view as view
from judgescope import calibration as cal
from judgescope import ui

st.title("Judges vs humans")
st.caption("Each judge's binary verdict and the panel's majority of those verdicts, against the "
           "human binary majority. Scott's π uses pooled marginals; a gate passes only when the "
           "exact π reaches it.")
c = st.columns([2, 1, 1])
with c[0]:
    splits = view.split_filter()
judge_gate, panel_gate = view.gate_inputs(c[1], c[2])
frame, rep = view.load(splits, judge_gate, panel_gate)

st.caption(cal.definitions_sentence(rep))  # fixed wording and counts, no data text
panel = rep["panel"]
if panel:
    m = st.columns(4)
    m[0].metric("Panel agrees with humans", f"{panel['tp'] + panel['tn']} / {panel['n']}")
    m[1].metric("Panel Scott's π", panel["scotts_pi_shown"].split(" = ")[-1],
                help="Exact value: " + panel["scotts_pi_shown"])
    m[1].caption(f"exact {panel['scotts_pi_fraction']}")
    m[2].metric(f"Panel gate π ≥ {panel['gate']:g}", panel["verdict"])
    m[3].metric("π 95% CI", cal.fmt_ci(panel["ci"]))
    if panel["inconclusive"]:
        m[2].caption("INCONCLUSIVE: the CI straddles the gate")
else:
    st.info("No panel: the panel is the strict majority of an odd number of judges.")

st.subheader("Per judge and panel")
view.table(cal.summary_table(rep))
view.ci_caption(rep)

st.subheader("Confusion matrices")
st.caption("Rows: human majority. Columns: the judge (or panel). Click a count to list its items.")
raters = cal.rater_reports(rep)
for start in range(0, len(raters), 2):
    for col, (rater, name, r) in zip(st.columns(2), raters[start:start + 2]):
        with col.container(border=True):
            view.binary_matrix(rater, name, r, splits)

st.subheader("Three-way verdicts")
st.caption("Rows: the verdict at least two humans gave. Columns: the judge's verdict (panel: the "
           "verdict a strict majority of the judges gave). Click a count to list its items.")
for tab, (rater, name, _) in zip(st.tabs([ui.md_literal(n) for _, n, _ in raters]), raters):
    with tab:
        view.three_way_matrix(frame, rater, name, splits)
