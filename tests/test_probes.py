"""Length probe: OLS with a cluster-robust SE against statsmodels; the demo's slope and JSON."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from judgescope.calibration import probes


def test_ols_cluster_matches_statsmodels():
    rng = np.random.default_rng(8)
    n = 120
    groups = rng.integers(0, 40, n)
    human = rng.integers(0, 2, n).astype(float)
    loglen = rng.normal(8, 1.5, n)
    y = (rng.random(n) < 0.3 + 0.4 * human - 0.03 * (loglen - 8)).astype(float)
    x = np.column_stack([np.ones(n), human, loglen])
    ours = probes.ols_cluster(y, x, groups)
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
    out = probes.length_probe(pd.DataFrame(rows), "binary__j")
    assert out["ci"][1] < 0 and out["sentence"].startswith("passes shorter answers")
    assert out["ci"][0] < -0.08 < out["ci"][1]
    assert out["clusters"] == 150 and out["cluster_column"] == "question_id"
    x = pd.DataFrame(rows)
    none = x.assign(binary__j=x["human_correct"].astype(float))  # the judge copies the humans
    flat = probes.length_probe(none, "binary__j")
    assert flat["slope_per_doubling"] == pytest.approx(0, abs=1e-9)
