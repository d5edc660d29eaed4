"""The page's context: which collection it shows, whether that collection can fill the page
(the gate every page opens with), the named queries it runs (cached, and noted for "How is this
computed?") and how it ends early."""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager

import pandas as pd
import streamlit as st

from judgescope.schema import language_pairs, use_language_pairs
from judgescope.duck import trace
from judgescope.sources.catalog import Catalog
from judgescope.wiring import get_catalog
from judgescope.sources.exports import capped_frame
from judgescope.duck import db
from judgescope.remote import hub_open, upload
from judgescope.ingest.manifest import SourceError
from judgescope.text import md_literal
from judgescope import navigation

QUERY_CACHE_ENTRIES = 256
PICKER_KEY = "_collection_picker"


def catalog() -> Catalog:
    """The process's catalog; a manifest that cannot be read (a TOML syntax error, a missing
    file) is said as the CLI says it, naming line and column, and the run stops there."""
    try:
        return get_catalog()
    except SourceError as err:
        st.error(md_literal(f"The sources manifest cannot be used: {err}", limit=1_000, isolate=False))
        st.stop()


def collection_name() -> str:
    """The collection of this view: the URL's `collection`, else the last one picked, else the
    manifest's first. The URL always carries it, so every view is a link."""
    names = visible_collections()
    if not names:
        st.error("The manifest defines no collection; see Overview for its problems.")
        stop()
    value = st.query_params.get("collection")
    if value in names:
        return value
    fallback = st.session_state.get("_collection")
    fallback = fallback if fallback in names else names[0]
    if value is not None and UPLOAD_NAME.fullmatch(str(value)):
        _upload_gone(fallback)
    elif value is not None and not st.session_state.get("_collection_notice_shown") == value:
        st.session_state["_collection_notice_shown"] = value
        st.toast(f"No collection {md_literal(repr(value))} in this manifest; showing "
                 f"{md_literal(fallback)}.", icon=":material/warning:")
    st.query_params["collection"] = fallback
    return fallback


# An uploaded collection's name (remote/upload.add_upload): upload-<stem>-<8 hex>-<8 hex>.
UPLOAD_NAME = re.compile(r"upload-[A-Za-z0-9_-]{1,40}-[0-9a-f]{8}-[0-9a-f]{8}")


def _upload_gone(fallback: str) -> None:
    """The URL names an upload this session does not hold: a reload (or another tab) starts a new
    session, and an upload lives only as long as the one it was sent in. Said on the page, with
    the way back to the upload box, instead of a passing toast."""
    st.warning(f"The file this link opened was uploaded in an earlier session of the page: an upload "
               f"lasts only until its tab is reloaded or closed, so it is gone. Showing "
               f"{md_literal(catalog().manifest.collections[fallback].title)} instead; upload the file "
               "again on Overview to reopen it.", icon=":material/upload_file:")
    overview = navigation.page("overview")
    st.page_link(overview.path, label="Upload it again on Overview", icon=":material/upload_file:",
                 query_params=navigation.link_params(overview, collection=fallback, upload="again"))


def visible_collections() -> list[str]:
    """The manifest's collections, plus those opened from the Hub in this browser session (or
    named by the URL): one visitor's opened datasets are not listed to another."""
    opened, uploads = hub_open.SESSION_COLLECTIONS, upload.UPLOAD_COLLECTIONS  # read per call
    mine = st.session_state.setdefault("_opened_collections", set())
    uploaded = st.session_state.setdefault("_uploaded_collections", set())  # never by URL
    linked = st.query_params.get("collection")
    if linked in opened:
        mine.add(linked)
    return [n for n in list(catalog().manifest.collections)  # a copy: another session may forget one
            if (n not in opened or n in mine) and (n not in uploads or n in uploaded)]


SWITCHED_KEY = "_collection_switched"


