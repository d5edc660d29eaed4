"""Issue #14 items 2 and 3: Compare versions keeps groups only the earlier version has, and
overlap and paired differences share one pairing key whose duplicates are counted and named."""

import duckdb
import pandas as pd
import pytest

from judgescope.audit import versions
from judgescope import wiring
from judgescope.duck import db
from judgescope.audit.record_tables import compare_views
from stores import audit_row, write_table


def test_groups_only_in_the_previous_version_are_kept():
    prev = pd.DataFrame({"unit": "a", "target_language": ["x", "fr"], "score": [80.0, 50.0],
                         "n": [4, 2]})
    cur = pd.DataFrame({"unit": "a", "target_language": ["x"], "score": [90.0], "n": [4]})
    table = versions.compare_table(prev, cur, ["target_language"], resamples=100, seed=1)
    fr = table.set_index("target_language").loc["fr"]
    assert (fr["n_previous"], fr["n_current"], fr["previous_mean"]) == (2, 0, 50.0)
    assert fr["current_mean"] is None or pd.isna(fr["current_mean"])
    assert pd.isna(fr["diff"]) and pd.isna(fr["low"])
    assert table["target_language"].tolist() == ["fr", "x"]


def _compare_store(tmp, cur: pd.DataFrame, prev: pd.DataFrame) -> db.Store:
    """A Store over the two versions' files with Compare versions' derived views."""
    con = duckdb.connect()
    views = {"audit": write_table(con, cur, tmp / "a.parquet"),
             "audit_previous": write_table(con, prev, tmp / "p.parquet")}
    return db.Store(views | compare_views(views["audit"][0], views["audit_previous"][0]),
                    derived=wiring.VIEWS.by_name)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Current: source s1 has two paragraphs (two keys), s3's paragraph p1 was scored twice.
    Previous: s1's two paragraphs once each, s3 p1 once, s4 twice."""
    tmp = tmp_path_factory.mktemp("pairing")
    cur = pd.DataFrame([audit_row(1, "de", "paragraph", 90, source_id="s1", paragraph_id="p1"),
                        audit_row(2, "de", "paragraph", 80, source_id="s1", paragraph_id="p2"),
                        audit_row(3, "de", "paragraph", 70, source_id="s3", paragraph_id="p1"),
                        audit_row(4, "de", "paragraph", 75, source_id="s3", paragraph_id="p1"),
                        audit_row(5, "de", "paragraph", 60, source_id="s4", paragraph_id="p1")])
    prev = pd.DataFrame([audit_row(11, "de", "paragraph", 85, source_id="s1", paragraph_id="p1"),
                         audit_row(12, "de", "paragraph", 70, source_id="s1", paragraph_id="p2"),
                         audit_row(13, "de", "paragraph", 50, source_id="s3", paragraph_id="p1"),
                         audit_row(14, "de", "paragraph", 40, source_id="s4", paragraph_id="p1"),
                         audit_row(15, "de", "paragraph", 45, source_id="s4", paragraph_id="p1")])
    return _compare_store(tmp, cur, prev)


def test_overlap_counts_unique_keys_paired_in_both(store):
    overlap = store.run("audit_overlap").iloc[0]
    # s1 p1 and s1 p2 pair; s3 p1 (twice in current) and s4 p1 (twice in previous) do not.
    assert (overlap["n_current"], overlap["n_previous"], overlap["overlap"]) == (5, 5, 2)
    assert (overlap["duplicate_keys_current"], overlap["duplicate_keys_previous"]) == (1, 1)


def test_paired_differences_use_the_same_pairs(store):
    diffs = store.run("audit_paired_diff_counts")
    assert diffs["n"].sum() == store.run("audit_overlap")["overlap"].sum()
    assert sorted(diffs["diff"]) == [5.0, 10.0]


@pytest.fixture(scope="module")
def instance_store(tmp_path_factory):
    """Rows without a source_id pair on their instance_id (as drift does), never with a source_id:
    w1 pairs (+5); w2 was scored twice in the previous version (a duplicate, not paired); w3 is
    an instance in the current version only; source w3 pairs with source w3 (+20), not with
    instance w3; source w1 is in the previous version only."""
    tmp = tmp_path_factory.mktemp("instance-pairing")
    by_instance = {"source_id": None, "paragraph_id": None}
    cur = pd.DataFrame([audit_row(1, "de", "segment", 90, **by_instance, instance_id="w1"),
                        audit_row(2, "de", "segment", 80, **by_instance, instance_id="w2"),
                        audit_row(3, "de", "segment", 70, **by_instance, instance_id="w3"),
                        audit_row(4, "de", "segment", 60, source_id="w3", paragraph_id=None)])
    prev = pd.DataFrame([audit_row(11, "de", "segment", 85, **by_instance, instance_id="w1"),
                         audit_row(12, "de", "segment", 70, **by_instance, instance_id="w2"),
                         audit_row(13, "de", "segment", 72, **by_instance, instance_id="w2"),
                         audit_row(14, "de", "segment", 50, source_id="w1", paragraph_id=None),
                         audit_row(15, "de", "segment", 40, source_id="w3", paragraph_id=None)])
    return _compare_store(tmp, cur, prev)


def test_rows_without_a_source_id_pair_on_their_instance_id(instance_store):
    overlap = instance_store.run("audit_overlap").iloc[0]
    assert (overlap["n_current"], overlap["n_previous"], overlap["overlap"]) == (4, 5, 2)
    assert (overlap["duplicate_keys_current"], overlap["duplicate_keys_previous"]) == (0, 1)
    assert sorted(instance_store.run("audit_paired_diff_counts")["diff"]) == [5.0, 20.0]
    dup = instance_store.run("audit_version_duplicate_keys", limit=10)
    assert dup[["version", "paired_on", "unit_id", "rows"]].values.tolist() == [["previous", "instance_id", "w2", 2]]


def test_review_sets_the_earlier_row_beside_a_record_on_the_same_key(instance_store):
    """Review's "both runs" panel (audit_previous_record) pairs as Compare versions: r1's
    instance w1 with r11, r4's source w3 with r15 (not instance w3); r3's instance w3 has no
    earlier row, and r2's instance w2 was scored twice before (not paired)."""
    def earlier(rid):
        e = instance_store.run("audit_previous_record", record_id=rid)
        return [(x.judge_record_id, x.diff, x.current_rows) for x in e.itertuples()]
    assert earlier("r1") == [("r11", 5.0, 1)] and earlier("r4") == [("r15", 20.0, 1)]
    assert earlier("r3") == [] and earlier("r2") == []


def test_duplicate_keys_are_named(store):
    dup = store.run("audit_version_duplicate_keys", limit=10)
    assert dup[["version", "paired_on", "unit_id", "paragraph_id", "rows"]].values.tolist() == [
        ["current", "source_id", "s3", "p1", 2], ["previous", "source_id", "s4", "p1", 2]]


def test_overlap_sentence_names_the_key_and_duplicates():
    overlap = pd.DataFrame({"unit": ["paragraph"], "n_current": [5], "n_previous": [5],
                            "overlap": [2], "duplicate_keys_current": [1],
                            "duplicate_keys_previous": [1]})
    assert versions.overlap_sentence(overlap) == (
        "Pairs on (source_id, else instance_id; target_language, unit, paragraph_id), each key once in both "
        "versions: 2 paragraph. Keys scored more than once are not paired: 1 in the current "
        "version, 1 in the previous.")
