"""Validate one dataset into its cache entry: read, check, and write the used rows, counts (per
score and binned, with exact order statistics), ledger, excluded rows and report
(catalog.load_dataset decides when).

No copy of the rows is made: a Parquet dataset is a view (readers.read_raw) that the check pass
reads once to find the excluded rows (a small table, validate.build_checked), and the sorted
write reads once more, casting and filtering on the way; the counts and score summaries read the
written file, the ledger and the excluded-rows file the small table."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from judgescope import stats
from judgescope.duck import db, progress
from judgescope.duck.cache import cache_root, ensure, publish, temp_prefix
from judgescope.ingest.layout import ResolvedFiles
from judgescope.ingest.readers import failed_file, read_raw
from judgescope.schema import SCHEMAS, TEXT, VERDICT
from judgescope.ingest.snapshot import prepare as prepare_snapshot
from judgescope.ingest.manifest import DatasetSpec, SourceError
from judgescope.ingest.validate import (build_checked, check_required, clean_select, columns_of,
                                         digest_notes, flag_ratings, ledger_select,
                                         normalize_pairwise, usable_rows)

# A snapshot's texts are hashed once per file revision, here, so that verifying an audit against
# it (every page's sidebar badge) joins stored digests instead of re-hashing gigabytes of text.
SNAPSHOT_DIGESTS = (", sha256(CAST(source_text AS VARCHAR)) AS source_sha256_computed"
                    ", sha256(CAST(candidate_text AS VARCHAR)) AS candidate_sha256_computed")
# Validation runs in the app's process on first use of a revision: bounded so the process stays
# under 2 GB RSS, spilling to disk beyond.
# Bump when validation changes what it writes, so cached tables are rebuilt. The code that
# builds a dataset's tables is hashed into its cache key too (catalog.build_code_sha256), as
# derived tables hash their SQL, so a change to it never serves old numbers.
BUILD_VERSION = 8
BUILD_MEMORY_MB = 1536
BUILD_MEMORY = f"{BUILD_MEMORY_MB}MB"
SCORED_KINDS = ("judge_audit", "raw_judge_records")
# The named queries validation runs (their text is hashed into the cache key with the code).
BUILD_QUERIES = ("audit_build_score_bins", "audit_build_order_stats")
# Rows per Parquet row group of every cached table. Lookups (a Review page, a record, a snapshot
# row by position) read whole row groups once min/max statistics have pruned the others, so a
# smaller group is read faster; 30,720 rows keeps a 10M-row audit at ~330 groups.
ROW_GROUP_ROWS = 30_720
# How every large cached table is written (the validated rows, derived tables): zstd at level 1,
# not DuckDB's default level 3. Measured on the bench's 10M-row audit, its sorted write took
# 71.0 s of CPU at level 1 against 92.3 s at the default, for a file 6 % larger (1,101 MB against
# 1,038 MB); reading either costs the same. The cache is written once per revision and read by
# every page, so the write's time matters more than 6 % of disk.
def parquet_options() -> str:
    return f"FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, ROW_GROUP_SIZE {ROW_GROUP_ROWS}"


def safe_name(name: str) -> str:
    """A dataset name as a cache folder name (manifest names are slugs; a CLI file stem may not be)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".")[:64] or "dataset"


def build_memory(part=1) -> str:
    """DuckDB's memory limit for a build given `part` of BUILD_MEMORY (cache.Lane)."""
    return f"{max(64, int(BUILD_MEMORY_MB * part))}MB"


