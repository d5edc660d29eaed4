"""Reviewer verdicts on judge rows: an append-only SQLite log (issue #18). Pure: no streamlit.

One row per verdict, never updated or deleted (triggers refuse it; a retraction is a row).
Beside the log, `drafts` holds each reviewer's unsaved tags and note per row (one row per
reviewer, dataset and record, replaced as it is typed, deleted when a verdict is saved): a draft
is work in progress, not a verdict, so it is the one mutable table. WAL
and synchronous=FULL: a verdict whose append returned is on disk. Writers that meet a lock retry
with backoff, so "database is locked" does not reach a reviewer. Values are bound parameters.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
import uuid
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from judgescope.reviews import checks

VERDICTS = ("judge_right", "too_harsh", "too_lenient", "unsure", "retracted")
TAGS = ("mixed script", "untranslated", "name or number", "meaning changed", "other")
SCHEMA_VERSION = 4
COLUMNS = ("review_id", "reviewer", "created_at", "collection", "dataset", "revision",
           "judge_record_id", "source_sha256", "candidate_sha256", "verdict", "tags", "note",
           "language", "unit", "score")
BUSY_TIMEOUT_MS = 2_000
RETRY_SECONDS = 30.0


class ReviewStoreBusy(RuntimeError):
    """The reviews database stayed locked for RETRY_SECONDS; the verdict was not saved."""


class ReviewStoreUnavailable(RuntimeError):
    """The reviews database is damaged, unreadable or read-only: reviewing is unavailable."""


def _unavailable(path, err: BaseException) -> ReviewStoreUnavailable:
    name = Path(path).name if path else default_path().name
    reason = (err.strerror if isinstance(err, OSError) and err.strerror  # without the path
              else str(err).splitlines()[0] if str(err) else type(err).__name__)
    return ReviewStoreUnavailable(f"Reviewing is unavailable: the reviews database ({name}) "
                                  f"cannot be used ({reason}).")


def default_path() -> Path:
    """JUDGESCOPE_STATE, else ~/.local/share/judgescope/reviews.sqlite."""
    env = os.environ.get("JUDGESCOPE_STATE")
    return Path(env) if env else Path.home() / ".local/share/judgescope/reviews.sqlite"


_V1 = """
CREATE TABLE reviews (
  review_id TEXT PRIMARY KEY NOT NULL, reviewer TEXT NOT NULL, created_at TEXT NOT NULL,
  collection TEXT NOT NULL, dataset TEXT NOT NULL, revision TEXT,
  judge_record_id TEXT NOT NULL, source_sha256 TEXT, candidate_sha256 TEXT,
  verdict TEXT NOT NULL CHECK (verdict IN ('judge_right','too_harsh','too_lenient','unsure','retracted')),
  tags TEXT NOT NULL DEFAULT '[]', note TEXT NOT NULL DEFAULT '');
CREATE INDEX reviews_by_row ON reviews (dataset, judge_record_id, reviewer, created_at);
CREATE TRIGGER reviews_no_update BEFORE UPDATE ON reviews
  BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
CREATE TRIGGER reviews_no_delete BEFORE DELETE ON reviews
  BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
"""
# Version 2: the row's language, unit and score as the reviewer saw them (for progress and the
# judge-vs-reviewers share when the row is later changed or gone), and the latest-per-reviewer view.
_V2 = """
ALTER TABLE reviews ADD COLUMN language TEXT;
ALTER TABLE reviews ADD COLUMN unit TEXT;
ALTER TABLE reviews ADD COLUMN score REAL;
CREATE VIEW latest_reviews AS
SELECT * FROM reviews r WHERE NOT EXISTS (
  SELECT 1 FROM reviews n WHERE n.dataset = r.dataset AND n.judge_record_id = r.judge_record_id
    AND n.reviewer = r.reviewer
    AND (n.created_at > r.created_at OR (n.created_at = r.created_at AND n.review_id > r.review_id)));
