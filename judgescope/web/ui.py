"""Streamlit helpers shared by the pages: active collection, cached queries, safe text, exports."""

from __future__ import annotations

import functools
import html
from contextlib import contextmanager
from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from judgescope import __version__
from judgescope.sources import trace
from judgescope.text import md_label, md_literal, visible_text  # noqa: F401 (pages call ui.md_literal)
from judgescope.sources.catalog import Catalog, get_catalog
from judgescope.schema import RTL_LANGUAGES, label

QUERY_CACHE_ENTRIES = 256


def catalog() -> Catalog:
    return get_catalog()


PICKER_KEY = "_collection_picker"


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
    if value is not None and not st.session_state.get("_collection_notice_shown") == value:
        st.session_state["_collection_notice_shown"] = value
        st.toast(f"No collection {md_literal(repr(value))} in this manifest; showing "
                 f"{md_literal(fallback)}.", icon=":material/warning:")
    st.query_params["collection"] = fallback
    return fallback


def visible_collections() -> list[str]:
    """The manifest's collections, plus those opened from the Hub in this browser session (or
    named by the URL): one visitor's opened datasets are not listed to another."""
    from judgescope.sources.hub_open import SESSION_COLLECTIONS

    from judgescope.sources.upload import UPLOAD_COLLECTIONS

    mine = st.session_state.setdefault("_opened_collections", set())
    uploaded = st.session_state.setdefault("_uploaded_collections", set())  # never by URL
    linked = st.query_params.get("collection")
    if linked in SESSION_COLLECTIONS:
        mine.add(linked)
    return [n for n in catalog().manifest.collections
            if (n not in SESSION_COLLECTIONS or n in mine) and (n not in UPLOAD_COLLECTIONS or n in uploaded)]


def switch_collection(new: str | None = None) -> None:
    """The picker's callback (and Overview's collection chips', with `new`): the new collection
    starts clean (filters, record, page position), in the URL and in the sidebar's picker."""
    new = new or st.session_state[PICKER_KEY]
    for key in list(st.query_params):
        st.session_state.pop(key, None)  # a URL-bound widget would write its old value back
        st.session_state.pop(f"_w_{key}", None)
    st.query_params.clear()
    st.query_params["collection"] = new
    st.session_state["_collection"] = new
    st.session_state[PICKER_KEY] = new


def title(text: str) -> None:
    """Every page's first line: the title (with the anchor "content"), once the collection is
    known to fill the page (judgescope.web.navigation); otherwise one sentence naming the
    collections that do, and the page stops before any query."""
    import sys
    from pathlib import Path

    from judgescope.web import navigation

    # The calling page's file names it; one frame up, read cheaply (inspect.stack() would read
    # the source of every frame on every rerun).
    spec = navigation.page(Path(sys._getframe(1).f_code.co_filename).stem)
    st.title(text, anchor="content")
    if not spec.fits(roles()):
        unavailable(spec)
        stop()
    from judgescope.schema import language_pairs, use_language_pairs

    pairs = {}
    if "audit" in roles():  # labels name the direction when the audit has several sources
        with trace.traced():  # vocabulary for labels, not one of the page's numbers
            frame = run("audit_language_pairs")
        pairs = language_pairs(zip(frame.target_language, frame.source_language))
    use_language_pairs(pairs)


def unavailable(spec) -> None:
    """This collection cannot fill `spec`: say which dataset is missing and link the
    collections that can fill it."""
    from judgescope.web import navigation

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
        st.page_link(spec.path, label=cat.manifest.collections[name].title,
                     icon=":material/arrow_forward:", query_params={"collection": name})


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


