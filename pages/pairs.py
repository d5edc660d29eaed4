"""Pairs: browse translation pairs and open one to read both translations and every decision."""

import streamlit as st

from judgescope.audit import rows as audit_rows
from judgescope.text import md_literal
from judgescope.web import context, export, ranking_probes, render, results
from judgescope.web import urls
from judgescope.ranking import tables as rt

context.title("Pairs")
pairs, decisions = results.ranking_frames()
if decisions.empty:
    st.info(rt.NO_DECISIONS_PAIRS)

datasets = sorted(pairs["dataset"].unique())
c = st.columns(2)
chosen = c[0].multiselect("Dataset", datasets, key=urls.bound("dataset", datasets), bind="query-params")
human = c[1].multiselect("Human preference", rt.HUMAN_LABELS, key=urls.bound("human", rt.HUMAN_LABELS),
                         bind="query-params")
listed = rt.pair_list(pairs, chosen, human)
st.caption(f"{len(listed):,} of {len(pairs):,} pairs. Select a row to open it.")
file, row = urls.read("file"), urls.read("row")
keys = [f"{f}#{r}" for f, r in zip(listed["file"], listed["row"])]  # the list's one order: file, row
opened = f"{file}#{int(row)}" if file and row is not None else None
picked = render.table(listed, width="stretch", on_select="rerun", selection_mode="single-row",
                      key="pair_table", column_config={"File": None}, **render.opened_in(keys, opened))
export.rows(listed, "pairs", {"dataset": chosen, "human": human})
if picked and picked.selection.rows and keys[picked.selection.rows[0]] != opened:
    st.query_params["file"], _, st.query_params["row"] = keys[picked.selection.rows[0]].rpartition("#")
    st.rerun()
if not file or row is None:
    st.info("Select a pair above (or open one from the Ranking accuracy page) to see its detail.")
    context.stop()
detail = context.run("rank_pair_detail", file=file, row=int(row))
if detail.empty:
    st.warning(f"No pair at file {md_literal(file)}, row {row} in this collection.")
    context.stop()
p = detail.iloc[0]
# Prev / Next walk the listed pairs in their one order (file, then row).
before, after, position = audit_rows.list_step(keys, opened)
b = st.columns([1, 1, 4], vertical_alignment="center")
for col, label, target, short in ((b[0], "◀ Prev pair", before, "k"), (b[1], "Next pair ▶", after, "j")):
    if col.button(label, key=f"pair_{short}", disabled=target is None, shortcut=short):
        st.query_params["file"], _, st.query_params["row"] = target.rpartition("#")
        st.rerun()
b[2].caption(f"Pair {position} of {len(keys)} listed." if position else "This pair is not in the list above.")
lit = md_literal
st.header(f"{lit(p['dataset'] or context.dataset_for('ranking').spec.name)} · row {p['row']}")
st.caption(f"{lit(p['src_lang_long'] or p['src_lang'] or 'source')} → "
           f"{lit(p['tgt_lang_long'] or p['tgt_lang'] or 'target')} · file {lit(p['file'])} · "
           f"humans prefer: {rt.human_label(p['human_1'], p['human_2'])}")
render.text_block(p["src_text"], p["src_lang"])
for i, col in enumerate(st.columns(2), start=1):
    with col:
        st.markdown(f"**Translation {i}** · human score {rt.fmt_score(p[f'human_{i}'])}")
        render.text_block(p[f"tgt_{i}"], p["tgt_lang"])

st.header("Model decisions")
shown = rt.pair_decisions(decisions, file, int(row))
if shown.empty:
    st.caption("None in this dataset.")
for _method, group in shown.groupby("method", sort=False):
    for col, (_, d) in zip(st.columns(len(group)), group.iterrows()):
        with col.container(border=True):
            st.markdown(f"**{lit(d['method'])} · {lit(d['model'])}** → **{d['decision']}** ({d['outcome']})")
            render.text_block(d["text"], "en", empty="(no decision text)")

ranking_probes.pair_swapped(file, int(row))
