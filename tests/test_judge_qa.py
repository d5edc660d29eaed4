"""Judge QA beyond agreement: exact bootstrap intervals of small tables, bias direction (paired
CI, exact McNemar), minimum detectable difference, and the like-for-like human ceiling.

Expected values come from exhaustive enumeration, statsmodels / scikit-learn, published
examples (cited at each test), never from the functions under test."""

import itertools
import json

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.contingency_tables import mcnemar

from calib_fixtures import write_demo
from judgescope import cli, stats
from judgescope.calibration import bias, exact
from judgescope.calibration import panel as cal

# LocalGate demo, gptoss against the human 2-of-3 majority (seed 001 card): TP 45, FP 0, FN 7,
# TN 48. Tables are [truth 0 & judge 0, truth 0 & judge 1, truth 1 & judge 0, truth 1 & judge 1].
GPTOSS = [48, 0, 7, 45]
PANEL = [46, 2, 8, 44]


def _vectors(table):
    truth = np.repeat([0, 0, 1, 1], table)
    pred = np.repeat([0, 1, 0, 1], table)
    return truth, pred


def _brute_force_quantiles(truth, pred, level=0.95):
    """Cohen's κ over every one of the n^n ordered index resamples, equally likely: the
    bootstrap by definition, with no multinomial algebra; lower quantiles (smallest v with
    F(v) >= q); resamples where κ is undefined left out."""
    n = len(truth)
    idx = np.array(list(itertools.product(range(n), repeat=n)))
    a, b = truth[idx], pred[idx]
    p_o = (a == b).mean(1)
    p_e = a.mean(1) * b.mean(1) + (1 - a.mean(1)) * (1 - b.mean(1))
    ok = p_e < 1
    values = np.sort((p_o[ok] - p_e[ok]) / (1 - p_e[ok]))
    cdf = np.arange(1, len(values) + 1) / len(values)
    tail = (1 - level) / 2
    return (values[np.searchsorted(cdf, tail - 1e-12)],
            values[np.searchsorted(cdf, 1 - tail - 1e-12)])


@pytest.mark.parametrize("table", [[2, 1, 1, 3], [3, 0, 1, 3], [1, 2, 2, 2], [2, 2, 1, 2]])
def test_exact_bootstrap_equals_enumerating_every_resample(table):
    truth, pred = _vectors(table)
    low, high = _brute_force_quantiles(truth, pred)
    out = exact.table_ci(table, exact.kappa_of, level=0.95)
    assert out["exact"] and out["low"] == pytest.approx(low) and out["high"] == pytest.approx(high)


def test_gptoss_kappa_exact_upper_end():
    # Issue reference value: the exact bootstrap (every outcome enumerated) puts gptoss's κ CI
    # upper end at 0.958, where a 10,000-resample Monte Carlo gave 0.940.
    out = exact.table_ci(GPTOSS, exact.kappa_of)
    assert out["exact"] and round(out["high"], 3) == 0.958
    assert "exact" in out["method"] and "5,151" in out["method"]


def test_monte_carlo_raises_resamples_to_the_tolerance():
    exact_ci = exact.table_ci(PANEL, exact.pi_of)
    mc = exact.table_ci(PANEL, exact.pi_of, max_outcomes=0)
    assert not mc["exact"] and mc["mc_error"] < exact.MC_TOLERANCE
    assert mc["resamples"] > exact.MC_START  # 10,000 were not enough for this table
    # Within a few Monte Carlo SEs of the exact endpoints (discreteness adds a little).
    assert abs(mc["low"] - exact_ci["low"]) < 0.01 and abs(mc["high"] - exact_ci["high"]) < 0.01
    assert "Monte Carlo SE < 0.002" in mc["method"]


def test_newcombe_paired_published_example():
    # Newcombe (1998), Stat Med 17:2635–2650, Table II example (a): 36 both, 12 only first,
    # 2 only second, 0 neither: difference 0.20, method 10 interval 0.0569 to 0.3404.
    low, high = bias.newcombe_paired_ci(36, 12, 2, 0)
    assert (round(low, 4), round(high, 4)) == (0.0569, 0.3404)


def test_bias_direction_gptoss_sentence_and_mcnemar():
    truth, pred = _vectors(GPTOSS)
    b = bias.bias_direction(truth, pred)
    # statsmodels' exact McNemar on the paired table [[both pass, human only], [judge only, none]].
    ref = mcnemar([[45, 7], [0, 48]], exact=True).pvalue
    assert b["mcnemar_p"] == pytest.approx(ref) and round(ref, 3) == 0.016
    # The wording for gptoss on the demo.
    assert b["sentence"] == "stricter than the humans (45 % vs 52 % pass, p = 0.016)"
    assert b["direction"] == "stricter" and b["diff"] == pytest.approx(-0.07)
    assert b["ci"][0] < -0.07 < b["ci"][1] < 0
    assert "min_detectable_diff" not in b


def test_bias_direction_lenient_and_not_significant():
    truth, pred = _vectors([40, 9, 1, 50])
    assert bias.bias_direction(truth, pred)["direction"] == "more lenient"
    truth, pred = _vectors(PANEL)
    b = bias.bias_direction(truth, pred)
    assert b["direction"] == "no clear direction" and b["min_detectable_diff"] is not None


