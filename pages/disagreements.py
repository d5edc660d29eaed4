"""Disagreements: the items behind a matrix cell, with every human and judge verdict."""

import streamlit as st

from judgescope import frames
from judgescope.audit import rows as audit_rows
from judgescope.web import calibration_panels as view
from judgescope.calibration import panel as cal
from judgescope import navigation
from judgescope.text import md_literal
from judgescope.web import context, export, render
from judgescope.web import urls

context.title("Disagreements")
c = st.columns(3)
with c[0]:
    splits = view.split_filter()
frame, rep = view.load(splits)

names, cells = cal.raters(frame), cal.cell_options(frame)
judge = urls.url_choice(c[1], "Judge", names, key="judge", default=names[-1], format_func=cal.rater_name)
cell = urls.url_choice(c[2], "Cell", cells, key="cell", default=cal.DISAGREE, help=view.CELL_HELP)
# The counts above the list are the chosen judge's (the panel's by default), as the list is.
who = md_literal(cal.rater_name(judge))
summary = cal.disagreement_summary(frame, judge)
m = st.columns(3)
m[0].metric(f"{who}: disagreements with the human majority", summary["n"])
m[1].metric("… with at least one human on its side", summary["with_human_support"])
m[2].metric("… against all three humans", len(summary["unanimous_human"]))
if summary["unanimous_human"]:
    st.caption("Unanimous-human disagreements: " + ", ".join(map(md_literal, summary["unanimous_human"])))
only_unanimous = st.toggle(f"Only the disagreements of {who} against all three humans",
                           key=urls.bound("unanimous"), bind="query-params")

listed = cal.cell_items(frame, judge, cell)
if only_unanimous:
    unanimous = summary["unanimous_human"]
    listed = frames.keep(listed, key=unanimous) if unanimous else listed.iloc[0:0]
item = urls.read("item")
if item is not None:
    # Prev / Next walk the cell's items in their one order (by key, as the list shows them).
    before, after, position = audit_rows.list_step(listed["key"].astype(str).tolist(), item)
    b = st.columns([1, 1, 4], vertical_alignment="center")
    for col, label, target, short in ((b[0], "◀ Prev item", before, "k"), (b[1], "Next item ▶", after, "j")):
        if col.button(label, key=f"item_{short}", disabled=target is None, shortcut=short):
            st.query_params["item"] = target
            st.rerun()
    b[2].caption(f"Item {position} of {len(listed)} in this cell." if position else
                 "This item is not in this cell.")
    listed = listed[listed["key"].astype(str) == item].reset_index(drop=True)
    st.caption(f"Showing one item, {md_literal(item)}, from its link.")

st.header(f"{md_literal(cal.rater_name(judge))} · {view.cell_label(cell)}"
             + (" · against all three humans" if only_unanimous else "") + f": {len(listed)} items")
st.caption("Reasons are machine-generated explanations, not verified ground truth.")
page = navigation.page("disagreements")
overview = cal.verdict_overview(listed)
overview.insert(0, "open", [navigation.href(page, collection=context.collection_name(), judge=judge, cell=cell,
                                            split=splits, item=k) for k in listed["key"]])
picked = render.table(overview, width="stretch", key="cell_items", on_select="rerun", selection_mode="single-row",
                      column_config={"Open": st.column_config.LinkColumn("Open", display_text="item", width="small")})
chosen = str(listed["key"].iloc[picked.selection.rows[0]]) if picked and picked.selection.rows else None
if chosen is not None and chosen != item:  # selecting an item shows it here, in this tab
    st.query_params["item"] = chosen
    st.rerun()
export.rows(listed, view.export_stem(judge, cell),
            {"judge": judge, "cell": cell, "split": splits, "unanimous": only_unanimous})
for _, item in listed.iterrows():
    title = f"{item['key']} · {item.get('category') or ''}"
    with st.expander(md_literal(title), expanded=len(listed) <= 2):
        st.markdown("**Question**")
        render.text_block(item["question"])
        a, b = st.columns(2)
        with a:
            st.markdown("**Reference answer**")
            render.text_block(item["reference_answer"])
        with b:
            st.markdown("**Model response**")
            render.text_block(item["model_response"])
        render.table(cal.item_verdicts(item), width="stretch")
