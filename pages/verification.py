"""Human verification: model evaluations beside the vendors' annotations, filtered by subset and system."""

import streamlit as st

from judgescope.web import ui
from judgescope.web import urls
from judgescope.ranking import tables as rt

ui.title("Human verification")
facets = ui.run("rank_verification_facets")
subsets = sorted(facets["subset"].dropna().unique())
systems = sorted(facets["system"].dropna().unique())
urls.url_value_notice("subset", subsets)
urls.url_value_notice("system", systems)
c = st.columns(2)
chosen_subsets = c[0].multiselect("Subset", subsets, key="subset", bind="query-params")
chosen_systems = c[1].multiselect("System", systems, key="system", bind="query-params")
rows = ui.run("rank_verification", subsets=chosen_subsets, systems=chosen_systems)
st.caption(f"{len(rows):,} evaluations. Annotation structures differ by vendor; they are shown "
           "as key/value pairs (nested keys joined with dots).")

with st.expander("Annotation values across these rows"):
    ui.table(rt.annotation_counts(rows["annotations"]), width="stretch")
picked = ui.table(rows.drop(columns=["annotations"]), width="stretch", on_select="rerun",
                  selection_mode="single-row", key="verification_table",
                  column_config={"File": None, "Row": None})
ui.export_buttons(rows, "human_verification", {"subset": chosen_subsets, "system": chosen_systems})
if rows.empty:
    ui.stop()
chosen = picked.selection.rows[0] if picked and picked.selection.rows else 0
st.caption("Select a row to read its evaluation and annotations in full"
           + ("; showing the first row." if not (picked and picked.selection.rows) else "."))
r = rows.iloc[chosen]
st.header(f"{ui.md_literal(r['subset'] or 'no subset')} · idx {ui.fmt_n(r['idx'])} · "
             f"system {ui.md_literal(r['system'] or 'n/a')}")
left, right = st.columns(2)
with left:
    st.markdown("**Source**")
    ui.text_block(r["source"])
    st.markdown("**Translation**")
    ui.text_block(r["translation"])
with right:
    st.markdown("**Model evaluation**")
    ui.text_block(r["evaluation"])
    st.markdown("**Vendor annotations**")
    ui.table(rt.annotation_frame(r["annotations"]), width="stretch")