def _simulated_power(n, discordant, diff, reps=1500, seed=7):
    """Rejection rate of statsmodels' exact McNemar on seeded multinomial tables."""
    rng = np.random.default_rng(seed)
    p_fp, p_fn = (discordant + diff) / 2, (discordant - diff) / 2
    cells = rng.multinomial(n, [p_fp, p_fn, 1 - discordant], size=reps)
    pvals = {}
    hits = 0
    for fp, fn, _ in cells:
        key = (int(fp), int(fn))
        if key not in pvals:
            pvals[key] = mcnemar([[0, fp], [fn, 0]], exact=True).pvalue
        hits += pvals[key] < 0.05
    return hits / reps


def test_min_detectable_difference_has_its_power():
    mdd = bias.min_detectable_difference(100, 0.10)
    assert 0 < mdd <= 0.10
    # Independent check by simulation (1,500 seeded tables, SE of a rate near 0.8 ≈ 0.01).
    assert _simulated_power(100, 0.10, mdd) >= 0.80 - 0.035
    assert _simulated_power(100, 0.10, mdd - 0.01) < 0.80
    assert bias.min_detectable_difference(10, 0.05) is None  # never detectable at n = 10


def test_binary_pair_against_sklearn_and_exact_pi():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2, 60)
    b = np.where(rng.random(60) < 0.8, a, 1 - a)
    out = bias.binary_pair(a, b)
    assert out["cohen_kappa"] == pytest.approx(cohen_kappa_score(a, b))
    assert out["scotts_pi"] == pytest.approx(float(stats.scotts_pi_fraction(a, b)))
    assert out["kappa_ci"][0] < out["cohen_kappa"] < out["kappa_ci"][1]


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("qa_demo")
    from judgescope.demo import localgate
    localgate.generate(root)
    items, judg = localgate.load(root)
    return cal.report(items, judg, qa=True), items


def test_demo_ceiling_like_for_like(demo_report):
    rep, items = demo_report
    ceiling = rep["ceiling"]
    humans = [(items[c] == "match").astype(int).to_numpy() for c in cal.HUMAN_COLS]
    pairwise = [cohen_kappa_score(humans[i], humans[j])
                for i, j in itertools.combinations(range(3), 2)]
    assert ceiling["human_mean_kappa"]["mean_kappa"] == pytest.approx(np.mean(pairwise))
    # Issue figures: judges κ 0.76–0.81 against single humans, humans 0.73 with each other.
    assert round(ceiling["human_mean_kappa"]["mean_kappa"], 2) == 0.73
    judge_means = [ceiling["judge_mean_kappa"][j]["mean_kappa"] for j in ("gptoss", "ministral",
                                                                          "qwen")]
    assert (round(min(judge_means), 2), round(max(judge_means), 2)) == (0.76, 0.81)
    assert len(ceiling["judge_vs_human"]) == 4 * 3 and len(ceiling["human_vs_human"]) == 3
    assert "clusters of question_id (90 clusters, 100 items)" in ceiling["kappa_ci_method"]
    assert "clusters of question_id (90 clusters, 100 items)" in ceiling["pi_ci_method"]
    lo, hi = ceiling["human_mean_kappa"]["ci"]
    assert lo < ceiling["human_mean_kappa"]["mean_kappa"] < hi


def test_demo_bias_and_exact_pi_ci(demo_report):
    rep, _ = demo_report
    assert rep["judges"]["gptoss"]["bias"]["sentence"].startswith("stricter than the humans")
    assert "exact percentile bootstrap" in rep["judges"]["gptoss"]["ci_item_method"]
    # 100 answers to 90 questions: the headline interval resamples questions.
    assert rep["panel"]["clusters"] == {"column": "question_id", "n": 90}
    assert "clusters of question_id (90 clusters, 100 items)" in rep["panel"]["ci_method"]
    low, high = rep["panel"]["ci"]
    assert low < 0.8 < high and rep["panel"]["inconclusive"]
    assert rep["panel"]["label_budget"]["added_items"] is None
    assert all(j["label_budget"] is None for j in rep["judges"].values())  # decided gates
    probe = rep["length_probe"]["gptoss"]
    assert probe["cluster_column"] == "question_id" and probe["clusters"] == 90


def test_calibrate_json_carries_bias_and_ceiling(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_demo(tmp_path)))
    out = tmp_path / "cal.json"
    cli.main(["calibrate", "localgate_items", "--json", str(out)])
    rep = json.loads(out.read_text())
    assert rep["judges"]["gptoss"]["bias"]["mcnemar_p"] == pytest.approx(2 * 0.5 ** 7)
    assert "Newcombe" in rep["judges"]["gptoss"]["bias"]["method"]
    assert rep["ceiling"]["human_mean_kappa"]["ci"][0] is not None


def test_pages_show_bias_and_ceiling(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest
    from textutil import plain
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_demo(tmp_path)))
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "localgate"
    at.run()
    at.switch_page("pages/calibration.py").run()
    assert not at.exception
    shown = [plain(x.value) for x in at.markdown]
    assert "**gptoss**: stricter than the humans (45 % vs 52 % pass, p = 0.016)" in shown
    assert any(x.startswith("Like for like (binary verdicts") for x in shown)
    assert any("points per doubling of length" in x for x in shown)
    assert any("Newcombe" in plain(c.value) for c in at.caption)
    assert any(x.startswith("**panel (strict majority of 3 judges)** (INCONCLUSIVE): no budget")
               for x in shown)
    at.switch_page("pages/calibration_humans.py").run()
    assert not at.exception
    assert any("not the gates' binary scale" in plain(c.value) for c in at.caption)
    assert any("Human A" in d.value.columns for d in at.dataframe)
