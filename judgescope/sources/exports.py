"""Export files, pure: CSV with spreadsheet formulas neutralised, Parquet, the provenance JSON,
the row cap, and named queries streamed from DuckDB in record batches into a temporary file.
judgescope.web.export puts them behind download buttons; the reviews log writes with them too.

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
    # Column names are cells of the header row: a console query can name a column =HYPERLINK(…).
    safe.columns = [neutralise(c) if isinstance(c, str) else c for c in safe.columns]
    for i in range(safe.shape[1]):  # by position: column names may repeat
        col = safe.iloc[:, i]
        if col.dtype == object or pd.api.types.is_string_dtype(col):
            safe.isetitem(i, col.map(neutralise))
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
    from judgescope.duck.db import query_text

    cur = store.con.cursor()
    try:
        return cur.execute(capped_sql(query_text(query)),
                           {**params, "export_limit": max_rows() + 1}).df()
    finally:
        cur.close()
