"""The benchmark runs end to end at a tiny size; pre-aggregated and direct paths agree exactly.

No timing is asserted anywhere: the benchmark prints figures, tests prove it works and that the
numbers it times are the right numbers.
"""

import json

import numpy as np
import pandas as pd
import pytest

from bench import generate as gen
from bench import report
from judgescope.audit import summary as audit
from judgescope.audit import rows as audit_rows
from judgescope.sources import catalog
from judgescope.wiring import TABLES
from judgescope.integrity import hashes as verify

ROWS = 2_000


@pytest.fixture(scope="module")
def bench_store(tmp_path_factory):
    """A 2,000-row generated collection, validated into a private cache."""
    folder = tmp_path_factory.mktemp("bench") / str(ROWS)
    manifest = gen.generate(ROWS, folder)
    cat = catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES)
    store = cat.store(gen.COLLECTION)
    rows = pd.read_parquet(cat.dataset("bench_audit").path("clean"))
    return cat, store, rows


def test_generated_data_is_valid_and_deterministic(bench_store, tmp_path):
    cat, store, rows = bench_store
    for d in cat.collection_datasets(gen.COLLECTION):
        assert d.ok, d.error
        assert d.report["rows_used"] == ROWS and d.report["rows_excluded"] == 0
        assert d.report["columns_missing"] == [] and d.report["columns_extra"] == []
    assert rows.target_language.nunique() == len(gen.LANGUAGES) >= 25
    assert set(rows.unit) == {"paragraph", "question", "answer"}
    assert rows.score.between(0, 100).all() and rows.score.nunique() > 30
    snapshot, audit_rows = gen.batch(0, 50, gen.pools())
    again, _ = gen.batch(0, 50, gen.pools())
    assert snapshot.equals(again)  # hash-based values: the same rows every run
    paragraphs = snapshot.filter(snapshot["unit"].to_numpy(zero_copy_only=False) == "paragraph")
    assert min(len(t) for t in paragraphs["source_text"].to_pylist()) > 100
    assert audit_rows.num_rows == 50


def test_generated_audit_has_exact_copies_and_the_page_lists_them(bench_store):
    _, store, rows = bench_store
    copies = rows[rows.candidate_text_sha256 == rows.source_text_sha256]
    assert 0 < len(copies) < len(rows) / 100 and set(copies.unit) == {"answer"}
    listed = store.run("audit_exact_copy_rows", languages=[], units=[], limit=10_000)
    assert sorted(listed.judge_record_id) == sorted(copies.judge_record_id)
    assert int(store.run("audit_exact_copy_counts")["exact_copies"].sum()) == len(copies)


def test_generated_snapshot_verifies_with_whitespace_hints(bench_store):
    cat, store, _ = bench_store
    summary = verify.summarise(store.run)
    flagged = int((gen._h(np.arange(ROWS, dtype=np.uint64), 6, 2000) == 0).sum())
    assert summary.checked == ROWS and summary.unreferenced == 0
    assert summary.counts["candidate_mismatch"] == summary.hints["whitespace"] == flagged
    assert summary.verified == ROWS - flagged


@pytest.mark.parametrize("facet,column", [("none", None), ("score_origin", "score_origin"),
                                          ("run_group", "run_group")])
def test_prebuilt_counts_equal_direct_group_by(bench_store, facet, column):
    _, store, rows = bench_store
    prebuilt = store.run("audit_score_counts", facet=facet)
    keys = ["unit", "target_language"] + ([column] if column else [])
    direct = rows.groupby(keys + ["score"], dropna=False).size().rename("n").reset_index()
    direct = direct.rename(columns={column: "facet"}) if column else direct.assign(facet=None)
    cols = ["unit", "target_language", "facet", "score", "n"]
    def sort(f):
        typed = f[cols].astype({"score": float, "n": int, "facet": object})
        return typed.sort_values(cols[:4]).reset_index(drop=True)
    pd.testing.assert_frame_equal(sort(prebuilt), sort(direct), check_dtype=False)


def _direct_unit_row(scores: np.ndarray) -> dict:
    return {"n": scores.size, "mean": scores.mean(), "median": float(np.median(scores)),
            "sd": scores.std(ddof=1), "below_60": int((scores < 60).sum()),
            "below_80": int((scores < 80).sum()), "at_least_90": int((scores >= 90).sum())}


def test_summaries_from_counts_equal_statistics_of_the_rows(bench_store):
    _, store, rows = bench_store
    table = audit.unit_summary(store.run("audit_score_counts", facet="none")).set_index("unit")
    for unit, scores in [*rows.groupby("unit")["score"], ("overall", rows["score"])]:
        want = _direct_unit_row(scores.to_numpy(dtype=float))
        got = table.loc[unit]
        for key, value in want.items():
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-12), (unit, key)
    tails = audit.tails_table(store.run("audit_score_counts", facet="none"), 60)
    for r in tails.itertuples():
        cell = rows[(rows.target_language == r.target_language) & (rows.unit == r.unit)].score
        assert (r.p5, r.p10) == pytest.approx(tuple(np.percentile(cell, [5, 10])))
        assert r.below == int((cell < 60).sum())