@traced_cache(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _cached(manifest: str, collection: str, query: str, params: tuple) -> pd.DataFrame:
    return catalog().store(collection).run(query, **dict(params))


class PageStopped(Exception):
    """Raised by stop(): app.py ends the page there and still shows its disclosure."""


_IN_PAGE = "_judgescope_in_page"


def stop():
    """End the page here. Use instead of st.stop(): after st.stop() nothing renders, so the page
    would lose "How is this computed?" for what it already showed (app.py catches this). Outside
    a page run (the sidebar, a page run alone) it is st.stop()."""
    if st.session_state.get(_IN_PAGE):
        raise PageStopped
    st.stop()


@contextmanager
def page_trace():
    """app.py, around the page only: the queries it runs (Store.run notes each, cached ones are
    replayed) are what "How is this computed?" lists; the sidebar's never mix in."""
    st.session_state[_IN_PAGE] = True
    try:
        with trace.traced() as names:
            yield names
    finally:
        st.session_state[_IN_PAGE] = False


def record_query(query: str) -> None:
    """Note a named query this page run used that did not go through Store.run (exports)."""
    trace.note(query)


def queries_this_run() -> list[str]:
    return trace.current()


def run(query: str, **params) -> pd.DataFrame:
    """Run queries/<query>.sql on the active collection; results cached per parameters."""
    record_query(query)
    if query.endswith("_export"):  # export rows: capped in SQL and never cached (export.py)
        from judgescope.web import export
        return export.capped_frame(catalog().store(collection_name()), query, params)
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    out = _cached(str(catalog().manifest.path), collection_name(), query, frozen)
    return out.copy()


def roles() -> dict:
    return catalog().roles(collection_name())


def text_block(text: str | None, lang: str | None = None, empty: str = "(empty)") -> None:
    """Data text shown as text: escaped, wrapped, right-to-left where needed; a very long text
    shows its first characters with its size and a download of the whole (judgescope.bounded)."""
    from judgescope import bounded

    if text is None or (pd.api.types.is_scalar(text) and pd.isna(text)):
        st.caption(empty)
        return
    part = bounded.prefix(str(text))
    shown = visible_text(part.shown)
    base = str(lang or "").split("-")[0].lower()
    direction = "rtl" if base in RTL_LANGUAGES else "auto"
    st.html(f'<div dir="{direction}" lang="{html.escape(base)}" style="white-space:pre-wrap;'
            f'overflow-wrap:anywhere;unicode-bidi:isolate;font-size:0.95rem;line-height:1.5;'
            f'border:1px solid #ddd;border-radius:6px;padding:0.6rem;max-height:24rem;'
            f'overflow-y:auto">{html.escape(shown)}</div>')
    if part.truncated:
        st.caption(part.note())
        st.download_button("⬇ The whole text", str(text).encode("utf-8", "surrogatepass"),
                           "text.txt", "text/plain", on_click="ignore")


def provenance(filters: dict, rows: int, datasets: list[str] | None = None) -> dict:
    cat = catalog()
    chosen = datasets or [d.spec.name for d in cat.collection_datasets(collection_name())]
    return {
        "app": "JudgeScope", "app_version": __version__,
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "collection": collection_name(), "rows": rows, "filters": filters,
        "datasets": [_dataset_provenance(cat.dataset(n)) for n in chosen],
    }


def _dataset_provenance(loaded) -> dict:
    rep = loaded.report or {}
    return {"name": loaded.spec.name, "kind": loaded.spec.kind, "hub": loaded.spec.hub,
            "revision": loaded.spec.revision, "path": loaded.spec.path,
            "config": loaded.spec.config, "split": loaded.spec.split,
            "synthetic": loaded.spec.synthetic,
            "files": [{k: f[k] for k in ("file", "sha256", "size")} for f in rep.get("files", [])]}


def export_buttons(frame: pd.DataFrame, stem: str, filters: dict,
                   datasets: list[str] | None = None, limit: int | None = None,
                   available: int | None = None) -> None:
    """CSV and Parquet of these rows (capped, built on click; judgescope/web/export.py) and the JSON
    provenance that travels with them. `limit`: the page's list limit; `available`: rows matched."""
    from judgescope.web import export

    limit = limit or (filters.get("limit") if isinstance(filters.get("limit"), int) else None)
    export.buttons(frame, stem, provenance(filters, len(frame), datasets), limit, available)


def export_query(query: str, stem: str, filters: dict, datasets: list[str] | None = None,
                 available: int | None = None, **params) -> None:
    """Every row of a named query, streamed from DuckDB when a download is clicked (capped)."""
    from judgescope.web import export

    export.query_buttons(catalog().store(collection_name()), query, params, stem,
                         provenance(filters, available or 0, datasets), available)


def table(frame: pd.DataFrame, **kwargs):
    """A dataframe with readable column labels (SQL returns snake_case)."""
    shown = frame.rename(columns={c: label(c) for c in frame.columns})
    return st.dataframe(shown, hide_index=True, **kwargs)


def fmt_n(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and pd.isna(value)) else f"{value:,}"


def dataset_for(role: str):
    """The Loaded dataset behind a view name (audit, snapshot, items, …) in this collection."""
    return roles().get(role)


def missing_columns(role: str) -> set[str]:
    """Schema columns the dataset behind `role` lacks (its view holds them as NULL)."""
    loaded = dataset_for(role)
    return set(loaded.report["columns_missing"]) if loaded else set()


@traced_cache(max_entries=16, show_spinner="Parsing ranking decisions…")
def _ranking_frames(manifest: str, collection: str, fallback: str):
    from judgescope.ranking import decisions as ranking
    return ranking.load(catalog().store(collection).run, fallback)


@traced_cache(max_entries=16, show_spinner="Reading swapped-order decisions and system families…")
def _ranking_probe_frames(manifest: str, collection: str):
    from judgescope.ranking import probes
    return probes.load(catalog().store(collection).run)


def ranking_probe_frames():
    """(swapped-order decisions, system families) of the collection's ranking view, cached."""
    swapped, families = _ranking_probe_frames(str(catalog().manifest.path), collection_name())
    return swapped.copy(), families.copy()


def ranking_frames():
    """(pairs, decisions) of the collection's ranking view, decisions parsed once and cached."""
    fallback = dataset_for("ranking").spec.name
    pairs, decisions = _ranking_frames(str(catalog().manifest.path), collection_name(), fallback)
    return pairs.copy(), decisions.copy()


def verification():
    """(summary, origin, problems) for the active collection: see verification_for."""
    summary, origin, problems = verification_for(collection_name())
    if summary is not None:
        record_query("verify_summary")
    return summary, origin, problems


def verification_for(collection: str):
    """(summary, origin, problems) for a collection's audit against its snapshot.

    summary is None when there is nothing to verify or the inputs cannot be joined; problems
    then says why (empty when the collection simply has no snapshot).
    """
    from judgescope.integrity import hashes as verify
    from judgescope.sources.db import DBError

    cat = catalog()
    have = cat.roles(collection)
    if "audit" not in have or "snapshot" not in have:
        return None, None, []
    origin = have["snapshot"].spec.origin.removeprefix("local: ")
    problems = cat.verify_problems(collection)
    if problems:
        return None, origin, problems
    try:
        return verify.summarise(cat.store(collection).run), origin, []
    except (verify.SourceError, DBError) as err:
        return None, origin, [str(err).splitlines()[0]]


SPAN_COLOURS = {"major": "#f6c1c1", "critical": "#f09a9a", "minor": "#fbe3a6"}


def spans_block(pieces: list[tuple[str, str | None, str | None]]) -> None:
    """A text with its error spans highlighted (as Marot shows MQM annotations): every piece and
    label from the data is escaped; a span's category and severity follow it as text, so they
    are read aloud and copied too, not only coloured."""
    parts = []
    for piece, span_label, severity in pieces:
        shown = html.escape(visible_text(piece))
        if span_label is None:
            parts.append(shown)
            continue
        colour = SPAN_COLOURS.get(severity or "", "#dcdcf4")
        tag = html.escape(visible_text(span_label))
        parts.append(f'<mark style="background:{colour};border-radius:3px;padding:0 2px">{shown}'
                     f'</mark><sup style="font-size:0.7rem;color:#444"> [{tag}]</sup>')
    st.html('<div style="white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate;'
            'line-height:1.8;border:1px solid #ddd;border-radius:6px;padding:0.6rem">'
            + "".join(parts) + "</div>")


@st.cache_data(max_entries=64, show_spinner="Bootstrapping…")
def distribution_table(counts: pd.DataFrame, thresholds: tuple, split: bool, resamples: int,
                       seed: int) -> pd.DataFrame:
    """audit.distribution_table, cached: its seeded bootstrap is the page's costliest step."""
    from judgescope.audit import summary as audit

    return audit.distribution_table(counts, thresholds, split, resamples, seed)


def ranking_decisions(what: str):
    """Pairs and parsed decisions of the collection's ranking data; without model decisions the
    page says so, shows the human-only summary and stops."""
    from judgescope.ranking import decisions as ranking
    from judgescope.ranking.tables import NO_DECISIONS

    pairs, decisions = ranking_frames()
    if decisions.empty:
        st.info(NO_DECISIONS)
        table(ranking.human_summary(pairs))
        stop()
    return pairs, decisions


@st.cache_data(max_entries=16, show_spinner="Bootstrapping each cell…")
def cell_bootstrap(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean, n and seeded bootstrap CI per language × unit (the heatmap's hover)."""
    from judgescope.audit import summary as audit

    boot = audit.bootstrap_table(counts, ["target_language", "unit"])
    n = counts.groupby(["target_language", "unit"], as_index=False)["n"].sum()
    return boot.merge(n, on=["target_language", "unit"])


def joined_snapshot() -> bool:
    """Whether the collection's audit rows are joined to snapshot rows (Integrity's
    hash_verification): then Review can show each row's texts."""
    return "hash_verification" in catalog().store(collection_name()).views


def audit_counts(facet: str = "none") -> pd.DataFrame:
    """The audit's per-score counts; a page of an audit without usable rows says so and stops."""
    from judgescope.audit import summary as audit

    counts = audit.score_counts(run, facet)
    note = audit.no_rows(counts)
    if note:
        st.info(note)
        stop()
    return counts
