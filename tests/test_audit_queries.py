"""Every queries/audit_*.sql parses, binds strictly and returns golden rows on a fixture store."""

import hashlib

import duckdb
import pandas as pd
import pytest

from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope import wiring
from judgescope.duck import db
from judgescope.audit.record_tables import (audit_summary_views, compare_views, exact_copy_count_views,
                                             exact_copy_views, provenance_views)
from judgescope.integrity.verification_tables import verification_views
from stores import audit_row, write_counts, write_summaries, write_table

FILTERS = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
           "max_score": 100.0, "q": ""}
PARAMS = {
    "audit_score_counts": {"facet": "none"},
    "audit_score_bins": {"facet": "none"},
    "audit_score_order_stats": {"facet": "none"},
    "audit_score_counts_below": {"facet": "none", "thresholds": [60.0]},
    "audit_score_counts_cells": {"facet": "none", "cells": []},
    "audit_build_score_bins": {"width": 1.0},
    "audit_build_order_stats": {"width": 1.0},
    "audit_build_counts": {},
    "audit_build_count_rows": {},
    "audit_build_counts_estimate": {},
    "audit_review_count": FILTERS,
    "audit_review_count_prebuilt": {k: v for k, v in FILTERS.items() if k != "q"},
    "audit_review_export": FILTERS,
    "audit_repeat_unkeyed": {"limit": 25},
    "audit_review_page": {**FILTERS, "after_score": -1.0, "after_id": "", "page_size": 2},
    "audit_review_page_desc": {**FILTERS, "after_score": 1e308, "after_id": "", "page_size": 2},
    "audit_review_page_bound": {**{k: v for k, v in FILTERS.items() if k != "q"}, "after_score": -1.0,
                                "descending": False, "page_size": 2},
    "audit_review_count_binned": {k: v for k, v in FILTERS.items() if k != "q"},
    "audit_review_page_bound_binned": {**{k: v for k, v in FILTERS.items() if k != "q"}, "after_score": -1.0,
                                       "descending": False, "page_size": 2},
    "audit_review_rank_binned": {**{k: v for k, v in FILTERS.items() if k != "q"}, "key_score": 40.0,
                                 "key_id": "r2", "descending": False},
    "audit_build_record_index": {},
    "audit_record": {"record_id": "r1"},
    "audit_record_explanation": {"record_id": "r1"},
    "audit_exact_copy_rows": {"languages": [], "units": [], "limit": 10},
    "audit_build_exact_copies": {},
    "audit_build_exact_copies_texts": {},
    "audit_build_exact_copy_counts": {},
    "audit_build_overlap": {},
    "audit_build_model_provenance": {},
    "audit_build_paired_diff_counts": {},
    "audit_version_duplicate_keys": {"limit": 10},
    "audit_worst_rows": {"k": 1, "max_score": 100.0},
    "audit_record_digests": {"ids": ["r1"]},
    "audit_record_systems": {"ids": ["r1"]},
    "audit_reviewed_count": {**FILTERS, "ids": ["r1"]},
    "audit_blind_unlabelled": {"ids": ["r1"], "threshold": 50.0},
    "audit_previous_record": {"record_id": "r1"},
    "audit_rows_by_review_state": {**FILTERS, "ids": ["r1"], "exclude": True, "limit": 10},
    "audit_theme_texts": {"languages": [], "units": [], "threshold": 60.0, "per_group": 10},
    "audit_missing_explanations": {"limit": 10},
    "audit_raw_excluded_rows": {"limit": 10},
    "audit_review_rank": {**FILTERS, "key_score": 40.0, "key_id": "r2", "descending": False},
    "audit_review_rank_prebuilt": {**{k: v for k, v in FILTERS.items() if k != "q"}, "key_score": 40.0,
                                   "key_id": "r2", "descending": False},
    "audit_review_neighbour_bounds": {**{k: v for k, v in FILTERS.items() if k != "q"}, "key_score": 40.0},
    "audit_review_neighbour_bounds_binned": {**{k: v for k, v in FILTERS.items() if k != "q"}, "key_score": 40.0},
    "audit_review_neighbours": {**FILTERS, "key_score": 40.0, "key_id": "r2", "low_bound": 0.0,
                                "high_bound": 100.0},
    "audit_default_intervals": {"facet": "none"},
    "audit_default_interval_groups": {"facet": "none"},
    "audit_facet_intervals": {"facet": "run_group"},
    "audit_review_next_unreviewed": {**FILTERS, "ids": ["r1"], "after_score": -1.0, "after_id": "",
                                     "descending": False},
}
SCRATCH = {"audit_raw_excluded_rows"}  # runs on a scratch connection (test_audit_pages.py)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> db.Store:
    tmp = tmp_path_factory.mktemp("auditstore")
    cur = pd.DataFrame([
        audit_row(1, "th", "answer", 10, candidate_text_sha256="h1", judge_explanation="Kept Latin NAME",
             system="A"),
        audit_row(2, "th", "answer", 40, score_origin=None, judge_explanation=None),
        audit_row(3, "th", "answer", 40, system="B"),
        audit_row(4, "de", "paragraph", 95, paragraph_id="p1", run_group=None, system="A"),
        audit_row(5, "de", "paragraph", 100, paragraph_id="p2", source_id="old5"),
    ])
    prev = pd.DataFrame([audit_row(1, "th", "answer", 30),
                         audit_row(9, "de", "paragraph", 90, source_id="old5", paragraph_id="p2")])
    snap = pd.DataFrame({"instance_id": ["i1", "i4"], "source_id": None, "target_language": ["th", None],
                         "unit": ["answer", None], "paragraph_id": [None, "p1"],
                         "source_text": ["Barack Obama", "Source four"],
                         "candidate_text": ["Barack Obama", "Kandidat vier"]})
    for side in ("source", "candidate"):  # computed once at validation in the app
        snap[f"{side}_sha256_computed"] = [hashlib.sha256(t.encode()).hexdigest() for t in snap[f"{side}_text"]]
    ledger = pd.DataFrame({"dataset": ["raw", "raw", "other"], "file": "r.jsonl", "row": [7, 8, 1],
                           "column": "run_group", "reason": "partial run", "value": "x",
                           "record_id": ["x7", "x8", "o1"]})
    con = duckdb.connect()
    views = {"audit": write_table(con, cur, tmp / "a.parquet"),
             "audit_previous": write_table(con, prev, tmp / "p.parquet"),
             "snapshot": write_table(con, snap, tmp / "s.parquet")}
    views["audit_counts"] = write_counts(con, tmp / "a.parquet")
    views |= write_summaries(con, tmp / "a.parquet")
    views["audit_previous_counts"] = write_counts(con, tmp / "p.parquet")
    con.register("frame", ledger)
    con.execute("COPY frame TO $p (FORMAT parquet)", {"p": str(tmp / "l.parquet")})
    views["ledger"] = [tmp / "l.parquet"]
    views |= audit_summary_views(views["audit"][0]) | provenance_views(views["audit"][0])
    views["snapshot_numbered"] = views["snapshot"]
    views["raw_records"] = views["audit"]  # raw judge records have the audit's columns
    verification = verification_views(views["audit"][0], views["snapshot"][0], ["instance_id"])
    views |= verification | exact_copy_views(views["audit"][0], verification)
    views |= exact_copy_count_views(views["audit"][0])
    views |= compare_views(views["audit"][0], views["audit_previous"][0])
    counted = {v: views[v][0] for v in ("audit", "audit_counts", "audit_bins", "audit_order_stats")}
    views |= interval_tables.views_of(counted, ["none"])
    views |= interval_tables.views_of(counted, ["run_group"], view=interval_tables.FACETS_VIEW)
    return db.Store(views, derived=wiring.VIEWS.by_name)


