"""Streamlit helpers shared by the pages: active collection, cached queries, safe text, exports."""

from __future__ import annotations

import html
import math
import re
from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from judgescope import __version__
from judgescope.catalog import Catalog, get_catalog
from judgescope.schema import RTL_LANGUAGES, label

QUERY_CACHE_ENTRIES = 256


def catalog() -> Catalog:
    return get_catalog()


def collection_name() -> str:
    """The collection picked in the sidebar (URL parameter `collection`)."""
    names = list(catalog().manifest.collections)
    value = st.session_state.get("collection") or st.query_params.get("collection")
    return value if value in names else names[0]


@st.cache_data(max_entries=QUERY_CACHE_ENTRIES, show_spinner=False)
def _cached(manifest: str, collection: str, query: str, params: tuple) -> pd.DataFrame:
    return catalog().store(collection).run(query, **dict(params))


def run(query: str, **params) -> pd.DataFrame:
    """Run queries/<query>.sql on the active collection; results cached per parameters."""
    if query.endswith("_export"):  # export rows: capped in SQL and never cached (export.py)
        from judgescope import export
        return export.capped_frame(catalog().store(collection_name()), query, params)
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    out = _cached(str(catalog().manifest.path), collection_name(), query, frozen)
    return out.copy()


def roles() -> dict:
    return catalog().roles(collection_name())


def need(*wanted: str, what: str = "this page") -> None:
    """Stop the page with a clear note when the collection lacks a dataset the page needs."""
    have = roles()
    missing = [r for r in wanted if r not in have]
    if missing:
        names = ", ".join(missing)
        st.info(f"The collection **{collection_name()}** has no usable {names} dataset, which "
                f"{what} needs. Pick another collection in the sidebar, or see Overview for "
                "datasets that failed to load.")
        st.stop()


def text_block(text: str | None, lang: str | None = None, empty: str = "(empty)") -> None:
    """Data text shown as text: escaped, wrapped, never truncated, right-to-left where needed."""
    if text is None or (pd.api.types.is_scalar(text) and pd.isna(text)):
        st.caption(empty)
        return
    text = visible_text(str(text))
    base = str(lang or "").split("-")[0].lower()
    direction = "rtl" if base in RTL_LANGUAGES else "auto"
    st.html(f'<div dir="{direction}" lang="{html.escape(base)}" style="white-space:pre-wrap;'
            f'overflow-wrap:anywhere;unicode-bidi:isolate;font-size:0.95rem;line-height:1.5;'
            f'border:1px solid #ddd;border-radius:6px;padding:0.6rem;max-height:24rem;'
            f'overflow-y:auto">{html.escape(text)}</div>')


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
    """CSV and Parquet of these rows (capped, built on click; judgescope/export.py) and the JSON
    provenance that travels with them. `limit`: the page's list limit; `available`: rows matched."""
    from judgescope import export

    limit = limit or (filters.get("limit") if isinstance(filters.get("limit"), int) else None)
    export.buttons(frame, stem, provenance(filters, len(frame), datasets), limit, available)


def export_query(query: str, stem: str, filters: dict, datasets: list[str] | None = None,
                 available: int | None = None, **params) -> None:
    """Every row of a named query, streamed from DuckDB when a download is clicked (capped)."""
    from judgescope import export

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
    from judgescope import ranking
    return ranking.load(catalog().store(collection).run, fallback)


def ranking_frames():
    """(pairs, decisions) of the collection's ranking view, decisions parsed once and cached."""
    fallback = dataset_for("ranking").spec.name
    pairs, decisions = _ranking_frames(str(catalog().manifest.path), collection_name(), fallback)
    return pairs.copy(), decisions.copy()


def verification():
    """(summary, origin, problems) for the collection's audit against its snapshot.

    summary is None when there is nothing to verify or the inputs cannot be joined; problems
    then says why (empty when the collection simply has no snapshot).
    """
    from judgescope import verify
    from judgescope.db import DBError

    have = roles()
    if "audit" not in have or "snapshot" not in have:
        return None, None, []
    origin = have["snapshot"].spec.origin.removeprefix("local: ")
    problems = catalog().verify_problems(collection_name())
    if problems:
        return None, origin, problems
    try:
        return verify.summarise(run), origin, []
    except (verify.SourceError, DBError) as err:
        return None, origin, [str(err).splitlines()[0]]


# Which pages read each kind of dataset (Overview links to them).
PAGES_FOR_KIND = {
    "judge_audit": ("pages/distributions.py", "pages/languages.py", "pages/review.py",
                    "pages/exact_copies.py", "pages/provenance.py", "pages/compare.py",
                    "pages/integrity.py"),
    "source_snapshot": ("pages/integrity.py", "pages/review.py", "pages/exact_copies.py"),
    "raw_judge_records": ("pages/provenance.py", "pages/excluded.py"),
    "calibration_items": ("pages/calibration.py", "pages/calibration_humans.py",
                          "pages/disagreements.py"),
    "calibration_judgements": ("pages/calibration.py", "pages/disagreements.py",
                               "pages/judgements.py"),
    "pairwise_ranking": ("pages/ranking.py", "pages/position_bias.py", "pages/pairs.py"),
    "human_verification": ("pages/verification.py",),
}


def page_links(kind: str) -> None:
    """Links to the pages that use a kind of dataset, keeping the collection in the URL."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pages = [p for p in PAGES_FOR_KIND.get(kind, ()) if (root / p).exists()]
    if not pages:
        return
    cols = st.columns(len(pages))
    for col, page in zip(cols, pages):
        with col:
            st.page_link(page, query_params={"collection": collection_name()})


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
        format="%d" if integer else None, key=key, bind="query-params", **kwargs)
    return int(round(value)) if integer else value


@st.cache_data(max_entries=64, show_spinner="Bootstrapping…")
def distribution_table(counts: pd.DataFrame, thresholds: tuple, split: bool, resamples: int,
                       seed: int) -> pd.DataFrame:
    """audit.distribution_table, cached: its seeded bootstrap is the page's costliest step."""
    from judgescope import audit

    return audit.distribution_table(counts, thresholds, split, resamples, seed)


def ranking_decisions(what: str):
    """Pairs and parsed decisions of the collection's ranking data; without model decisions the
    page says so, shows the human-only summary and stops."""
    from judgescope import ranking
    from judgescope.ranking_tables import NO_DECISIONS

    need("ranking", what=what)
    pairs, decisions = ranking_frames()
    if decisions.empty:
        st.info(NO_DECISIONS)
        table(ranking.human_summary(pairs))
        st.stop()
    return pairs, decisions
