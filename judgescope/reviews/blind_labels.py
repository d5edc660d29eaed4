"""Blind labels (issue 43 item 6): a reviewer's own pass / fail on a row whose judge score and
explanation were hidden until the label was saved. Stored in the reviews database's
blind_labels log (schema version 4), apart from the verdicts: every row there is blind, and
nothing here reads or writes the verdicts. Pure: no streamlit."""

from __future__ import annotations

import uuid

import pandas as pd

from judgescope.reviews import checks, database

LABELS = ("pass", "fail", "unsure", "retracted")  # the CHECK of migrations._V4
COLUMNS = ("review_id", "reviewer", "created_at", "collection", "dataset", "revision",
           "judge_record_id", "source_sha256", "candidate_sha256", "label", "note",
           "language", "unit", "score", "blind")
_INSERT = (f"INSERT INTO blind_labels ({', '.join(COLUMNS)}) "
           f"VALUES ({', '.join('?' for _ in COLUMNS)})")


def new_label(reviewer: str, collection: str, dataset: str, judge_record_id: str, label: str,
              note: str = "", **context) -> dict:
    """A blind label row (a new uuid, the time now, blind = 1); context: revision, digests,
    language, unit, score (the judge's, kept for the calibration, not shown before saving)."""
    if label not in LABELS:
        raise ValueError(f"blind label {label!r} is not one of {', '.join(LABELS)}")
    row = {c: context.get(c) for c in COLUMNS}
    row.update(review_id=str(uuid.uuid4()), reviewer=checks.reviewer_name(reviewer),
               created_at=database.now(), collection=collection, dataset=dataset,
               judge_record_id=str(judge_record_id), label=label, note=str(note or ""), blind=1)
    return row


def save(path=None, **fields) -> dict:
    """new_label(**fields) appended durably; the stored row."""
    row = new_label(**fields)
    database.write(path, [(_INSERT, tuple(database.bound(row.get(c)) for c in COLUMNS))])
    return row


def _frame(path, sql: str, params: tuple = ()):
    """database.read; a read-only database of schema version 3 (no blind_labels table, and it
    cannot be migrated) holds no blind label."""
    try:
        return database.read(path, sql, params)
    except database.ReviewStoreUnavailable as err:
        if "no such table" not in str(err):
            raise
        return pd.DataFrame(columns=[*COLUMNS])


def log(path=None, dataset: str | None = None):
    """Every blind label, oldest first (of one dataset when given)."""
    where = " WHERE dataset = ?" if dataset else ""
    return _frame(path, f"SELECT {', '.join(COLUMNS)} FROM blind_labels{where} "
                        "ORDER BY created_at, review_id", (dataset,) if dataset else ())


def latest(path=None, dataset: str | None = None):
    """Each reviewer's latest blind label per row, retracted ones dropped."""
    where = "label <> 'retracted'" + (" AND dataset = ?" if dataset else "")
    return _frame(path, f"SELECT {', '.join(COLUMNS)} FROM latest_blind_labels WHERE {where} "
                        "ORDER BY created_at, review_id", (dataset,) if dataset else ())


def mine(reviewer: str, dataset: str, judge_record_id: str, path=None) -> str | None:
    """This reviewer's latest blind label on one row (None when none, or retracted)."""
    found = _frame(path, "SELECT label FROM latest_blind_labels WHERE reviewer = ? AND "
                         "dataset = ? AND judge_record_id = ?",
                         (checks.reviewer_name(reviewer), str(dataset), str(judge_record_id)))
    label = None if found.empty else str(found.label.iloc[0])
    return None if label == "retracted" else label
