"""Distributions: per unit (split by any facet the audit has) histogram, ECDF and summary table."""

import streamlit as st

from judgescope.audit import summary as audit
from judgescope.audit import score_charts
from judgescope.web import how
from judgescope import navigation
from judgescope.text import md_literal
from judgescope.web import context, export, render, results
from judgescope.web import urls
from judgescope.schema import label, sort_units

context.title("Score distributions")
st.caption("Every figure is computed from the audit rows (score counts grouped in DuckDB). "
           "Filters live in the URL: copy the address to share this exact view.")

facets = audit.available_facets(context.missing_columns("audit"))
c = st.columns([2, 1, 1, 1, 1.3, 1.5])
# Column names as options, so the URL (?facet=source_split) holds what the widget shows.
facet = c[0].selectbox("Split each unit by (column)", facets, key=urls.bound("facet", facets), bind="query-params")
t1 = urls.url_number(c[1], "Below (1)", key="t1")
t2 = urls.url_number(c[2], "Below (2)", key="t2")
t3 = urls.url_number(c[3], "At least", key="t3")
resamples = urls.url_number(c[4], "Resamples", step=1000, key="resamples")
seed = urls.url_number(c[5], "Seed", key="seed")
thresholds = (t1, t2, t3)

counts = results.audit_counts(facet, thresholds)
split = facet != "none"
intervals = results.mean_intervals(facet, resamples, seed)
table = results.distribution_table(counts, thresholds, split, resamples, seed, intervals)

BAR_COLUMNS = {"Series": st.column_config.TextColumn("Bar series"),
               "Share": st.column_config.NumberColumn(format="percent"),
               "Review": st.column_config.LinkColumn("Review", display_text="open rows")}

st.header("Summary per unit")
if not split:
    st.info(md_literal(audit.headline(table, thresholds), limit=1_000))
st.caption(f"Mean with {audit.ci_label(resamples, seed, method=table.attrs.get('ci_method'))}. "
           "SD is the sample SD (ddof = 1). "
           "The overall row weighs every row equally (a row-weighted mean across units). "
           "n/a = undefined (e.g. SD of one row).")
shown = table.rename(columns={"facet": audit.FACETS[facet]}) if split else table.copy()
share_cols = [col for col in shown.columns if col.startswith("share_")]
config = {label(col): st.column_config.NumberColumn(format="percent") for col in share_cols}
config |= {label(col): st.column_config.NumberColumn(name, format="%.2f") for col, name in
           (("mean", "Mean"), ("ci_low", "95% CI low"), ("ci_high", "95% CI high"), ("median", "Median"),
            ("sd", "SD"))}
if split and facet in audit.REVIEW_FACET_PARAMS:  # each value's row opens Review filtered to it
    review = navigation.page("review")
    params = [audit.review_params_for_row(u, facet, v) for u, v in zip(table["unit"], table["facet"])]
    shown.insert(2, "review", [p and navigation.href(review, collection=context.collection_name(), **p)
                               for p in params])
    config[label("review")] = BAR_COLUMNS["Review"]
render.table(shown, column_config=config, placeholder="n/a")
how.number("unit_mean")
export.rows(table, "score_summary", {"facet": facet, "thresholds": list(thresholds),
                                            "resamples": resamples, "seed": seed})

colour = "facet" if split else "unit"
plot_counts = audit.count_rows(audit.with_facet_labels(counts))  # per score, or a float audit's bins
units = sort_units(plot_counts["unit"].unique())
log = st.toggle("Log scale for the histogram (shows the lower tail's small bars)", key=urls.bound("log"),
                bind="query-params")
st.caption("Dotted lines mark the thresholds. Click a bar to review its rows.")


def charts_for(part, key: str, unit=None) -> None:
    a, b = st.columns(2)
    event = a.plotly_chart(score_charts.histogram(part, colour, thresholds=thresholds, log=log),
                           key=f"hist_{key}", on_select="rerun", selection_mode="points")
    b.plotly_chart(score_charts.ecdf(part, colour), key=f"ecdf_{key}")
    points = event.selection.points if event and event.selection else []
    if points:
        p = points[0]
        _, lo, hi = p["customdata"]
        series = sort_units(part[colour].astype(str).unique()) if colour == "unit" else \
            sorted(part[colour].astype(str).unique())
        picked = series[p["curve_number"]] if p.get("curve_number", 0) < len(series) else None
        urls.open_page("review", **audit.review_params_for_bin(lo, hi, unit or (picked if colour == "unit" else None),
                                                            facet, picked if colour == "facet" else None))
    with a.expander("The bars as a table, each row a link to its rows in Review"):
        bars = score_charts.histogram_bins(part, colour)
        links = [navigation.href(navigation.page("review"), collection=context.collection_name(),
                                 **audit.review_params_for_bin(b.bin_start, b.bin_end,
                                                               unit or (b.series if colour == "unit" else None),
                                                               facet, b.series if colour == "facet" else None))
                 for b in bars.itertuples()]
        render.table(bars.assign(review=links), key=f"bars_{key}", column_config=BAR_COLUMNS)


if split:
    for tab, unit in zip(st.tabs([md_literal(label(u)) for u in units]), units):
        with tab:
            charts_for(plot_counts[plot_counts.unit == unit], unit, unit)
else:
    charts_for(plot_counts, "all")

missing = sorted(set(audit.FACETS) - set(facets))
if missing:
    st.caption("Facets this audit does not record, so they are not offered: "
               + ", ".join(audit.FACETS[m] for m in missing) + ".")
st.page_link(navigation.page("languages").path, label="Where are the tails? Languages × units",
             icon=":material/translate:")
