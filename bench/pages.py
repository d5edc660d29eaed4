"""Each page's filter → table interactions, timed through the app's query layer and in raw DuckDB.

An interaction is what one widget change costs a page when the result is not yet in Streamlit's
cache: its named queries (db.Store.run, exactly what context.run calls) plus the judgescope function
that turns their result into the table. The raw DuckDB baseline runs the same .sql text with the
same parameters on a plain connection whose views read the same Parquet files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import duckdb
import pandas as pd

from bench.timing import summary, timed
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.audit import rows as audit_rows
from judgescope.duck import db
from judgescope.integrity import hashes as verify

ALL = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
       "max_score": 100.0, "q": ""}


@dataclass
class Interaction:
    page: str
    name: str
    steps: list[tuple[str, dict]]
    finish: Callable | None = None  # results (list of frames) → the page's table
    needs: tuple[str, ...] = ("audit",)
    extra: dict = field(default_factory=dict)


def _dist(split: bool):
    return lambda frames: audit.distribution_table(frames[0], audit.DEFAULT_THRESHOLDS, split,
                                                   intervals=frames[1])


def _distribution(facet: str) -> list[tuple[str, dict]]:
    """What the page reads at its default resamples and seed: the counts and the intervals
    computed at the first open (web/results.mean_intervals)."""
    return [("score_counts", {"facet": facet}), ("intervals", {"facet": facet})]


def _languages(frames):
    counts = frames[0]
    return audit.tails_table(counts, 60), audit.mean_matrix(counts)


def interactions(first_page_last: tuple[float, str], record_id: str, worst_cutoff: float = 100.0) -> list[Interaction]:
    """The interactions of every page that queries data (Overview reads report.json only)."""
    th = dict(ALL, languages=["th"], units=["paragraph"])
    low = dict(ALL, max_score=60.0)
    page, top, nxt = (-1.0, ""), (1e308, ""), first_page_last
    return [
        Interaction("distributions", "facet none", _distribution("none"), _dist(False)),
        Interaction("distributions", "facet run_group", _distribution("run_group"), _dist(True)),
        Interaction("distributions", "facet source_split", _distribution("source_split"), _dist(True)),
        Interaction("languages", "heatmap + tails", [("score_counts", {"facet": "none"})], _languages),
        Interaction("languages", "worst rows k=3",
                    [("audit_worst_rows", {"k": 3, "max_score": worst_cutoff})]),
        Interaction("review", "open (all rows)", [("audit_filter_values", {}), _count(ALL), _page(ALL, page)]),
        Interaction("review", "lang=th, unit=paragraph", [_count(th), _page(th, page)]),
        Interaction("review", "score ≤ 60", [_count(low), _page(low, page)]),
        Interaction("review", "next page (keyset)", [_page(ALL, nxt)]),
        Interaction("review", "highest first", [_page(ALL, top, desc=True)]),
        Interaction("review", "explanation search", [_count(dict(ALL, q="calendar")),
                                                     _page(dict(ALL, q="calendar"), page)]),
        Interaction("review", "open a record", [("record", {"record_id": record_id})],
                    needs=("audit", "snapshot")),
        Interaction("integrity", "verify summary (stored digests)", [("verify_summary", {})],
                    lambda frames: verify.by_language_unit(_summary(frames[0])), needs=("audit", "snapshot")),
        Interaction("integrity", "class list (500 rows)",
                    [("class_rows", {"cls": "verified", "limit": 500})],
                    needs=("audit", "snapshot")),
        Interaction("exact copies", "counts + rows", [("audit_exact_copy_counts", {}),
                                                      ("audit_exact_copy_rows", {"languages": [], "units": [],
                                                                                 "limit": 5000})]),
        Interaction("exact copies", "lang=th", [("audit_exact_copy_rows", {"languages": ["th"], "units": [],
                                                                           "limit": 5000})]),
        Interaction("provenance", "origins + models", [("audit_origin_counts", {}),
                                                       ("audit_missing_explanations", {"limit": 5000}),
                                                       ("audit_model_provenance", {})]),
        Interaction("excluded", "ledger", [("ledger_summary", {}), ("ledger_count", {"datasets": [], "reasons": []}),
                                           ("ledger_rows", {"datasets": [], "reasons": [], "limit": 5000})]),
    ]


# Steps the page runs through a judgescope function that calls several named queries (the score
# counts, per score or binned with their order statistics; the Distributions intervals stored at
# the first open; Review's count from the prebuilt counts, its page bounded by them; Integrity's
# rows, then their texts): run with the app's runner or the raw one.
COMPOSITE = {
    "score_counts": lambda run, facet: audit.score_counts(run, facet),
    "intervals": interval_tables.stored,
    "review_count": lambda run, filters: pd.DataFrame({"rows": [audit_rows.review_count(run, filters)]}),
    "review_page": lambda run, filters, after, desc: audit_rows.review_page(run, filters, after, desc, 50),
    "class_rows": verify.class_rows,
    "record": lambda run, record_id: open_record(run, record_id),
}


def open_record(run, record_id: str) -> pd.DataFrame:
    """What Review runs to open one record: the row (through the id index), its verification row
    and texts, its Prev / Next neighbours and its position in the unfiltered list."""
    row = run("audit_record", record_id=record_id)
    key = audit_rows.sort_key(row.score.iloc[0], record_id)
    audit_rows.review_walk(run, dict(ALL), key, False)
    return audit_rows.snapshot_texts(run, [record_id])


def _count(filters: dict) -> tuple[str, dict]:
    return "review_count", {"filters": filters}


def _page(filters: dict, after: tuple, desc: bool = False) -> tuple[str, dict]:
    return "review_page", {"filters": filters, "after": after, "desc": desc}


def run_step(run, name: str, params: dict):
    return COMPOSITE[name](run, **params) if name in COMPOSITE else run(name, **params)


def _rows(result) -> int:
    """Rows a step returned (a binned audit's score counts: its bins, order statistics and
    exact counts below thresholds)."""
    if isinstance(result, pd.DataFrame):
        return len(result)
    return sum(len(f) for f in (result.bins, result.order, result.below))


def _summary(frame):
    return verify.summarise(lambda *_a, **_k: frame)


def raw_connection(store: db.Store) -> duckdb.DuckDBPyConnection:
    """A plain DuckDB connection with the same views over the same files and the same Parquet
    metadata cache and memory limit (no lock, no cursor)."""
    con = duckdb.connect(":memory:")
    limit = store.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    con.execute("SET memory_limit = $m", {"m": limit})  # every connection capped, as the Store
    con.execute(db.PARQUET_METADATA_CACHE)  # the Store's one performance setting, for a like-for-like
    for view, paths in store.ready().items():  # lazy tables built, as a page reading them would
        con.execute(db.view_sql(view, paths))  # the same text Store uses
    db.create_macros(con)  # the same shared table macros
    return con


SLOW_S = 10.0  # an interaction slower than this is repeated fewer times (the figure is far off anyway)


def paired(app_queries, raw_run, i: int) -> tuple[float, float]:
    """One timed run of the app's queries and one of raw DuckDB's, one after the other (so that a
    busy moment of the machine hits them alike), the first of the two alternating with i, and
    never right after the page's pandas work: a query run just after it took about 0.5 ms more
    (verify summary at 10M rows, 200 runs each: 2.07 vs 1.55 ms when the app's queries followed
    it, 1.56 vs 2.04 ms when raw DuckDB did, 1.27 vs 1.23 ms without it), which made the app
    1.4-1.6× raw in the run of 90a39ea when the app's queries always followed it."""
    if i % 2:
        r = timed(raw_run, 1, 0)[0]
        return timed(app_queries, 1, 0)[0], r
    q = timed(app_queries, 1, 0)[0]
    return q, timed(raw_run, 1, 0)[0]


