"""Human agreement: the three human verdicts, their 2-of-3 majority, ties and agreement."""

import streamlit as st

from judgescope.web import calibration_panels as view
from judgescope.web import calibration_qa as qa_view
from judgescope.calibration import panel as cal
from judgescope.calibration import qa_tables
from judgescope.web import how
from judgescope.text import md_literal
from judgescope.web import context, export, render

context.title("Human agreement")
st.caption("Three humans per answer: match / no_match / no_answer. The comparison target is the "
           "binary 2-of-3 majority (match = 1, anything else = 0); a three-way tie still has one "
           "(it is 0). Agreement statistics use the three-way verdicts.")
c = st.columns(3)
with c[0]:
    splits = view.split_filter()
frame, rep = view.load(splits)
humans = rep["humans"]

m = st.columns(3)
m[0].metric("Fleiss' κ", cal.fmt(humans["fleiss_kappa"]))
m[0].caption(f"95% CI {cal.fmt_ci(humans['fleiss_kappa_ci'], humans['fleiss_kappa_ci_undefined'])}")
m[1].metric("Krippendorff's α (nominal)", cal.fmt(humans["krippendorff_alpha"]))
m[1].caption(f"95% CI {cal.fmt_ci(humans['krippendorff_alpha_ci'], humans['krippendorff_alpha_ci_undefined'])}")
m[2].metric("Three-way ties", len(humans["three_way_ties"]))
how.number("human_agreement")
view.ci_caption(rep, gates=False)

st.header("Pairwise Cohen's κ")
pairwise = cal.pairwise_table(rep)
view.table(pairwise)
export.rows(pairwise, "human_pairwise_kappa", {"splits": splits})
st.caption(qa_tables.MULTI_CATEGORY_NOTE)
qa_view.ceiling_section(rep, judges=False)

st.header("Binary majority")
render.table(cal.vote_counts(frame))
if humans["recorded_majority_mismatches"]:
    st.warning("The recorded human_correct differs from the recomputed 2-of-3 majority for: "
               + md_literal(", ".join(humans["recorded_majority_mismatches"]), limit=2_000))

st.header("Three-way ties")
ties = cal.tie_items(frame)
if ties.empty:
    st.caption("No item has three different human verdicts.")
else:
    render.table(ties, width="stretch")