def audit_queries(store_only=False):
    return [q for q in db.query_names() if q.startswith("audit_")
            and not (store_only and q in SCRATCH)]


def test_every_audit_query_has_params_and_header():
    for name in audit_queries():
        assert db.query_text(name).startswith("-- "), name
        assert set(db.query_params(name)) == set(PARAMS.get(name, {})), name


@pytest.mark.parametrize("name", audit_queries(store_only=True))
def test_query_binds_strictly(store, name):
    params = PARAMS.get(name, {})
    store.run(name, **params)
    # DuckDB names a surplus value when the query has parameters, a count mismatch otherwise.
    error = duckdb.InvalidInputException if params else duckdb.BinderException
    with pytest.raises(error, match="(?i)param"):
        store.run(name, **params, unexpected=1)


def test_blind_unlabelled_golden(store):
    # Scores 10, 40, 40, 95, 100 (r1-r5): without r1 and r4, three rows, one (100) at or above 50.
    got = store.run("audit_blind_unlabelled", ids=["r1", "r4"], threshold=50.0)
    assert got[["n", "passes"]].values.tolist() == [[3, 1]]


def test_score_counts_golden(store):
    got = store.run("audit_score_counts", facet="run_group")
    assert got[got.unit == "answer"][["score", "n"]].values.tolist() == [[10, 1], [40, 2]]
    assert set(got.facet.dropna()) == {"main"} and got.facet.isna().sum() == 1
    rows = store.run("audit_score_counts", facet="dataset_version")
    assert rows.n.sum() == 5 and rows.facet.isna().all()
    assert audit.unit_summary(got).iloc[-1]["n"] == 5