"""
# Version 3: drafts, the tags and note a reviewer typed on a row and has not yet saved with a
# verdict, kept per (reviewer, dataset, record) so they survive moving away, a new tab, a restart.
_V3 = """
CREATE TABLE drafts (
  reviewer TEXT NOT NULL, dataset TEXT NOT NULL, judge_record_id TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]', note TEXT NOT NULL DEFAULT '', updated_at TEXT NOT NULL,
  PRIMARY KEY (reviewer, dataset, judge_record_id));
"""
# Version 4: blind labels (issue 43 item 6), a log of their own beside the verdicts: a reviewer
# who has not seen the judge's score or explanation says pass or fail. Kept apart, and marked
# blind on every row, so a blind label is never read as a verdict on the judge and a verdict never
# joins the blind calibration set. Append-only like reviews; the judge's score at saving is kept
# (hidden from the reviewer until saved) for the calibration.
_V4 = """
CREATE TABLE blind_labels (
  review_id TEXT PRIMARY KEY NOT NULL, reviewer TEXT NOT NULL, created_at TEXT NOT NULL,
  collection TEXT NOT NULL, dataset TEXT NOT NULL, revision TEXT,
  judge_record_id TEXT NOT NULL, source_sha256 TEXT, candidate_sha256 TEXT,
  label TEXT NOT NULL CHECK (label IN ('pass','fail','unsure','retracted')),
  note TEXT NOT NULL DEFAULT '', language TEXT, unit TEXT, score REAL,
  blind INTEGER NOT NULL DEFAULT 1 CHECK (blind = 1));
CREATE INDEX blind_by_row ON blind_labels (dataset, judge_record_id, reviewer, created_at);
CREATE TRIGGER blind_no_update BEFORE UPDATE ON blind_labels
  BEGIN SELECT RAISE(ABORT, 'blind labels are append-only'); END;
CREATE TRIGGER blind_no_delete BEFORE DELETE ON blind_labels
  BEGIN SELECT RAISE(ABORT, 'blind labels are append-only'); END;
CREATE VIEW latest_blind_labels AS
SELECT * FROM blind_labels r WHERE NOT EXISTS (
  SELECT 1 FROM blind_labels n WHERE n.dataset = r.dataset AND n.judge_record_id = r.judge_record_id
    AND n.reviewer = r.reviewer
    AND (n.created_at > r.created_at OR (n.created_at = r.created_at AND n.review_id > r.review_id)));