def switch_collection(new: str | None = None) -> None:
    """The picker's callback (and Overview's collection chips', with `new`): the new collection
    starts clean (filters, record, page position), in the URL and in the sidebar's picker."""
    new = new or st.session_state[PICKER_KEY]
    for key in list(st.query_params):
        st.session_state.pop(key, None)  # a URL-bound widget would write its old value back
        st.session_state.pop(f"_w_{key}", None)
    _clear_url(new)
    st.session_state["_collection"] = new
    st.session_state[PICKER_KEY] = new
    st.session_state[SWITCHED_KEY] = True  # the sidebar starts the new collection at the top


def _clear_url(collection: str) -> None:
    """The URL reduced to ?collection=…: every other parameter removed, those bound to a widget
    (bind="query-params": Review's score range, unit, order) too. st.query_params.clear() refuses
    those while bound (Streamlit 1.67, QueryParams.clear), so they are unbound first; each such
    widget is set to its default (its deserializer's value without input), which the browser is
    told of, and the snapshot of the URL the session opened with, from which a bound widget seeds
    its value, becomes this URL."""
    from streamlit.runtime.state.session_state_proxy import get_session_state

    state = get_session_state()
    defaults = {}
    with state.query_params() as qp:
        for key in list(qp):
            binding = qp.get_binding_for_param(key)
            if binding is not None:
                meta = state._state._new_widget_state.widget_metadata.get(binding.widget_id)
                if meta is not None:
                    defaults[key] = meta.deserializer(None)
                qp.unbind_widget(binding.widget_id)
        qp.clear()
        qp["collection"] = collection
        qp.set_initial_query_params_from_current()
    for key, value in defaults.items():
        st.session_state[key] = value


def title_of(name: str) -> str:
    return catalog().manifest.collections[name].title


def collections_comparing(dataset: str) -> list[str]:
    """The other visible collections whose Compare takes `dataset` as its earlier version: runs
    over the same units as that audit, which Compare pairs with it."""
    colls = catalog().manifest.collections
    return [n for n in visible_collections() if n != collection_name() and colls[n].previous == dataset]


def roles() -> dict:
    return catalog().roles(collection_name())


def dataset_for(role: str):
    """The Loaded dataset behind a view name (audit, snapshot, items, …) in this collection."""
    return roles().get(role)


def missing_columns(role: str) -> set[str]:
    """Schema columns the dataset behind `role` lacks (its view holds them as NULL)."""
    loaded = dataset_for(role)
    return set(loaded.report["columns_missing"]) if loaded else set()


def joined_snapshot() -> bool:
    """Whether the collection's audit rows are joined to snapshot rows (Integrity's
    hash_verification): then Review can show each row's texts."""
    return "hash_verification" in catalog().store(collection_name()).views


def title(text: str) -> None:
    """Every page's first line: the title (with the anchor "content"), once the collection is
    known to fill the page (judgescope.navigation); otherwise one sentence naming the
    collections that do, and the page stops before any query."""
    spec = current_page()
    st.title(text, anchor="content")
    if not spec.fits(roles()):
        unavailable(spec)
        stop()
    pairs = {}
    if "audit" in roles():  # labels name the direction when the audit has several sources
        with trace.traced():  # vocabulary for labels, not one of the page's numbers
            frame = run("audit_language_pairs")
        pairs = language_pairs(zip(frame.target_language, frame.source_language))
    use_language_pairs(pairs)


def unavailable(spec: navigation.PageSpec) -> None:
    """This collection cannot fill `spec`: say which dataset is missing and link the
    collections that can fill it."""
    cat = catalog()
    names = navigation.collections_for(
        spec, {n: cat.roles(n) for n in visible_collections()})
    coll = cat.manifest.collections[collection_name()]
    missing = " or ".join(navigation.missing_roles(spec, roles()))
    failed = [d.spec.name for n in visible_collections() for d in cat.collection_datasets(n)
              if not d.ok]
    none = " No collection of this manifest has one" + (
        f"; {len(failed)} dataset{'s' if len(failed) != 1 else ''} failed to load (named on "
        "Overview), which may be why." if failed else ".")
    st.info(f"The collection **{md_literal(coll.title)}** has no {missing} dataset, "
            f"which {spec.what} needs." + (" These collections have one:" if names else none))
    for name in names:
        st.page_link(spec.path, label=md_literal(cat.manifest.collections[name].title),
                     icon=":material/arrow_forward:", query_params=navigation.link_params(spec, collection=name))


