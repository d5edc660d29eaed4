"""Overview: what each dataset of the collection is, where it comes from, and what was used."""

import pandas as pd
import streamlit as st

from judgescope import ui
from judgescope.schema import SCHEMAS

coll = ui.catalog().manifest.collections[ui.collection_name()]
st.title(coll.title)
if coll.description:
    st.caption(coll.description)
for problem in ui.catalog().manifest.problems:
    st.warning(problem)

for loaded in ui.catalog().collection_datasets(coll.name):
    spec, rep = loaded.spec, loaded.report or {}
    tag = " · synthetic demo" if spec.synthetic else ""
    with st.container(border=True):
        st.subheader(f"{spec.title}{tag}")
        st.caption(f"`{spec.name}` · kind **{spec.kind}** — {SCHEMAS.get(spec.kind).doc if spec.kind in SCHEMAS else ''}")
        if not loaded.ok:
            st.error(loaded.error)
            continue
        origin = (f"Hub `{spec.hub}` @ `{spec.revision}`" if spec.hub else f"Local `{spec.path}`")
        where = " · ".join(x for x in (spec.config and f"config `{spec.config}`",
                                        spec.split and f"split `{spec.split}`") if x)
        st.markdown(f"{origin}{' · ' + where if where else ''}")
        c = st.columns(3)
        c[0].metric("Rows loaded", ui.fmt_n(rep["rows_loaded"]))
        c[1].metric("Used", ui.fmt_n(rep["rows_used"]))
        c[2].metric("Excluded", ui.fmt_n(rep["rows_excluded"]))
        if rep["rows_excluded"]:
            st.page_link("pages/excluded.py", label=f"See the {rep['rows_excluded']:,} excluded rows",
                         icon=":material/playlist_remove:", query_params={"collection": coll.name, "dataset": spec.name})
        ui.page_links(spec.kind)
        files = pd.DataFrame(rep["files"])
        files["sha256"] = files["sha256"].str.slice(0, 16) + "…"
        ui.table(files[["file", "sha256", "size", "recorded"]])
        if rep["columns_missing"]:
            st.caption("Optional columns not in this dataset: " + ", ".join(rep["columns_missing"]))
        if rep["columns_extra"]:
            st.caption("Extra columns kept: " + ", ".join(rep["columns_extra"]))
