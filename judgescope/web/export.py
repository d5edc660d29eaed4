"""Exports: CSV, Parquet and provenance JSON, bounded, built only when downloaded, never cached.

A page hands over either rows it already holds (`buttons`) or a named query (`query_buttons`):
the latter is streamed from DuckDB in record batches into a temporary file, read once and
deleted, so an export of a large audit never sits in memory as a DataFrame. Either way one
request exports at most `max_rows()` rows (JUDGESCOPE_EXPORT_MAX_ROWS); a capped export says
so on the page and in its provenance JSON.

CSV cells that a spreadsheet would run as a formula (beginning = + - @ tab or CR) are written
with a leading apostrophe, stated in the provenance; every field holding CR or LF is quoted.
"""

from __future__ import annotations

from datetime import datetime, timezone

import markupsafe
import pandas as pd
import streamlit as st

from judgescope import __version__
from judgescope.text import md_literal
from judgescope.duck.db import query_text
from judgescope.web.context import catalog, collection_name
from judgescope.sources.exports import (  # noqa: F401  (the pure writers, re-exported)
    BATCH_ROWS, DEFAULT_MAX_ROWS, FORMULA_GUARD, FORMULA_START, capped, capped_frame, capped_sql,
    csv_bytes, max_rows, neutralise, parquet_bytes, provenance_json, stream_query)


def _say_limit(note: dict) -> None:
    if note["truncated"]:
        of = f" of {note['rows_available']:,}" if note["rows_available"] else ""
        st.warning(f"This export holds the first {note['rows']:,} rows{of}: one export holds at "
                   f"most {note['limit']:,} rows (the page's list limit or the server's "
                   "JUDGESCOPE_EXPORT_MAX_ROWS). The provenance JSON records the limit.")


def buttons(frame: pd.DataFrame, stem: str, prov: dict, limit: int | None = None,
            available: int | None = None) -> None:
    """Download buttons for rows a page holds; files are built only when a button is clicked."""
    shown, note = capped(frame, limit, available)
    _say_limit(note)
    cols = st.columns(3)
    cols[0].download_button("⬇ CSV", lambda: csv_bytes(shown), f"{stem}.csv", "text/csv",
                            key=f"dl_csv_{stem}", on_click="ignore")
    cols[1].download_button("⬇ Parquet", lambda: parquet_bytes(shown), f"{stem}.parquet",
                            "application/octet-stream", key=f"dl_parquet_{stem}", on_click="ignore")
    cols[2].download_button("⬇ Provenance (JSON)", provenance_json(prov, note),
                            f"{stem}.provenance.json", "application/json", key=f"dl_prov_{stem}")


def query_buttons(store, query: str, params: dict, stem: str, prov: dict,
                  available: int | None = None) -> None:
    """Download buttons for every row of a named query, streamed from DuckDB on each click."""
    cap = max_rows()
    sql, bound = capped_sql(query_text(query)), {**params, "export_limit": cap}
    note = {"rows": min(available, cap) if available is not None else None,
            "rows_available": available, "limit": cap,
            "truncated": available is not None and available > cap}
    _say_limit(note)
    cols = st.columns(3)
    for col, fmt, mime in ((cols[0], "csv", "text/csv"), (cols[1], "parquet", "application/octet-stream")):
        col.download_button(f"⬇ {fmt.upper() if fmt == 'csv' else 'Parquet'}",
                            lambda fmt=fmt: stream_query(store.con.cursor, sql, bound, fmt)[0],
                            f"{stem}.{fmt}", mime, key=f"dl_{fmt}_{stem}", on_click="ignore")
    cols[2].download_button("⬇ Provenance (JSON)", provenance_json(prov, note),
                            f"{stem}.provenance.json", "application/json", key=f"dl_prov_{stem}")


def rows(frame: pd.DataFrame, stem: str, filters: dict, datasets: list[str] | None = None,
         limit: int | None = None, available: int | None = None) -> None:
    """A page's rows as CSV and Parquet (capped, built on click) with the JSON provenance that
    travels with them. `limit`: the page's list limit; `available`: rows matched."""
    limit = limit or (filters.get("limit") if isinstance(filters.get("limit"), int) else None)
    buttons(frame, stem, provenance(filters, len(frame), datasets), limit, available)


def query_rows(query: str, stem: str, filters: dict, datasets: list[str] | None = None,
               available: int | None = None, **params) -> None:
    """Every row of a named query, streamed from DuckDB when a download is clicked (capped)."""
    query_buttons(catalog().store(collection_name()), query, params, stem,
                  provenance(filters, available or 0, datasets), available)


def provenance(filters: dict, rows: int, datasets: list[str] | None = None) -> dict:
    """What travels with an export: the app, the collection, the filters and every dataset's
    pinned origin and file hashes."""
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


def report_html(collection: str) -> bytes:
    """The collection's report, the same bytes `python -m judgescope report-html` writes for
    the same data, seed and generation time (now). The report's modules are imported here, when
    a report is asked for: every page imports this module, and they bring scipy.stats (~1 s)."""
    from judgescope.report import assemble, html

    return html.render(assemble.collect(catalog(), collection, generated_at=assemble.now())).encode("utf-8")


# Why the last report of a collection could not be built (shown on the page on its next run):
# the download runs on its own thread, where a traceback would reach only the server's log.
FAILED: dict[str, str] = {}


def build_report(collection: str) -> bytes:
    """The report's bytes, or a small HTML page saying why it could not be built (and the reason
    kept in FAILED for the page to say too): a click never silently does nothing."""
    try:
        data = report_html(collection)
    except Exception as err:  # noqa: BLE001  any failure must reach the user, not only the server log
        reason = f"{type(err).__name__}: {str(err)[:300]}"
        FAILED[collection] = reason
        return ("<!DOCTYPE html><meta charset=utf-8><title>No report</title><p>The report of "
                f"{markupsafe.escape(collection)} could not be built: {markupsafe.escape(reason)}. "
                "`python -m judgescope report-html` names the problem with its exit code.</p>").encode("utf-8")
    FAILED.pop(collection, None)
    return data


def report_button() -> None:
    """"Download report": one self-contained HTML file to attach to an email (built on click)."""
    name = collection_name()
    if FAILED.get(name):
        st.error(f"The last report of this collection could not be built: {md_literal(FAILED[name], 300)}. The file "
                 "downloaded says the same; `judgescope report-html` on the command line names the "
                 "dataset at fault.", icon=":material/error:")
    st.download_button("Download report", lambda: build_report(name), file_name=f"{name}-report.html",
                       mime="text/html", icon=":material/download:", key="download_report",
                       help="One HTML file with the findings, charts, tables and provenance; it "
                            "opens offline, and `python -m judgescope check-report FILE` checks "
                            "it against the pinned data.")
