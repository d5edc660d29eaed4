"""Judges vs humans: each judge and the panel against the human 2-of-3 majority, with gates."""

import streamlit as st

from judgescope.web import calibration_panels as view
from judgescope.web import calibration_qa as qa_view
from judgescope.calibration import panel as cal
from judgescope.calibration import calibration_findings
from judgescope.web import significance_panels as significance_view
from judgescope.web import cards, how
from judgescope.text import md_literal
from judgescope.web import context, export

context.title("Judges vs humans")
st.caption("Each judge's binary verdict and the panel's majority of those verdicts, against the "
           "human binary majority. Scott's π uses pooled marginals; a gate passes only when the "
           "exact π reaches it.")
c = st.columns([2, 1, 1])
with c[0]:
    splits = view.split_filter()
judge_gate, panel_gate = view.gate_inputs(c[1], c[2])
frame, rep = view.load(splits, judge_gate, panel_gate)
stale = qa_view.stale_by_rater(rep)  # "calibrated on X; this run was judged by Y", per badge

st.caption(cal.definitions_sentence(rep))  # fixed wording and counts, no data text
how.number("judge_pi")
panel = rep["panel"]
if panel:
    verdict, colour, sentence = calibration_findings.gate_badge(panel)
    with st.container(border=True):
        st.markdown(f"**Panel** (strict majority of the judges) {cards.badge_md(verdict, colour)}")
        st.markdown(md_literal(sentence, limit=500))
        if "panel" in stale:
            st.markdown(cards.STALE_BADGE + md_literal(stale["panel"], limit=600))
        m = st.columns(3)
        m[0].metric("Panel agrees with humans", f"{panel['tp'] + panel['tn']} / {panel['n']}")
        m[1].metric("Panel Scott's π (exact)", panel["scotts_pi_fraction"] or "n/a",
                    help="Exact value: " + panel["scotts_pi_shown"])
        m[2].metric("π 95% CI", cal.fmt_ci(panel["ci"], panel["ci_undefined"]))
        m[2].caption(f"by {panel['ci_name']}")
else:
    st.info("No panel: the panel is the strict majority of an odd number of judges.")
for name, r in rep["judges"].items():
    verdict, colour, sentence = calibration_findings.gate_badge(r)
    st.markdown(f"{cards.badge_md(verdict, colour)}**{md_literal(name)}** · "
                + md_literal(sentence, limit=500))
    if name in stale:
        st.markdown(cards.STALE_BADGE + md_literal(stale[name], limit=600))

st.header("Per judge and panel")
per_judge = cal.summary_table(rep)
view.table(per_judge)
export.rows(per_judge, "judges_vs_humans", {"splits": splits, "judge_gate": judge_gate,
                                                    "panel_gate": panel_gate})
view.ci_caption(rep)
qa_view.budget_section(rep)
qa_view.bias_section(rep)
qa_view.ceiling_section(rep)
qa_view.length_section(rep)

st.header("Confusion matrices")
st.caption("Rows: human majority. Columns: the judge (or panel). Click a count to list its items.")
raters = cal.rater_reports(rep)
for start in range(0, len(raters), 2):
    for col, (rater, name, r) in zip(st.columns(2), raters[start:start + 2]):
        with col.container(border=True):
            view.binary_matrix(rater, name, r, splits)

st.header("Three-way verdicts")
st.caption("Rows: the verdict at least two humans gave. Columns: the judge's verdict (panel: the "
           "verdict a strict majority of the judges gave). Click a count to list its items.")
for tab, (rater, name, _) in zip(st.tabs([md_literal(n) for _, n, _ in raters]), raters):
    with tab:
        view.three_way_matrix(frame, rater, name, splits)

significance_view.judges_section(frame)
