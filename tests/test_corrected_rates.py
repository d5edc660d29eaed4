"""Corrected pass rates: prediction-powered inference against the PPI authors' package
(ppi-python), Rogan–Gladen against its formula worked by hand and a seeded simulation."""

import numpy as np
import pandas as pd
import pytest
from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

from judgescope.calibration import corrected


def _labelled(tp, fp, fn, tn):
    y = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn]).astype(float)
    yhat = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn]).astype(float)
    return y, yhat


@pytest.mark.parametrize("cells, passes, big_n", [
    ((45, 0, 7, 48), 4_100, 10_000),   # the demo's gptoss confusion, a large unlabelled set
    ((44, 2, 8, 46), 130, 300),
    ((20, 9, 3, 18), 51, 120),
])
@pytest.mark.parametrize("tuned", [False, True])
def test_ppi_matches_ppi_python(cells, passes, big_n, tuned):
    y, yhat = _labelled(*cells)
    unlabelled = np.repeat([1.0, 0.0], [passes, big_n - passes])
    lam = None if tuned else 1
    low, high = ppi_mean_ci(y, yhat, unlabelled, alpha=0.05, lam=lam)
    ours = corrected.ppi_mean(*cells, passes, big_n, tuned=tuned)
    assert ours["ci"] == pytest.approx([float(np.ravel(low)[0]), float(np.ravel(high)[0])],
                                       abs=1e-9)
    if not tuned:
        point = ppi_mean_pointestimate(y, yhat, unlabelled, lam=1)
        assert ours["estimate"] == pytest.approx(float(np.ravel(point)[0]), abs=1e-12)
        # By hand: judge mean on the unlabelled minus its mean error on the labelled.
        tp, fp, fn, tn = cells
        assert ours["estimate"] == pytest.approx(passes / big_n - (fp - fn) / sum(cells))


def test_rogan_gladen_by_hand():
    # Se = 45/52, Sp = 48/48 = 1, q = 0.41: (0.41 + 1 − 1) / (45/52) = 0.41 · 52 / 45.
    out = corrected.rogan_gladen(45, 0, 7, 48, 410, 1_000)
    assert out["estimate"] == pytest.approx(0.41 * 52 / 45)
    assert out["sensitivity"] == pytest.approx(45 / 52) and out["specificity"] == 1.0
    # Se + Sp ≤ 1: no correction is defined.
    assert corrected.rogan_gladen(5, 5, 5, 5, 10, 20)["estimate"] is None


def test_rogan_gladen_interval_has_the_spread_of_the_estimator():
    # Seeded simulation: redraw the labelled confusion and the unlabelled passes from their true
    # rates, recompute the estimator; its SD should match the delta-method SE within 10%.
    rng = np.random.default_rng(5)
    se, sp, prev, n_pos, n_neg, big_n = 0.85, 0.9, 0.4, 60, 60, 2_000
    q = prev * se + (1 - prev) * (1 - sp)
    est = []
    for _ in range(4_000):
        tp = rng.binomial(n_pos, se)
        tn = rng.binomial(n_neg, sp)
        passes = rng.binomial(big_n, q)
        s_hat, p_hat = tp / n_pos, tn / n_neg
        est.append((passes / big_n + p_hat - 1) / (s_hat + p_hat - 1))
    out = corrected.rogan_gladen(round(se * n_pos), n_neg - round(sp * n_neg),
                                 n_pos - round(se * n_pos), round(sp * n_neg),
                                 round(q * big_n), big_n)
    half = (out["ci"][1] - out["ci"][0]) / 2 / 1.959964
    assert half == pytest.approx(np.std(est), rel=0.10)
    assert out["estimate"] == pytest.approx(prev, abs=0.01)


def test_for_report_and_sentence():
    rep = {"judges": {"a": {"tp": 45, "fp": 0, "fn": 7, "tn": 48},
                      "b": {"tp": 44, "fp": 2, "fn": 8, "tn": 46}}}
    counts = pd.DataFrame({"judge_model": ["a"], "n": [1_000], "passes": [410]})
    out = corrected.for_report(rep, counts)
    assert out["a"]["raw_judge_rate"] == 0.41 and out["a"]["n_unlabelled"] == 1_000
    assert "Rogan–Gladen" in corrected.sentence(out["a"])
    assert out["b"]["n_unlabelled"] == 0 and out["b"]["ppi"]["estimate"] is None
    assert "nothing to correct" in corrected.sentence(out["b"])


def test_bulk_page_corrects_unlabelled_judgements(tmp_path, monkeypatch):
    """The demo's judgements are all on calibration items; add unlabelled ones and the Bulk
    judgements page shows the corrected rates beside the raw one."""
    import pyarrow.parquet as pq
    from streamlit.testing.v1 import AppTest
    from calib_fixtures import write_demo
    manifest = write_demo(tmp_path)
    path = tmp_path / "demo" / "localgate_calibration" / "data" / "calibration-train.parquet"
    judg = pq.read_table(path).to_pandas()
    extra = judg.copy()
    extra["key"] = "new" + extra["key"]
    extra["question_id"] = "new" + extra["question_id"]
    pd.concat([judg, extra]).to_parquet(path, index=False)
    checksums = tmp_path / "demo" / "checksums.json"
    if checksums.exists():
        checksums.unlink()
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "localgate"
    at.run()
    at.switch_page("pages/judgements.py").run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if "Rogan–Gladen [95% CI]" in d.value.columns)
    row = table.set_index("Judge").loc["gptoss"]
    assert row["Unlabelled N"] == 100 and row["Raw judge rate"] == "0.450"
    # The unlabelled copy has the same judge verdicts, so PPI recovers the human rate 0.52.
    assert row["PPI [95% CI]"].startswith("0.520")


