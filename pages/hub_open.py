"""Open a Hub dataset: repo id, revision (a branch or tag is resolved to its commit), config,
split, kind (detected unless chosen). The URL carries the commit and reopens it."""

import streamlit as st

from judgescope.remote import hub_open
from judgescope.web import navigation
from judgescope.text import md_literal
from judgescope.web import context
from judgescope.schema import KINDS
from judgescope.ingest.manifest import SourceError

context.title("Open from the Hub")
if not hub_open.allowed():
    st.info("Opening Hub datasets from the browser is switched off here (JUDGESCOPE_ALLOW_HUB_OPEN=0).")
    context.stop()
st.caption(f"Datasets up to {hub_open.max_bytes():,} bytes. A branch or tag is resolved once to "
           "its commit; the page and its URL then use the commit.")
qp = st.query_params
with st.form("hub_open"):
    repo = st.text_input("Repository id (owner/name)", value=qp.get("repo", ""), key="repo")
    revision = st.text_input("Revision (commit, branch or tag)", value=qp.get("revision", "main"))
    config = st.text_input("Config (when it has several)", value=qp.get("config", ""))
    split = st.text_input("Split (when it has several)", value=qp.get("split", ""))
    kind = st.selectbox("Kind", ["(detect)", *KINDS])
    submitted = st.form_submit_button("Open")
if not (submitted or qp.get("repo")) or not repo:
    context.stop()
try:
    with st.status("Resolving, downloading and validating…", expanded=True) as status:
        name = hub_open.open_dataset(context.catalog(), repo.strip(), revision, config.strip(),
                                     split.strip(), None if kind == "(detect)" else kind,
                                     progress=lambda text: st.caption(md_literal(text, limit=300)))
        st.session_state.setdefault("_opened_collections", set()).add(name)
        loaded = context.catalog().dataset(name)
        status.update(label="Done" if loaded.ok else "Unusable", state="complete" if loaded.ok else "error")
except SourceError as err:
    st.error(md_literal(str(err), limit=1_000))
    context.stop()
spec = loaded.spec
st.query_params.update({"repo": spec.hub, "revision": spec.revision,
                        **{k: v for k, v in (("config", spec.config), ("split", spec.split)) if v}})
if not loaded.ok:
    st.error(md_literal(loaded.error, limit=1_000))
    context.stop()
st.success(md_literal(f"{spec.hub} at commit {spec.revision}: {spec.kind}, "
                      f"{loaded.report['rows_used']:,} rows used of {loaded.report['rows_loaded']:,}"))
for page in navigation.available(context.catalog().roles(name)):
    st.page_link(page.path, label=page.title, icon=page.icon, query_params={"collection": name})
st.download_button("Download manifest", hub_open.manifest_entry(spec), file_name="sources.toml")
