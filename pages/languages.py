"""Languages: language × unit means (heatmap), lower tails, worst rows; every cell and row opens
Review filtered to that language and unit."""

import streamlit as st

from judgescope.audit import summary as audit
from judgescope.audit import score_charts
from judgescope import navigation
from judgescope.web import phone
from judgescope.web import by_system
from judgescope.web import how
from judgescope.text import md_literal
from judgescope.web import context, export, render, results
from judgescope.web import urls
from judgescope.schema import label, language_name

context.title("Languages × units")

c = st.columns([1.2, 1, 1, 1])
threshold = urls.url_number(c[2], "Tail threshold (share below)", key="below")
counts = results.audit_counts(thresholds=(threshold,))
overall = audit.overall_mean(counts)
scales = ["centred", "absolute"]
scale = c[0].radio("Colour scale", scales, key=urls.bound("scale", scales), bind="query-params", horizontal=True,
                   help="Centred: orange below the reference mean, purple above. Absolute: the "
                        "whole 0–100 range, so a 5-point spread looks like 5 points.")
reference = urls.url_number(c[1], "Colour centre (reference mean)", default=round(overall, 1),
                            step=0.5, key="ref", disabled=scale == "absolute")
k = urls.url_number(c[3], "Worst rows per cell", key="k")

tails = audit.tails_table(counts, threshold)
note = audit.spread_note(tails)
if note:
    st.warning(md_literal(note, limit=400))

with st.container(key="heatmap_note"):  # a phone shows the table below instead: nothing to hover
    st.caption(f"The overall mean is {overall:.2f}. Orange is worse on either scale. Hover a cell "
               "for n and its 95% CI; click it to open Review filtered to that language and unit.")
cells = results.cell_bootstrap(counts)
event = st.plotly_chart(score_charts.mean_heatmap(audit.mean_matrix(counts), reference, detail=cells,
                                            absolute=scale == "absolute"),
                        key="heatmap", on_select="rerun", selection_mode="points")
# On a phone the grid would overprint its values: the same cells as a table, lowest mean first.
review = navigation.page("review")
phone.swap("heatmap", "heatmap_table")
phone.swap("heatmap_note", "heatmap_table_note")
with st.container(key="heatmap_table_note"):
    st.caption(f"The overall mean is {overall:.2f}. Each language × unit, lowest mean first, with its n "
               "and 95% CI; each row's link opens Review filtered to that language and unit.")
with st.container(key="heatmap_table"):
    render.table(phone.sorted_cells(cells, lambda lang, unit: navigation.href(
        review, collection=context.collection_name(), lang=lang, unit=unit)), placeholder="n/a",
        column_config={"Review": st.column_config.LinkColumn("Review", display_text="open rows"),
                       "Mean": st.column_config.NumberColumn(format="%.2f"),
                      "P5": st.column_config.NumberColumn(format="%.2f"),
                      "P10": st.column_config.NumberColumn(format="%.2f"),
                       "Low": st.column_config.NumberColumn("95% CI low", format="%.2f"),
                       "High": st.column_config.NumberColumn("95% CI high", format="%.2f")})
how.number("language_cell")
points = event.selection.points if event and event.selection else []
if points:
    lang, unit = points[0]["customdata"][:2]
    urls.open_page("review", lang=lang, unit=unit)

st.header("Lower tail per language and unit")
how.number("share_below")
st.caption(f"Every heatmap cell is a row here, with its n and the mean's 95% CI (the hover's). "
           f"P5 and P10 are linear-interpolated percentiles (numpy's default); the share below "
           f"{threshold} has a 95% Wilson score CI. Sort by any column header; each row's "
           "Review link opens its rows (or select the row).")
mean_ci = cells[["target_language", "unit", "low", "high"]].rename(
    columns={"low": "mean_ci_low", "high": "mean_ci_high"})
shown = tails.merge(mean_ci, on=["target_language", "unit"], how="left").assign(
    review=[navigation.href(review, collection=context.collection_name(), lang=r.target_language, unit=r.unit)
            for r in tails.itertuples()],
    target_language=lambda f: f["target_language"].map(language_name))
picked = render.table(shown, key="tails", on_select="rerun", selection_mode="single-row",
                      placeholder="n/a", column_config={
                      "Review": st.column_config.LinkColumn("Review", display_text="open rows"),
                      "Share below": st.column_config.NumberColumn(format="percent"),
                      label("share_low"): st.column_config.NumberColumn(format="percent"),
                      label("share_high"): st.column_config.NumberColumn(format="percent"),
                      "Mean": st.column_config.NumberColumn(format="%.2f"),
                      "P5": st.column_config.NumberColumn(format="%.2f"),
                      "P10": st.column_config.NumberColumn(format="%.2f"),
                      "Mean ci low": st.column_config.NumberColumn("Mean 95% CI low", format="%.2f"),
                      "Mean ci high": st.column_config.NumberColumn("Mean 95% CI high", format="%.2f")})
if picked and picked.selection.rows:
    row = tails.iloc[picked.selection.rows[0]]
    urls.open_page("review", lang=row["target_language"], unit=row["unit"])
export.rows(tails, "language_tails", {"threshold": threshold})

by_system.section()

with st.expander(f"The {k} lowest-scoring rows of every language × unit"):
    worst = context.run("audit_worst_rows", k=int(k), max_score=audit.worst_cutoff(counts, int(k)))
    urls.record_table(worst, "worst_rows", shown=worst.assign(target_language=worst.target_language.map(language_name)))
    export.rows(worst, "worst_rows", {"k": int(k)})