def test_demo_bulk_collection_shows_corrected_rates():
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "localgate_bulk"
    at.run()
    at.switch_page("pages/judgements.py").run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if "Rogan–Gladen [95% CI]" in d.value.columns)
    assert (table["Unlabelled N"] == 600).all() and len(table) == 3


@pytest.mark.parametrize("page", ["pages/overview.py", "pages/calibration.py",
                                  "pages/calibration_humans.py", "pages/disagreements.py"])
def test_demo_bulk_collection_pages_open(page):
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "localgate_bulk"
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]


def test_ppi_mean_against_the_papers_formulas_worked_by_hand():
    # Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", Science
    # 382:669 (2023); arXiv 2301.09633, the warm-up on mean estimation and its algorithm for the
    # mean: θ̂^PP = (1/N) Σ f(X̃_i) − (1/n) Σ (f(X_i) − Y_i), and the CLT interval
    # θ̂^PP ± z_{1−α/2} · sqrt(σ̂²_f̃ / N + σ̂²_{f−Y} / n), σ̂² the empirical variances (1/N, 1/n).
    # Small example, Y = human verdict, f = judge verdict:
    #   labelled n = 10: (Y, f) = (1, 1) × 4, (0, 1) × 1, (1, 0) × 2, (0, 0) × 3
    #     → mean Y = 6/10 = 0.6, mean f = 5/10 = 0.5, rectifier mean (f − Y) = 0.5 − 0.6 = −0.1
    #     f − Y takes 0 (× 7), +1 (× 1), −1 (× 2): σ̂²_{f−Y} = (7·0.1² + 1·1.1² + 2·0.9²) / 10
    #       = (0.07 + 1.21 + 1.62) / 10 = 0.29
    #   unlabelled N = 20, f(X̃) = 1 on 8 → mean 0.4, σ̂²_f̃ = 0.4 · 0.6 = 0.24
    #   θ̂^PP = 0.4 − (−0.1) = 0.5
    #   SE² = 0.24 / 20 + 0.29 / 10 = 0.012 + 0.029 = 0.041, SE = 0.202485
    #   95%: z = 1.959964, half-width = 0.396862 → [0.103138, 0.896862]
    out = corrected.ppi_mean(4, 1, 2, 3, 8, 20)
    assert out["lambda"] == 1.0
    assert out["estimate"] == pytest.approx(0.5, abs=1e-12)
    assert out["ci"] == pytest.approx([0.103138, 0.896862], abs=2e-6)
    assert out["ci"] == pytest.approx([0.5 - 1.959963985 * 0.041 ** 0.5,
                                       0.5 + 1.959963985 * 0.041 ** 0.5], abs=1e-9)


def test_ppi_plus_plus_against_its_formulas_worked_by_hand():
    # PPI++ (Angelopoulos, Duchi & Zrnic 2023, arXiv 2311.01453), mean estimation: θ̂_λ =
    # mean Y + λ · (mean f(X̃) − mean f(X)), with the variance-minimising
    # λ̂ = Ĉov(Y, f) / ((1 + n/N) · V̂ar(f)), clipped to [0, 1]; as ppi-python computes it, the
    # covariance is over the labelled items (1/n) and V̂ar(f) over labelled and unlabelled
    # pooled (1/(n + N − 1)). Same data as above:
    #   Ĉov(Y, f) = mean(Yf) − mean Y · mean f = 4/10 − 0.6 · 0.5 = 0.1
    #   pooled f: 13 ones in 30 → V̂ar = (13/30)(17/30) · 30/29 = 221/870
    #   λ̂ = 0.1 / (1.5 · 221/870) = 87 / 331.5 = 174/663 = 0.262443
    #   θ̂_λ = 0.6 + λ̂ (0.4 − 0.5) = 0.6 − 17.4/663 = 0.573756
    #   SE² = λ̂² · 0.24 / 20 + Var(Y − λ̂ f) / 10, where Y − λ̂f is 1 − λ̂ (× 4), −λ̂ (× 1),
    #   1 (× 2), 0 (× 3)
    lam = 174 / 663
    values = [1 - lam] * 4 + [-lam] + [1.0] * 2 + [0.0] * 3
    mean = sum(values) / 10
    var_r = sum((v - mean) ** 2 for v in values) / 10
    half = 1.959963985 * (lam ** 2 * 0.24 / 20 + var_r / 10) ** 0.5
    out = corrected.ppi_mean(4, 1, 2, 3, 8, 20, tuned=True)
    assert out["lambda"] == pytest.approx(0.262443, abs=1e-6)
    assert out["estimate"] == pytest.approx(0.573756, abs=1e-6)
    assert out["ci"] == pytest.approx([0.573756 - half, 0.573756 + half], abs=1e-6)
