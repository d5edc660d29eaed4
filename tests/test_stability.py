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
