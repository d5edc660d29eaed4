"""How a number is computed, shown where it stands: under every page the queries it ran, their
views, cached files and pinned sources; beside a headline number a small "how" naming the
functions that computed it too (`judgescope explain` prints the same)."""

from __future__ import annotations

import streamlit as st

from judgescope import headlines as numbers
from judgescope.sources import explain
from judgescope.text import md_literal
from judgescope.web.context import (QUERY_CACHE_ENTRIES, catalog, collection_name, per_collection,
                                    queries_this_run)


@per_collection(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _chain(collection: str, query: str) -> str:
    return explain.as_text(explain.chain(catalog(), collection, query))


def page_disclosure() -> None:
    """Under every page: each query it ran → the views read → cached files → pinned sources
    (the same chain as `python -m judgescope explain QUERY`)."""
    used = queries_this_run()
    if not used:
        return
    with st.expander(f"How is this computed? {len(used)} quer{'y' if len(used) == 1 else 'ies'}, "
                     "their views, cached files and pinned sources", icon=":material/account_tree:"):
        st.caption("Every number on this page comes from these named queries (queries/*.sql), "
                   "over these views, read from these cached files, built from these pinned "
                   "files. `judgescope explain QUERY --collection "
                   f"{md_literal(collection_name())}` prints the same.")
        for query in used:
            st.code(_chain(query), language=None, wrap_lines=True)


def number(name: str) -> None:
    """A small "how" under a headline number: the functions that compute it (outermost first),
    the queries they read and each query's chain down to the pinned files
    (`judgescope explain NAME` prints the same)."""
    n = numbers.number(name)
    with st.popover("how", icon=":material/functions:", help=f"How is this computed: {n.title}"):
        st.markdown(f"**{n.title}**")
        if n.functions:
            st.markdown("Computed by " + " → ".join(f"`{f}`" for f in n.functions)
                        + " from the rows of:")
        else:
            st.markdown("Counted by the query itself, from:")
        for query in n.queries:
            st.code(_chain(query), language=None, wrap_lines=True)
        st.caption(f"`judgescope explain {n.name} --collection {md_literal(collection_name())}` "
                   "prints the same.")
