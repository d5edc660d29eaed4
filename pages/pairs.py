"""Pairs: browse translation pairs and open one to read both translations and every decision."""

import streamlit as st

from judgescope import ranking, ui

st.title("Pairs")
ui.need("ranking", what="the pair browser")
pairs, decisions = ui.ranking_frames()
if decisions.empty:
    st.info(ranking.NO_DECISIONS)

datasets = sorted(pairs["dataset"].unique())
ui.url_value_notice("dataset", datasets)
c = st.columns(2)
chosen = c[0].multiselect("Dataset", datasets, key="dataset", bind="query-params")
human = c[1].multiselect("Human preference", list(ranking.LABELS.values())[:3], key="human",
                         bind="query-params")
listed = ranking.pair_list(pairs, chosen, human)
st.caption(f"{len(listed):,} of {len(pairs):,} pairs. Select a row to open it.")
picked = ui.table(listed, width="stretch", on_select="rerun",
                  selection_mode="single-row", key="pair_table")
if picked and picked.selection.rows:
    first = listed.iloc[picked.selection.rows[0]]
    st.query_params["file"], st.query_params["row"] = first["file"], str(first["row"])

file, row = st.query_params.get("file"), st.query_params.get("row")
if not file or not str(row).isdigit():
    st.info("Select a pair above (or open one from the Ranking accuracy page) to see its detail.")
    st.stop()
detail = ui.run("rank_pair_detail", file=file, row=int(row))
if detail.empty:
    st.warning(f"No pair at file {file!r}, row {row} in this collection.")
    st.stop()
p = detail.iloc[0]
st.subheader(f"{p['dataset'] or ui.dataset_for('ranking').spec.name} · row {p['row']}")
st.caption(f"{p['src_lang_long'] or p['src_lang'] or 'source'} → "
           f"{p['tgt_lang_long'] or p['tgt_lang'] or 'target'} · file {p['file']}")
ui.text_block(p["src_text"], p["src_lang"])
cols = st.columns(2)
pref = ranking.LABELS[ranking.preference(p["human_1"], p["human_2"])]
for i, col in enumerate(cols, start=1):
    col.markdown(f"**Translation {i}** · human score {ui.fmt_n(p[f'human_{i}'])}")
    with col:
        ui.text_block(p[f"tgt_{i}"], p["tgt_lang"])
st.markdown(f"Humans prefer: **{pref}**")
for _, d in ranking.pair_decisions(decisions, file, int(row)).iterrows():
    with st.container(border=True):
        st.markdown(f"**{d['method']} · {d['model']}** → parsed: **{d['decision']}** ({d['outcome']})")
        ui.text_block(d["text"], "en", empty="(no decision text)")
