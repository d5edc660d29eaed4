"""The read-only SQL console's rules: on unless JUDGESCOPE_SQL=off, one SELECT checked by
DuckDB's parser (db.console_statement), a row cap, a time limit, run on the collection's locked
Store. No streamlit here, so the CLI and the tests read the same rules."""

from __future__ import annotations

import os

import pandas as pd

from judgescope.sources import db

ENV = "JUDGESCOPE_SQL"
ROW_CAP = 5_000
TIME_LIMIT_S = 10.0
EXAMPLE = "SELECT target_language, count(*) AS n, avg(score) AS mean\nFROM audit\nGROUP BY ALL\nORDER BY n DESC"
Refused, DBError = db.Refused, db.DBError
RULES = (f"One SELECT (or WITH … SELECT) statement, checked with DuckDB's parser; at most "
         f"{ROW_CAP:,} rows are shown; a query is stopped after {TIME_LIMIT_S:g} s. The "
         "connection is read-only: file access, ATTACH, COPY, SET, INSTALL and LOAD are refused.")


def enabled(environ=None) -> bool:
    """Off only when JUDGESCOPE_SQL is 'off' (also 0/false/no), for public deployments."""
    value = (environ if environ is not None else os.environ).get(ENV, "on")
    return value.strip().lower() not in {"off", "0", "false", "no"}


def run_console(store: db.Store, sql: str, max_rows: int = ROW_CAP,
        seconds: float = TIME_LIMIT_S) -> tuple[pd.DataFrame, bool]:
    """(rows, truncated) of one checked SELECT; raises Refused for anything else."""
    return store.run_console(sql, max_rows, seconds)


def schema(columns: pd.DataFrame) -> dict[str, list[str]]:
    """{view: ['column type', …]} from console_columns rows."""
    out: dict[str, list[str]] = {}
    for row in columns.itertuples(index=False):
        out.setdefault(row.view, []).append(f"{row.column_name} {row.data_type}")
    return out


def provenance_filters(sql: str, truncated: bool, max_rows: int = ROW_CAP) -> dict:
    """What an export of console rows carries in its provenance."""
    return {"sql": sql, "row_cap": max_rows, "truncated": truncated,
            "time_limit_s": TIME_LIMIT_S}
