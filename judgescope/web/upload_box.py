"""Overview's upload box: a file becomes a collection of this browser session only (see
judgescope/remote/upload.py); its problems are shown as the CLI's `validate` words them."""

from __future__ import annotations

import streamlit as st

from judgescope.remote import upload
from judgescope.ingest.manifest import SourceError
from judgescope.text import md_literal
from judgescope.web import context, navigation

SESSION_KEY = "_uploaded_collections"


def mine() -> set[str]:
    return st.session_state.setdefault(SESSION_KEY, set())


def _session() -> tuple[str | None, object]:
    """(this session's id, whether a session id is still connected) from Streamlit's runtime;
    (None, always) where there is none (AppTest)."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not runtime.exists():
        return None, lambda _sid: True
    return ctx.session_id, runtime.get_instance().is_active_session


def draw() -> None:
    if not upload.allowed():
        return
    owner, alive = _session()
    upload.prune(context.catalog(), alive)  # uploads of sessions that ended are forgotten
    again = st.query_params.get("upload") == "again"  # from a link to an upload a reload forgot
    with st.expander("Open a file of your own (until this tab is reloaded or closed)", expanded=again):
        st.caption(f"A Parquet, JSONL or CSV file up to {upload.max_bytes():,} bytes and "
                   f"{upload.caps().rows:,} rows. Its kind is detected from its columns and it is "
                   "validated as a manifest dataset is; only this tab lists it, and it is forgotten "
                   "when the tab is reloaded or closed (its link then says so). `judgescope open FILE` "
                   "does the same from a terminal, without a cap.")
        with st.form("upload", clear_on_submit=True):
            file = st.file_uploader("File", type=["parquet", "jsonl", "ndjson", "json", "csv"])
            sent = st.form_submit_button("Open")
        if not (sent and file is not None):
            return
        try:
            name = upload.add_upload(context.catalog(), file.name, file.getvalue(), owner)
        except SourceError as err:
            st.error(md_literal(str(err), limit=1_000))
            return
        mine().add(name)
        loaded = context.catalog().dataset(name)
        if not loaded.ok:
            st.error(md_literal(loaded.error, limit=1_000))
            return
        rep = loaded.report
        st.success(md_literal(f"{file.name}: {loaded.spec.kind}, loaded {rep['rows_loaded']:,} "
                              f"= used {rep['rows_used']:,} + excluded {rep['rows_excluded']:,}",
                              limit=500))
        st.caption(md_literal(f"Open {loaded.spec.title}:"))
        for page in navigation.available(context.catalog().roles(name)):
            st.page_link(page.path, label=page.title, icon=page.icon,
                         query_params={"collection": name})
