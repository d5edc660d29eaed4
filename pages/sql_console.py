"""SQL console: one read-only SELECT over the collection's views, the query kept in the URL."""

import streamlit as st

from judgescope.sources import sql_console as console
from judgescope.web import ui

ui.title("SQL console")
if not console.enabled():
    st.info(f"The SQL console is switched off on this deployment ({console.ENV}=off).")
    ui.stop()


@st.cache_data(max_entries=32, show_spinner="Running the query…", ttl=600)
def _run(manifest: str, collection: str, sql: str):
    return console.run_console(ui.catalog().store(collection), sql)


st.caption(console.RULES)
left, right = st.columns([3, 1])
with right:
    st.markdown("**Views and columns**")
    for view, columns in console.schema(ui.run("console_columns")).items():
        with st.expander(ui.md_literal(view)):
            st.code("\n".join(columns), language=None)
with left:
    sql = st.text_area("SELECT …", key="sql", bind="query-params", height=200,
                       placeholder=console.EXAMPLE,
                       help="The query is kept in the URL (?sql=…), so a result is a link.")
if sql.strip():
    try:
        rows, truncated = _run(str(ui.catalog().manifest.path), ui.collection_name(), sql)
    except console.Refused as err:
        st.error(ui.md_literal(str(err), limit=400))
        ui.stop()
    except console.DBError as err:
        st.error(ui.md_literal(f"DuckDB: {str(err).splitlines()[0]}", limit=400))
        ui.stop()
    if truncated:
        st.warning(f"Only the first {console.ROW_CAP:,} rows are shown and exported.")
    st.caption(f"{len(rows):,} rows.")
    st.dataframe(rows, hide_index=True, placeholder="NULL")  # column names as the SQL wrote them
    ui.export_buttons(rows, "sql_console", console.provenance_filters(sql, truncated))
