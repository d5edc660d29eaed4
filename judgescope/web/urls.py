"""URL-bound widgets and links: filters whose value lives in the URL (named when unusable),
drill-downs that open another page by URL, and record links in tables."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from judgescope.text import md_literal
from judgescope.web.context import collection_name
from judgescope import navigation
from judgescope.web import render


def url_value_notice(key: str, accepted) -> None:
    """Say so when a URL parameter held a value the page could not use."""
    raw = st.query_params.get_all(key)
    if not raw:
        return
    ok = accepted if isinstance(accepted, (list, tuple, set)) else [accepted]
    bad = [v for v in raw if v not in {str(a) for a in ok}]
    if bad:
        st.warning(f"URL parameter `{key}` had {', '.join(md_literal(repr(b)) for b in bad[:5])}, which this "
                   "data does not have; showing the default instead.")


def url_number_notice(key: str, low: float, high: float) -> None:
    """Before a number input bound to `key`: name a URL value that is not a finite number in
    [low, high] (Streamlit drops it silently and shows the default). An integer input still
    fails on ?key=inf or 1e400 (Streamlit's deserializer raises OverflowError): use float
    bounds for inputs bound to the URL."""
    raw = st.query_params.get(key)
    if raw is None:
        return
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):
        del st.query_params[key]
        st.warning(f"URL parameter `{key}` had {md_literal(repr(raw))}, not a number from "
                   f"{low:g} to {high:g}; showing the default instead.")


def url_int(key: str, low: int, high: int) -> int | None:
    """?key= as an integer in [low, high], parsed with bounds before use; None when absent, and
    None with a notice (the parameter dropped) when it is not such an integer."""
    raw = st.query_params.get(key)
    if raw is None:
        return None
    text = str(raw)
    if (len(text) <= len(str(high)) + 1 and text.isascii() and text.lstrip("-").isdecimal()
            and low <= int(text) <= high):
        return int(text)
    del st.query_params[key]
    st.warning(f"URL parameter `{key}` had {md_literal(repr(text[:40]))}, not a whole number "
               f"from {low:,} to {high:,}; showing the default instead.")
    return None


def url_text(key: str, max_chars: int, widget: bool = False) -> str | None:
    """?key= as text of at most max_chars characters; longer is dropped with a notice. For a
    text input bound to the key (widget=True, drawn with max_chars) the input keeps the first
    max_chars characters, and the notice says so."""
    raw = st.query_params.get(key)
    if raw is None or len(str(raw)) <= max_chars:
        return raw
    if widget:
        st.warning(f"URL parameter `{key}` was longer than {max_chars:,} characters; only the "
                   "first ones are used.")
        return str(raw)[:max_chars]
    del st.query_params[key]
    st.warning(f"URL parameter `{key}` was longer than {max_chars:,} characters; showing the "
               "default instead.")
    return None


def url_number(container, label: str, low: float, high: float, default: float, *, key: str,
               step: float | None = None, integer: bool = False, **kwargs):
    """A number input bound to the URL parameter `key`. A value outside [low, high] is named
    and replaced by the default. Integers use a float widget shown as "%d": Streamlit's integer
    input raises on ?key=inf or 1e400 before any page code can intervene."""
    url_number_notice(key, low, high)
    value = container.number_input(
        label, float(low), float(high), float(default), step=float(step or 1) if integer else step,
        format="%.0f" if integer else "%g", key=key, bind="query-params", **kwargs)
    return int(round(value)) if integer else value


def url_multiselect(container, label: str, options: list, *, key: str, format_func=str, **kwargs) -> list:
    """A multiselect whose URL parameter `key` holds the option values (codes) while the widget
    shows `format_func` labels; a bound widget would put the labels in the URL. Read from the URL
    when the widget first appears, written back on change."""
    wkey = f"_w_{key}"
    if wkey not in st.session_state:
        st.session_state[wkey] = [v for v in st.query_params.get_all(key) if v in options]

    def write():
        st.query_params[key] = [str(v) for v in st.session_state[wkey]]

    return container.multiselect(label, options, key=wkey, format_func=format_func,
                                 on_change=write, **kwargs)


def url_select(container, label: str, options: list, *, key: str, format_func=str,
               everything: str = "All", **kwargs):
    """A single-choice filter whose URL parameter `key` holds the option value (a code) while
    the widget shows `format_func` labels; None (shown as `everything`) means no filter. A
    selectbox, not a multiselect: its keyboard path has no "Clear all" button to land on."""
    wkey = f"_w_{key}"
    if wkey not in st.session_state:
        raw = st.query_params.get(key)
        st.session_state[wkey] = raw if raw in options else None

    def write():
        value = st.session_state[wkey]
        if value is None:
            st.query_params.pop(key, None)
        else:
            st.query_params[key] = str(value)

    return container.selectbox(label, [None, *options], key=wkey, on_change=write,
                               format_func=lambda v: everything if v is None else format_func(v),
                               placeholder=everything,
                               **kwargs)


def url_choice(container, label: str, options: list, *, key: str, default, format_func=str, **kwargs):
    """A required single choice whose URL parameter `key` holds the option value (an id such as
    'judge:gptoss') while the widget shows `format_func` labels. The URL wins whenever it holds
    a usable value (a link, reload or Back), so a drill-down lands on what it carried."""
    wkey = f"_w_{key}"
    raw = st.query_params.get(key)
    labels = {str(format_func(o)): o for o in options}
    if raw not in options and raw in labels:  # an older link named the option by its label
        raw = labels[raw]
        st.query_params[key] = str(raw)
    if raw in options:
        if st.session_state.get(wkey) != raw:
            st.session_state[wkey] = raw
    elif st.session_state.get(wkey) not in options:
        st.session_state[wkey] = default

    def write():
        st.query_params[key] = str(st.session_state[wkey])

    return container.selectbox(label, options, key=wkey, on_change=write, format_func=format_func,
                               **kwargs)


def open_page(stem: str, **params) -> None:
    """Go to a registry page with these URL parameters and the collection (a drill-down)."""
    spec = navigation.page(stem)
    st.switch_page(spec.path, query_params={"collection": collection_name(), **params})


def reset_position(notice: str | None) -> None:
    """Drop a keyset position from the URL, saying why when it was unusable (pager.problem)."""
    if notice:
        st.warning(notice)
    for key in ("after", "at", "sig"):
        st.query_params.pop(key, None)


def set_position(position, sig: str, rerun: bool = True) -> None:
    """Move a keyset list to `position` (its URL parameters) and rerun (or, with rerun=False,
    only make the URL say where this run's list already is)."""
    for key in ("after", "at", "sig"):
        st.query_params.pop(key, None)
    st.query_params.update(position.to_params(sig))
    if rerun:
        st.rerun()


def with_record_links(frame: pd.DataFrame, id_col: str = "judge_record_id", **params) -> pd.DataFrame:
    """The frame with an `open` column: each row's Review URL (shown with RECORD_LINK), carrying
    `params` too (the list it came from, its filters), so Review walks that list."""
    review, collection = navigation.page("review"), collection_name()
    links = [navigation.href(review, collection=collection, **params, record=i) for i in frame[id_col]]
    return frame.assign(open=links)[["open", *frame.columns]]


RECORD_LINK = {"Open": st.column_config.LinkColumn("Open", display_text="record", width="small")}


def record_table(frame: pd.DataFrame, key: str, shown: pd.DataFrame | None = None,
                 id_col: str = "judge_record_id", column_config: dict | None = None, **params):
    """A list of audit records: selecting a row opens it on Review in this tab, with `params`
    (the list and its filters); the Open column is the same URL, for a new tab or to share."""
    linked = with_record_links(frame if shown is None else shown, id_col, **params)
    picked = render.table(linked, key=key, on_select="rerun", selection_mode="single-row", placeholder="n/a",
                          column_config={**RECORD_LINK, **(column_config or {})})
    if picked and picked.selection.rows:
        open_page("review", **params, record=str(frame[id_col].iloc[picked.selection.rows[0]]))
    return picked


