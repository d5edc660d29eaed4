"""Review: the low-score list with source and candidate snippets, keyset paging held in the URL,
and the opened record at the top with previous / next through the filtered list."""

import streamlit as st

from judgescope.audit import rows as audit_rows
from judgescope.web import blind_review, pager
from judgescope.web import review as review_view
from judgescope.web import verdicts
from judgescope.text import md_label, md_literal
from judgescope.web import context, export, render
from judgescope.web import urls
from judgescope.schema import language_name, sort_units

ORDERS = ["lowest first", "highest first"]
PAGE_SIZE = 50

context.title("Review scores")
values = context.run("audit_filter_values")
langs, units = sorted(values.target_language.unique()), sort_units(values.unit.unique())
origins, runs = sorted(values.score_origin.dropna().unique()), sorted(values.run_group.dropna().unique())
# An audit without a system column offers no System filter (every row would be 'not recorded').
systems = sorted(values.system.unique()) if "system" not in context.missing_columns("audit") else []
with st.container(border=True):
    c = st.columns([2, 2, 1, 1])
    # A selectbox and pills: a multiselect's "Clear all" is the next Tab stop, and Enter wipes it.
    lang = urls.url_select(c[0], "Language", langs, key="lang", format_func=language_name,
                         everything="All languages")
    unit = c[1].pills("Unit", units, key=urls.bound("unit", units), bind="query-params", selection_mode="multi",
                      format_func=md_label)  # pills render markdown
    low = urls.url_number(c[2], "Score from", key="min")
    high = urls.url_number(c[3], "to", key="max")
    c = st.columns([1.6, 1.6, 2.6, 2.4, 1.6] if systems else [2, 2, 3, 1.4])
    origin = c[0].multiselect("Score origin", origins, key=urls.bound("origin", origins), bind="query-params")
    run_group = c[1].multiselect("Run group", runs, key=urls.bound("run", runs), bind="query-params")
    if not systems:
        urls.check("system", [])  # no System filter here: a ?system= is named
    system = urls.url_multiselect(c[2], "System", systems, key="system") if systems else []
    urls.read("q")  # a longer ?q= is cut to its declared bound, and named
    q = c[-2].text_input("Explanation contains", key="q", bind="query-params", max_chars=urls.declared("q").max_chars)
    order = c[-1].selectbox("Order", ORDERS, key=urls.bound("order", ORDERS), bind="query-params")
blind = blind_review.toggle()  # ?blind=1: the judge's score and explanation hidden until labelled
filters = {"languages": [lang] if lang else [], "units": unit, "origins": origin, "run_groups": run_group,
           "systems": system, "min_score": float(low), "max_score": float(high), "q": q.strip()}
desc = order == "highest first"
has_snapshot = context.joined_snapshot()

total = audit_rows.review_count(context.run, filters)
origin = review_view.origin_list()
record_id = urls.read("record")
if record_id:
    record = context.run("audit_record", record_id=record_id)
    if record.empty:
        st.warning(f"The record {md_literal(record_id)} in the URL is not in this audit.")
    else:
        review_view.review_record(record.iloc[0], filters, desc, has_snapshot, total, origin,
                                  reviewed=review_view.queue_source() if verdicts.mode() != "off" else None)
elif verdicts.mode() != "off" and total:
    review_view.queue_start(filters, desc, origin)

sig = pager.signature(context.collection_name(), filters, desc)
pos = pager.read(st.query_params.to_dict(), sig)
if pos.after is None:
    urls.reset_position(pager.problem(st.query_params.to_dict(), sig))
rows = audit_rows.review_page(context.run, filters, pos.after or pager.start(desc), desc, PAGE_SIZE)
pos, rows = review_view.checked_page(filters, desc, pos, rows, total, PAGE_SIZE, sig)
rows = rows if systems else rows.drop(columns=["system"])
texts = audit_rows.snapshot_texts(context.run, rows.judge_record_id.tolist()) if has_snapshot else None
shown = blind_review.without_judge(verdicts.with_state(audit_rows.with_snippets(rows, texts) if has_snapshot else rows))
if systems:  # whose output was judged, beside the unit
    shown.insert(shown.columns.get_loc("unit") + 1, "system", shown.pop("system"))
last = pos.first + len(rows) - 1
verdicts.progress(filters, total)
if not blind:  # its rows show scores and explanations
    verdicts.state_filter(filters)
st.markdown(f"**{total:,}** rows match; showing {min(pos.first, last):,}–{max(last, 0):,}. "
            "Select a row (or pick it below) to open it at the top of the page.")
picked = render.table(shown.assign(target_language=shown.target_language.map(language_name)),
                      key="review_rows", on_select="rerun", selection_mode="single-row",
                      **render.opened_in(rows.judge_record_id, record_id), placeholder="n/a", column_config={
                      "Explanation": st.column_config.TextColumn(width="large"),
                      "Source": st.column_config.TextColumn(width="medium"),
                      "Candidate": st.column_config.TextColumn(width="medium")})
if picked and picked.selection.rows:
    chosen = rows.judge_record_id.iloc[picked.selection.rows[0]]
    if chosen != record_id:
        review_view.open_record(chosen)
b = st.columns([1, 1, 1, 3])
if b[0].button("⏮ First page", disabled=pos.after is None):
    urls.set_position(pager.Position(None, 1), sig)
if b[1].button("◀ Previous", disabled=pos.after is None):
    before = audit_rows.review_page(context.run, filters, (float(rows.score.iloc[0]), rows.judge_record_id.iloc[0]),
                                    not desc, PAGE_SIZE + 1) if len(rows) else rows
    urls.set_position(pager.previous_position(pos, list(zip(before.score, before.judge_record_id)),
                                            PAGE_SIZE), sig)
if b[2].button("Next ▶", disabled=last >= total or rows.empty):
    urls.set_position(pager.next_position(pos, (float(rows.score.iloc[-1]), rows.judge_record_id.iloc[-1]),
                                        len(rows)), sig)
labels = review_view.record_labels(rows)
choice = b[3].selectbox("Open a record of this page", [None, *rows.judge_record_id],
                        format_func=lambda i: "…" if i is None else labels[i],
                        key="open_record", label_visibility="collapsed")
if choice:
    review_view.open_record(choice)

if not blind:  # the export holds every score and explanation
    with st.expander(f"Export all {total:,} filtered rows (CSV, Parquet, provenance JSON)"):
        if st.toggle("Prepare the export", key="prepare_export"):
            export.rows(review_view.review_export(filters, has_snapshot), "review_rows", filters)
