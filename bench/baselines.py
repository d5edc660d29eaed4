"""Baselines: the same aggregations in pandas, and single-core hashlib over the same texts."""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from bench.pages import ALL, SLOW_S
from bench.timing import peak_rss_mb, summary, timed
from judgescope.audit import summary as audit
from judgescope.audit import rows as audit_rows
from judgescope.integrity import verification_tables as integrity_tables
from judgescope.sources import catalog
from judgescope.sources import derived
from judgescope.duck import db
from judgescope.integrity import hashes as verify

PANDAS_COLUMNS = ["target_language", "unit", "score", "score_origin", "run_group", "source_split",
                  "judge_record_id", "judge_explanation"]
TH = dict(ALL, languages=["th"], units=["paragraph"])


def _unit_summary_pandas(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("unit")["score"]
    out = g.agg(["count", "mean", "median", "std"])
    for name, mask in (("below_60", df.score < 60), ("below_80", df.score < 80),
                       ("at_least_90", df.score >= 90)):
        out[name] = mask.groupby(df.unit).sum()
    return out


def aggregations(store: db.Store):
    """(name, app callable, pandas callable on the loaded frame) for each aggregation a page needs."""
    run = store.run
    keys = ["unit", "target_language"]
    return [
        ("unit summary (n, mean, median, SD, thresholds)",
         lambda: audit.unit_summary(audit.score_counts(run)), _unit_summary_pandas),
        ("score counts unit × language × score", lambda: run("audit_score_counts", facet="none"),
         lambda df: df.groupby(keys + ["score"], observed=True).size()),
        ("score counts split by run_group", lambda: run("audit_score_counts", facet="run_group"),
         lambda df: df.groupby(keys + ["run_group", "score"], observed=True, dropna=False).size()),
        ("score counts split by source_split",
         lambda: run("audit_score_counts", facet="source_split"),
         lambda df: df.groupby(keys + ["source_split", "score"], observed=True, dropna=False).size()),
        ("filter values (language, unit, origin, run group)", lambda: run("audit_filter_values"),
         lambda df: df.groupby(["target_language", "unit", "score_origin", "run_group"],
                               observed=True, dropna=False).size()),
        ("review count lang=th, unit=paragraph", lambda: audit_rows.review_count(run, TH),
         lambda df: int(((df.target_language == "th") & (df.unit == "paragraph")).sum())),
        ("review first page lang=th, unit=paragraph",
         lambda: audit_rows.review_page(run, TH, (-1.0, ""), False, 50),
         lambda df: df[(df.target_language == "th") & (df.unit == "paragraph")]
         .sort_values(["score", "judge_record_id"]).head(50)),
        ("worst 3 rows per language × unit",
         lambda: run("audit_worst_rows", k=3, max_score=audit.worst_cutoff(audit.score_counts(run), 3)),
         lambda df: df.sort_values(["score", "judge_record_id"]).groupby(
             ["target_language", "unit"], observed=True).head(3)),
        ("explanation search count", lambda: run("audit_review_count", **dict(ALL, q="calendar")),
         lambda df: int(df.judge_explanation.str.contains("calendar", case=False, na=False).sum())),
    ]


def pandas_vs_app(store: db.Store, clean: Path, repeats: int) -> dict:
    t = time.perf_counter()
    df = pd.read_parquet(clean, columns=PANDAS_COLUMNS)
    load = time.perf_counter() - t
    rows = []
    for name, app_fn, pandas_fn in aggregations(store):
        rows.append({"aggregation": name, "app": summary(timed(app_fn, repeats)),
                     "pandas": summary(timed(lambda fn=pandas_fn: fn(df), repeats))})
    return {"load_s": load, "frame_mb": float(df.memory_usage(deep=True).sum() / 1e6),
            "aggregations": rows}


def text_bytes(snapshot: Path) -> tuple[int, int]:
    """Snapshot rows and UTF-8 bytes of all source + candidate texts (DuckDB strlen = bytes)."""
    con = db.scratch()
    try:
        return tuple(con.execute("SELECT count(*), sum(strlen(source_text) + strlen(candidate_text)) "
                                 "FROM read_parquet($p)", {"p": str(snapshot)}).fetchone())
    finally:
        con.close()


def _hash_column(arr) -> float:
    """Seconds to sha256 every value of a string array from its Arrow buffers (no str objects)."""
    width = np.int64 if str(arr.type) == "large_string" else np.int32
    offsets = np.frombuffer(arr.buffers()[1], dtype=width)[arr.offset: arr.offset + len(arr) + 1]
    data = memoryview(arr.buffers()[2])
    bounds = offsets.tolist()
    sha = hashlib.sha256
    t = time.perf_counter()
    for a, b in zip(bounds, bounds[1:]):
        sha(data[a:b]).hexdigest()
    return time.perf_counter() - t


def hashlib_pass(snapshot: Path) -> float:
    """Single-core hashlib seconds over every source and candidate text (reading not counted)."""
    spent = 0.0
    for batch in pq.ParquetFile(snapshot).iter_batches(batch_size=65_536,
                                                       columns=["source_text", "candidate_text"]):
        for col in batch.columns:
            spent += _hash_column(col)
    return spent


def app_hashing(snapshot: Path) -> float:
    """Seconds for the app's own hashing: catalog.SNAPSHOT_DIGESTS over every snapshot text, as
    the snapshot's validation computes them once per file revision (DuckDB, all threads)."""
    con = db.scratch()
    try:
        t = time.perf_counter()
        con.execute("SELECT max(source_sha256_computed), max(candidate_sha256_computed) "
                    f"FROM (SELECT 1 AS one{catalog.SNAPSHOT_DIGESTS} FROM read_parquet($p))",
                    {"p": str(snapshot)}).fetchall()
        return time.perf_counter() - t
    finally:
        con.close()


def join_build(audit_clean: Path, snapshot: Path, key, scratch: Path) -> float:
    """Seconds for the once-per-revision-pair verification join (integrity/verification_tables.verification_views)."""
    shutil.rmtree(scratch, ignore_errors=True)
    t = time.perf_counter()
    derived.build_derived({"audit": audit_clean, "snapshot_numbered": snapshot},
                          integrity_tables.verification_steps(key), scratch)
    seconds = time.perf_counter() - t
    shutil.rmtree(scratch, ignore_errors=True)
    return seconds


def verify_vs_hashlib(store: db.Store, key, audit_clean: Path, snapshot: Path, scratch: Path,
                      repeats: int) -> dict:
    rows, nbytes = text_bytes(snapshot)
    first = app_hashing(snapshot)
    reps = repeats if first < SLOW_S else 1
    app = summary([first] + [app_hashing(snapshot) for _ in range(reps - 1)])
    join_s = join_build(audit_clean, snapshot, key, scratch)
    read = summary(timed(lambda: verify.summarise(store.run), repeats))
    app_rss = peak_rss_mb()  # before the baselines: the app path never holds the texts in Python
    runs = [hashlib_pass(snapshot)]
    while len(runs) < repeats and sum(runs) < SLOW_S:
        runs.append(hashlib_pass(snapshot))
    hl = summary(runs)
    mb = nbytes / 1e6
    return {"snapshot_rows": rows, "text_mb": mb, "app": app, "app_runs": reps,
            "join_build_s": join_s, "summary_read": read, "hashlib": hl, "hashlib_runs": len(runs),
            "app_mb_s": mb / (app["median_ms"] / 1000), "app_rows_s": rows / (app["median_ms"] / 1000),
            "hashlib_mb_s": mb / (hl["median_ms"] / 1000),
            "hashlib_rows_s": rows / (hl["median_ms"] / 1000), "app_peak_rss_mb": app_rss}
