"""Stability of repeated judge scores: ICC(1) against Shrout & Fleiss (1979), its CI's coverage
by seeded simulation, flip rates counted by hand."""

import numpy as np
import pandas as pd
import pytest

from judgescope.audit import stability

# Shrout & Fleiss (1979), Psychological Bulletin 86:420, Table 2: 6 targets × 4 judges.
SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
                 [6, 2, 4, 7]]


def _long(matrix) -> pd.DataFrame:
    return pd.DataFrame([{"unit_key": f"t{i}", "score": float(s)}
                         for i, row in enumerate(matrix) for s in row])


def test_icc1_shrout_fleiss_table():
    out = stability.icc1(_long(SHROUT_FLEISS))
    assert round(out["icc"], 2) == 0.17  # ICC(1,1) in Shrout & Fleiss's Table 4
    assert out["units"] == 6 and out["ratings"] == 24
    assert out["ci"][0] < out["icc"] < out["ci"][1]


def test_icc1_interval_covers_by_simulation():
    # One-way random effects, unit SD 1, noise SD 1: true ICC 0.5; 20 units × 3 runs.
    rng = np.random.default_rng(4)
    hits, sims = 0, 400
    for _ in range(sims):
        units = rng.normal(0, 1, 20)
        scores = units[:, None] + rng.normal(0, 1, (20, 3))
        ci = stability.icc1(_long(scores))["ci"]
        hits += ci[0] <= 0.5 <= ci[1]
    assert 0.92 <= hits / sims <= 0.98


def test_flips_and_spread_by_hand():
    records = pd.DataFrame({"unit_key": ["a", "a", "b", "b", "b", "c", "d", "d"],
                            "score": [90, 40, 80, 85, 82, 10, 30, 35]})
    out = stability.stability(records, threshold=50)
    # a: 90 / 40 flips across 50; b stays above; d stays below; c is scored once.
    assert out["units_repeated"] == 3
    assert out["flips"]["flipping_units"] == ["a"] and out["flips"]["flip_rate"] == pytest.approx(1 / 3)
    assert out["flips"]["unanimity"] == pytest.approx(2 / 3)
    sds = [np.std([90, 40], ddof=1), np.std([80, 85, 82], ddof=1), np.std([30, 35], ddof=1)]
    assert out["spread"]["mean_sd"] == pytest.approx(np.mean(sds))


def test_nothing_repeated():
    out = stability.stability(pd.DataFrame({"unit_key": ["a", "b"], "score": [1.0, 2.0]}), 1.5)
    assert out["units_repeated"] == 0 and out["icc"]["icc"] is None
    assert out["flips"]["flip_rate"] is None