"""
MIGRATIONS = {1: _V1, 2: _V2, 3: _V3, 4: _V4}
# Versions a read-only database is read at without a migration (version 4 only added blind labels,
# which a version-3 database has none of: reviews.blind_labels reads it as holding none).
READABLE_VERSIONS = (3, 4)
BLIND_LABELS = ("pass", "fail", "unsure", "retracted")
BLIND_COLUMNS = ("review_id", "reviewer", "created_at", "collection", "dataset", "revision",
                 "judge_record_id", "source_sha256", "candidate_sha256", "label", "note",
                 "language", "unit", "score", "blind")


def _retry(fn, deadline: float = RETRY_SECONDS):
    """fn() retried with jittered exponential backoff while SQLite reports locked or busy."""
    start, delay = time.monotonic(), 0.01
    while True:
        try:
            return fn()
        except (sqlite3.DatabaseError, OSError) as err:
            if not isinstance(err, sqlite3.OperationalError) or ("locked" not in str(err)
                                                                  and "busy" not in str(err)):
                raise _unavailable(getattr(fn, "path", None), err) from err
            if time.monotonic() - start > deadline:
                raise ReviewStoreBusy(f"the reviews database stayed busy for {deadline:g} s; "
                                      "the verdict was not saved, try again") from err
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.5)


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = FULL")
    return con


def schema_version(con: sqlite3.Connection) -> int:
    has = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone()
    if not has:
        return 0
    return con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]


def _migrate(con: sqlite3.Connection) -> None:
    con.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others wait, then see it done
    try:
        con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "applied_at TEXT NOT NULL)")
        for version in range(schema_version(con) + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[version].split(";\n"):
                if statement.strip():
                    con.execute(statement)
            con.execute("INSERT INTO schema_version VALUES (?, ?)", (version, _now()))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def open_db(path: Path | str | None = None) -> sqlite3.Connection:
    """A connection to the reviews database, created or migrated to SCHEMA_VERSION."""
    path = Path(path) if path else default_path()

    def go():
        con = _connect(path)
        try:
            if schema_version(con) < SCHEMA_VERSION:
                _migrate(con)
        except BaseException:
            con.close()
            raise
        return con
    go.path = path
    return _retry(go)


def unavailable(path=None) -> str | None:
    """None when the reviews database can be read and written, else one sentence why not."""
    def probe(con):
        con.execute("BEGIN IMMEDIATE")  # a write lock: refused on a read-only file or folder
        con.execute("ROLLBACK")
        con.execute("SELECT count(*) FROM reviews").fetchone()
    try:
        with closing(open_db(path)) as con:
            _retry(lambda: probe(con))
    except ReviewStoreUnavailable as err:
        return str(err)
    return None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def new_review(reviewer: str, collection: str, dataset: str, judge_record_id: str, verdict: str,
               tags=(), note: str = "", **context) -> dict:
    """A review row (a new uuid and the time now); context: revision, digests, language, unit, score."""
    if verdict not in VERDICTS:
        raise ValueError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    reviewer = checks.reviewer_name(reviewer)  # NFC, no invisible characters
    unknown = [t for t in tags if t not in TAGS]
    if unknown:
        raise ValueError(f"unknown tags {unknown}; tags are {', '.join(TAGS)}")
    row = {c: context.get(c) for c in COLUMNS}
    row.update(review_id=str(uuid.uuid4()), reviewer=reviewer, created_at=_now(),
               collection=collection, dataset=dataset, judge_record_id=str(judge_record_id),
               verdict=verdict, tags=json.dumps(list(tags), ensure_ascii=False), note=str(note))
    return row


_INSERT = (f"INSERT OR IGNORE INTO reviews ({', '.join(COLUMNS)}) "
           f"VALUES ({', '.join('?' for _ in COLUMNS)})")


def _insert(path, rows: list[dict]) -> int:
    def go():
        with closing(open_db(path)) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                before = con.total_changes
                con.executemany(_INSERT, [tuple(_value(r.get(c)) for c in COLUMNS) for r in rows])
                added = con.total_changes - before
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            return added
    return _retry(go)


def _value(v):
    if v is None or (not isinstance(v, str) and pd.api.types.is_scalar(v) and pd.isna(v)):
        return None
    return v.item() if hasattr(v, "item") else v


def append(row: dict, path=None) -> str:
    """Append one review; returns its review_id once it is durably committed."""
    _insert(path, [row])
    return row["review_id"]


def record(path=None, **fields) -> dict:
    """new_review(**fields) appended; the stored row."""
    row = new_review(**fields)
    append(row, path)
    return row


def _write(path, statements: list[tuple[str, tuple]]) -> None:
    """Statements run in one IMMEDIATE transaction (retried while the database is busy)."""
    def go():
        with closing(open_db(path)) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    con.execute(sql, params)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
    go.path = path
    _retry(go)


_DELETE_DRAFT = "DELETE FROM drafts WHERE reviewer = ? AND dataset = ? AND judge_record_id = ?"


def save_verdict(path=None, **fields) -> dict:
    """new_review(**fields) appended and the reviewer's draft on that row deleted, in one
    transaction: the verdict carries exactly the tags and note given, and the draft is gone."""
    row = new_review(**fields)
    _write(path, [(_INSERT, tuple(_value(row.get(c)) for c in COLUMNS)),
                  (_DELETE_DRAFT, (row["reviewer"], row["dataset"], row["judge_record_id"]))])
    return row


def save_draft(reviewer: str, dataset: str, judge_record_id: str, tags=(), note: str = "",
               path=None) -> None:
    """Keep (or replace) a reviewer's unsaved tags and note on one row; empty ones delete it."""
    unknown = [t for t in tags if t not in TAGS]
    if unknown:
        raise ValueError(f"unknown tags {unknown}; tags are {', '.join(TAGS)}")
    key = (checks.reviewer_name(reviewer), str(dataset), str(judge_record_id))
    if not list(tags) and not str(note or ""):
        _write(path, [(_DELETE_DRAFT, key)])
        return
    _write(path, [("INSERT INTO drafts VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (reviewer, dataset, "
                   "judge_record_id) DO UPDATE SET tags = excluded.tags, note = excluded.note, "
                   "updated_at = excluded.updated_at",
                   (*key, json.dumps(list(tags), ensure_ascii=False), str(note or ""), _now()))])