def test_filter_values_and_review_count_equal_the_rows(bench_store):
    _, store, rows = bench_store
    values = store.run("audit_filter_values")
    facets = ["target_language", "unit", "score_origin", "run_group", "system"]
    direct = rows.assign(system=rows.system.fillna("not recorded")).groupby(facets).size()
    assert dict(zip(zip(*(values[f] for f in facets)), values.n)) == direct.to_dict()
    filters = dict(languages=["th"], units=["paragraph"], origins=[], run_groups=[], systems=[], min_score=0.0,
                   max_score=60.0, q="")
    count = int(store.run("audit_review_count", **filters)["rows"].iloc[0])
    counts = store.run("audit_score_counts", facet="none")
    from_counts = counts[(counts.target_language == "th") & (counts.unit == "paragraph")
                         & (counts.score <= 60)]["n"].sum()
    assert count == from_counts == int(((rows.target_language == "th") & (rows.unit == "paragraph")
                                        & (rows.score <= 60)).sum())


def test_bench_pipeline_end_to_end(tmp_path):
    """`python -m bench` at 2,000 rows, one repeat, no browser: every phase, the report, the JSON."""
    from bench.__main__ import main

    out, data = tmp_path / "results.md", tmp_path / "data"
    assert main(["--rows", str(ROWS), "--repeats", "1", "--data", str(data), "--results", str(out),
                 "--json", str(tmp_path / "r.json"), "--no-coldstart", "--scores", "int,float"]) == 0
    results = json.loads((tmp_path / "r.json").read_text())
    size, floats = results["sizes"]
    assert (size["scores"], floats["scores"]) == ("int", "float")
    # Float scores: ~2,000 distinct, drawn over at most 64 bins; integer: exactly its scores.
    assert floats["bootstrap"]["distinct"] > 1_500 and floats["bootstrap"]["categories"] <= 64
    assert size["bootstrap"]["categories"] == size["bootstrap"]["distinct"] <= 101
    assert "score bins of width 2 " in floats["bootstrap"]["overall_method"]
    for s in (size, floats):  # first open next to the same irreducible work in raw DuckDB
        b = s["build"]
        assert b["seconds"] == pytest.approx(b["validate_s"] + b["derived_s"])
        assert b["raw_open"]["seconds"] > 0 and b["raw_open"]["app_level_seconds"] > 0
        assert "raw at level 1" in "\n".join(report.first_open_line(s))
    assert size["rows"] == ROWS and size["build"]["bench_audit"]["rows"] == ROWS
    pages = {r["page"] for r in size["pages"]["interactions"]}
    assert pages == {"distributions", "languages", "review", "integrity", "exact copies", "provenance",
                     "excluded"}
    assert all(r["rows_returned"] for r in size["pages"]["interactions"] if r["page"] != "excluded")
    assert size["verify"]["snapshot_rows"] == ROWS and size["verify"]["text_mb"] > 0
    assert size["bootstrap"]["rows"] == ROWS and len(size["pandas"]["aggregations"]) >= 8
    # The app's bootstrap is measured before the row-resample baseline loads the rows.
    assert 0 < size["bootstrap"]["app_peak_rss_mb"] <= size["bootstrap"]["peak_rss_mb"]
    assert all(size[p]["peak_rss_mb"] > 0 for p in ("pages", "pandas", "verify", "bootstrap", "remote",
                                                    "report"))
    # The report phase: every bootstrap group of `judgescope report` (units + overall, language ×
    # unit, language), timed on both score types, and judged as float ÷ integer in results.md.
    cells = {(c, u) for c, u in zip(*_languages_units(data))}
    assert size["report"]["groups"] == len({u for _, u in cells}) + 1 + len(cells) + len({c for c, _ in cells})
    assert all(s["report"]["report"]["median_ms"] > 0 for s in (size, floats))
    assert "float report ≤ 1.2× the integer one" in out.read_text()
    # The commands phase: each command as a process, cold and warm, with the load average.
    for s in (size, floats):
        ran = {k: v for k, v in s["commands"]["commands"].items() if "not_run" not in v}
        assert {"--help", "validate", "report", "report-html"} <= set(ran)
        assert all(v["cold_s"] > 0 and v["warm"]["median_ms"] > 0 and v["exit"] in (0, 1) for v in ran.values())
        assert len(s["commands"]["load_before"]) == 3
    # Reads through fsspec, counted per interaction: every interaction listed, reads counted
    remote = {(r["page"], r["interaction"]): r for r in size["remote"]["interactions"]}
    assert set(remote) == {(r["page"], r["interaction"]) for r in size["pages"]["interactions"]}
    assert remote[("review", "open a record")]["bytes"] > 0 and remote[("review", "open a record")]["round_trips"] > 0
    assert size["remote"]["open_round_trips"] > 0
    text = out.read_text()
    for heading in ("## Targets at 2,000 audit rows (int scores)", "## 2,000 audit rows (float scores)",
                    "First open of this revision: app ", "### Page interactions", "### Hash verification",
                    "### Bootstrap", "### Remote reads: a prebuilt cache over fsspec", "### Peak RSS",
                    "### Commands as processes",
                    results["machine"]["duckdb"]):
        assert heading in text


