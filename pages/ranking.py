"""Ranking accuracy: model decisions against human preferences, per dataset × method × model."""

import streamlit as st

from judgescope import frames
from judgescope.ranking import decisions as ranking
from judgescope.ranking import charts as ranking_charts
from judgescope import navigation
from judgescope.web import significance_panels as significance_view
from judgescope.web import how
from judgescope.text import md_literal
from judgescope.web import context, export, render, results
from judgescope.web import urls
from judgescope.ranking import tables as rt

context.title("Ranking accuracy")
pairs, decisions = results.ranking_decisions("the ranking accuracy grid")

rows = results.ranking_results(with_total=True)
st.caption(f"Accuracy = correct ÷ n, n = pairs without a human tie (ties are excluded and counted). "
           f"Model ties and unparsed decisions count as wrong. CI: {ranking.CI_METHOD} (closed form: "
           "no resampling, no seed). Baselines on the same rows: a fair coin (0.5) and always "
           "choosing Translation 1. Hover a cell for its CI and counts; click it to list its pairs.")
datasets = list(dict.fromkeys(r["dataset"] for r in rows))
columns = list(dict.fromkeys(f"{r['method']}/{r['model']}" for r in rows))
# The chart keeps its selection per key: each click is read before the chart is drawn, moves the
# boxes, and the chart is drawn afresh under a new key, so every click is new (the same cell clicked
# again after the boxes moved included), never applied twice, and none waits on what the boxes show.
grid_key = f"grid_{st.session_state.get('_grid_clicks', 0)}"
clicked = (st.session_state.get(grid_key) or {}).get("selection") or {}
if clicked.get("points"):
    picked = tuple(clicked["points"][0].get("customdata") or ("", ""))  # (dataset, method/model)
    if picked[0] in datasets and picked[1] in columns:
        st.session_state["dataset"], st.session_state["decision"] = picked
    st.session_state["_grid_clicks"] = st.session_state.get("_grid_clicks", 0) + 1
    grid_key = f"grid_{st.session_state['_grid_clicks']}"
st.plotly_chart(ranking_charts.accuracy_grid(rows), on_select="rerun", selection_mode="points",
                key=grid_key, width="stretch")
how.number("ranking_accuracy")
same = ranking.identical_sentence(ranking.identical_methods(decisions), context.dataset_for("ranking").spec.synthetic)
if same:
    st.info(md_literal(same, limit=1_000, isolate=False))

with st.expander("All results as a table (with baselines), each row a link to its pairs"):
    frame = rt.accuracy_frame(rows)
    here = navigation.page("ranking")
    render.table(frame.assign(open=[navigation.href(here, collection=context.collection_name(), dataset=r.dataset,
                                                    decision=f"{r.method}/{r.model}") for r in frame.itertuples()]),
             width="stretch", column_config={"Open": st.column_config.LinkColumn("Open", display_text="pairs")})
    export.rows(frame, "ranking_accuracy", {})

c = st.columns(2)
ds = c[0].selectbox("Dataset", datasets, key=urls.bound("dataset", datasets), bind="query-params")
col = c[1].selectbox("Method / model", columns, key=urls.bound("decision", columns), bind="query-params")
cell = rt.cell_rows(decisions, pairs, ds, col, context.collection_name())
counts = cell["outcome"].value_counts()
st.header(f"{md_literal(col)} on {md_literal(ds)}")
st.caption(rt.cell_summary(rows, ds, col))
st.markdown(" · ".join(f"**{k}** {v:,}" for k, v in counts.items()))
outcomes = st.multiselect("Outcome", sorted(counts.index), key=urls.bound("outcome", list(counts.index)),
                          bind="query-params")
shown = frames.keep(cell, outcome=outcomes)
render.table(shown, width="stretch", column_config={
    "Open": st.column_config.LinkColumn("Open", display_text="detail", width="small"),
    "Decision text": st.column_config.TextColumn("Decision text", width="large"), "File": None})
export.rows(shown, "ranking_cell", {"dataset": ds, "decision": col, "outcome": outcomes})
with st.expander("How decisions are parsed"):
    st.markdown(ranking.DECISION_RULE)

significance_view.methods_section(decisions, ds)
