"""Paired tests against published values and independent computations (issue #19)."""

import itertools
from math import comb

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from judgescope.significance import paired as sig
from judgescope.significance import matrices as st_
from reference_stats import holm_reference


def binom_two_sided(b01, b10):
    """Independent exact McNemar: doubled lower binomial tail, by integer counting."""
    n, k = b01 + b10, min(b01, b10)
    return min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n)


def test_mcnemar_published_example():
    # Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs data",
    # BMC Med Res Methodol 13:91, Table 1 (Bentur et al. 2009, AHR before/after SCT, 21
    # children): discordant b = 1, c = 7; the exact conditional McNemar p = 0.070.
    assert sig.mcnemar_exact(1, 7) == pytest.approx(0.0703, abs=5e-4)
    assert sig.mcnemar_exact(1, 7) == pytest.approx(18 / 256)


@pytest.mark.parametrize("b01,b10", [(0, 1), (3, 3), (2, 11), (40, 25), (0, 30), (100, 131)])
def test_mcnemar_matches_independent_binomial(b01, b10):
    assert sig.mcnemar_exact(b01, b10) == pytest.approx(binom_two_sided(b01, b10), rel=1e-9)
    assert sig.mcnemar_exact(b01, b10) == sig.mcnemar_exact(b10, b01)


def test_mcnemar_undefined_without_discordant_pairs():
    assert sig.mcnemar_exact(0, 0) is None


def test_holm_worked_example():
    # Holm (1979): sorted p × (m − rank), made monotone; None is not a test.
    got = sig.holm([0.01, 0.04, None, 0.03, 0.005])
    assert got[2] is None
    assert got[:2] + got[3:] == pytest.approx([0.03, 0.06, 0.06, 0.02])


def brute_force_sign_flip(diffs):
    obs = abs(sum(diffs))
    stats = [abs(sum(s * d for s, d in zip(signs, diffs)))
             for signs in itertools.product((1, -1), repeat=len(diffs))]
    return sum(t >= obs - 1e-12 for t in stats) / len(stats)


@pytest.mark.parametrize("diffs", [[3, -1, 4, 1, 5, -9, 2, 6], [1, 1, 1, 1, 1],
                                   [0.5, -0.25, 2.0, 0, 1.5, -3.0, 0.75]])
def test_sign_flip_exact_equals_enumeration(diffs):
    nonzero = [d for d in diffs if d != 0]
    res = sig.sign_flip_test(diffs)
    assert res["p"] == pytest.approx(brute_force_sign_flip(nonzero))
    assert res["n"] == len(diffs) and res["n_nonzero"] == len(nonzero)
    assert res["method"].startswith("exact")


def test_sign_flip_counts_and_monte_carlo_agree_with_exact():
    values, counts = [2.0, -1.0, 3.0], [4, 3, 2]
    exact = sig.sign_flip_test(values, counts)
    assert exact["p"] == pytest.approx(brute_force_sign_flip([2.0] * 4 + [-1.0] * 3 + [3.0] * 2))
    mc = sig.sign_flip_test(values, counts, resamples=40_000, seed=7, exact_max=0)
    assert mc["seed"] == 7 and mc["resamples"] == 40_000
    assert mc["p"] == pytest.approx(exact["p"], abs=0.01)
    assert sig.sign_flip_test(values, counts, 500, seed=1, exact_max=0)["p"] == \
        sig.sign_flip_test(values, counts, 500, seed=1, exact_max=0)["p"]


def test_wilcoxon_against_published_critical_value():
    # Two-sided α = 0.05 critical value for n = 10 is T = 8 (e.g. Wilcoxon signed-rank tables,
    # Zar, Biostatistical Analysis, Table B.12): T = 8 rejects, T = 9 does not.
    def data(neg_ranks):
        return [-r if r in neg_ranks else r for r in range(1, 11)]
    t8, t9 = sig.wilcoxon(data({1, 7})), sig.wilcoxon(data({2, 7}))
    assert t8["statistic"] == 8 and t8["p"] < 0.05
    assert t9["statistic"] == 9 and t9["p"] > 0.05
    assert t8["p"] == pytest.approx(brute_force_rank_p(data({1, 7})))


