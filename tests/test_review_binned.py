"""Review on a binned (float) audit reads the score bins, with exactly the row scan's answers.

Two float audits: a generated one (bench/generate.py, nearly one score per row) and one built
here with many ties on exact bin edges (60.0, 61.0, 0.0, 100.0) and just below one (59.9999).
For random filters (languages, units, systems, score bounds on edges, inside bins and outside
every score), the binned count equals audit_review_count's row scan, the binned rank equals
audit_review_rank's for keys from the list (first, last, ties) and elsewhere, and keyset paging
through the binned bound gives exactly the unbounded query's pages until the list ends. An
integer audit still runs the per-score queries.
"""

import duckdb
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import generate as gen
from judgescope.audit import rows as audit_rows
from judgescope.schema import SCHEMAS
from judgescope.sources import catalog
from judgescope.wiring import TABLES
from judgescope.duck import db
from judgescope.ingest.build import write_counts, write_score_summaries

AUDIT_COLUMNS = [c.name for c in SCHEMAS["judge_audit"].columns]
EDGES = [0.0, 59.0, 59.9999, 60.0, 60.5, 61.0, 99.9999, 100.0]
BOUNDS = EDGES + [-1.0, -1e308, 1e308, 101.0, 37.25, 0.0001]
SETTINGS = settings(max_examples=40, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _generated(tmp_path_factory, rows: int, scores: str):
    manifest = gen.generate(rows, tmp_path_factory.mktemp(f"bench-{scores}") / str(rows), scores)
    cat = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)
    return cat.store(gen.COLLECTION), pd.read_parquet(cat.dataset("bench_audit").path("clean"))


@pytest.fixture(scope="module")
def float_store(tmp_path_factory):
    return _generated(tmp_path_factory, 3_000, "float")


@pytest.fixture(scope="module")
def int_store(tmp_path_factory):
    return _generated(tmp_path_factory, 1_200, "int")


@pytest.fixture(scope="module")
def edge_store(tmp_path_factory):
    """1,500 rows: a third on 59.9999, 60.0, 61.0, 0.0 or 100.0, the rest 4-decimal floats."""
    rng = np.random.default_rng(7)
    n = 1_500
    score = np.round(rng.uniform(0, 100, n), 4)
    tie = rng.random(n) < 0.35
    score[tie] = rng.choice([59.9999, 60.0, 60.0, 61.0, 0.0, 100.0], tie.sum())
    frame = pd.DataFrame({c: None for c in AUDIT_COLUMNS}, index=range(n))
    frame = frame.assign(
        judge_record_id=[f"r{i:05d}" for i in rng.permutation(n)], score=score,
        target_language=rng.choice(["th", "de", "zh"], n), unit=rng.choice(["answer", "paragraph"], n),
        system=rng.choice(["A", "B", None], n), score_origin=rng.choice(["explicit", None], n),
        run_group=rng.choice(["main", "rerun", None], n), source_id="s", instance_id="i",
        source_text_sha256="h", candidate_text_sha256="c", judge_explanation="e")
    tmp = tmp_path_factory.mktemp("edges")
    clean, counts, summaries = tmp / "a.parquet", tmp / "counts.parquet", tmp / "summaries"
    summaries.mkdir()
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute("COPY (SELECT *, 'f.jsonl' AS _file, row_number() OVER () AS _row FROM frame "
                "ORDER BY score, judge_record_id) TO $p (FORMAT parquet)", {"p": str(clean)})
    write_counts(con, clean, counts)
    write_score_summaries(con, clean, summaries)
    con.close()
    store = db.Store({"audit": [clean], "audit_counts": [counts],
                      "audit_bins": [summaries / "bins.parquet"],
                      "audit_order_stats": [summaries / "order_stats.parquet"]})
    return store, frame


def _filters(draw, rows: pd.DataFrame) -> dict:
    def subset(column, extra=()):
        values = sorted({str(v) for v in rows[column].dropna()} | set(extra))
        return draw(st.lists(st.sampled_from(values), max_size=2, unique=True))
    bound = st.one_of(st.sampled_from(BOUNDS), st.sampled_from(sorted(rows.score.unique())),
                      st.floats(0, 100).map(lambda x: round(x, 2)))
    low, high = draw(bound), draw(bound)
    if draw(st.booleans()):
        low, high = min(low, high), max(low, high)  # mostly a real range, sometimes an empty one
    return {"languages": subset("target_language", ["zz"]), "units": subset("unit"), "origins": [],
            "run_groups": [], "systems": subset("system", ["not recorded"]),
            "min_score": float(low), "max_score": float(high), "q": ""}


def _listed(store, f: dict, desc: bool) -> pd.DataFrame:
    """The whole filtered list, by the unbounded page query."""
    query = "audit_review_page_desc" if desc else "audit_review_page"
    start = 1e308 if desc else -1e308
    return store.run(query, **f, after_score=start, after_id="", page_size=10**9)


def _binned_store(request):
    store, rows = request.getfixturevalue(request.param)
    assert audit_rows.binned.is_binned(store.run)
    return store, rows


