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

import csv
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

DEFAULT_MAX_ROWS = 200_000
BATCH_ROWS = 50_000
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
FORMULA_GUARD = ("CSV cells beginning with = + - @, a tab or a carriage return are prefixed with "
                 "an apostrophe (') so that a spreadsheet shows them as text; the Parquet file "
                 "holds the values unchanged.")


def max_rows() -> int:
    """Rows one export may hold (JUDGESCOPE_EXPORT_MAX_ROWS, default 200,000)."""
    try:
        return max(1, int(os.environ.get("JUDGESCOPE_EXPORT_MAX_ROWS", DEFAULT_MAX_ROWS)))
    except ValueError:
        return DEFAULT_MAX_ROWS


def neutralise(value):
    """A text cell a spreadsheet would evaluate, made literal; other values unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_bytes(frame: pd.DataFrame, header: bool = True) -> bytes:
    """RFC 4180 CSV (CRLF, so a field holding CR or LF alone is quoted) with formulas neutralised."""
    safe = frame.copy()
    for col in safe.columns:
        if safe[col].dtype == object or pd.api.types.is_string_dtype(safe[col]):
            safe[col] = safe[col].map(neutralise)
    return safe.to_csv(index=False, header=header, lineterminator="\r\n",
                       quoting=csv.QUOTE_MINIMAL).encode("utf-8")


def parquet_bytes(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    return buf.getvalue()


def provenance_json(prov: dict, note: dict) -> bytes:
    out = dict(prov, rows=note["rows"], export_limit=note, csv_formula_guard=FORMULA_GUARD)
    return json.dumps(out, indent=1, ensure_ascii=False, default=str).encode("utf-8")


def capped(frame: pd.DataFrame, limit: int | None = None, available: int | None = None
           ) -> tuple[pd.DataFrame, dict]:
    """The rows one export may hold and its limit note. `limit` is the page's own list limit
    (its rows are then the first `limit`), `available` how many rows matched, when known."""
    cap = max_rows()
    bound = min(cap, limit) if limit else cap
    shown = frame.head(bound)
    truncated = (len(frame) > len(shown) or (available is not None and available > len(shown))
                 or (available is None and limit is not None and len(frame) >= limit))
    return shown, {"rows": len(shown), "rows_available": available, "limit": bound,
                   "truncated": bool(truncated)}


def stream_query(cursor_factory: Callable, sql: str, params: dict, fmt: str,
                 folder: Path | None = None) -> tuple[bytes, int]:
    """Rows of `sql` (a named query's text, capped by the caller) written batch by batch to a
    temporary file, read back once and deleted: (file bytes, rows)."""
    cur = cursor_factory()
    fd, name = tempfile.mkstemp(suffix=f".{fmt}", dir=folder)
    os.close(fd)
    path, rows = Path(name), 0
    try:
        reader = cur.sql(sql, params=params).to_arrow_reader(BATCH_ROWS)
        rows = _write_batches(reader, path, fmt)
        return path.read_bytes(), rows
    finally:
        cur.close()
        path.unlink(missing_ok=True)


def _write_batches(reader: pa.RecordBatchReader, path: Path, fmt: str) -> int:
    rows = 0
    if fmt == "parquet":
        with pq.ParquetWriter(path, reader.schema) as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        return rows
    with path.open("wb") as fh:
        for batch in reader:
            fh.write(csv_bytes(batch.to_pandas(), header=rows == 0))
            rows += batch.num_rows
        if rows == 0:
            fh.write(csv_bytes(reader.schema.empty_table().to_pandas()))
    return rows


def capped_sql(query_text: str) -> str:
    """A named query's text with the export cap bound as $export_limit (no user text enters)."""
    return f"SELECT * FROM (\n{query_text}\n) AS export_rows LIMIT $export_limit"


def capped_frame(store, query: str, params: dict) -> pd.DataFrame:
    """A named export query's rows, at most max_rows() + 1 of them (the extra one says "more")."""
    from judgescope.sources.db import query_text

    cur = store.con.cursor()
    try:
        return cur.execute(capped_sql(query_text(query)),
                           {**params, "export_limit": max_rows() + 1}).df()
    finally:
        cur.close()


def _say_limit(st, note: dict) -> None:
    if note["truncated"]:
        of = f" of {note['rows_available']:,}" if note["rows_available"] else ""
        st.warning(f"This export holds the first {note['rows']:,} rows{of}: one export holds at "
                   f"most {note['limit']:,} rows (the page's list limit or the server's "
                   "JUDGESCOPE_EXPORT_MAX_ROWS). The provenance JSON records the limit.")


def buttons(frame: pd.DataFrame, stem: str, prov: dict, limit: int | None = None,
            available: int | None = None) -> None:
    """Download buttons for rows a page holds; files are built only when a button is clicked."""
    import streamlit as st

    shown, note = capped(frame, limit, available)
    _say_limit(st, note)
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
    import streamlit as st

    from judgescope.sources.db import query_text

    cap = max_rows()
    sql, bound = capped_sql(query_text(query)), {**params, "export_limit": cap}
    note = {"rows": min(available, cap) if available is not None else None,
            "rows_available": available, "limit": cap,
            "truncated": available is not None and available > cap}
    _say_limit(st, note)
    cols = st.columns(3)
    for col, fmt, mime in ((cols[0], "csv", "text/csv"), (cols[1], "parquet", "application/octet-stream")):
        col.download_button(f"⬇ {fmt.upper() if fmt == 'csv' else 'Parquet'}",
                            lambda fmt=fmt: stream_query(store.con.cursor, sql, bound, fmt)[0],
                            f"{stem}.{fmt}", mime, key=f"dl_{fmt}_{stem}", on_click="ignore")
    cols[2].download_button("⬇ Provenance (JSON)", provenance_json(prov, note),
                            f"{stem}.provenance.json", "application/json", key=f"dl_prov_{stem}")