def test_order_stats_golden_a_null_facet_value_is_its_own_group(store):
    got = store.run("audit_score_order_stats", facet="run_group")
    key = [(bool(r.by_language), bool(r.by_unit), bool(r.by_facet),
            *(None if pd.isna(v) else v for v in (r.target_language, r.unit, r.facet)))
           for r in got.itertuples()]
    stat = dict(zip(key, zip(got.n, got["median"], got.p5)))
    assert stat[(False, True, True, None, "paragraph", None)][:2] == (1, 95)  # run_group NULL
    assert stat[(False, True, True, None, "paragraph", "main")][:2] == (1, 100)
    assert stat[(False, True, False, None, "paragraph", None)][:2] == (2, 97.5)  # rolled up
    assert stat[(False, False, False, None, None, None)] == (5, 40, 16)  # 10 + 0.2 × (40 − 10)
    assert set(got.distinct_scores) == {4} and len(got) == len(set(key))
    bins = store.run("audit_score_bins", facet="none")
    assert bins[bins.unit == "answer"][["bin", "n", "total", "total_sq", "low", "high"]].values.tolist() == [
        [10, 1, 10, 100, 10, 10], [40, 2, 80, 3200, 40, 40]]
    below = store.run("audit_score_counts_below", facet="none", thresholds=[40.0, 95.5])
    assert dict(zip(zip(below.unit, below.threshold), below.below)) == {
        ("answer", 40.0): 1, ("answer", 95.5): 3, ("paragraph", 40.0): 0, ("paragraph", 95.5): 1}


def test_review_keyset_pages_cover_all_rows_once(store):
    seen, after = [], (-1.0, "")
    while True:
        page = store.run("audit_review_page", **FILTERS, after_score=after[0], after_id=after[1],
                         page_size=2)
        if page.empty:
            break
        seen += list(page.judge_record_id)
        after = (float(page.score.iloc[-1]), page.judge_record_id.iloc[-1])
    assert seen == ["r1", "r2", "r3", "r4", "r5"]
    desc = store.run("audit_review_page_desc", **FILTERS, after_score=40.0, after_id="r3", page_size=5)
    assert list(desc.judge_record_id) == ["r2", "r1"]  # the exact reverse: ties by id descending


def test_review_filters_and_text_search(store):
    f = {**FILTERS, "languages": ["th"], "q": "latin name"}
    assert store.run("audit_review_count", **f)["rows"].item() == 1
    f = {**FILTERS, "origins": ["not recorded"]}
    assert list(store.run("audit_review_export", **f).judge_record_id) == ["r2"]
    f = {**FILTERS, "q": "%"}  # a wildcard character is searched literally
    assert store.run("audit_review_count", **f)["rows"].item() == 0


@pytest.mark.parametrize("systems,expected", [
    (["A"], ["r1", "r4"]), (["B", "A"], ["r1", "r3", "r4"]), (["not recorded"], ["r2", "r5"]),
    (["A'); DROP TABLE audit; --"], []), ([], ["r1", "r2", "r3", "r4", "r5"])])
