"""Excluded rows: every row that could not be used, with its file, row and reason."""

import streamlit as st

from judgescope import frames
from judgescope.web import how
from judgescope.text import md_literal
from judgescope.web import context, export, render
from judgescope.web import urls

context.title("Excluded rows")
st.caption("Rows that stay out of every statistic, counted by reason. Loaded = used + excluded "
           "for every dataset; nothing is dropped silently.")
summary = context.run("ledger_summary")
unused = context.catalog().notices(context.collection_name())
for notice in unused:
    st.error(md_literal(notice, limit=1_000))
if summary.empty:
    if unused:
        st.info("No row of the datasets that loaded was excluded; the datasets named above are "
                "not used at all.")
    else:
        st.success("Every row of every dataset in this collection is usable.")
    context.stop()

datasets = sorted(summary["dataset"].unique())
reasons = sorted(summary["reason"].unique())
c = st.columns(2)
chosen_ds = c[0].multiselect("Dataset", datasets, key=urls.bound("dataset", datasets), bind="query-params")
chosen_rs = c[1].multiselect("Reason", reasons, key=urls.bound("reason", reasons), bind="query-params")
render.table(frames.keep(summary, dataset=chosen_ds, reason=chosen_rs))
how.number("excluded_rows")

params = {"datasets": chosen_ds, "reasons": chosen_rs}
total = int(context.run("ledger_count", **params)["rows"].iloc[0])
limit = 5_000
rows = context.run("ledger_rows", limit=limit, **params)
st.markdown(f"**{total:,}** excluded rows match" + (f"; the first {limit:,} are listed." if total > limit else "."))
render.table(rows, use_container_width=True)
export.rows(rows, "excluded_rows", params, limit=limit, available=total)
