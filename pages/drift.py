"""Drift: how the judge moved between the earlier run and this one on anchors (byte-identical
texts), and how much of the change is the judge's and how much the systems'."""

import streamlit as st

from judgescope.audit import drift, drift_charts, drift_read, drift_report, drift_split
from judgescope.text import md_literal
from judgescope.web import context, drift_view, export, render, urls

context.title("Drift between judge runs")
c = st.columns(3)
resamples = urls.url_number(c[0], "Resamples", step=1000, key="resamples")
seed = urls.url_number(c[1], "Seed", key="seed")
threshold = urls.url_number(c[2], "Verdict threshold (fail below; 0 = none)", key="threshold") or None
result, ba_points = drift_view.measured(resamples, seed, threshold)
counts, judge = result["counts"], result["judge_shift"]["overall"]

st.markdown("**Judge:** " + md_literal(result["fingerprint"]["difference"]["sentence"], limit=600))
st.markdown(f"**{counts['anchors']:,}** anchors of **{counts['paired_units']:,}** units scored in both "
            f"runs; **{counts['changed']:,}** have a changed text (a changed system)."
            + (f" **{counts['unstable_within_a_run']:,}** units scored more than once in a run gave "
               "different scores there and are left out." if counts["unstable_within_a_run"] else ""))
st.caption(f"{drift_view.sentence(counts['pairing'])}. {drift_view.sentence(counts['definition'])}. "
           "Differences are new − old.")
for run, line, listed in drift_view.not_paired(result):
    st.warning(md_literal(drift_view.sentence(line), limit=600) + ".")
    with st.expander(f"Listed: the first {drift_read.UNPAIRED_LISTED} of each kind"):
        render.table(listed, placeholder="n/a", key=f"not_paired_{run}")
if judge["too_few_to_decide"]:
    st.warning(f"Too few anchors to decide (fewer than {drift.MIN_ANCHORS}): the numbers below "
               "are shown, not judged. Without anchors a change mixes the judge's and the systems'.")
for alarm in result["alarms"]:
    st.error("**Opposite changes:** " + md_literal(alarm, limit=400))

settings = {"resamples": resamples, "seed": seed, "threshold": threshold}
st.header("Judge change vs system change")
split = drift_view.split_frame(result["judge_vs_system"]["overall"], result["judge_vs_system"]["by_language"])
render.table(split, placeholder="n/a", column_config=drift_view.NUMBER_FORMAT)
export.rows(split, "drift_judge_vs_system", settings)
st.caption(f"{drift_split.DEFINITION}. {drift_split.ALARM_RULE}. {resamples:,} resamples, seed {seed}.")

st.header("The judge's shift on anchors")
st.plotly_chart(drift_charts.shift_chart(result["judge_shift"]["by_language"]), key="drift_shift")
for name, rows in (("Overall", [judge]), ("Per language", result["judge_shift"]["by_language"]),
                   ("Per unit", result["judge_shift"]["by_unit"])):
    st.subheader(name)
    render.table(drift_view.shift_frame(rows), placeholder="n/a", key=f"shift_{name}",
                 column_config=drift_view.NUMBER_FORMAT)
st.caption("The download holds the shift per language × unit.")
export.rows(drift_view.shift_frame(result["judge_shift"]["by_language_unit"]), "drift_judge_shift", settings)
st.caption(f"{drift_view.sentence(drift.SHIFT_METHOD)}, {resamples:,} resamples, seed {seed}. "
           f"{drift_view.sentence(drift.SIGN_METHOD)}. "
           "Wilcoxon signed-rank: two-sided, unmoved anchors dropped.")
if note := drift_view.binned_note(result):
    st.caption(note)

st.header("Bland–Altman")
ba = result["bland_altman"]
st.plotly_chart(drift_charts.bland_altman_chart(ba_points, ba), key="drift_bland_altman")
st.caption(drift.BA_METHOD + ".")

st.header("Verdicts")
verdicts = result["verdicts"]
if verdicts["result"] is None:
    st.info(f"No verdicts: {verdicts['rule']}. Set a verdict threshold above to see flips, "
            "McNemar and κ.")
else:
    st.markdown(md_literal(drift_report.verdict_line(result), limit=800))
    st.caption(verdicts["result"]["kappa_method"] + ".")

st.header("Anchors that moved most")
moved = drift_view.moved_frame(result["moved_most"])
if moved.empty:
    st.info("No anchor changed its score.")
else:
    st.caption("Old and new scores side by side; select a row to open the new run's record on Review.")
    urls.record_table(moved, "drift_moved", id_col="new_record_id")
    export.rows(moved, "drift_moved_most", settings)
st.caption("`judgescope drift OLD NEW --json F` prints and writes the same.")
