"""Position bias: how often each method/model picks Translation 1, against the humans on the same rows."""

import streamlit as st

from judgescope.ranking import decisions as ranking
from judgescope.ranking import charts as ranking_charts
from judgescope.ranking import position
from judgescope.web import context, export, ranking_probes, render, results
from judgescope.web import urls
from judgescope.ranking import tables as rt

context.title("Position bias")
pairs, decisions = results.ranking_decisions("the position-bias view")

rows = results.ranking_results(with_total=True)
datasets = list(dict.fromkeys(r["dataset"] for r in rows))
ds = st.selectbox("Dataset", datasets, index=len(datasets) - 1, key=urls.bound("dataset", datasets),
                  bind="query-params")
chosen = [r for r in rows if r["dataset"] == ds]
st.caption("Rows: pairs without a human tie on which the model picked one translation (model "
           "ties and unparsed decisions left out). On exactly those rows, the share of picks for "
           "Translation 1 is set beside the share of humans preferring it; a model without position "
           f"bias sits on the humans' marker. CIs: {ranking.CI_METHOD} (closed form: no resampling, "
           "no seed).")
st.plotly_chart(ranking_charts.first_choice_chart(chosen), width="stretch")

st.header("Picks and accuracy by position of the better translation")
st.caption("Accuracy when the human-preferred translation was shown first (Translation 1) versus "
           "second (Translation 2), over pairs without a human tie; model ties and unparsed "
           f"decisions count as wrong. Each cell: rate [{ranking.CI_METHOD} CI] (k/n).")
frame = rt.bias_frame(chosen)
render.table(frame, width="stretch")
export.rows(frame, "position_bias", {"dataset": ds})

st.header("By the humans' score gap")
by_gap = position.for_dataset(decisions, pairs, ds)
st.caption(f"{position.METHOD}. Cut points: {', '.join(f'{c:g}' for c in by_gap['cuts']) or 'n/a'}."
           " A bias that grows as the gap shrinks is a position preference, not a quality one.")
render.table(position.table(by_gap), width="stretch")

ranking_probes.swap_section(decisions, ds)
ranking_probes.self_preference_section(decisions, ds)