@pytest.fixture(params=["float_store", "edge_store"])
def binned_store(request):
    return _binned_store(request)


@SETTINGS
@given(data=st.data())
def test_binned_count_equals_the_row_scan(binned_store, data):
    store, rows = binned_store
    f = _filters(data.draw, rows)
    scanned = int(store.run("audit_review_count", **f)["rows"].iloc[0])
    assert audit_rows.review_count(store.run, f) == scanned
    keep = rows.score.between(f["min_score"], f["max_score"])  # and a count of our own
    for column, chosen in (("target_language", f["languages"]), ("unit", f["units"]),
                           ("system", f["systems"])):
        if chosen:
            keep &= rows[column].fillna("not recorded").isin(chosen)
    assert scanned == int(keep.sum())


def _keys(draw, rows: pd.DataFrame, listed: pd.DataFrame) -> list[tuple]:
    """(score, id) keys to look up in a filtered list: random audit rows (on the list or off it),
    its first and last rows and one between, two tied rows, and keys between rows (before the
    first row's ties, after the last row)."""
    keys = [tuple(r) for r in rows.sample(3, random_state=draw(st.integers(0, 999)))
            [["score", "judge_record_id"]].itertuples(index=False)]
    if len(listed):
        tied = listed[listed.score.duplicated(keep=False)]
        keys += [(listed.score.iloc[i], listed.judge_record_id.iloc[i])
                 for i in (0, len(listed) - 1, draw(st.integers(0, len(listed) - 1)))]
        keys += [(tied.score.iloc[i], tied.judge_record_id.iloc[i]) for i in range(min(2, len(tied)))]
        keys += [(listed.score.iloc[0], ""), (listed.score.iloc[-1], "\uffff")]
    return keys


@SETTINGS
@given(data=st.data(), desc=st.booleans())
def test_binned_rank_equals_the_row_scan(binned_store, data, desc):
    store, rows = binned_store
    f = _filters(data.draw, rows)
    listed = _listed(store, f, desc)
    for score, rid in _keys(data.draw, rows, listed):
        params = {k: v for k, v in f.items() if k != "q"}
        binned = store.run("audit_review_rank_binned", **params, key_score=float(score), key_id=str(rid),
                           descending=desc)
        scanned = store.run("audit_review_rank", **f, key_score=float(score), key_id=str(rid),
                            descending=desc)
        assert binned.values.tolist() == scanned.values.tolist(), (score, rid)
        position = audit_rows.review_position(store.run, f, (score, rid), desc)
        ids = listed.judge_record_id.tolist()
        assert position == (ids.index(rid) + 1 if rid in ids else None)


@SETTINGS
@given(data=st.data(), desc=st.booleans())
def test_neighbours_are_the_rows_beside_the_key_in_the_listed_order(binned_store, data, desc):
    """audit_review_neighbours with the binned bounds (and, beside them, the exact per-score
    ones, never short of which they are): Prev and Next of keys on the list, tied, at its ends,
    off it and between rows are the rows beside them in the whole filtered list (pandas)."""
    store, rows = binned_store
    f = _filters(data.draw, rows)
    listed = _listed(store, f, desc)
    keys = _keys(data.draw, rows, listed)
    order = list(zip(listed.score.astype(float), listed.judge_record_id.astype(str)))
    params = {k: v for k, v in f.items() if k != "q"}
    for score, rid in keys:
        key = (float(score), str(rid))
        ahead = [k for k in order if (k > key if not desc else k < key)]
        behind = [k for k in order if (k < key if not desc else k > key)]
        want = (behind[-1] if behind else None, ahead[0] if ahead else None)
        assert audit_rows.neighbours(store.run, f, key, desc) == want, key
        binned = store.run("audit_review_neighbour_bounds_binned", **params, key_score=key[0]).iloc[0]
        exact = store.run("audit_review_neighbour_bounds", **params, key_score=key[0]).iloc[0]
        assert binned["low_bound"] <= exact["low_bound"] and binned["high_bound"] >= exact["high_bound"]


@settings(max_examples=15, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), desc=st.booleans(), page_size=st.sampled_from([1, 7, 60, 400]))
def test_binned_bound_pages_equal_unbounded_pages(binned_store, data, desc, page_size):
    store, rows = binned_store
    f = _filters(data.draw, rows)
    params = {k: v for k, v in f.items() if k != "q"}
    query = "audit_review_page_desc" if desc else "audit_review_page"
    after, pages = ((1e308 if desc else -1e308), ""), []
    while len(pages) < 40:  # 40 pages of 1 or 7 rows, every page of 60 or 400
        bound = store.run("audit_review_page_bound_binned", **params, after_score=after[0],
                          descending=desc, page_size=page_size)["bound"].iloc[0]
        exact = store.run("audit_review_page_bound", **params, after_score=after[0], descending=desc,
                          page_size=page_size)["bound"].iloc[0]
        assert (bound <= exact) if desc else (bound >= exact)  # never short of the exact bound
        bounded = audit_rows.review_page(store.run, f, after, desc, page_size)
        direct = store.run(query, **f, after_score=after[0], after_id=after[1], page_size=page_size)
        pd.testing.assert_frame_equal(bounded, direct)
        pages.append(direct)
        if len(direct) < page_size:
            break
        after = (float(direct.score.iloc[-1]), str(direct.judge_record_id.iloc[-1]))
    walked = [(s, i) for p in pages for s, i in zip(p.score, p.judge_record_id)]
    listed = _listed(store, f, desc)
    assert walked == list(zip(listed.score, listed.judge_record_id))[:len(walked)]
    if len(pages[-1]) < page_size:
        assert len(walked) == audit_rows.review_count(store.run, f)