def draft(reviewer: str, dataset: str, judge_record_id: str, path=None) -> tuple[list, str] | None:
    """(tags, note) of a reviewer's draft on one row; None when there is none. Its tags are read
    as a verdict's are (checks.shown_tags), keeping the known ones: a stored text that is not a
    JSON list of tags shows none instead of breaking the reviewer's Review page."""
    found = _frame(path, "SELECT tags, note FROM drafts WHERE " + _DELETE_DRAFT.split("WHERE ")[1],
                   (checks.reviewer_name(reviewer), str(dataset), str(judge_record_id)))
    if found.empty:
        return None
    return [t for t in checks.shown_tags(found.tags.iloc[0] or "[]") if t in TAGS], str(found.note.iloc[0] or "")


def drafts(reviewer: str, dataset: str | None, path=None) -> pd.DataFrame:
    """A reviewer's drafts (judge_record_id, tags, note, updated_at) on a dataset's rows."""
    return _frame(path, "SELECT judge_record_id, tags, note, updated_at FROM drafts WHERE reviewer = ? "
                  "AND dataset = ? ORDER BY judge_record_id", (checks.reviewer_name(reviewer), str(dataset)))


def _frame(path, sql: str, params: tuple = ()) -> pd.DataFrame:
    def go():
        try:
            con = open_db(path)
        except ReviewStoreUnavailable:  # a read-only database is still read (open_read_only)
            con = open_read_only(path)
        with closing(con):
            cur = con.execute(sql, params)
            return pd.DataFrame(cur.fetchall(), columns=[d[0] for d in cur.description])
    return _retry(go)


def open_read_only(path=None) -> sqlite3.Connection:
    """A read-only connection to a database this process cannot write (a read-only file or
    folder): SQLite's read-only mode, else, where it cannot make its shared-memory file beside
    a WAL database, the database read as immutable. ReviewStoreUnavailable when it cannot be
    read either, or is of a schema older than READABLE_VERSIONS (which would need a write to migrate)."""
    path = Path(path) if path else default_path()
    last: BaseException = FileNotFoundError(2, "No such file")
    for query in ("mode=ro", "mode=ro&immutable=1"):
        con = None
        try:
            if not path.is_file():
                break
            con = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, isolation_level=None)
            if schema_version(con) in READABLE_VERSIONS:
                return con
            last = sqlite3.DatabaseError(f"schema version {schema_version(con)}, not {SCHEMA_VERSION}")
        except (sqlite3.DatabaseError, OSError) as err:
            last = err
        if con is not None:
            con.close()
    raise _unavailable(path, last)


def read_only(path=None) -> str | None:
    """One sentence when the database cannot be written but its verdicts can be read, else None."""
    problem = unavailable(path)
    if problem is None:
        return None
    try:
        open_read_only(path).close()
    except ReviewStoreUnavailable:
        return None
    return problem.replace("Reviewing is unavailable", "Saving verdicts is off", 1) + \
        " The verdicts already in it are shown."


def reviewers(path=None) -> list[str]:
    """Every reviewer name in the log."""
    return _frame(path, "SELECT DISTINCT reviewer FROM reviews ORDER BY reviewer").reviewer.tolist()


def log(path=None, dataset: str | None = None) -> pd.DataFrame:
    """Every review row, oldest first (of one dataset when given)."""
    where = " WHERE dataset = ?" if dataset else ""
    return _frame(path, f"SELECT {', '.join(COLUMNS)} FROM reviews{where} "
                  "ORDER BY created_at, review_id", (dataset,) if dataset else ())