def measure(store: db.Store, inter: Interaction, raw: duckdb.DuckDBPyConnection, repeats: int) -> dict:
    """App (queries + finish) and raw (same SQL) timings of one interaction; query-only app time too."""
    def app_queries():
        return [run_step(store.run, q, p) for q, p in inter.steps]

    def app():
        frames = app_queries()
        return inter.finish(frames) if inter.finish else frames

    def raw_run():
        def raw_query(name, **params):
            return raw.execute(db.query_text(name), params).df()
        return [run_step(raw_query, q, p) for q, p in inter.steps]

    first = timed(app, 1, warmup=0)[0]
    fast = first < SLOW_S  # a slow one is timed once (the first run): it is far off target anyway
    reps = repeats if fast else 1
    out = {"page": inter.page, "interaction": inter.name, "queries": [q for q, _ in inter.steps],
           "runs": reps, "first_ms": round(first * 1000, 1)}
    if fast:
        out["app"] = summary([timed(app, 1, 0)[0] for _ in range(reps)])
        timed(raw_run, 0, warmup=1)  # raw's first run, which also keeps the page's pandas work before the pairs
        queries, out["raw"] = (summary(list(col)) for col in zip(*[paired(app_queries, raw_run, i)
                                                                   for i in range(reps)]))
        out["app_queries"] = queries  # timed beside raw DuckDB (the same as app without a finish)
    else:
        out["app"] = out["app_queries"] = summary([first])
        out["raw"] = summary(timed(raw_run, 1, warmup=0))
    out["rows_returned"] = int(sum(map(_rows, app_queries()))) if first < SLOW_S else None
    return out
