"""Human verification: model evaluations beside the vendors' annotations, filtered by subset and system."""

import streamlit as st

from judgescope import format as fmt
from judgescope.text import md_literal
from judgescope.web import context, export, render
from judgescope.web import urls
from judgescope.ranking import tables as rt

context.title("Human verification")
facets = context.run("rank_verification_facets")
subsets = sorted(facets["subset"].dropna().unique())
systems = sorted(facets["system"].dropna().unique())
c = st.columns(2)
chosen_subsets = c[0].multiselect("Subset", subsets, key=urls.bound("subset", subsets), bind="query-params")
chosen_systems = c[1].multiselect("System", systems, key=urls.bound("system", systems), bind="query-params")
rows = context.run("rank_verification", subsets=chosen_subsets, systems=chosen_systems)
st.caption(f"{len(rows):,} evaluations. Annotation structures differ by vendor; they are shown "
           "as key/value pairs (nested keys joined with dots).")

with st.expander("Annotation values across these rows"):
    render.table(rt.annotation_counts(rows["annotations"]), width="stretch")
picked = render.table(rows.drop(columns=["annotations"]), width="stretch", on_select="rerun",
                      selection_mode="single-row", key="verification_table",
                      column_config={"File": None, "Row": None})
export.rows(rows, "human_verification", {"subset": chosen_subsets, "system": chosen_systems})
if rows.empty:
    context.stop()
chosen = picked.selection.rows[0] if picked and picked.selection.rows else 0
st.caption("Select a row to read its evaluation and annotations in full"
           + ("; showing the first row." if not (picked and picked.selection.rows) else "."))
r = rows.iloc[chosen]
st.header(f"{md_literal(r['subset'] or 'no subset')} · idx {fmt.count(r['idx'])} · "
             f"system {md_literal(r['system'] or 'n/a')}")
left, right = st.columns(2)
with left:
    st.markdown("**Source**")
    render.text_block(r["source"])
    st.markdown("**Translation**")
    render.text_block(r["translation"])
with right:
    st.markdown("**Model evaluation**")
    render.text_block(r["evaluation"])
    st.markdown("**Vendor annotations**")
    render.table(rt.annotation_frame(r["annotations"]), width="stretch")