class PageStopped(Exception):
    """Raised by stop(): app.py ends the page there and still shows its disclosure."""


_IN_PAGE = "_judgescope_in_page"
_PAGE = "_judgescope_page"  # the path of the page app.py runs (page_trace)


def stop():
    """End the page here. Use instead of st.stop(): after st.stop() nothing renders, so the page
    would lose "How is this computed?" for what it already showed (app.py catches this). Outside
    a page run (the sidebar, a page run alone) it is st.stop()."""
    if st.session_state.get(_IN_PAGE):
        raise PageStopped
    st.stop()


@contextmanager
def page_trace(spec: navigation.PageSpec):
    """app.py, around the page only: the page being run (its registry entry, which title()
    checks), and the queries it runs (Store.run notes each, cached ones are replayed), which are
    what "How is this computed?" lists; the sidebar's never mix in."""
    st.session_state[_PAGE] = spec.path
    st.session_state[_IN_PAGE] = True
    try:
        with trace.traced() as names:
            yield names
    finally:
        st.session_state[_IN_PAGE] = False


def current_page() -> navigation.PageSpec:
    """The registry entry of the page app.py is running (set by page_trace)."""
    return navigation.page(st.session_state[_PAGE])


def record_query(query: str) -> None:
    """Note a named query this page run used that did not go through Store.run (exports)."""
    trace.note(query)


def queries_this_run() -> list[str]:
    return trace.current()


def traced_cache(**cache_options):
    """st.cache_data that also remembers which named queries the computation ran, and notes
    them again on every cache hit: a cached number explains itself like a fresh one."""
    def decorate(fn):
        def computed(*args, **kwargs):
            with trace.traced() as names:
                value = fn(*args, **kwargs)
            return value, tuple(names)
        # Streamlit keys a cache by the function's module and qualified name: keep fn's.
        computed.__module__, computed.__qualname__ = fn.__module__, fn.__qualname__
        cached = st.cache_data(**cache_options)(computed)

        @functools.wraps(fn)
        def serve(*args, **kwargs):
            value, names = cached(*args, **kwargs)
            trace.replay(names)
            return value
        serve.clear = cached.clear
        return serve
    return decorate


def per_collection(**cache_options):
    """The one cache of a result of the active collection: the decorated function takes the
    collection's name first and its callers leave it out (the active one, collection_name()).
    st.cache_data keys it by the manifest's path, that name and the other arguments, and, as
    traced_cache, a cache hit notes the named queries the computation ran (one tracing
    mechanism). Raising inside the function caches nothing: the next call computes again."""
    def decorate(fn):
        def keyed(manifest: str, collection: str, *args, **kwargs):
            return fn(collection, *args, **kwargs)
        keyed.__module__, keyed.__qualname__ = fn.__module__, fn.__qualname__  # the cache's key
        cached = traced_cache(**cache_options)(keyed)

        @functools.wraps(fn)
        def active(*args, **kwargs):
            return cached(str(catalog().manifest.path), collection_name(), *args, **kwargs)
        active.clear = cached.clear
        return active
    return decorate


@per_collection(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _cached(collection: str, query: str, params: tuple) -> pd.DataFrame:
    return catalog().store(collection).run(query, **dict(params))


def run(query: str, **params) -> pd.DataFrame:
    """Run queries/<query>.sql on the active collection; results cached per parameters.
    Export queries (`*_export`) are capped in SQL and never cached (judgescope/web/export.py)."""
    record_query(query)
    if query.endswith("_export"):
        return capped_frame(catalog().store(collection_name()), query, params)
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    # A spinner names what is computed; Streamlit shows it only if the call outlasts its delay
    # (0.5 s), so cached and fast results never flash it.
    with st.spinner(f"Computing: {db.query_title(query)}…", show_time=True):
        out = _cached(query, frozen)
    return out.copy()
