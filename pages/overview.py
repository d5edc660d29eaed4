"""Overview: the collection's headline findings, each a link to its proof; then where every
dataset comes from and what was used."""

import pandas as pd
import streamlit as st

from judgescope import format as fmt
from judgescope.text import md_literal
from judgescope.web import cards, context, export, navigation, render, results
from judgescope.web import upload_box
from judgescope.schema import SCHEMAS
from judgescope.ingest import importers

coll = context.catalog().manifest.collections[context.collection_name()]
context.title(md_literal(coll.title, limit=200))  # the manifest's words, shown as text
if coll.description:
    st.caption(md_literal(coll.description, limit=2_000))
st.header("Findings")  # first: a stakeholder reads these before anything else
found = results.findings()
if not found:
    st.info("No dataset of this collection could be summarised; see the datasets below.")
for f in found:
    cards.finding(f)
export.report_button()

others = [n for n in context.visible_collections() if n != coll.name]
if others:  # the sidebar's picker is folded away on a phone: the switch is here too
    with st.container(horizontal=True, gap="small"):
        st.caption("Other collections:")
        for name in others:  # a switch like the picker's: the URL and the sidebar follow
            st.button(md_literal(context.catalog().manifest.collections[name].title), key=f"other_collection_{name}",
                      type="tertiary", on_click=context.switch_collection, args=(name,))
for problem in context.catalog().manifest.problems:
    st.warning(md_literal(problem, limit=500))
for notice in context.catalog().notices(coll.name, detail=False):  # errors are shown per dataset below
    st.warning(md_literal(notice, limit=1_000))

upload_box.draw()

st.header("Datasets and provenance")
for loaded in context.catalog().collection_datasets(coll.name):
    spec, rep = loaded.spec, loaded.report or {}
    tag = " · synthetic demo" if spec.synthetic else ""
    with st.expander(f"{md_literal(spec.title)}{tag}", expanded=not loaded.ok):
        how = " (detected from its columns)" if spec.kind_detected else ""
        st.caption(f"{md_literal(spec.name)} · kind **{md_literal(spec.kind or 'not known')}**{how} — "
                   f"{SCHEMAS[spec.kind].doc if spec.kind in SCHEMAS else ''}")
        if not loaded.ok:
            st.error(md_literal(loaded.error, limit=1_000))
            continue
        origin = (f"Hub {md_literal(spec.hub)} @ {md_literal(spec.revision)}" if spec.hub
                  else f"Local {md_literal(spec.path)}")
        where = " · ".join(x for x in (spec.config and f"config {md_literal(spec.config)}",
                                        spec.split and f"split {md_literal(spec.split)}") if x)
        st.markdown(f"{origin}{' · ' + where if where else ''}")
        c = st.columns(3)
        c[0].metric("Rows loaded", fmt.count(rep["rows_loaded"]))
        c[1].metric("Used", fmt.count(rep["rows_used"]))
        c[2].metric("Excluded", fmt.count(rep["rows_excluded"]))
        if rep["rows_excluded"]:
            st.page_link(navigation.page("excluded").path, label=f"See the {rep['rows_excluded']:,} excluded rows →",
                         icon=":material/playlist_remove:",
                         query_params={"collection": coll.name, "dataset": spec.name})
        files = pd.DataFrame(rep["files"])
        files["sha256"] = files["sha256"].map(fmt.short_hash)
        render.table(files[["file", "sha256", "size", "recorded"]])
        if rep["columns_missing"]:
            st.caption("Optional columns not in this dataset: "
                       + md_literal(", ".join(rep["columns_missing"]), limit=1_000))
        if rep["columns_extra"]:
            st.caption("Extra columns kept: " + md_literal(", ".join(rep["columns_extra"]), limit=1_000))
        for line in importers.describe(rep.get("imported")):  # a file an evaluation tool wrote
            st.caption(md_literal(line, limit=1_000))