@pytest.mark.parametrize("kind", gen.SCORES)
def test_score_kinds(kind):
    _, audit_rows = gen.batch(0, 20_000, gen.pools(), kind)
    scores = audit_rows["score"].to_numpy()
    assert scores.min() >= 0 and scores.max() <= 100
    if kind == "int":
        assert np.unique(scores).size <= 101
        return
    assert np.unique(scores).size > 10_000 and np.allclose(scores, np.round(scores, 4))
    low = (scores < 50).mean()
    # float: uniform-ish (about half below 50); mixture: mostly high with a heavy lower tail
    assert 0.35 < low < 0.65 if kind == "float" else 0.08 < low < 0.2 and np.median(scores) > 80


def test_generation_is_streamed_and_its_connection_capped(tmp_path, monkeypatch):
    from judgescope.duck import db

    sizes, limits, real_batch, real_scratch = [], [], gen.batch, db.scratch
    monkeypatch.setattr(gen, "BATCH", 700)
    monkeypatch.setattr(gen, "batch", lambda a, b, *k: sizes.append(b - a) or real_batch(a, b, *k))
    monkeypatch.setattr(db, "scratch", lambda **kw: limits.append(kw["memory_limit"]) or real_scratch(**kw))
    gen.generate(2_000, tmp_path / "g", "mixture")
    assert sizes == [700, 700, 600]  # never more than BATCH rows in memory
    assert limits == [gen.GEN_MEMORY]


def _languages_units(data):
    """The generated audit's (language, unit) columns, read with pandas from its Parquet file."""
    import pandas as pd
    frame = pd.read_parquet(next((data / str(ROWS) / "audit" / "data").glob("*.parquet")),
                            columns=["target_language", "unit"])
    return frame["target_language"], frame["unit"]


@pytest.mark.parametrize("float_ms, met", [(1_150, True), (1_300, False)])
def test_the_float_report_is_judged_against_the_integer_one_of_the_same_rows(float_ms, met):
    t = lambda ms: {"median_ms": ms, "p95_ms": ms, "runs_ms": [ms]}  # noqa: E731
    whole = _fake_size(50, 1.1, 50, 0.9, 500) | {"scores": "int", "report": {"report": t(1_000)}}
    floats = _fake_size(50, 1.1, 50, 0.9, 500) | {"scores": "float", "report": {"report": t(float_ms)}}
    other = whole | {"rows": 99}  # another size's integer report is not its counterpart
    rows = {name: ok for name, _, ok in report.targets(floats, None, [other, whole, floats])}
    assert rows["float report ≤ 1.2× the integer one"] is met
    assert "float report ≤ 1.2× the integer one" not in {n for n, _, _ in report.targets(floats, None, [other])}
    assert "float report ≤ 1.2× the integer one" not in {n for n, _, _ in report.targets(whole, None, [whole, floats])}


def _fake_size(p95: float, ratio_raw: float, pandas_x: float, hash_x: float, rss: float) -> dict:
    t = lambda ms: {"median_ms": ms, "p95_ms": ms, "runs_ms": [ms]}  # noqa: E731
    inter = {"page": "review", "interaction": "x", "runs": 1, "app": t(p95), "app_queries": t(p95),
             "raw": t(p95 / ratio_raw), "rows_returned": 1}
    return {"rows": 10, "build": {}, "pages": {"interactions": [inter], "peak_rss_mb": rss},
            "pandas": {"aggregations": [{"aggregation": "a", "app": t(1.0), "pandas": t(pandas_x)}]},
            "verify": {"app_mb_s": hash_x * 100, "hashlib_mb_s": 100, "app_peak_rss_mb": rss},
            "bootstrap": {"peak_rss_mb": rss}}


@pytest.mark.parametrize("args,met", [((100, 1.1, 50, 0.9, 500), [True] * 5),
                                      ((400, 1.5, 10, 0.5, 3000), [False] * 5)])
def test_targets_are_judged_against_the_issue(args, met):
    assert [ok for _, _, ok in report.targets(_fake_size(*args), None)] == met


@pytest.mark.parametrize("rows, seconds, raw, met", [(10_000_000, 150.0, 110.0, [True, False]),
                                                     (10_000_000, 100.0, 50.0, [False, True]),
                                                     (10_000_000, 90.0, 80.0, [True, True]),
                                                     (1_000_000, 15.0, 7.0, [None, True])])
def test_the_first_open_is_judged_against_raw_and_in_seconds_apart(rows, seconds, raw, met):
    """Issue 45's ratio to raw DuckDB (at 10M rows; shown, not judged, below) and issue 28's
    120 s are two rows, each judged on its own."""
    size = _fake_size(100, 1.1, 50, 0.9, 500) | {"rows": rows}
    size["build"] = {"seconds": seconds, "raw_open": {"seconds": raw}}
    found = {name: ok for name, _, ok in report.targets(size, None)}
    assert [found["first open ≤ 1.5× raw DuckDB (issue 45, at 10M rows)"],
            found["first open ≤ 120 s (issue 28)"]] == met


