"""Bulk judgements: verdicts per judge, judge–judge agreement and provenance, over the whole
judgements table (not only the calibration rows), optionally held out from calibration."""

import streamlit as st

from judgescope.calibration import bulk
from judgescope.web import context, export, render
from judgescope.web import calibration_qa as qa_view
from judgescope.web import urls

QUERIES = {False: {"counts": "calib_verdict_counts", "pairs": "calib_judge_pairs",
                   "provenance": "calib_provenance"},
           True: {"counts": "calib_verdict_counts_heldout", "pairs": "calib_judge_pairs_heldout",
                  "provenance": "calib_provenance_heldout"}}  # keyed by "held out"

context.title("Bulk judgements")
has_items = "items" in context.roles()
heldout = st.toggle("Held out: exclude every question seen in calibration", key=urls.bound("heldout"),
                    bind="query-params", disabled=not has_items,
                    help="Drops judgements whose question_id appears among the calibration "
                    "items (not only the same attempt keys), and judgements without a question_id.")
if has_items:
    s = context.run("calib_heldout_summary").iloc[0]
    st.caption(f"{s['judgements']:,} judgements: {s['on_calibration_questions']:,} on "
               f"calibration questions, {s['without_question_id']:,} without a question_id, "
               f"{s['held_out']:,} held out.")
else:
    st.caption("This collection has no calibration items, so there is nothing to hold out from.")
held = bool(heldout and has_items)

counts = context.run(QUERIES[held]["counts"])
if counts.empty:
    st.info("No judgements remain: the held-out view keeps only judgements on questions that "
            "never appear among the calibration items.")
    context.stop()
st.header("Verdicts per judge")
render.table(bulk.verdict_distribution(counts), width="stretch")

if has_items:
    qa_view.corrected_section()

st.header("Judge–judge agreement")
st.caption("Pairs of judges on the same key, three-way verdicts; binary agreement treats "
           "no_match and no_answer alike. κ CI: " + bulk.ci_method())
st.dataframe(bulk.pair_agreement(context.run(QUERIES[held]["pairs"])), hide_index=True)

st.header("Provenance")
st.caption("One row per judge and distinct recorded settings. A missing value is shown as "
           "“not recorded”, never as a value.")
prov = bulk.provenance_table(context.run(QUERIES[held]["provenance"]))
render.table(prov, width="stretch")
absent = sorted(context.missing_columns("judgements") & set(bulk.PROVENANCE_COLUMNS))
if absent:
    st.caption("Columns absent from this dataset (never recorded): " + ", ".join(absent))
export.rows(prov, "judge_provenance", {"heldout": held})