def test_review_filters_by_system(store, systems, expected):
    """Every query of the Review list filters by system the same way (a missing system is
    'not recorded'; a hostile value is only a value), in the one order (score, judge_record_id)."""
    f = {**FILTERS, "systems": systems}
    assert list(store.run("audit_review_export", **f).judge_record_id) == expected
    page = store.run("audit_review_page", **f, after_score=-1.0, after_id="", page_size=10)
    assert list(page.judge_record_id) == expected
    assert set(page.system.fillna("not recorded")) <= set(systems or ["A", "B", "not recorded"])
    desc = store.run("audit_review_page_desc", **f, after_score=1e308, after_id="", page_size=10)
    assert list(desc.judge_record_id) == expected[::-1]
    assert store.run("audit_review_count", **f)["rows"].item() == len(expected)
    prebuilt = {k: v for k, v in f.items() if k != "q"}
    assert store.run("audit_review_count_prebuilt", **prebuilt)["rows"].item() == len(expected)
    assert store.run("audit_reviewed_count", **f, ids=["r1", "r2"])["rows"].item() == \
        len({"r1", "r2"} & set(expected))
    unreviewed = store.run("audit_rows_by_review_state", **f, ids=["r1"], exclude=True, limit=10)
    assert list(unreviewed.judge_record_id) == [i for i in expected if i != "r1"]
    first = store.run("audit_review_next_unreviewed", **f, ids=[], after_score=-1.0, after_id="",
                      descending=False)
    assert list(first.judge_record_id) == expected[:1]
    rank = store.run("audit_review_rank", **f, key_score=95.0, key_id="r4", descending=False)
    scores = {"r1": 10, "r2": 40, "r3": 40, "r4": 95, "r5": 100}  # the fixture's rows
    assert rank["here"].item() == ("r4" in expected)
    assert rank["before"].item() == sum((scores[i], i) < (95, "r4") for i in expected)
    prebuilt_rank = store.run("audit_review_rank_prebuilt", **prebuilt, key_score=95.0, key_id="r4",
                              descending=False)
    assert prebuilt_rank.values.tolist() == rank[["before", "here"]].values.tolist()


def test_record_systems_names_each_given_row_s_system(store):
    """Reviews' judge-by-system share reads each reviewed row's system: rows 1, 2 and 4 of the
    fixture above are A, not recorded (no system) and A; an id not in the audit is absent."""
    got = store.run("audit_record_systems", ids=["r4", "r1", "r2", "gone"])
    assert got.to_dict("list") == {"judge_record_id": ["r1", "r2", "r4"],
                                   "system": ["A", "not recorded", "A"]}


def test_filter_values_offer_each_system(store):
    values = store.run("audit_filter_values")
    assert values.groupby("system")["n"].sum().to_dict() == {"A": 2, "B": 1, "not recorded": 2}


def test_exact_copies_overlap_and_texts(store):
    counts = store.run("audit_exact_copy_counts")
    assert counts.exact_copies.sum() == 1 and counts.hashed.sum() == 5
    rows = store.run("audit_exact_copy_rows", languages=[], units=[], limit=10)
    assert rows.candidate_text.tolist() == ["Barack Obama"]
    overlap = store.run("audit_overlap").set_index("unit")
    assert overlap.loc["answer", "overlap"] == 1 and overlap.loc["paragraph", "overlap"] == 1
    diffs = store.run("audit_paired_diff_counts")
    assert sorted(diffs["diff"]) == [-20.0, 10.0]


def test_worst_rows_and_provenance(store):
    worst = store.run("audit_worst_rows", k=1, max_score=100.0)
    assert sorted(worst.judge_record_id) == ["r1", "r4"]
    missing = store.run("audit_missing_explanations", limit=10)
    assert list(missing.judge_record_id) == ["r2"]
    origins = store.run("audit_origin_counts")
    assert origins.set_index("score_origin").loc["not recorded", "missing_explanation"] == 1


@pytest.mark.parametrize("filters", [
    {}, {"languages": ["th"]}, {"units": ["paragraph"], "max_score": 96.0},
    {"origins": ["not recorded"]}, {"run_groups": ["not recorded"], "min_score": 50.0},
    {"systems": ["A"]}, {"systems": ["not recorded", "B"], "max_score": 40.0}])
def test_review_count_from_counts_equals_count_from_rows(store, filters):
    """The pre-aggregated path and the direct path give identical numbers (issue 7.3)."""
    params = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
              "max_score": 100.0} | filters
    direct = store.run("audit_review_count", **params, q="")["rows"].iloc[0]
    assert store.run("audit_review_count_prebuilt", **params)["rows"].iloc[0] == direct


def test_default_interval_groups_carry_each_units_mean(store):
    """The stored groups `report` reads: one per unit with the unit's mean of the fixture's scores
    (th answer 10, 40, 40; de paragraph 95, 100), its interval around it and how it was drawn."""
    got = store.run("audit_default_interval_groups", facet="none")
    means = got.set_index("unit")["mean"].to_dict()
    assert means["answer"] == pytest.approx(30.0) and means["paragraph"] == pytest.approx(97.5)
    assert (got["low"] <= got["mean"]).all() and (got["mean"] <= got["high"]).all()
    assert got["method"].notna().all()
    assert store.run("audit_default_interval_groups", facet="no such facet").empty
