"""Every queries/calib_*.sql parses, binds strictly, and returns golden rows on a fixture store."""

import duckdb
import pandas as pd
import pytest

from judgescope.duck import db
from judgescope.schema import SCHEMAS
from stores import write_table

PARAMS = {
    "calib_splits": {}, "calib_items": {"splits": [], "no_split": False},
    "calib_item_judgements": {"splits": [], "no_split": False},
    "calib_heldout_summary": {}, "calib_verdict_counts": {}, "calib_verdict_counts_heldout": {},
    "calib_judge_pairs": {}, "calib_judge_pairs_heldout": {}, "calib_provenance": {},
    "calib_provenance_heldout": {}, "calib_unlabelled_counts": {}, "calib_judge_fingerprints": {},
}
ITEM_COLUMNS = [c.name for c in SCHEMAS["calibration_items"].columns]
JUDGE_COLUMNS = [c.name for c in SCHEMAS["calibration_judgements"].columns]


def _items():
    rows = [("q1:0", "q1", "train", "match"), ("q2:1", "q2", "test", "no_match"),
            ("q3:0", None, "test", "match"), ("q4:0", "q4", None, "match")]
    out = []
    for key, qid, split, v in rows:
        row = dict.fromkeys(ITEM_COLUMNS)
        row.update(key=key, question_id=qid, split=split, human_1_verdict=v, human_2_verdict=v,
                   human_3_verdict="no_answer")
        out.append(row)
    return pd.DataFrame(out)


def _judgements():
    """Calibration keys, another attempt at a calibration question (q1:3), a fresh question
    (q9:0), a judgement without question_id and one on a key whose item lacks question_id."""
    keys = [("q1:0", "q1"), ("q2:1", "q2"), ("q1:3", "q1"), ("q9:0", "q9"), ("q8:0", None),
            ("q3:0", "q3"), ("q4:0", "q4")]
    out = []
    for key, qid in keys:
        for judge, verdict in (("a", "match"), ("b", "no_match" if key == "q9:0" else "match")):
            row = dict.fromkeys(JUDGE_COLUMNS)
            row.update(key=key, question_id=qid, judge_model=judge, verdict=verdict,
                       tokens_in=100 if judge == "a" else None, prompts="p1", output_mode="json")
            out.append(row)
    return pd.DataFrame(out)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("calib")
    con = duckdb.connect()
    return db.Store({name: write_table(con, frame, tmp / f"{name}.parquet")
                     for name, frame in (("items", _items()), ("judgements", _judgements()))})


def test_every_calib_query_is_listed():
    assert sorted(n for n in db.query_names() if n.startswith("calib_")) == sorted(PARAMS)


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_query_binds_strictly(store, name):
    store.run(name, **PARAMS[name])
    assert db.query_params(name) == list(PARAMS[name])
    # DuckDB names a surplus value when the query has parameters, a count mismatch otherwise.
    error = duckdb.InvalidInputException if PARAMS[name] else duckdb.BinderException
    with pytest.raises(error, match="(?i)param"):
        store.run(name, **PARAMS[name], unexpected=1)
    assert db.query_text(name).startswith("-- ")


def test_split_filter(store):
    assert store.run("calib_items", splits=["test"], no_split=False)["key"].tolist() == \
        ["q2:1", "q3:0"]
    judg = store.run("calib_item_judgements", splits=["train"], no_split=False)
    assert judg["key"].unique().tolist() == ["q1:0"]


def test_null_split_is_selectable(store):
    """Issue #14 item 6: an item without a split is chosen by $no_split, alone or with others."""
    assert store.run("calib_items", splits=[], no_split=True)["key"].tolist() == ["q4:0"]
    assert store.run("calib_items", splits=["train"], no_split=True)["key"].tolist() == \
        ["q1:0", "q4:0"]
    judg = store.run("calib_item_judgements", splits=[], no_split=True)
    assert judg["key"].unique().tolist() == ["q4:0"]
    assert len(store.run("calib_items", splits=[], no_split=False)) == 4
    with pytest.raises(duckdb.InvalidInputException, match="(?i)param"):
        store.run("calib_items")


def test_heldout_excludes_whole_questions(store):
    s = store.run("calib_heldout_summary").iloc[0]
    assert (s["judgements"], s["without_question_id"], s["held_out"]) == (14, 2, 2)
    assert s["on_calibration_questions"] == 10  # q1:0, q1:3, q2:1, q4:0 and key q3:0, two judges each
    held = store.run("calib_verdict_counts_heldout")
    assert held["n"].sum() == 2  # only q9:0: q1:3 shares q1 with calibration, q8 has no id
    pairs = store.run("calib_judge_pairs_heldout")
    assert pairs[["verdict_a", "verdict_b", "n"]].values.tolist() == [["match", "no_match", 1]]
    assert store.run("calib_judge_pairs")["n"].sum() == 7


def test_provenance_keeps_nulls(store):
    prov = store.run("calib_provenance")
    a = prov[prov.judge_model == "a"].iloc[0]
    b = prov[prov.judge_model == "b"].iloc[0]
    assert a["tokens_in_recorded"] == 7 and a["tokens_in_total"] == 700
    assert b["tokens_in_recorded"] == 0 and pd.isna(b["tokens_in_total"])
    assert pd.isna(a["template"]) and a["prompts"] == "p1"
    share = store.run("calib_verdict_counts").groupby("judge_model")["share"].sum()
    assert share.round(9).tolist() == [1.0, 1.0]


def test_unlabelled_counts_leave_out_calibration_keys(store):
    got = store.run("calib_unlabelled_counts").set_index("judge_model")
    # q1:3, q9:0 and q8:0 are not calibration items; judge b says no_match on q9:0.
    assert got.loc["a", ["n", "passes"]].tolist() == [3, 3]
    assert got.loc["b", ["n", "passes"]].tolist() == [3, 2]


def test_judge_fingerprints_count_labelled_and_unlabelled_rows(store):
    """Four of the seven judged keys are calibration items (q1:0, q2:1, q3:0, q4:0), each judged
    by a and b with one set of settings (prompts p1, JSON output, no template), so each judge has
    one row a side."""
    got = store.run("calib_judge_fingerprints")
    counts = got.groupby(["judge_model", "labelled"])["n"].sum().to_dict()
    assert counts == {("a", False): 3, ("a", True): 4, ("b", False): 3, ("b", True): 4}
    assert len(got) == 4 and set(got["prompts"]) == {"p1"} and set(got["output_mode"]) == {"json"}
    assert got["template"].isna().all()