def test_rss_is_judged_on_the_apps_bootstrap_not_on_its_row_resample_baseline():
    """The bootstrap phase's baseline loads every row to time a row resample; the app never
    does. The target reads the app's peak; the baseline's is listed, judged n/a."""
    size = _fake_size(100, 1.1, 50, 0.9, 500)
    size["bootstrap"] = {"app_peak_rss_mb": 600, "peak_rss_mb": 2_900}
    rss = {name: ok for name, _, ok in report.targets(size, None)}["peak RSS ≤ 2 GB (app phases)"]
    assert rss is True
    lines = report.rss_lines(size)
    assert any("app: bootstrap" in x and "600" in x and "✅" in x for x in lines), lines
    assert any("bootstrap baseline" in x and "2,900" in x and "✅" not in x and "❌" not in x
               for x in lines), lines
    size["bootstrap"]["app_peak_rss_mb"] = 2_100
    assert {name: ok for name, _, ok in report.targets(size, None)}["peak RSS ≤ 2 GB (app phases)"] is False


@pytest.mark.parametrize("rows,met", [(10_000, False), (1_000_000, True)])
def test_the_interaction_target_is_100_ms_at_demo_scale_and_300_ms_beyond(rows, met):
    size = _fake_size(150, 1.1, 50, 0.9, 500) | {"rows": rows}
    (name, _, ok), *_ = report.targets(size, None)
    assert ok is met and name == f"every interaction ≤ {100 if rows <= 10_000 else 300} ms p95"
    assert f"≤ {100 if rows <= 10_000 else 300} ms p95" in report.interactions_table(size)[0]


PAGE = 19


@pytest.mark.parametrize("desc", [False, True])
@pytest.mark.parametrize("filters", [
    {}, {"languages": ["th"], "units": ["paragraph"]}, {"min_score": 40.0, "max_score": 90.0},
    {"run_groups": ["not recorded", "main"]}, {"languages": ["zz"]},
    {"systems": ["mt-system-b"]}, {"systems": ["mt-system-a", "mt-system-c"], "max_score": 70.0}])
def test_bounded_review_pages_equal_unbounded_pages(bench_store, filters, desc):
    """Every page read through the counts' score bound equals the page read without it, page
    after page by keyset, until the list ends. A page holds PAGE rows, fewer than the rows of
    this audit's commonest scores, so ties on score cross page boundaries and fill whole pages."""
    _, store, rows = bench_store
    assert (rows.score.value_counts() > PAGE).sum() >= 10
    f = dict(languages=[], units=[], origins=[], run_groups=[], systems=[], min_score=0.0, max_score=100.0, q="")
    f |= filters
    query = "audit_review_page_desc" if desc else "audit_review_page"
    after, seen = ((1e308 if desc else -1.0), ""), 0
    while True:
        bounded = audit_rows.review_page(store.run, f, after, desc, PAGE)
        direct = store.run(query, **f, after_score=after[0], after_id=after[1], page_size=PAGE)
        pd.testing.assert_frame_equal(bounded, direct)
        seen += len(direct)
        if len(direct) < PAGE:
            break
        after = (float(direct.score.iloc[-1]), str(direct.judge_record_id.iloc[-1]))
    assert seen == audit_rows.review_count(store.run, f)


def test_a_saved_cold_build_of_other_code_is_measured_again(tmp_path):
    """bench keeps a size's cold build (build.json) across runs, but only for the code that
    built it: after a change to validation or a query, the first open is timed again."""
    from bench.__main__ import first_open_code, prepare

    logged = []
    first = prepare(500, "int", tmp_path, False, "512MB", logged.append)["build"]
    meta = tmp_path / "500" / "build.json"
    assert first["code"] == first_open_code() and first["seconds"] > 0
    assert prepare(500, "int", tmp_path, False, "512MB", logged.append)["build"] == first  # kept
    meta.write_text(json.dumps(first | {"code": "an older validation", "seconds": -1.0}))
    again = prepare(500, "int", tmp_path, False, "512MB", logged.append)["build"]
    assert again["seconds"] > 0 and again["code"] == first_open_code()
    assert any("measuring it again" in line for line in logged)
    # A build.json lost beside a cache left in place: the first open is built, not read from it.
    meta.unlink()
    left = tmp_path / "500" / "cache" / "left-behind"
    left.write_text("")
    cold = prepare(500, "int", tmp_path, False, "512MB", logged.append)["build"]
    assert cold["bench_audit"]["rows"] == 500 and not left.exists()


