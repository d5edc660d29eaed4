"""Streamlit helpers shared by the pages: active collection, cached queries, safe text, exports."""

from __future__ import annotations

import html
import math
import re
from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from judgescope import __version__
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
        st.stop()
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

    mine = st.session_state.setdefault("_opened_collections", set())
    linked = st.query_params.get("collection")
    if linked in SESSION_COLLECTIONS:
        mine.add(linked)
    return [n for n in catalog().manifest.collections if n not in SESSION_COLLECTIONS or n in mine]


def switch_collection() -> None:
    """The picker's callback: the new collection starts clean (filters, record, page position)."""
    new = st.session_state[PICKER_KEY]
    for key in list(st.query_params):
        st.session_state.pop(key, None)  # a URL-bound widget would write its old value back
        st.session_state.pop(f"_w_{key}", None)
    st.query_params.clear()
    st.query_params["collection"] = new
    st.session_state["_collection"] = new


def title(text: str) -> None:
    """Every page's first line: the title (with the anchor "content"), once the collection is
    known to fill the page (judgescope.web.navigation); otherwise one sentence naming the
    collections that do, and the page stops before any query."""
    import inspect
    from pathlib import Path

    from judgescope.web import navigation

    spec = navigation.page(Path(inspect.stack()[1].filename).stem)
    st.title(text, anchor="content")
    if not spec.fits(roles()):
        unavailable(spec)
        st.stop()


def unavailable(spec) -> None:
    """This collection cannot fill `spec`: say which dataset is missing and link the
    collections that can fill it."""
    from judgescope.web import navigation

    cat = catalog()
    names = navigation.collections_for(
        spec, {n: cat.roles(n) for n in visible_collections()})
    coll = cat.manifest.collections[collection_name()]
    missing = " or ".join(navigation.missing_roles(spec, roles()))
    st.info(f"The collection **{md_literal(coll.title)}** has no {missing} dataset, "
            f"which {spec.what} needs."
            + (" These collections have one:" if names else
               " No collection of this manifest has one; see Overview for datasets that failed to load."))
    for name in names:
        st.page_link(spec.path, label=cat.manifest.collections[name].title,
                     icon=":material/arrow_forward:", query_params={"collection": name})


