"""URL-bound widgets and links: filters whose value lives in the URL (named when unusable),
drill-downs that open another page by URL, and record links in tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope import url_params
from judgescope import navigation
from judgescope.web import context, render


def declared(name: str) -> url_params.Param:
    """The running page's declaration of URL parameter `name` (judgescope/navigation.py PARAMS);
    a name the page does not declare raises navigation.UndeclaredParameter."""
    return context.current_page().param(name)


def check(name: str, options=None) -> bool:
    """The one URL parser: ?name= read against the page's declaration (kind, bounds, options:
    those given here, for a choice whose options come from the data). A value it cannot use is
    named in one sentence and the default is used: a number or a text read by the page is dropped
    from the URL (a bound widget shows its default), a choice is left to its widget, which drops
    it. True when the URL holds nothing unusable."""
    param = declared(name)
    said = url_params.problem(param, st.query_params.get_all(name), options)
    if said is None:
        return True
    st.warning(said)
    if param.kind not in ("choice", "bool", "textbox"):
        del st.query_params[name]
    return False


def bound(name: str, options=None) -> str:
    """`name`, checked (check()), as the key of a widget bound to the URL parameter it declares."""
    check(name, options)
    return name


def read(name: str, options=None):
    """?name= as its declared kind (int, float, text…; a list when repeated), None when absent
    or unusable (then named, and a number or text dropped from the URL); a text box's value
    longer than its bound is cut, and said. `options`: as for check()."""
    usable = check(name, options)
    param = declared(name)
    if not usable and param.kind != "textbox":
        return None
    return url_params.parse(param, st.query_params.get_all(name))


def url_number(container, label: str, *, key: str, default: float | None = None, step: float | None = None,
               **kwargs):
    """A number input bound to the URL parameter `key`, its bounds and default (unless `default`
    is given: one the data decides) declared by the page. A value outside them is named and
    replaced by the default. Integers use a float widget shown as "%d": Streamlit's integer
    input raises on ?key=inf or 1e400 before any page code can intervene."""
    param = declared(key)
    check(key)
    integer = param.kind == "int"
    default = param.default if default is None else default
    value = container.number_input(
        label, float(param.low), float(param.high), float(default), step=float(step or 1) if integer else step,
        format="%.0f" if integer else "%g", key=key, bind="query-params", **kwargs)
    return int(round(value)) if integer else value


def url_multiselect(container, label: str, options: list, *, key: str, format_func=str, **kwargs) -> list:
    """A multiselect whose URL parameter `key` holds the option values (codes) while the widget
    shows `format_func` labels; a bound widget would put the labels in the URL. Read from the URL
    when the widget first appears, written back on change."""
    check(key, options)
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
    check(key, options)
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
    check(key, options)  # after the labels are read as ids: judge=gptoss is judge:gptoss, not refused
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
    st.switch_page(spec.path, query_params=navigation.link_params(spec, collection=context.collection_name(), **params))


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
    review, collection = navigation.page("review"), context.collection_name()
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


