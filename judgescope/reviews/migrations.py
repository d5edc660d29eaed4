"""The reviews database's schema: its SQL, one script per version, and the migration that
brings a database up to SCHEMA_VERSION (issue #18). Pure: no streamlit."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 4

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


def schema_version(con: sqlite3.Connection) -> int:
    has = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone()
    if not has:
        return 0
    return con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]


def migrate(con: sqlite3.Connection, applied_at: str) -> None:
    """Every migration the database lacks, in one IMMEDIATE transaction, each version recorded
    as applied at `applied_at`."""
    con.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others wait, then see it done
    try:
        con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "applied_at TEXT NOT NULL)")
        for version in range(schema_version(con) + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[version].split(";\n"):
                if statement.strip():
                    con.execute(statement)
            con.execute("INSERT INTO schema_version VALUES (?, ?)", (version, applied_at))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
