"""SQL console: one read-only SELECT over the collection's views, the query kept in the URL; the
result right under the editor, the views and their columns folded below it."""

import streamlit as st

from judgescope.console import sql_console as console
from judgescope.text import md_literal
from judgescope.web import context, export, urls

context.title("SQL console")
if not console.enabled():
    st.info(f"The SQL console is switched off on this deployment ({console.ENV}=off).")
    context.stop()


def _use_example(sql: str) -> None:
    st.session_state["sql"] = sql


st.caption(console.RULES)
# A lazy table (the exact copies' rows) is built when first read: listed by name until then (a
# query naming it builds it). Its columns are read uncached, after the pending list, so a view
# another page built meanwhile is listed with its columns.
store = context.catalog().store(context.collection_name())
pending = store.pending()
context.record_query("console_columns")
columns = console.schema(store.run("console_columns"), pending)
examples = console.examples(columns)
if examples:
    st.caption("Examples for this collection:")
    for col, (label, example) in zip(st.columns(len(examples)), examples):
        col.button(label, key=f"example_{label}", on_click=_use_example, args=(example,),
                   width="stretch")
sql = st.text_area("SELECT …", key=urls.bound("sql"), bind="query-params", height=200,
                   placeholder=console.EXAMPLE,
                   help="Run with the button or Ctrl+Enter. The query is kept in the URL (?sql=…), "
                        "so a result is a link.")
st.button("Run", key="run_sql", type="primary", icon=":material/play_arrow:",
          help="Run the query (Ctrl+Enter in the editor does the same)")
if sql.strip():
    collection = context.collection_name()
    try:
        rows, truncated = console.cached_run((str(context.catalog().manifest.path), collection, sql),
                                             lambda: context.catalog().store(collection), sql)
    except console.Refused as err:
        st.error(md_literal(str(err), limit=400))
    except console.DBError as err:
        st.error(md_literal(f"DuckDB: {str(err).splitlines()[0]}", limit=400))
    else:
        note = console.truncation_note(truncated, len(rows))
        if note:
            st.warning(note)
        st.caption(f"{len(rows):,} rows.")
        st.dataframe(rows, hide_index=True, placeholder="NULL")  # column names as the SQL wrote them
        # A cap that cut the result is the export's limit too (its provenance says truncated).
        export.rows(rows, "sql_console", console.provenance_filters(sql, truncated),
                    limit=len(rows) if truncated and len(rows) else None)
with st.expander("Views and columns"):
    for view, cols in columns.items():
        st.markdown(f"**{md_literal(view)}**")
        st.code("\n".join(cols), language=None)
