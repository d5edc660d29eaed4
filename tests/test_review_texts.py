"""Issue #14 item 5: when several snapshot rows match a Review record, say so and show none."""

import duckdb
import pandas as pd
import pytest

from judgescope import audit_rows, db
from judgescope.catalog import audit_summary_views
from test_audit_queries import _row, _write


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("review_texts")
    audit = pd.DataFrame([_row(1, "th", "answer", 10), _row(2, "th", "answer", 20),
                          _row(3, "th", "answer", 30)])
    # i1 matches once; i2 three times (the snapshot has no unit column values); i3 not at all.
    snap = pd.DataFrame({"instance_id": ["i1", "i2", "i2", "i2"], "source_id": None,
                         "target_language": ["th", None, None, "th"], "unit": None,
                         "paragraph_id": None, "source_text": ["one", "a", "b", "c"],
                         "candidate_text": ["หนึ่ง", "x", "y", "z"]})
    con = duckdb.connect()
    views = {"audit": _write(con, audit, tmp / "a.parquet"),
             "snapshot": _write(con, snap, tmp / "s.parquet")}
    return db.Store(views | audit_summary_views(views["audit"][0]))


def _lookup(store, record_id):
    return audit_rows.record_text_lookup(store.run, store.run("audit_record",
                                                              record_id=record_id).iloc[0])


def test_one_match_is_shown_with_its_hash_note(store):
    texts, note = _lookup(store, "r1")
    assert texts["source_text"].tolist() == ["one"] and note.startswith("SHA-256 of the shown")


def test_several_matches_are_ambiguous(store):
    texts, note = _lookup(store, "r2")
    assert texts.empty
    assert note == ("Ambiguous: 3 snapshot rows match this record's (instance_id, "
                    "target_language, unit, paragraph_id); none is shown.")


def test_no_match_says_so(store):
    texts, note = _lookup(store, "r3")
    assert texts.empty and note == "The source snapshot has no text for this row."
