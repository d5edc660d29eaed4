"""Reviewer verdicts on judge rows: an append-only log in the reviews database (issue #18),
and each reviewer's drafts beside it. Pure: no streamlit.

One row per verdict, never updated or deleted (triggers refuse it; a retraction is a row).
Beside the log, `drafts` holds each reviewer's unsaved tags and note per row (one row per
reviewer, dataset and record, replaced as it is typed, deleted when a verdict is saved): a draft
is work in progress, not a verdict, so it is the one mutable table.
"""

from __future__ import annotations

import json
import uuid

import pandas as pd

from judgescope.reviews import checks, database

VERDICTS = ("judge_right", "too_harsh", "too_lenient", "unsure", "retracted")
TAGS = ("mixed script", "untranslated", "name or number", "meaning changed", "other")
COLUMNS = ("review_id", "reviewer", "created_at", "collection", "dataset", "revision",
           "judge_record_id", "source_sha256", "candidate_sha256", "verdict", "tags", "note",
           "language", "unit", "score")


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
    row.update(review_id=str(uuid.uuid4()), reviewer=reviewer, created_at=database.now(),
               collection=collection, dataset=dataset, judge_record_id=str(judge_record_id),
               verdict=verdict, tags=json.dumps(list(tags), ensure_ascii=False), note=str(note))
    return row


_INSERT = (f"INSERT OR IGNORE INTO reviews ({', '.join(COLUMNS)}) "
           f"VALUES ({', '.join('?' for _ in COLUMNS)})")


def _values(row: dict) -> tuple:
    return tuple(database.bound(row.get(c)) for c in COLUMNS)


def insert(path, rows: list[dict]) -> int:
    """Rows appended in one transaction, those of a review_id already stored skipped; how many were added."""
    return database.write(path, [(_INSERT, [_values(r) for r in rows])], many=True)


def append(row: dict, path=None) -> str:
    """Append one review; returns its review_id once it is durably committed."""
    insert(path, [row])
    return row["review_id"]


def record(path=None, **fields) -> dict:
    """new_review(**fields) appended; the stored row."""
    row = new_review(**fields)
    append(row, path)
    return row


_DELETE_DRAFT = "DELETE FROM drafts WHERE reviewer = ? AND dataset = ? AND judge_record_id = ?"
_UPSERT_DRAFT = ("INSERT INTO drafts VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (reviewer, dataset, judge_record_id) "
                 "DO UPDATE SET tags = excluded.tags, note = excluded.note, updated_at = excluded.updated_at")


def save_verdict(path=None, **fields) -> dict:
    """new_review(**fields) appended and the reviewer's draft on that row deleted, in one
    transaction: the verdict carries exactly the tags and note given, and the draft is gone."""
    row = new_review(**fields)
    database.write(path, [(_INSERT, _values(row)),
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
        database.write(path, [(_DELETE_DRAFT, key)])
        return
    database.write(path, [(_UPSERT_DRAFT, (*key, json.dumps(list(tags), ensure_ascii=False), str(note or ""),
                                           database.now()))])


def draft(reviewer: str, dataset: str, judge_record_id: str, path=None) -> tuple[list, str] | None:
    """(tags, note) of a reviewer's draft on one row; None when there is none. Its tags are read
    as a verdict's are (checks.shown_tags), keeping the known ones: a stored text that is not a
    JSON list of tags shows none instead of breaking the reviewer's Review page."""
    found = database.read(path, "SELECT tags, note FROM drafts WHERE " + _DELETE_DRAFT.split("WHERE ")[1],
                          (checks.reviewer_name(reviewer), str(dataset), str(judge_record_id)))
    if found.empty:
        return None
    return [t for t in checks.shown_tags(found.tags.iloc[0] or "[]") if t in TAGS], str(found.note.iloc[0] or "")


def drafts(reviewer: str, dataset: str | None, path=None) -> pd.DataFrame:
    """A reviewer's drafts (judge_record_id, tags, note, updated_at) on a dataset's rows."""
    return database.read(path, "SELECT judge_record_id, tags, note, updated_at FROM drafts WHERE reviewer = ? "
                         "AND dataset = ? ORDER BY judge_record_id", (checks.reviewer_name(reviewer), str(dataset)))


def reviewers(path=None) -> list[str]:
    """Every reviewer name in the log."""
    return database.read(path, "SELECT DISTINCT reviewer FROM reviews ORDER BY reviewer").reviewer.tolist()


def log(path=None, dataset: str | None = None) -> pd.DataFrame:
    """Every review row, oldest first (of one dataset when given)."""
    where = " WHERE dataset = ?" if dataset else ""
    return database.read(path, f"SELECT {', '.join(COLUMNS)} FROM reviews{where} "
                         "ORDER BY created_at, review_id", (dataset,) if dataset else ())


def latest(path=None, dataset: str | None = None, keep_retracted: bool = False) -> pd.DataFrame:
    """Each reviewer's latest verdict per row; a retracted verdict leaves the row unreviewed."""
    where = ["dataset = ?"] if dataset else []
    if not keep_retracted:
        where.append("verdict <> 'retracted'")
    sql = (f"SELECT {', '.join(COLUMNS)} FROM latest_reviews"
           + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created_at, review_id")
    return database.read(path, sql, (dataset,) if dataset else ())


def for_record(dataset: str, judge_record_id: str, path=None) -> pd.DataFrame:
    """The latest verdicts of every reviewer on one row."""
    return database.read(path, f"SELECT {', '.join(COLUMNS)} FROM latest_reviews WHERE dataset = ? AND "
                         "judge_record_id = ? AND verdict <> 'retracted' ORDER BY created_at",
                         (dataset, str(judge_record_id)))