def _recorded(store):
    names: list[str] = []

    def run(name, **params):
        names.append(name)
        return store.run(name, **params)
    return run, names


def _review_calls(run, rows):
    f = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [],
         "min_score": 0.0, "max_score": 100.0, "q": ""}
    key = (float(rows.score.iloc[0]), str(rows.judge_record_id.iloc[0]))
    audit_rows.review_count(run, f)
    audit_rows.review_page(run, f, (-1e308, ""), False, 7)
    audit_rows.review_page(run, f, (1e308, ""), True, 7)
    audit_rows.review_position(run, f, key, True)
    audit_rows.neighbours(run, f, key, False)


def test_an_integer_audit_runs_the_per_score_queries(int_store):
    store, rows = int_store
    run, names = _recorded(store)
    _review_calls(run, rows)
    assert {"audit_review_count_prebuilt", "audit_review_rank_prebuilt", "audit_review_page_bound"} <= set(names)
    assert not set(names) & set(audit_rows.BINNED.values())


def test_a_float_audit_runs_the_binned_queries(float_store):
    store, rows = float_store
    run, names = _recorded(store)
    _review_calls(run, rows)
    assert set(audit_rows.BINNED.values()) <= set(names)
    assert not set(names) & set(audit_rows.BINNED)


COUNT_KEYS = ["target_language", "unit", "score_origin", "run_group", "source_split", "dataset_version",
              "judge_prompt_version", "requested_judge_model", "system", "score", "explanation_missing"]


def _combinations(frame: pd.DataFrame) -> pd.DataFrame:
    """The combination columns as text, NULL as its own value."""
    keys = frame[COUNT_KEYS].astype(object)
    return keys.where(keys.notna(), "NULL").astype(str)


def _truth(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows per score and facet, counted here with pandas (NULL: its own group)."""
    keyed = _combinations(rows.assign(explanation_missing=rows["judge_explanation"].isna()))
    return keyed.groupby(COUNT_KEYS).size().rename("n").reset_index()


def _counts_of(tmp_path, scores: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(counts write_counts writes, the rows) of a clean audit file of `scores` in score order,
    over 3 languages × 2 units × 2 run groups (NULL one) and a missing explanation in 1 of 7."""
    n, rng = len(scores), np.random.default_rng(11)
    frame = pd.DataFrame({c: None for c in AUDIT_COLUMNS}, index=range(n)).assign(
        judge_record_id=[f"r{i:05d}" for i in range(n)], score=scores,
        target_language=rng.choice(["th", "de", "zh"], n), unit=rng.choice(["answer", "paragraph"], n),
        run_group=rng.choice(["main", None], n), source_id="s", instance_id="i",
        judge_explanation=np.where(rng.random(n) < 1 / 7, None, "e"))
    clean, out = tmp_path / "a.parquet", tmp_path / "counts.parquet"
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute("COPY (SELECT * FROM frame ORDER BY score, judge_record_id) TO $p (FORMAT parquet)",
                {"p": str(clean)})
    write_counts(con, clean, out)
    con.close()
    return pd.read_parquet(out), frame


@pytest.mark.parametrize("kind", ["float", "int"])
def test_the_per_score_counts_are_grouped_unless_nearly_every_row_is_its_own_group(tmp_path, kind):
    """4-decimal float scores: nearly every row its own combination of score and facets, so the
    counts are the rows (n = 1) in score order, which the catalog writes at about a quarter of
    grouping's cost at 10M rows; integer scores: grouped, each combination once. Either way
    every combination's summed n is the rows pandas counts."""
    rng = np.random.default_rng(5)
    scores = (np.round(rng.uniform(0, 100, 4_000), 4) if kind == "float"
              else rng.integers(0, 101, 4_000).astype(float))
    counts, rows = _counts_of(tmp_path, scores)
    truth = _truth(rows)
    if kind == "float":
        assert len(truth) > len(rows) / 2 and len(counts) == len(rows)
        assert (counts["n"] == 1).all() and counts["score"].is_monotonic_increasing
    else:
        assert len(truth) < len(rows) / 2 and len(counts) == len(truth)
    got = _combinations(counts).assign(n=counts["n"]).groupby(COUNT_KEYS)["n"].sum().reset_index()
    pd.testing.assert_frame_equal(got, truth, check_dtype=False)
