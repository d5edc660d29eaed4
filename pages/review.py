"""Review: the low-score list, filtered and paged by keyset; a row opens its full detail."""

import streamlit as st

from judgescope import audit_rows, ui
from judgescope.schema import language_name, sort_units

ORDERS = ["lowest first", "highest first"]

st.title("Review scores")
ui.need("audit", what="the review list")
values = ui.run("audit_filter_values")
langs, units = sorted(values.target_language.unique()), sort_units(values.unit.unique())
for key, accepted in (("lang", langs), ("unit", units)):
    ui.url_value_notice(key, accepted)
c = st.columns([2, 2, 1, 1])
# Codes, not names: the URL (?lang=th) holds what the widget shows.
lang = c[0].multiselect("Language (code)", langs, key="lang", bind="query-params")
unit = c[1].multiselect("Unit", units, key="unit", bind="query-params")
low = ui.url_number(c[2], "Score from", 0.0, 100.0, 0.0, key="min")
high = ui.url_number(c[3], "to", 0.0, 100.0, 100.0, key="max")
c = st.columns([2, 2, 3, 1.4])
origins, runs = sorted(values.score_origin.dropna().unique()), sorted(values.run_group.dropna().unique())
for key, accepted in (("origin", origins), ("run", runs), ("order", ORDERS)):
    ui.url_value_notice(key, accepted)
origin = c[0].multiselect("Score origin", origins, key="origin", bind="query-params")
run_group = c[1].multiselect("Run group", runs, key="run", bind="query-params")
q = c[2].text_input("Explanation contains", key="q", bind="query-params")
order = c[3].selectbox("Order", ORDERS, key="order", bind="query-params")
filters = {"languages": lang, "units": unit, "origins": origin, "run_groups": run_group,
           "min_score": float(low), "max_score": float(high), "q": q.strip()}

total = audit_rows.review_count(ui.run, filters)
desc = order == "highest first"
pages = audit_rows.keyset_pages(st.session_state, ("review", tuple(map(str, filters.values())), desc))
after = pages[-1] if pages else ((1e308 if desc else -1.0), "")
page_size = 50
rows = audit_rows.review_page(ui.run, filters, after, desc, page_size)
first = len(pages) * page_size
st.markdown(f"**{total:,}** rows match; showing {first + min(1, len(rows)):,}–{first + len(rows):,}. "
            "Select a row to open it.")
picked = ui.table(rows, key="review_rows", on_select="rerun", selection_mode="single-row",
                  placeholder="n/a", column_config={"Explanation": st.column_config.TextColumn(width="large")})
b = st.columns(4)
if b[0].button("⏮ First page", disabled=not pages):
    pages.clear()
    st.rerun()
if b[1].button("◀ Previous", disabled=not pages):
    pages.pop()
    st.rerun()
if b[2].button("Next ▶", disabled=first + len(rows) >= total):
    pages.append((float(rows.score.iloc[-1]), rows.judge_record_id.iloc[-1]))
    st.rerun()
if picked and picked.selection.rows:
    st.query_params["record"] = rows.judge_record_id.iloc[picked.selection.rows[0]]

with st.expander(f"Export all {total:,} filtered rows (CSV, Parquet, provenance JSON)"):
    if st.toggle("Prepare the export", key="prepare_export"):
        ui.export_buttons(ui.run("audit_review_export", **filters), "review_rows", filters)

record_id = st.query_params.get("record")
if record_id:
    record = ui.run("audit_record", record_id=record_id)
    if record.empty:
        st.warning("The record in the URL is not in this audit.")
        st.stop()
    r = record.iloc[0]
    st.subheader(f"Record {ui.md_literal(record_id)}")
    m = st.columns(4)
    m[0].metric("Score", f"{r['score']:g}")
    m[1].metric("Language", language_name(r["target_language"]))
    m[2].metric("Unit", r["unit"])
    with m[3]:  # origins are long phrases: shown whole, wrapped, not as a clipped metric
        st.caption("Score origin")
        st.text(r["score_origin"] or "not recorded")
    st.markdown("**Judge explanation**")
    ui.text_block(r["judge_explanation"], "en", empty="(no explanation recorded)")
    if "snapshot" in ui.roles():
        texts, note = audit_rows.record_text_lookup(ui.run, r)
        if texts.empty:
            st.info(note)
        else:
            s, t = st.columns(2)
            with s:
                st.markdown("**English source**")
                ui.text_block(texts.source_text.iloc[0], "en")
            with t:
                st.markdown(f"**Candidate ({language_name(r['target_language'])})**")
                ui.text_block(texts.candidate_text.iloc[0], r["target_language"])
            st.caption(note)
    else:
        st.caption("This collection has no source snapshot: texts cannot be shown, only hashes.")
    ui.table(audit_rows.record_fields(record), placeholder="not recorded")