def test_the_commands_phase_runs_the_readme_s_commands_or_says_why_not(tmp_path):
    """Every command the README shows for an audit, a collection, its calibration, ranking and an
    earlier run is in the phase: run on the bench's data, or listed with the reason it is not
    (calibration and ranking hold no audit scores: once per row count; rank above a million pairs)."""
    from bench import commands

    listed = commands.commands(tmp_path)
    readme = (commands.ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("validate", "report", "report-html", "calibrate", "rank", "drift"):
        assert f"judgescope {name} " in readme and name in listed
    assert all(isinstance(v, list) and v[0] == k for k, v in listed.items())
    floats = commands.commands(tmp_path, 10_000, "float")
    assert {k for k, v in floats.items() if isinstance(v, str)} == {"calibrate", "rank"}
    big = commands.commands(tmp_path, 10_000_000, "int")
    assert {k for k, v in big.items() if isinstance(v, str)} == {"rank"} and "1,000,000 pairs" in big["rank"]
    fake = {"commands": {"load_before": (7.5, 8.0, 9.0), "generated_s": {"calibration/bench_items.parquet": 2.5},
                         "commands": {
        "validate": {"argv": ["validate", "bench_audit"], "exit": 0, "cold_s": 4.0, "peak_mb": 812.4,
                     "peak_method": "VmHWM",
                     "warm": {"median_ms": 1500.0, "runs_ms": [1500.0]}},
        "rank": {"not_run": "above 1,000,000 pairs"}}}}
    text = "\n".join(commands.lines(fake))
    assert "7.5, 8.0, 9.0" in text and "| `validate bench_audit` | 4.00 s | 1.50 s | 812 MB | 0 |" in text
    assert "not run: above 1,000,000 pairs" in text and "`calibration/bench_items.parquet` 2.5 s" in text


def test_the_commands_of_other_kinds_run_on_files_written_beside_the_collection(tmp_path, monkeypatch):
    """calibrate, rank and drift read files bench/kinds.py writes (the collection unchanged):
    written on 300 rows they validate as their kinds, the commands run on them as processes,
    cold then warm in the cache the cold run filled, with each run's peak memory, and the
    earlier run pairs with the audit on anchors."""
    import json

    from bench import commands, kinds
    from bench.generate import generate

    folder = tmp_path / "300"
    manifest = generate(300, folder, "int")
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    phase = commands.command_timings(type("Args", (), {"manifest": str(manifest), "repeats": 1})())
    assert set(phase["generated_s"]) == {kinds.EARLIER, kinds.ITEMS, kinds.RANKING}
    assert (folder / "sources.toml").read_text().count("[[dataset]]") == 2  # the collection as it was
    for name in ("calibrate", "rank", "drift"):
        ran = phase["commands"][name]
        assert ran["exit"] in (0, 1) and ran["cold_s"] > 0 and ran["warm"]["median_ms"] > 0 and ran["peak_mb"] > 30
    assert not any(p.name.endswith("-cache") for p in tmp_path.rglob("*-cache"))
    # The files themselves, read as a user would: their kinds, rows and the drift's anchors.
    env_cache = tmp_path / "check-cache"
    from bench.commands import process
    import os
    env = dict(os.environ, PYTHONPATH=str(commands.ROOT), JUDGESCOPE_CACHE=str(env_cache),
               JUDGESCOPE_SOURCES=str(manifest))
    process(["drift", kinds.EARLIER, "bench_audit", "--json", str(tmp_path / "d.json")], folder, env)
    drift = json.loads((tmp_path / "d.json").read_text())
    text = json.dumps(drift)
    assert drift["old"] == "bench_earlier" and drift["new"] == "bench_audit" and "anchor" in text
    process(["rank", kinds.RANKING, "--json", str(tmp_path / "r.json")], folder, env)
    assert json.loads((tmp_path / "r.json").read_text())["rows"] == 300
    items = kinds.calibration_items(300)
    process(["calibrate", kinds.ITEMS, kinds.JUDGEMENTS, "--json", str(tmp_path / "c.json")], folder, env)
    assert f'"n": {items}' in (tmp_path / "c.json").read_text()


def test_above_a_million_rows_the_whole_first_open_commands_run_warm_only(tmp_path, monkeypatch):
    """At 10M rows `verify` and `report-html` are not run cold (their cold run is the build
    phase's first open again); `validate` and `report` are, and the table says why a cell is empty.
    calibrate, rank and drift run cold and warm in a cache of their own."""
    from bench import commands, kinds

    ran = []
    monkeypatch.setattr(commands, "_run", lambda argv, manifest, cache, *a: ran.append((argv[0], cache.name))
                        or commands.Ran(1.0, 1.0, 0, "", 100.0))
    monkeypatch.setattr(commands, "start_seconds", lambda *a: 0.1)
    monkeypatch.setattr(kinds, "ensure", lambda *a: {})
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    for rows, cold in ((1_000_000, {"--help", "validate", "report", "report-html", "verify"}),
                       (10_000_000, {"--help", "validate", "report"})):
        ran.clear()
        folder = tmp_path / f"{rows}-float"
        args = type("Args", (), {"manifest": str(folder / "sources.toml"), "repeats": 2})()
        phase = commands.command_timings(args)
        assert {name for name, cache in ran if cache == "cold-cache"} == cold
        assert {k for k, v in phase["commands"].items() if v.get("cold_s") is None and "not_run" not in v} == \
            {"--help", "validate", "report", "report-html", "verify"} - cold
        assert [cache for name, cache in ran if name == "drift"] == ["drift-cache"] * 3
    text = "\n".join(commands.lines({"commands": phase}))
    assert "| `verify bench_audit bench_snapshot --json TMP/verify.json` | not run: above 1,000,000 rows" in text


def _commands_size(scores: str, cold_s: float, warm_ms: float, load=(7.0, 8.0, 9.0), rows: int = 20_000) -> dict:
    """A size whose commands phase ran `report` cold and warm (the rest of the phase left out)."""
    ran = {"argv": ["report", "bench_audit"], "exit": 0, "cold_s": cold_s,
           "warm": {"median_ms": warm_ms, "runs_ms": [warm_ms]}}
    return {"rows": rows, "scores": scores, "commands": {"load_before": load, "commands": {"report": ran}}}


@pytest.mark.parametrize("cold_s, warm_ms, met", [(11.0, 4_400.0, True), (11.0, 5_000.0, False),
                                                  (13.0, 4_400.0, False)])
def test_the_float_report_as_a_process_is_judged_cold_and_warm_with_the_load(cold_s, warm_ms, met):
    """Issue 45: `report` as a process on float scores ÷ on the integer scores of the same rows,
    cold and warm, each ≤ 1.2×; results.md states both ratios, their seconds and the loads."""
    whole = _fake_size(50, 1.1, 50, 0.9, 500) | _commands_size("int", 10.0, 4_000.0, (5.5, 6.0, 6.5))
    floats = _fake_size(50, 1.1, 50, 0.9, 500) | _commands_size("float", cold_s, warm_ms)
    other = whole | {"rows": 99}  # another size's integer run is not its counterpart
    name = "float `report` as a process ≤ 1.2× the integer one, cold and warm"
    rows = {n: (text, ok) for n, text, ok in report.targets(floats, None, [other, whole, floats])}
    text, ok = rows[name]
    assert ok is met
    assert f"cold {cold_s / 10:.2f}× ({cold_s:.2f} s vs 10.00 s)" in text
    assert f"warm {warm_ms / 4_000:.2f}× ({warm_ms / 1000:.2f} s vs 4.00 s)" in text
    assert "float run 7.0, 8.0, 9.0" in text and "int run 5.5, 6.0, 6.5" in text
    assert name not in {n for n, _, _ in report.targets(floats, None, [other, floats])}
    assert name not in {n for n, _, _ in report.targets(whole, None, [whole, floats])}
    build = {"seconds": 1.0, "bench_audit": {"input_mb": 1, "cache_mb": 1},
             "bench_snapshot": {"input_mb": 1, "cache_mb": 1}}
    alone = _commands_size("float", cold_s, warm_ms) | {"build": build}  # its other phases not run
    section = "\n".join(report.size_section(alone, [whole, floats]))
    assert f"`report` on these float scores ÷ on the integer scores of the same rows, as processes: " \
           f"cold {cold_s / 10:.2f}×" in section


def test_the_starts_are_judged_against_their_targets_with_the_load():
    """Issue 45 item 3: results.md has one table of the starts, `--help` (whole, ≤ 0.5 s), each
    command's imports (≤ 1.5 s) and the demo's cold start (≤ 3 s), each with its load average;
    a command is judged by its start, not its run; an import log is summed at its top level."""
    from bench import commands

    log = ("import time: self [us] | cumulative | imported package\n"
           "import time:       100 |       1000 |   encodings.utf_8\n"
           "import time:       200 |     400000 | judgescope\n"
           "import time:       300 |    1300000 |   pandas\n"
           "import time:       400 |    1500000 | judgescope.cli\n")
    assert commands.import_seconds(log) == pytest.approx(1.9)
    ran = {"exit": 0, "cold_s": 9.0, "warm": {"median_ms": 4_000.0, "runs_ms": [4_000.0]}}
    phase = {"load_before": (2.5, 3.0, 3.5), "commands": {
        "--help": ran | {"argv": ["--help"], "warm": {"median_ms": 600.0, "runs_ms": [600.0]}, "start_s": 0.2},
        "validate": ran | {"argv": ["validate", "bench_audit"], "start_s": 0.7},
        "report": ran | {"argv": ["report", "bench_audit"], "start_s": 1.6},
        "rank": {"not_run": "no ranking decisions"}}}
    assert commands.start_targets(phase) == [("--help", 0.6, 0.5), ("validate", 0.7, 1.5), ("report", 1.6, 1.5)]
    demo = {"median_s": 2.8, "max_s": 3.4, "runs": [{}] * 3, "load": (4.0, 4.5, 5.0)}
    big = {"rows": 1_000_000, "commands": phase | {"load_before": (9.0, 9.0, 9.0)}}
    text = "\n".join(report.starts_section([big, {"rows": 10_000, "commands": phase}], demo))
    assert "| `judgescope --help` start ≤ 0.5 s | 0.60 s (whole process, warm; load 2.5, 3.0, 3.5) | ❌ |" in text
    assert "| `judgescope validate` start ≤ 1.5 s | 0.70 s (imports of a warm run; load 2.5, 3.0, 3.5) | ✅ |" in text
    assert "| `judgescope report` start ≤ 1.5 s | 1.60 s" in text and "9.0" not in text
    assert "| cold start ≤ 3 s (demo) | median 2.80 s, slowest 3.40 s over 3 starts; load 4.0, 4.5, 5.0 | ✅ |" in text
    assert report.starts_section([], None) == []
    assert "| `report` | 1.60 s | ≤ 1.5 s | ❌ |" in "\n".join(commands.lines({"commands": phase}))


def test_the_demo_shaped_audits_are_the_same_drawn_rows_with_integer_and_float_scores(tmp_path):
    """Issue 45 item 1 at 20k: both files hold the same rows drawn from the demo's V2 audit, each
    id once; the float one differs only in its scores, uniform 4-decimal floats within 0–100."""
    import pyarrow.parquet as pq

    from bench import demo_report

    files = demo_report.audits(tmp_path, rows=600, seed=3)
    whole, floats = (pq.read_table(files[k]).to_pandas() for k in ("int", "float"))
    demo = pq.read_table(demo_report.DEMO_AUDIT).to_pandas().set_index("judge_record_id")
    assert len(whole) == len(floats) == 600 and whole.judge_record_id.is_unique
    pd.testing.assert_frame_equal(whole.drop(columns="score"), floats.drop(columns="score"))
    source = demo.loc[whole.judge_record_id.str.rsplit("~", n=1).str[0]]
    assert (source.score.to_numpy() == whole.score.to_numpy()).all()
    assert (source.target_language.to_numpy() == whole.target_language.to_numpy()).all()
    assert floats.score.between(0, 100).all() and (floats.score.round(4) == floats.score).all()
    assert floats.score.nunique() > 500 and whole.score.nunique() <= 101
    again = demo_report.audits(tmp_path / "again", rows=600, seed=3)
    assert pq.read_table(again["float"]).equals(pq.read_table(files["float"]))


@pytest.mark.parametrize("cold, warm, met", [((6.0, 5.0), (3.0, 2.5), True), ((7.5, 5.0), (3.0, 2.5), False),
                                             ((6.0, 5.0), (3.9, 2.5), False)])
def test_the_demo_shaped_float_report_is_judged_cold_and_warm_on_wall_seconds(cold, warm, met):
    from bench import demo_report

    runs = {"int": {"cold": [(5.0, 4.0)], "warm": [(3.0, 2.0)]},
            "float": {"cold": [cold], "warm": [warm]}}
    result = {"rows": 20_000, "seed": 45, "repeats": 1, "load_before": (1.0, 1.5, 2.0), "runs": runs,
              "int": {"cold": {"wall_s": 5.0, "cpu_s": 4.0}, "warm": {"wall_s": 3.0, "cpu_s": 2.0}},
              "float": {"cold": {"wall_s": cold[0], "cpu_s": cold[1]}, "warm": {"wall_s": warm[0], "cpu_s": warm[1]}}}
    name, text, ok = demo_report.target(result)
    assert ok is met and "20,000 demo-shaped rows" in name
    assert f"cold {cold[0] / 5:.2f}× ({cold[0]:.2f} s vs 5.00 s; CPU {cold[1] / 4:.2f}×)" in text
    page = report.render({"machine": report.machine(), "repeats": 1, "sizes": [], "demo_report": result})
    assert "## Float report on demo-shaped data" in page and f"| float | cold | {cold[0]:.2f} | {cold[1]:.2f} |" in page
    assert "Load average at the start 1.0, 1.5, 2.0" in page


def test_a_command_is_timed_as_a_process_and_a_failing_one_stops_the_bench(tmp_path):
    """bench.commands.process, which the commands phase and the demo-shaped report both use: wall
    and CPU seconds of a real `python -m judgescope` process; exit 2 stops the bench with stderr."""
    import os

    from bench import commands

    env = dict(os.environ, PYTHONPATH=str(commands.ROOT),
               JUDGESCOPE_CACHE=str(tmp_path / "cache"))
    ran = commands.process(["--help"], tmp_path, env)
    assert ran.code == 0 and ran.seconds > 0 and 0 < ran.cpu < ran.seconds * 4 and ran.peak_mb > 10
    with pytest.raises(SystemExit, match="exited 2"):
        commands.process(["validate", str(tmp_path / "no-such-file.jsonl")], tmp_path, env)
    said = commands.process(["--help"], tmp_path, env, ("-c", "import sys; sys.stderr.write('said on stderr')"))
    assert said.stderr == "said on stderr"
    # A command's start is read from that stderr (python -X importtime): never zero.
    log = commands.process(["--help"], tmp_path, env, ("-X", "importtime")).stderr
    assert commands.import_seconds(log) > 0.01


def test_the_first_open_is_timed_in_alternating_pairs_and_the_median_pair_reported(tmp_path):
    """prepare times `pairs` first opens, each right after raw DuckDB's same work; build.json
    holds the pair of median ratio (its app and raw seconds, measured together) and every pair,
    which the results line lists."""
    from bench.__main__ import median_pair, prepare

    pairs = [{"build": {"seconds": app}, "raw_open": {"seconds": raw}}
             for app, raw in ((90.0, 60.0), (70.0, 40.0), (80.0, 60.0))]  # 1.5×, 1.75×, 1.33×
    assert median_pair(pairs) is pairs[0]
    assert median_pair(pairs[1:]) is pairs[2]  # of two, the lower
    built = prepare(500, "int", tmp_path, False, "512MB", lambda _: None, pairs=3)["build"]
    assert len(built["pairs"]) == 3 and all(p["app_s"] > 0 and p["raw_s"] > 0 for p in built["pairs"])
    ratios = sorted(p["app_s"] / p["raw_s"] for p in built["pairs"])
    assert built["seconds"] / built["raw_open"]["seconds"] == pytest.approx(ratios[1])
    assert built["raw_open"]["app_level_seconds"] > 0  # timed in the first pair
    line = "\n".join(report.first_open_line({"build": built}))
    assert "Timed 3 times" in line and line.count(" = ") == 3 and "timed in the first pair" in line
    lowest, highest = ratios[0], ratios[-1]
    assert report.open_spread(built) == (f"; the median of 3 pairs, which range {report._r(lowest)}–"
                                         f"{report._r(highest)}")
    assert report.open_spread({"pairs": built["pairs"][:1]}) == report.open_spread({}) == ""


def test_a_command_failing_on_data_of_its_own_kind_is_recorded_and_a_traceback_is_a_failure(tmp_path, monkeypatch):
    """calibrate, rank or drift failing at a size (say, out of memory) is a finding of the run:
    recorded with its error's line and shown as failed, and the phase goes on; a process that
    ends in a Python traceback fails even though Python exits 1 (the code of excluded rows)."""
    import os

    from bench import commands, kinds

    def run(argv, manifest, cache, *a):
        if argv[0] == "drift":
            raise SystemExit("judgescope drift earlier/x.parquet bench_audit exited 1:\nTraceback …\n"
                             "_duckdb.OutOfMemoryException: Out of Memory Error: could not allocate\n\n"
                             "Possible solutions:\n* Reducing the number of threads\nSee also https://duckdb.org")
        return commands.Ran(1.0, 1.0, 0, "", 100.0)
    monkeypatch.setattr(commands, "_run", run)
    monkeypatch.setattr(commands, "start_seconds", lambda *a: 0.1)
    monkeypatch.setattr(kinds, "ensure", lambda *a: {})
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    args = type("Args", (), {"manifest": str(tmp_path / "10000000" / "sources.toml"), "repeats": 1})()
    phase = commands.command_timings(args)
    assert phase["commands"]["drift"]["failed"] == (
        "judgescope drift earlier/x.parquet bench_audit exited 1: "
        "_duckdb.OutOfMemoryException: Out of Memory Error: could not allocate")
    assert phase["commands"]["calibrate"]["exit"] == 0
    assert "| ❌ failed: judgescope drift" in "\n".join(commands.lines({"commands": phase}))
    # `python -c CODE -m judgescope --help`: CODE runs (and raises) in place of the command.
    env = dict(os.environ, PYTHONPATH=str(commands.ROOT))
    with pytest.raises(SystemExit, match="(?s)exited 1:.*RuntimeError: boom"):
        commands.process(["--help"], tmp_path, env, ("-c", "raise RuntimeError('boom')"))
    assert commands.process(["--help"], tmp_path, env, ("-c", "raise SystemExit(1)")).code == 1


def test_a_command_s_peak_memory_is_its_own_not_the_forking_phase_s(tmp_path):
    """getrusage's maxrss carries a forked child's pre-exec memory (the phase's) across exec;
    the command's peak is its own VmHWM: small for `--help` run from a process holding 400 MB,
    and the 250 MB a command allocates when it does."""
    import os

    from bench import commands

    held = bytearray(400_000_000)  # the phase's memory, touched so it is resident
    held[::4096] = b"x" * len(held[::4096])
    env = dict(os.environ, PYTHONPATH=str(commands.ROOT), JUDGESCOPE_CACHE=str(tmp_path / "cache"))
    assert commands.process(["--help"], tmp_path, env).peak_mb < 200
    grows = "x = bytearray(250_000_000); x[::4096] = b'x' * len(x[::4096]); import time; time.sleep(0.3)"
    assert commands.process(["--help"], tmp_path, env, ("-c", grows)).peak_mb > 240
    del held
    text = "\n".join(commands.lines({"commands": {"load_before": (1.0, 1.0, 1.0), "commands": {
        "rank": {"argv": ["rank", "r.parquet"], "exit": 0, "cold_s": 2.0, "peak_mb": 1042.0,
                 "warm": {"median_ms": 1000.0, "runs_ms": [1000.0]}}}}}))
    assert "| 1.00 s | not recorded | 0 |" in text  # measured before VmHWM: not shown


def test_the_app_and_raw_duckdb_are_timed_in_turn_never_after_the_page_s_pandas_work(monkeypatch):
    """bench.pages.measure: the app with its finish is timed in a loop of its own; then the app's
    queries and raw DuckDB's in pairs whose first alternates, after one raw warm-up run."""
    from bench import pages as bench_pages

    calls = []

    class Store:
        def run(self, name, **params):
            calls.append("app query")
            return pd.DataFrame()

    class Raw:
        def execute(self, sql, params):
            calls.append("raw query")
            return type("R", (), {"df": staticmethod(pd.DataFrame)})()

    inter = bench_pages.Interaction("p", "i", [("verify_summary", {})], lambda frames: calls.append("finish"))
    bench_pages.measure(Store(), inter, Raw(), repeats=3)
    timed = calls[2:]  # after the first run (app query, finish)
    assert calls[:2] == ["app query", "finish"]
    assert timed[:6] == ["app query", "finish"] * 3
    # the raw warm-up, then the pairs: app first, raw first, app first
    assert timed[6:13] == ["raw query", "app query", "raw query", "raw query", "app query", "app query", "raw query"]
