"""The minimum detectable difference never exceeds the discordant share; where no feasible
difference reaches 80 % power the answer is "none within reach" (issue 39 item 7). Checked against
an independent exact power: every (FP, FN) table enumerated with its trinomial probability and
statsmodels' exact McNemar p-value."""

import math

import pytest
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar

from judgescope.calibration import bias, qa_tables


def enumerated_power(n: int, discordant: float, diff: float, alpha: float = 0.05) -> float:
    """P(exact McNemar p <= alpha) with FP ~ (ψ + δ)/2 and FN ~ (ψ − δ)/2 per item."""
    p_fp, p_fn = (discordant + diff) / 2, (discordant - diff) / 2
    total = 0.0
    for fp in range(n + 1):
        for fn in range(n + 1 - fp):
            prob = sps.multinomial.pmf([fp, fn, n - fp - fn], n, [p_fp, p_fn, 1 - discordant])
            if prob > 0 and fp + fn and mcnemar([[0, fp], [fn, 0]], exact=True).pvalue <= alpha:
                total += prob
    return total


# (n, discordant share): the issue's 0.067 at n = 30 (2 of 30 = 0.0667) and shares that are no
# multiple of 0.001, beside ones that are.
CASES = [(30, 2 / 30), (30, 0.0667), (30, 4 / 30), (30, 0.2), (40, 7 / 40), (40, 0.3337)]


@pytest.mark.parametrize("n, share", CASES)
def test_mdd_is_feasible_and_has_its_power(n, share):
    mdd = bias.min_detectable_difference(n, share)
    if mdd is None:
        assert enumerated_power(n, share, share) < 0.80  # not even every discordant item one way
        return
    assert 0 < mdd <= share + 1e-12
    assert enumerated_power(n, share, mdd) >= 0.80 - 1e-9
    below = math.ceil(round(mdd / 0.001, 6)) * 0.001 - 0.001  # the grid point before it
    if below > 0:
        assert enumerated_power(n, share, below) < 0.80


def test_the_issue_case_is_none_within_reach():
    """0.067 at n = 30: the power at the largest possible difference is about 1.3 %."""
    assert bias.min_detectable_difference(30, 2 / 30) is None
    assert enumerated_power(30, 2 / 30, 2 / 30) == pytest.approx(0.013, abs=0.002)
    b = bias.bias_direction([0] * 28 + [1, 0], [0] * 28 + [0, 1])
    assert b["min_detectable_diff"] is None
    assert b["min_detectable_text"].startswith("none within reach")
    row = qa_tables.bias_table([("x", "judge", {"bias": b})]).iloc[0]
    assert row["Min. detectable difference (80% power)"].startswith("none within reach")