@st.cache_data(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _cached(manifest: str, collection: str, query: str, params: tuple) -> pd.DataFrame:
    return catalog().store(collection).run(query, **dict(params))


_QUERIES_SHOWN = "_queries_this_run"


def begin_run() -> None:
    """app.py, before the page: the page's queries are recorded for "How is this computed"."""
    st.session_state[_QUERIES_SHOWN] = []


def _record(query: str) -> None:
    used = st.session_state.setdefault(_QUERIES_SHOWN, [])
    if query not in used:
        used.append(query)


def run(query: str, **params) -> pd.DataFrame:
    """Run queries/<query>.sql on the active collection; results cached per parameters."""
    _record(query)
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


def fmt_n(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and pd.isna(value)) else f"{value:,}"


def dataset_for(role: str):
    """The Loaded dataset behind a view name (audit, snapshot, items, …) in this collection."""
    return roles().get(role)


def missing_columns(role: str) -> set[str]:
    """Schema columns the dataset behind `role` lacks (its view holds them as NULL)."""
    loaded = dataset_for(role)
    return set(loaded.report["columns_missing"]) if loaded else set()


@st.cache_data(max_entries=16, show_spinner="Parsing ranking decisions…")
def _ranking_frames(manifest: str, collection: str, fallback: str):
    from judgescope.ranking import decisions as ranking
    return ranking.load(catalog().store(collection).run, fallback)


def ranking_frames():
    """(pairs, decisions) of the collection's ranking view, decisions parsed once and cached."""
    fallback = dataset_for("ranking").spec.name
    pairs, decisions = _ranking_frames(str(catalog().manifest.path), collection_name(), fallback)
    return pairs.copy(), decisions.copy()


def verification():
    """(summary, origin, problems) for the active collection: see verification_for."""
    summary, origin, problems = verification_for(collection_name())
    if summary is not None:
        _record("verify_summary")
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


# Control characters other than tab, newline and carriage return, shown as their Unicode "control pictures".
_CONTROLS = {c: 0x2400 + c for c in range(0x20) if c not in (9, 10, 13)} | {0x7F: 0x2421}
_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
_AUTOLINK_BREAK = re.compile(r"\\[:.@]")


def visible_text(text: str) -> str:
    """Data text made safe to send and to read: control characters drawn (␀, ␛), lone
    surrogates (which cannot be encoded as UTF-8) replaced by U+FFFD."""
    text = text.translate(_CONTROLS)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def md_literal(text: str, limit: int = 120) -> str:
    """Text shown literally inside markdown (URL values, data labels): every ASCII punctuation
    mark escaped, so no link, image, directive or formula can be formed; one line, shortened,
    isolated (U+2068…U+2069) so a right-to-left override inside cannot flip the text after it."""
    text = visible_text(str(text)).replace("\n", " ")
    if len(text) > limit:
        text = text[:limit] + "…"
    # Escaping ':' and '.' does not stop GFM's autolink literals (http://…, www.…, a@b.c): a
    # word joiner (U+2060, invisible) before every ':', '.' and '@' does ("http⁠:" is no scheme).
    text = _MD_PUNCT.sub(r"\\\1", text)
    return "\u2068" + _AUTOLINK_BREAK.sub("\u2060\\g<0>", text) + "\u2069"


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
        st.stop()
    return pairs, decisions


def literal(text: str) -> None:
    """A sentence built from data values, shown as text inside markdown (links never form)."""
    st.markdown(md_literal(text, limit=2_000))


@st.cache_data(max_entries=32, show_spinner="Summarising the collection…")
def _findings(manifest: str, collection: str) -> tuple[list, list]:
    from judgescope import findings
    from judgescope.audit import summary as audit
    from judgescope.ranking import decisions as ranking
    from judgescope.integrity import hashes as verify
    from judgescope.calibration import panel as cal

    cat = catalog()
    have = cat.roles(collection)
    used: list[str] = []

    def run(query, **params):  # records what the findings read, for "How is this computed"
        used.append(query)
        return cat.store(collection).run(query, **params)
    out = []
    if "audit" in have:
        rep = have["audit"].report or {}
        copies = run("audit_exact_copy_counts")["exact_copies"].sum()
        summary, origin, problems = verification_for(collection)
        if summary is not None:
            used.append("verify_summary")
        hashes = verify.badge(summary, origin) if "snapshot" in have else None
        if problems:
            hashes = (f"not verified: {problems[0]}", "red")
        out += findings.audit_findings(
            audit.score_counts(run), excluded=int(rep.get("rows_excluded", 0)),
            loaded=int(rep.get("rows_loaded", 0)), exact_copies=int(copies), hashes=hashes)
    if "items" in have and "judgements" in have:
        items = run("calib_items", **cal.split_params([]))
        judgements = run("calib_item_judgements", **cal.split_params([]))
        if not items.empty and not judgements.empty:
            out += findings.calibration(cal.report(items, judgements))
    if "ranking" in have:
        _, decisions = ranking.load(run, have["ranking"].spec.name)
        if not decisions.empty:
            out += findings.ranking_findings(ranking.results(decisions, with_total=True),
                                             ranking.ALL_DATASETS)
    return out, list(dict.fromkeys(used))


def findings() -> list:
    """The collection's headline findings (cached per collection)."""
    found, used = _findings(str(catalog().manifest.path), collection_name())
    for query in used:
        _record(query)
    return found


@st.cache_data(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _chain(manifest: str, collection: str, query: str) -> str:
    from judgescope.sources import explain

    return explain.as_text(explain.chain(catalog(), collection, query))


def how_computed() -> None:
    """Under every page: each query it ran → the views read → cached files → pinned sources
    (the same chain as `python -m judgescope explain QUERY`)."""
    used = st.session_state.get(_QUERIES_SHOWN) or []
    if not used:
        return
    with st.expander(f"How is this computed? {len(used)} quer{'y' if len(used) == 1 else 'ies'}, "
                     "their views, cached files and pinned sources", icon=":material/account_tree:"):
        st.caption("Every number on this page comes from these named queries (queries/*.sql), "
                   "over these views, read from these cached files, built from these pinned "
                   "files. `python -m judgescope explain QUERY --collection "
                   f"{md_literal(collection_name())}` prints the same.")
        for query in used:
            st.code(_chain(str(catalog().manifest.path), collection_name(), query), language=None,
                    wrap_lines=True)


BADGE_ICONS = {"PASS": ":material/check_circle:", "FAIL": ":material/cancel:",
               "INCONCLUSIVE": ":material/help:", "ok": ":material/check:",
               "problem": ":material/warning:"}


def badge_md(status: str | None, colour: str) -> str:
    """A coloured markdown badge for a fixed status word (never data text)."""
    if status not in BADGE_ICONS:
        return ""
    word = status if status.isupper() else ""
    return f":{colour}-badge[{BADGE_ICONS[status]} {word}]".replace(" ]", "]") + " "


def finding(f) -> None:
    """One finding: a coloured badge, the sentence as text, and a link to the view proving it."""
    from judgescope.web import navigation

    spec = navigation.page(f.page)
    text, link = st.columns([5, 2], vertical_alignment="center")
    text.markdown(badge_md(f.status, f.colour) + md_literal(f.text, limit=2_000))
    link.page_link(spec.path, label=f"{md_literal(f.link, limit=80)} →", icon=spec.icon,
                   query_params={"collection": collection_name(), **f.params})


@st.cache_data(max_entries=16, show_spinner="Bootstrapping each cell…")
def cell_bootstrap(counts: pd.DataFrame) -> pd.DataFrame:
    """Mean, n and seeded bootstrap CI per language × unit (the heatmap's hover)."""
    from judgescope.audit import summary as audit

    boot = audit.bootstrap_table(counts, ["target_language", "unit"])
    n = counts.groupby(["target_language", "unit"], as_index=False)["n"].sum()
    return boot.merge(n, on=["target_language", "unit"])


def open_page(stem: str, **params) -> None:
    """Go to a registry page with these URL parameters and the collection (a drill-down)."""
    from judgescope.web import navigation

    spec = navigation.page(stem)
    st.switch_page(spec.path, query_params={"collection": collection_name(), **params})


def set_position(position, sig: str) -> None:
    """Move a keyset list to `position` (its URL parameters) and rerun."""
    for key in ("after", "at", "sig"):
        st.query_params.pop(key, None)
    st.query_params.update(position.to_params(sig))
    st.rerun()


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


def with_record_links(frame: pd.DataFrame, id_col: str = "judge_record_id") -> pd.DataFrame:
    """The frame with an `open` column: each row's Review URL (shown with RECORD_LINK)."""
    from judgescope.web import navigation

    review = navigation.page("review")
    links = [navigation.href(review, collection=collection_name(), record=i) for i in frame[id_col]]
    return frame.assign(open=links)[["open", *frame.columns]]


RECORD_LINK = {"Open": st.column_config.LinkColumn("Open", display_text="record", width="small")}


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
                               **kwargs)


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
        st.stop()
    return counts