def brute_force_rank_p(diffs):
    ranks = sps.rankdata(np.abs(diffs))
    t = min(ranks[np.array(diffs) > 0].sum(), ranks[np.array(diffs) < 0].sum())
    sums = [sum(r for r, s in zip(ranks, signs) if s) for signs in
            itertools.product((0, 1), repeat=len(diffs))]
    return sum(min(s, ranks.sum() - s) <= t + 1e-9 for s in sums) / len(sums)


def test_wilcoxon_counts_expand_and_zero_is_dropped():
    res = sig.wilcoxon([0.0, 1.0, -2.0, 3.0], [5, 3, 1, 2])
    assert res["n"] == 11 and res["n_nonzero"] == 6
    assert sig.wilcoxon([0.0], [3])["p"] is None


def test_paired_bootstrap_is_seeded_and_brackets_the_difference():
    c = sig.discordance([1] * 30 + [0] * 10 + [1] * 5, [1] * 30 + [1] * 10 + [0] * 5)
    assert (c["b01"], c["b10"], c["n"]) == (10, 5, 45)
    ci = sig.paired_bootstrap_diff(c, 2000, seed=3)
    assert ci == sig.paired_bootstrap_diff(c, 2000, seed=3)
    assert ci[0] < -5 / 45 < ci[1]


def test_clusters_share_rank_when_not_separable():
    p = {frozenset("AB"): 0.3, frozenset("AC"): 0.001, frozenset("BC"): 0.2}
    got = sig.clusters(["A", "B", "C"], [0.9, 0.8, 0.5], lambda x, y: p[frozenset((x, y))])
    assert [(g["name"], g["rank"]) for g in got] == [("A", 1), ("B", 1), ("C", 2)]


def test_judge_pairs_counts_holm_and_rule():
    frame = pd.DataFrame({"human_correct": [1, 1, 0, 0, 1, 0],
                          "binary__x": [1, 0, 0, 1, 1, np.nan],
                          "binary__y": [1, 1, 0, 0, 0, 0],
                          "binary__z": [1, 1, 0, 0, 1, 0]})
    rows = st_.judge_pairs(frame, resamples=200, seed=1)
    xy = next(r for r in rows if (r["a"], r["b"]) == ("x", "y"))
    # x vs truth on 5 shared items: right, wrong, right, wrong, right; y: right×4, wrong.
    assert (xy["n"], xy["b01"], xy["b10"]) == (5, 2, 1)
    assert xy["agreement_diff"] == pytest.approx(-1 / 5)
    assert xy["mcnemar_exact_p"] == pytest.approx(binom_two_sided(2, 1))
    assert [r["holm_p"] for r in rows] == pytest.approx(holm_reference([r["mcnemar_exact_p"] for r in rows]))


def test_method_pairs_and_clusters():
    rows = []
    for i in range(40):
        human = 1 + i % 2
        for name, right in (("good", i < 38), ("bad", i < 10)):
            rows.append({"file": "f", "row": i, "dataset": "d", "human": human, "method":
                         "direct_ranking", "model": name, "decision": human if right else 3 - human})
    out = st_.method_pairs(pd.DataFrame(rows), "d", resamples=500, seed=2)
    (pair,) = out["pairs"]
    assert (pair["n"], pair["b01"] + pair["b10"]) == (40, 28)
    assert pair["permutation_p"] < 0.05 and pair["mcnemar_exact_p"] < 0.05
    assert [c["rank"] for c in out["clusters"]] == [1, 2]


def test_wilcoxon_normal_from_counts_equals_scipy_on_expanded_ties():
    values, counts = [-3.0, -1.0, 1.0, 2.0, 5.0, 0.0], [7, 12, 20, 9, 15, 4]
    got = sig.wilcoxon(values, counts)
    ref = sps.wilcoxon(np.repeat(values, counts), zero_method="wilcox", method="approx",
                       correction=False)
    assert got["method"].startswith("normal") and got["n_nonzero"] == 63
    assert got["p"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert got["statistic"] == pytest.approx(ref.statistic)


@pytest.mark.parametrize("module", ["judgescope.significance.paired",
                                    "judgescope.significance.matrices", "judgescope.audit.themes",
                                    "judgescope.console.sql_console"])
def test_pure_modules_import_no_streamlit(module):
    import ast
    from pathlib import Path

    import importlib.util

    path = Path(importlib.util.find_spec(module).origin)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    ui_bound = {m for m in names if m == "streamlit" or m.startswith(("streamlit.", "judgescope.web"))}
    ui_bound |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and n.module == "judgescope" for a in n.names if a.name == "web"}
    assert not ui_bound
