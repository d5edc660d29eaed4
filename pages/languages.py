"""Languages: language × unit means (heatmap around a reference), lower tails, worst rows."""

import streamlit as st

from judgescope import audit, charts, ui
from judgescope.schema import language_name

ui.title("Languages × units")

counts = audit.score_counts(ui.run)
overall = audit.describe_counts(counts["score"], counts["n"])["mean"]
c = st.columns(3)
reference = ui.url_number(c[0], "Colour centre (reference mean)", 0.0, 100.0, round(overall, 1),
                          step=0.5, key="ref")
threshold = ui.url_number(c[1], "Tail threshold (share below)", 0, 100,
                          audit.DEFAULT_THRESHOLDS[0], key="below", integer=True)
k = ui.url_number(c[2], "Worst rows per cell", 1, 50, 3, key="k", integer=True)

tails = audit.tails_table(counts, threshold)
note = audit.spread_note(tails)
if note:
    st.warning(note + " Click a cell (or a table row) to review its rows.")

st.caption(f"Orange is below {reference:g}, purple above; the overall mean is {overall:.3f}. "
           "Clicking a cell opens Review filtered to that language and unit.")
event = st.plotly_chart(charts.mean_heatmap(audit.mean_matrix(counts), reference),
                        key="heatmap", on_select="rerun", selection_mode="points")


def open_review(lang: str, unit: str) -> None:
    st.switch_page("pages/review.py", query_params={
        "collection": ui.collection_name(), "lang": lang, "unit": unit})


points = event.selection.points if event and event.selection else []
if points:
    open_review(*points[0]["customdata"])

st.subheader("Lower tail per language and unit")
st.caption(f"P5 and P10 are linear-interpolated percentiles (numpy's default); the share below "
           f"{threshold} has a 95% Wilson score CI. Sort by any column header; select a row to "
           "review it.")
shown = tails.assign(target_language=tails["target_language"].map(language_name))
picked = ui.table(shown, key="tails", on_select="rerun", selection_mode="single-row",
                  placeholder="n/a", column_config={
                      "Share below": st.column_config.NumberColumn(format="percent"),
                      "Share low": st.column_config.NumberColumn(format="percent"),
                      "Share high": st.column_config.NumberColumn(format="percent"),
                      "Mean": st.column_config.NumberColumn(format="%.2f")})
if picked and picked.selection.rows:
    row = tails.iloc[picked.selection.rows[0]]
    open_review(row["target_language"], row["unit"])
ui.export_buttons(tails, "language_tails", {"threshold": threshold})

with st.expander(f"The {k} lowest-scoring rows of every language × unit"):
    worst = ui.run("audit_worst_rows", k=int(k), max_score=audit.worst_cutoff(counts, int(k)))
    ui.table(worst, placeholder="n/a")
    ui.export_buttons(worst, "worst_rows", {"k": int(k)})