def build_dataset(spec: DatasetSpec, resolved: ResolvedFiles, files: list[dict], folder: Path,
                  memory: str = BUILD_MEMORY) -> None:
    """Validate one dataset into `folder`, DuckDB bounded by `memory` (spilling beyond)."""
    schema = SCHEMAS[spec.kind]
    tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(safe_name(spec.name)), dir=ensure(cache_root())))
    spill = cache_root() / f".spill-{tmp.name}"
    con = db.scratch(temp_dir=spill, memory_limit=memory)
    scored = spec.kind in SCORED_KINDS
    at = f"{spec.name}: "  # stages are named per dataset (duck/progress.py)
    progress.declare(["read", "check", "sorted write", *(["counts", "score summaries"] if scored else []),
                      "ledger", "excluded rows"], at)
    imported: dict = {}  # what an importer says of a file another tool wrote (ingest/importers)
    try:
        text = frozenset(c.name for c in schema.columns if c.type in (TEXT, VERDICT))
        with progress.stage("read", con, prefix=at):
            broken = read_raw(con, resolved, spec.name, text, spec.kind, imported)
        rows = _check_rows(con, spec, broken)
        with progress.stage("check", con, prefix=at), _reading(resolved, spec.name):
            if spec.kind == "pairwise_ranking":
                normalize_pairwise(con)
            broken += prepare_snapshot(con, spec)  # flattens a form = "nested" source snapshot
            check_required(con, schema, spec.name, files[0]["file"] if len(files) == 1 else resolved.root.name)
            checks = build_checked(con, schema, spec.exclude)
            present = columns_of(con, "raw")
            if spec.kind == "human_ratings":
                checks = flag_ratings(con, checks, present)
        with progress.stage("sorted write", con, rows, prefix=at), _reading(resolved, spec.name):
            _write_clean(con, spec, schema, checks, tmp / "clean.parquet")
        if scored:
            with progress.stage("counts", con, prefix=at):
                write_counts(con, tmp / "clean.parquet", tmp / "counts.parquet")
            with progress.stage("score summaries", con, prefix=at):
                write_score_summaries(con, tmp / "clean.parquet", tmp)
        with progress.stage("ledger", con, prefix=at):
            _write_ledger(con, schema, spec, present, broken, tmp / "ledger.parquet")
        # The excluded rows in full, as read (a release's dropped runs stay inspectable).
        # The reason first: a data column also named `reason` becomes reason_1, never ours.
        with progress.stage("excluded rows", con, prefix=at):
            con.execute("COPY (SELECT _reason AS reason, _column AS reason_column, "
                        "* EXCLUDE (_reason, _column) FROM excluded "
                        "ORDER BY _file, _row) TO $p (FORMAT parquet)", {"p": str(tmp / "excluded.parquet")})
        with _reading(resolved, spec.name):
            report = _report(con, spec, files, present, len(broken))
            report["digests_normalised"] = digest_notes(con, schema, present)
            report["imported"] = imported.get("files")
        (tmp / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        publish(tmp, folder)
    except db.DBError as err:
        raise SourceError(f"validation failed: {str(err).splitlines()[0]}", dataset=spec.name) from err
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(spill, ignore_errors=True)


def _check_rows(con, spec: DatasetSpec, broken: list[dict]) -> int:
    """The rows read. A dataset without one readable row is unusable, and says why (a header
    only, or every line broken) rather than report a missing column or load as empty."""
    rows = con.execute("SELECT count(*) FROM raw").fetchone()[0]
    if rows:
        return rows
    if broken:
        first = broken[0]
        raise SourceError(f"no readable row: all {len(broken):,} lines are unusable (first: "
                          f"{first['reason']})", dataset=spec.name, file=first["file"], row=first["row"])
    raise SourceError("no rows (a header or an empty array only)", dataset=spec.name)


@contextmanager
def _reading(resolved: ResolvedFiles, dataset: str):
    """A DuckDB error that names a data file (a lazily read Parquet file with a corrupt page,
    found by the pass that reads it) is reported as that file's, like one found when reading."""
    try:
        yield
    except db.DBError as err:
        file = failed_file(err, resolved)
        if file is None:
            raise
        raise SourceError(f"cannot read {resolved.format}: {str(err).strip().splitlines()[0][:300]}",
                          dataset=dataset, file=file) from err


def _write_clean(con, spec: DatasetSpec, schema, checks, out: Path) -> None:
    """The used rows, cast, in one read of `raw`: audits sorted by score (low-score lists then
    read only the first row groups: Parquet min/max statistics act as the low-score index), the
    excluded rows left out by their lineage; other kinds in file order, which the rules as a
    plain filter keep (ORDER BY only after dropping repeated keys, an anti-join). A snapshot's
    texts are hashed in the same pass."""
    scored = spec.kind in SCORED_KINDS
    order = " ORDER BY score, judge_record_id" if scored else (" ORDER BY _file, _row" if checks.dropped else "")
    select = clean_select(con, schema, checks.casts) + (SNAPSHOT_DIGESTS if spec.kind == "source_snapshot" else "")
    con.execute(f"COPY (SELECT {select} FROM {usable_rows(checks, by_lineage=scored)}{order}) "
                f"TO $p ({parquet_options()})",
                {**({} if scored else checks.params), "p": str(out)})


def write_counts(con, clean: Path, out: Path) -> None:
    """Per-score counts by every facet, built once per file revision: pages aggregate these
    (thousands of rows) instead of scanning millions of audit rows on each interaction. An audit
    whose rows nearly all differ in score or facets (more groups than half its rows: float
    scores) gets one row per audit row with n = 1 instead, in score order, which readers sum
    alike (queries/audit_build_count_rows.sql)."""
    con.execute(db.view_sql("audit", [clean]))
    try:
        rows, groups = con.execute(db.query_text("audit_build_counts_estimate")).fetchone()
        query = "audit_build_count_rows" if groups > rows / 2 else "audit_build_counts"
        con.execute(f"COPY ({db.query_text(query)}\n) TO $p (FORMAT parquet)", {"p": str(out)})
    finally:
        con.execute('DROP VIEW "audit"')


def write_score_summaries(con, clean: Path, folder: Path) -> None:
    """bins.parquet, the counts on one audit-wide grid of score bins, then order_stats.parquet,
    the exact order statistics per grouping set, which the bins locate (queries/
    audit_build_score_bins.sql, audit_build_order_stats.sql): an audit with more distinct scores
    than stats.MAX_CATEGORIES is summarised from these (thousands of rows) instead of one count
    per distinct score. The grid's width is the one stats._bin_width picks for the audit's score
    range; it is stored with the bins, so readers never assume the current rule (and stats.py is
    not in the cache key)."""
    bins = folder / "bins.parquet"
    con.execute(db.view_sql("audit", [clean]))
    try:
        db.create_macros(con)
        low, high = con.execute("SELECT min(score)::DOUBLE, max(score)::DOUBLE FROM audit").fetchone()
        width = {"width": 1.0 if low is None else stats._bin_width(np.array([low, high]))}  # no rows: any
        con.execute(f"COPY ({db.query_text('audit_build_score_bins')}\n) TO $out (FORMAT parquet)",
                    {**width, "out": str(bins)})
        con.execute(db.view_sql("audit_bins", [bins]))
        con.execute(f"COPY ({db.query_text('audit_build_order_stats')}\n) TO $out (FORMAT parquet)",
                    {**width, "out": str(folder / "order_stats.parquet")})
    finally:
        con.execute('DROP VIEW IF EXISTS "audit_bins"')
        con.execute('DROP VIEW "audit"')


def _write_ledger(con, schema, spec, present, broken: list[dict], out: Path) -> None:
    sql, params = ledger_select(schema, spec.name, present)
    con.execute(f"CREATE OR REPLACE TABLE ledger AS {sql}", params)
    for b in broken:
        con.execute("INSERT INTO ledger VALUES ($d, $f, $r, $c, $reason, $v, NULL)",
                    {"d": spec.name, "f": b["file"], "r": b["row"], "c": b.get("column"),
                     "reason": b["reason"], "v": b["value"]})
    con.execute("COPY (SELECT * FROM ledger ORDER BY file, row) TO $p (FORMAT parquet)",
                {"p": str(out)})


def _report(con, spec: DatasetSpec, files: list[dict], present: dict, broken: int) -> dict:
    """The build's account of a dataset: the rows used are those of `raw` (as checked, after a
    nested snapshot's flattening) less the excluded ones; a Parquet view counts its rows from
    the files' footers."""
    schema = SCHEMAS[spec.kind]
    used = con.execute("SELECT (SELECT count(*) FROM raw) - (SELECT count(*) FROM excluded)").fetchone()[0]
    reasons = dict(con.execute("SELECT reason, count(*) FROM ledger GROUP BY 1 ORDER BY 2 DESC").fetchall())
    excluded = sum(reasons.values())
    known = {c.name for c in schema.columns}
    return {
        "dataset": spec.name, "kind": spec.kind, "title": spec.title, "origin": spec.origin,
        "hub": spec.hub, "revision": spec.revision, "path": spec.path, "config": spec.config,
        "split": spec.split, "synthetic": spec.synthetic, "files": files,
        "rows_loaded": used + excluded, "rows_used": used, "rows_excluded": excluded,
        "reasons": reasons, "unreadable_lines": broken,
        "columns_missing": [c.name for c in schema.columns if c.name not in present],
        "columns_extra": [c for c in present if c not in known and not c.startswith("_")],
    }