def test_stability_command_on_repeated_runs(tmp_path, capsys):
    import json
    from judgescope import cli
    rows = []
    for run, scores in (("r1", [90, 80, 30]), ("r2", [40, 82, 35]), ("r3", [88, 79, 33])):
        for unit, score in zip(("u1", "u2", "u3"), scores):
            rows.append({"judge_record_id": f"{run}-{unit}", "instance_id": unit,
                         "target_language": "de", "unit": "answer", "score": score,
                         "run_group": run, "requested_judge_model": "j"})
    path = tmp_path / "raw.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "stability.json"
    assert cli.main(["stability", str(path), "--threshold", "50", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["units_repeated"] == 3 and got["flips"]["flipped"] == 1
    assert {r["judge_record_id"] for r in got["flipping_records"]} == {"r1-u1", "r2-u1", "r3-u1"}
    scores = np.array([[90, 40, 88], [80, 82, 79], [30, 35, 33]], dtype=float)
    # One-way ANOVA by hand (balanced, k = 3): MSB = k · var(unit means), MSW = mean within var.
    msb, msw = 3 * scores.mean(1).var(ddof=1), scores.var(1, ddof=1).mean()
    assert got["icc"]["icc"] == pytest.approx((msb - msw) / (msb + 2 * msw))
    assert "ICC(1)" in capsys.readouterr().out


def test_sentence_for_the_page():
    records = _long(SHROUT_FLEISS)
    text = stability.sentence(stability.stability(records))
    assert text.startswith("6 units scored more than once: ICC(1) 0.166")
    assert "not measurable" in stability.sentence(stability.stability(records.iloc[:1]))


def test_provenance_page_states_stability(monkeypatch):
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.run()
    at.switch_page("pages/provenance.py").run()
    assert not at.exception
    assert any("No unit was scored more than once" in m.value for m in at.markdown)


def test_rerun_stability_on_the_demo_rescore(tmp_path):
    import json
    from judgescope import cli
    from streamlit.testing.v1 import AppTest
    out = tmp_path / "rerun.json"
    cli.main(["stability", "xhotpotqa_v2_rescore", "--against", "xhotpotqa_v2_audit",
              "--threshold", "60", "--json", str(out)])
    got = json.loads(out.read_text())
    # Every re-scored unit is a V2 unit with the same texts, judge and prompt.
    from pathlib import Path
    folder = Path(__file__).resolve().parent.parent / "data/demo/xhotpotqa_judge_v2_rescore"
    current = pd.read_parquet(next(folder.rglob("*.parquet")))
    assert got["units_repeated"] == len(current)
    assert got["icc"]["ci"][0] < got["icc"]["icc"] < got["icc"]["ci"][1]
    assert got["flips"]["units"] == len(current)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "xhotpotqa_rescore"
    at.run()
    at.switch_page("pages/provenance.py").run()
    assert not at.exception
    assert any(m.value.startswith(f"{len(current)} units in both runs: ICC(1)") for m in at.markdown)


# --- Units are keyed as drift keys them (source_id, else instance_id), and nothing is left out unseen.

def _row(rid, score, **ids):
    return {"judge_record_id": rid, "target_language": "de", "unit": "answer", "score": score, **ids}


def _write(path, rows):
    import json
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_records_without_ids_are_not_one_unit_but_counted_and_listed(tmp_path, capsys):
    """Before: six records of six sources with no instance_id were one 'unit' under an empty key
    (a within-unit SD of 13.1 from scores of different units). Now source_id keys a unit; records
    with neither id are left out, counted, and the first 25 by id listed; a source_id and an
    instance_id of the same value are two units."""
    import json
    from judgescope import cli
    rows = [_row(f"s{i}", 50 + 7 * i, source_id=f"src{i}", run_group="g") for i in range(6)]
    rows += [_row("x1", 70, source_id="src1", run_group="h"),  # src1 again: a repeat
             _row("y1", 20, instance_id="src1", run_group="h")]  # same value, an instance_id: another unit
    rows += [_row(f"n{i:02d}", 40, run_group="g") for i in range(30)]  # neither id
    out = tmp_path / "s.json"
    assert cli.main(["stability", _write(tmp_path / "raw.jsonl", rows), "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["units_repeated"] == 1
    assert got["spread"]["mean_sd"] == pytest.approx(np.std([57, 70], ddof=1))
    assert got["unkeyed"] == {"rows": 30, "listed": [f"n{i:02d}" for i in range(25)]}
    assert "source_id, else its instance_id" in got["definition"]
    printed = capsys.readouterr().out
    assert "30 records have neither a source_id nor an instance_id: they belong to no unit and are left out " \
           "(the first 25 by id): n00, n01," in printed


def _rerun_runs(tmp_path):
    earlier = [_row(f"a{i}", 50 + 7 * i, source_id=f"s{i}") for i in range(6)]
    earlier += [_row("a_n1", 40), _row("a_n2", 41),  # neither id
                _row("a_r1", 60, source_id="s9"), _row("a_r2", 61, source_id="s9"),  # s9 twice
                _row("a_i1", 70, instance_id="i1")]  # not in the current run
    current = [_row(f"b{i}", 53 + 7 * i, source_id=f"s{i}") for i in range(6)]
    current += [_row("b_x", 44, instance_id="s0"),  # an instance_id "s0" is not the source s0
                _row("b_y", 45, source_id="s7")]
    return _write(tmp_path / "current.jsonl", current), _write(tmp_path / "earlier.jsonl", earlier)


def test_stability_between_runs_pairs_source_keyed_units_and_accounts_for_every_row(tmp_path, capsys):
    """Before: audits keyed by source_id (no instance_id) paired nothing, silently (every row sat in
    one NULL-instance partition held more than once)."""
    import json
    from judgescope import cli
    current, earlier = _rerun_runs(tmp_path)
    out = tmp_path / "s.json"
    assert cli.main(["stability", current, "--kind", "judge_audit", "--against", earlier, "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["units_repeated"] == 6
    assert sorted(r["judge_record_id"] for r in got["flipping_records"]) == []  # no threshold, no flips
    assert got["spread"]["mean_sd"] == pytest.approx(np.std([50, 53], ddof=1))  # every pair differs by 3
    assert got["counts"]["by_run"] == {
        "current": {"rows": 8, "paired_rows": 6, "unkeyed_rows": 0, "repeated_rows": 0, "unmatched_rows": 2},
        "earlier": {"rows": 11, "paired_rows": 6, "unkeyed_rows": 2, "repeated_rows": 2, "unmatched_rows": 1}}
    printed = capsys.readouterr().out
    assert "Not paired, this audit: 2 of 8 rows — 2 with no unit of the same judge, prompt and texts" in printed
    assert ("Not paired, the earlier audit: 5 of 11 rows — 2 without a source_id or an instance_id; 2 in units "
            "this run scored more than once; 1 with no unit") in printed


def test_rerun_counts_that_do_not_add_up_are_an_error():
    counts = pd.DataFrame({"run": ["current", "earlier"], "rows": [5, 9], "unkeyed_rows": [1, 0],
                           "repeated_rows": [0, 0]})
    with pytest.raises(RuntimeError, match="current run's 5 rows do not hold 6 paired"):
        stability.rerun_accounting(counts, 6)
    assert stability.rerun_accounting(counts, 4)["current"]["unmatched_rows"] == 0
    assert stability.not_paired(stability.rerun_accounting(counts, 4)) == [
        "Not paired, this audit: 1 of 5 rows — 1 without a source_id or an instance_id.",
        "Not paired, the earlier audit: 5 of 9 rows — 5 with no unit of the same judge, prompt and texts in the "
        "other run."]


def test_provenance_page_says_what_stability_left_out(tmp_path, monkeypatch):
    from apptest import open_page
    current, earlier = _rerun_runs(tmp_path)
    raw = [_row(f"r{i}", 50 + i, source_id=f"s{i % 3}", run_group=f"g{i // 3}") for i in range(6)]
    raw += [_row("<b>n1</b>", 40, run_group="g0")]  # neither id; a record id shown as text, never HTML
    _write(tmp_path / "raw.jsonl", raw)
    manifest = tmp_path / "sources.toml"
    manifest.write_text(
        '[[collection]]\nname = "st"\ntitle = "Stability"\ndatasets = ["cur", "prev", "raw"]\nprevious = "prev"\n\n'
        '[[dataset]]\nname = "cur"\nkind = "judge_audit"\ntitle = "cur"\npath = "current.jsonl"\n\n'
        '[[dataset]]\nname = "prev"\nkind = "judge_audit"\ntitle = "prev"\npath = "earlier.jsonl"\n\n'
        '[[dataset]]\nname = "raw"\nkind = "raw_judge_records"\ntitle = "raw"\npath = "raw.jsonl"\n',
        encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    at = open_page("pages/provenance.py", "st")
    from textutil import plain
    warned = [plain(w.value) for w in at.warning]
    assert any(w.startswith("Not paired, the earlier audit: 5 of 11 rows") for w in warned), warned
    assert any(w.startswith("Not paired, this audit: 2 of 8 rows") for w in warned), warned
    assert "1 record has neither a source_id nor an instance_id: it belongs to no unit and is left out." in warned
    listed = next(d.value for d in at.dataframe if list(d.value.columns) == ["Judge record id"])
    assert listed["Judge record id"].tolist() == ["<b>n1</b>"]
    assert any(m.value.startswith("3 units scored more than once") for m in at.markdown)
    assert any(m.value.startswith("6 units in both runs") for m in at.markdown)