def latest(path=None, dataset: str | None = None, keep_retracted: bool = False) -> pd.DataFrame:
    """Each reviewer's latest verdict per row; a retracted verdict leaves the row unreviewed."""
    where = ["dataset = ?"] if dataset else []
    if not keep_retracted:
        where.append("verdict <> 'retracted'")
    sql = (f"SELECT {', '.join(COLUMNS)} FROM latest_reviews"
           + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created_at, review_id")
    return _frame(path, sql, (dataset,) if dataset else ())


def for_record(dataset: str, judge_record_id: str, path=None) -> pd.DataFrame:
    """The latest verdicts of every reviewer on one row."""
    return _frame(path, f"SELECT {', '.join(COLUMNS)} FROM latest_reviews WHERE dataset = ? AND "
                  "judge_record_id = ? AND verdict <> 'retracted' ORDER BY created_at",
                  (dataset, str(judge_record_id)))


def merge_logs(*logs: pd.DataFrame) -> pd.DataFrame:
    """Append-only logs merged: the union, one row per review_id (conflict-free by construction)."""
    frames = [f for f in logs if f is not None and len(f)]
    if not frames:
        return pd.DataFrame(columns=list(COLUMNS))
    merged = pd.concat([f.reindex(columns=list(COLUMNS)) for f in frames], ignore_index=True)
    return (merged.drop_duplicates("review_id", keep="first")
            .sort_values(["created_at", "review_id"], kind="stable").reset_index(drop=True))


REQUIRED = ("review_id", "reviewer", "created_at", "collection", "dataset", "judge_record_id", "verdict")


def check_log(frame: pd.DataFrame, source: str = "the log") -> pd.DataFrame:
    """A log read from a file, checked: the required columns present and filled, verdicts known."""
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)}")
    for col in REQUIRED:
        empty = frame[frame[col].isna() | (frame[col].astype(str).str.strip() == "")]
        if len(empty):
            raise ValueError(f"{source}: row {empty.index[0]} has no {col}")
    bad = frame[~frame.verdict.isin(VERDICTS)]
    if len(bad):
        raise ValueError(f"{source}: row {bad.index[0]} has verdict {bad.verdict.iloc[0]!r}, "
                         f"not one of {', '.join(VERDICTS)}")
    out = frame.reindex(columns=list(COLUMNS))
    out["tags"] = out["tags"].fillna("[]")
    out["note"] = out["note"].fillna("")
    return checks.check_rows(out, source)


def import_frame(frame: pd.DataFrame, path=None, source: str = "the log") -> int:
    """Add the rows of a log not yet stored (by review_id); returns how many were added."""
    rows = check_log(frame, source).to_dict("records")
    return _insert(path, rows) if rows else 0


def read_file(file: Path | str) -> pd.DataFrame:
    file = Path(file)
    if file.suffix.lower() == ".parquet":
        return pd.read_parquet(file)
    if file.suffix.lower() == ".csv":
        return pd.read_csv(file, dtype=str, keep_default_na=False).replace({"": None})
    raise ValueError(f"{file}: a review log is a .parquet or .csv file")


def import_file(file: Path | str, path=None) -> int:
    """Import a Parquet or CSV log; importing the same log twice adds nothing."""
    frame = read_file(file)
    if "score" in frame:
        frame["score"] = pd.to_numeric(frame["score"], errors="coerce")
    return import_frame(frame, path, Path(file).name)


def export_file(out: Path | str, path=None) -> int:
    """The whole log as Parquet (lossless) or CSV (formulas neutralised) by suffix; rows written."""
    from judgescope.sources import exports as export

    out, frame = Path(out), log(path)
    if out.suffix.lower() == ".parquet":
        out.write_bytes(export.parquet_bytes(frame))
    elif out.suffix.lower() == ".csv":
        out.write_bytes(export.csv_bytes(frame))
    else:
        raise ValueError(f"{out}: export to a .parquet or .csv file")
    return len(frame)


def integrity_ok(path=None) -> bool:
    with closing(open_db(path)) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
