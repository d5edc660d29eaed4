"""The read-only SQL console's rules: on unless JUDGESCOPE_SQL=off, one SELECT checked by
DuckDB's parser, syntax tree and plan (console_guard), a row cap, a byte cap, a time limit, run
in a bounded child process (console_worker) over the collection's views. A byte-bounded result
cache. No streamlit here, so the CLI and the tests read the same rules."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import pandas as pd

from judgescope.console import console_worker
from judgescope.duck import db

ENV = "JUDGESCOPE_SQL"
ROW_CAP = 5_000
TIME_LIMIT_S = 10.0
EXAMPLE = "SELECT target_language, count(*) AS n, avg(score) AS mean\nFROM audit\nGROUP BY ALL\nORDER BY n DESC"
Refused, DBError = db.Refused, db.DBError
BYTE_CAP = console_worker.MAX_BYTES
CACHE_BYTES = 200_000_000  # results kept for reruns, all sessions together
RULES = (f"One SELECT (or WITH … SELECT) statement, checked with DuckDB's parser and plan; at "
         f"most {ROW_CAP:,} rows and {BYTE_CAP // 1_000_000} MB are shown; a query is stopped "
         f"after {TIME_LIMIT_S:g} s, fetching included. The connection is read-only: file "
         "access, ATTACH, COPY (anywhere in the statement), SET, INSTALL, LOAD and the settings "
         "and catalogue functions are refused.")
# (label, SQL) examples, each shown when the collection has the views it reads.
EXAMPLES = (
    ("Rows and mean score per language", {"audit"}, EXAMPLE),
    ("The 20 lowest scores", {"audit"}, "SELECT judge_record_id, target_language, unit, score\n"
     "FROM audit\nORDER BY score, judge_record_id\nLIMIT 20"),
    ("Scores per unit", {"audit"}, "SELECT unit, count(*) AS n, min(score) AS lowest, "
     "max(score) AS highest\nFROM audit\nGROUP BY unit\nORDER BY n DESC"),
    ("Columns of the audit", {"audit"}, "DESCRIBE audit"),
)


def enabled(environ=None) -> bool:
    """Off only when JUDGESCOPE_SQL is 'off' (also 0/false/no), for public deployments."""
    value = (environ if environ is not None else os.environ).get(ENV, "on")
    return value.strip().lower() not in {"off", "0", "false", "no"}


def run_console(store: db.Store, sql: str, max_rows: int = ROW_CAP,
        seconds: float = TIME_LIMIT_S, max_bytes: int = BYTE_CAP) -> console_worker.ConsoleResult:
    """(rows, truncated: None, "rows" or "bytes") of one checked SELECT; Refused for anything else.
    It runs in a worker process (console_worker) on a connection of its own that has no spill
    folder, with a memory bound; the wall limit covers planning, running and fetching."""
    if not store.console_reads_paths:
        raise Refused("refused: the SQL console reads a local cache only; this collection is read "
                      "from a prebuilt cache where it is published")
    statement = db.console_statement(sql)  # the checked SELECT's text
    # The child opens the views from their files: a lazy table the statement names is built first.
    result = console_worker.run(store.ready(statement), statement, max_rows, seconds, max_bytes, store.memory_limit)
    con = db.scratch(memory_limit=store.memory_limit)  # reads no file: the Arrow rows into pandas
    try:
        return result._replace(rows=con.from_arrow(result.rows).df())
    finally:
        con.close()


# Views whose first rows and column summary make a useful start when the audit is absent.
BROWSABLE = ("ranking", "items", "judgements", "ratings", "verification", "snapshot")


def examples(views) -> list[tuple[str, str]]:
    """The example queries this collection's views can run (at most four)."""
    views = set(views)
    out = [(label, sql) for label, needs, sql in EXAMPLES if needs <= views]
    for view in (v for v in BROWSABLE if v in views):
        out += [(f"First 20 rows of {view}", f"SELECT *\nFROM {view}\nLIMIT 20"),
                (f"Columns of {view} summarised", f"SUMMARIZE {view}")]
    return out[:4]


def truncation_note(truncated: str | None, rows: int) -> str | None:
    if truncated == "rows":
        return f"Only the first {rows:,} rows are shown and exported (the row cap)."
    if truncated == "bytes":
        return (f"Only the first {rows:,} rows are shown and exported: the result passed "
                f"{BYTE_CAP // 1_000_000} MB (the byte cap).")
    return None


class ResultCache:
    """Console results by key, least recently used evicted first, at most max_bytes in all
    (a result larger than that is not kept)."""

    def __init__(self, max_bytes: int = CACHE_BYTES):
        self.max_bytes, self.size = max_bytes, 0
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def weight(value) -> int:
        return int(value.rows.memory_usage(deep=True, index=True).sum()) + 1

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key][0]
        return None

    def put(self, key, value) -> None:
        size = self.weight(value)
        with self._lock:
            if key in self._items:
                self.size -= self._items.pop(key)[1]
            if size > self.max_bytes:
                return
            self._items[key] = (value, size)
            self.size += size
            while self.size > self.max_bytes:
                self.size -= self._items.popitem(last=False)[1][1]


CACHE = ResultCache()


def cached_run(key: tuple, store_of, sql: str):
    """run_console through CACHE; store_of() opens the Store only on a miss."""
    hit = CACHE.get(key)
    if hit is None:
        hit = run_console(store_of(), sql)
        CACHE.put(key, hit)
    return hit


# A lazy table's view not built yet (db.Store.pending) is listed by name with this line.
NOT_BUILT = "(built when a query first reads it: its columns are listed from then on)"


def schema(columns: pd.DataFrame, pending=()) -> dict[str, list[str]]:
    """{view: ['column type', …]} from console_columns rows; each view in `pending` (not built
    yet, db.Store.pending) with NOT_BUILT instead of its columns."""
    out: dict[str, list[str]] = {}
    for row in columns.itertuples(index=False):
        out.setdefault(row.view, []).append(f"{row.column_name} {row.data_type}")
    return out | {view: [NOT_BUILT] for view in sorted(pending) if view not in out}


def provenance_filters(sql: str, truncated, max_rows: int = ROW_CAP) -> dict:
    """What an export of console rows carries in its provenance."""
    return {"sql": sql, "row_cap": max_rows, "byte_cap": BYTE_CAP, "truncated": bool(truncated),
            "truncated_by": truncated if isinstance(truncated, str) else None,
            "time_limit_s": TIME_LIMIT_S}
