"""Issue #14 item 5: when several snapshot rows match a Review record, say so and show none.
Review reads the same join as Integrity (hash_verification), so both say the same."""

import hashlib

import duckdb
import pandas as pd
import pytest

from judgescope.audit import rows as audit_rows
from judgescope import wiring
from judgescope.duck import db
from judgescope.audit.record_tables import audit_summary_views
from judgescope.integrity.verification_tables import verification_views
from stores import audit_row, write_table


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("review_texts")
    audit = pd.DataFrame([audit_row(1, "th", "answer", 10), audit_row(2, "th", "answer", 20),
                          audit_row(3, "th", "answer", 30)])
    # By instance_id: i1 matches once, i2 three times, i3 not at all.
    snap = pd.DataFrame({"instance_id": ["i1", "i2", "i2", "i2"], "source_id": None,
                         "target_language": ["th", None, None, "th"], "unit": None,
                         "paragraph_id": None, "source_text": ["one", "a", "b", "c"],
                         "candidate_text": ["หนึ่ง", "x", "y", "z"]})
    for side in ("source", "candidate"):  # computed once at validation in the app
        snap[f"{side}_sha256_computed"] = [hashlib.sha256(t.encode()).hexdigest() for t in snap[f"{side}_text"]]
    con = duckdb.connect()
    views = {"audit": write_table(con, audit, tmp / "a.parquet"),
             "snapshot": write_table(con, snap, tmp / "s.parquet")}
    views["snapshot_numbered"] = views["snapshot"]
    key = ["instance_id"]  # the collection's join key, as Integrity uses it
    return db.Store(views | audit_summary_views(views["audit"][0])
                    | verification_views(views["audit"][0], views["snapshot"][0], key), derived=wiring.VIEWS.by_name)


def _lookup(store, record_id):
    row = audit_rows.snapshot_texts(store.run, [record_id]).iloc[0]
    shown = row[["source_text"]].dropna()
    return shown.tolist(), audit_rows.match_note(row)


def test_one_match_is_shown_with_its_hash_note(store):
    texts, note = _lookup(store, "r1")
    assert texts == ["one"] and note.startswith("Hash check: ")  # the fixture's hashes are fake


def test_several_matches_are_ambiguous(store):
    texts, note = _lookup(store, "r2")
    assert texts == []
    assert note == ("Ambiguous: 3 snapshot rows have this row's join key, so no one text is shown "
                    "(Integrity lists these rows as ambiguous).")


def test_no_match_says_so(store):
    texts, note = _lookup(store, "r3")
    assert texts == [] and note == "No snapshot row has this row's join key: no text to show."
