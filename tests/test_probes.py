"""Length probe: OLS with a cluster-robust SE against statsmodels; the demo's slope and JSON."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from judgescope.calibration import length_probes


def test_ols_cluster_matches_statsmodels():
    rng = np.random.default_rng(8)
    n = 120
    groups = rng.integers(0, 40, n)
    human = rng.integers(0, 2, n).astype(float)
    loglen = rng.normal(8, 1.5, n)
    y = (rng.random(n) < 0.3 + 0.4 * human - 0.03 * (loglen - 8)).astype(float)
    x = np.column_stack([np.ones(n), human, loglen])
    ours = length_probes.ols_cluster(y, x, groups)
    ref = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    assert ours["beta"] == pytest.approx(ref.params)
    assert ours["se"] == pytest.approx(ref.bse, rel=1e-9)
    low, high = ref.conf_int().T
    assert ours["low"] == pytest.approx(low) and ours["high"] == pytest.approx(high)


def test_length_probe_finds_a_planted_length_bias():
    # Planted: among answers the humans judged alike, the judge's pass probability falls by
    # 8 points per doubling of the answer's length.
    rng = np.random.default_rng(2)
    rows = []
    for i in range(300):
        length = int(rng.integers(20, 2000))
        human = int(rng.integers(0, 2))
        p = min(1.0, max(0.0, 0.15 + 0.7 * human - 0.08 * (np.log2(length) - 8)))
        rows.append({"key": f"k{i}", "question_id": f"q{i // 2}", "model_response": "x" * length,
                     "human_correct": human, "binary__j": float(rng.random() < p)})
    out = length_probes.length_probe(pd.DataFrame(rows), "binary__j")
    assert out["ci"][1] < 0 and out["sentence"].startswith("passes shorter answers")
    assert out["ci"][0] < -0.08 < out["ci"][1]
    assert out["clusters"] == 150 and out["cluster_column"] == "question_id"
    x = pd.DataFrame(rows)
    none = x.assign(binary__j=x["human_correct"].astype(float))  # the judge copies the humans
    flat = length_probes.length_probe(none, "binary__j")
    assert flat["slope_per_doubling"] == pytest.approx(0, abs=1e-9)


def test_audit_length_probe_per_language_against_statsmodels():
    rng = np.random.default_rng(12)
    n = 90
    rows = pd.DataFrame({"target_language": np.repeat(["de", "th"], n),
                         "cluster": [f"i{i // 3}" for i in range(2 * n)],
                         "source_chars": rng.integers(50, 400, 2 * n)})
    ratio = rng.uniform(0.6, 1.6, 2 * n)
    rows["candidate_chars"] = (rows["source_chars"] * ratio).round().astype(int)
    # Planted: Thai scores drop 5 points per doubling of the candidate's length.
    slope = np.where(rows["target_language"] == "th", -5.0, 0.0)
    rows["score"] = 80 + slope * np.log2(rows["candidate_chars"]) + rng.normal(0, 3, 2 * n)
    out = {r["target_language"]: r for r in length_probes.audit_length_probe(rows)["languages"]}
    th = rows[rows["target_language"] == "th"]
    x = sm.add_constant(np.log2(th["candidate_chars"].to_numpy(float)))
    ref = sm.OLS(th["score"].to_numpy(), x).fit(cov_type="cluster",
                                                 cov_kwds={"groups": pd.factorize(th["cluster"])[0]})
    assert out["th"]["length_slope"] == pytest.approx(ref.params[1])
    assert out["th"]["length_ci"] == pytest.approx(list(ref.conf_int()[1]))
    assert out["th"]["length_ci"][1] < 0 and out["de"]["length_ci"][0] < 0 < out["de"]["length_ci"][1]
    assert out["th"]["clusters"] == 30


def test_probe_length_command_on_the_demo(tmp_path):
    import json
    from judgescope import cli
    out = tmp_path / "probe.json"
    assert cli.main(["probe-length", "xhotpotqa_v2_audit", "xhotpotqa_v2_snapshot",
                     "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["rows"] > 0 and got["join_key_source"].startswith("declared by collection")
    assert all("length_ci" in r or "note" in r for r in got["languages"])
    assert "cluster-robust" in got["method"]


def test_probe_length_counts_the_audit_rows_it_cannot_measure(tmp_path, capsys):
    """Rows whose key finds no snapshot row, or several, have no texts to measure: before, the
    probe said "on 30 rows" of an audit of 36 and never named the other 6."""
    import hashlib
    import json
    from judgescope import cli

    def sha(t):
        return hashlib.sha256(t.encode()).hexdigest()
    audit, snapshot = [], []
    for i in range(36):
        src, cand = f"source {i}", "word " * (i + 1)
        audit.append({"judge_record_id": f"r{i}", "instance_id": f"i{i}", "target_language": "de",
                      "unit": "answer", "score": 50 + i, "source_text_sha256": sha(src),
                      "candidate_text_sha256": sha(cand)})
        if i < 30:
            snapshot.append({"instance_id": f"i{i}", "target_language": "de", "unit": "answer",
                             "source_text": src, "candidate_text": cand})
    snapshot += [dict(snapshot[0]), dict(snapshot[1])]  # i0 and i1 twice: ambiguous
    a, s = tmp_path / "audit.jsonl", tmp_path / "snap.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in audit), encoding="utf-8")
    s.write_text("".join(json.dumps(r) + "\n" for r in snapshot), encoding="utf-8")
    out = tmp_path / "probe.json"
    assert cli.main(["probe-length", str(a), str(s), "--key", "instance_id", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    assert (got["rows"], got["audit_rows"], got["left_out"]) == (28, 36, {"missing": 6, "ambiguous": 2})
    printed = capsys.readouterr().out
    assert "length probe on 28 of 36 audit rows" in printed
    assert "left out: 6 missing (no snapshot row); 2 ambiguous (several snapshot rows)" in printed
