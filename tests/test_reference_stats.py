"""The test oracles of reference_stats.py against the published values they must reproduce."""

import pytest

import reference_stats as R
from test_stats import (AP_A, AP_B, FLEISS_1971_COUNTS, KRIPPENDORFF_2011, WIKIPEDIA_FLEISS)


def test_scotts_pi_artstein_poesio_2008():
    assert R.scotts_pi(AP_A, AP_B) == pytest.approx(0.79953, abs=5e-6)  # NLTK doctest value


@pytest.mark.parametrize("counts, expected, tol", [
    (FLEISS_1971_COUNTS, 0.4302445, 1e-7),  # Fleiss (1971), R irr::kappam.fleiss
    (WIKIPEDIA_FLEISS, 0.210, 5e-4),         # Wikipedia "Fleiss' kappa" worked example
])
def test_fleiss(counts, expected, tol):
    assert R.fleiss_kappa(counts) == pytest.approx(expected, abs=tol)


def test_krippendorff_2011_nominal():
    assert R.krippendorff_alpha_nominal(KRIPPENDORFF_2011) == pytest.approx(0.743, abs=5e-4)


def test_describe():
    # Deviations from 80: -30, -10, 5, 15, 20; squares sum to 1650; sd = sqrt(1650 / 4).
    assert R.describe([50, 70, 85, 95, 100]) == {
        "n": 5, "mean": 80.0, "median": 85.0, "sd": pytest.approx((1650 / 4) ** 0.5),
        "below_60": 1, "below_80": 2, "at_least_90": 2}


def test_holm_reference_by_hand():
    # Four p-values adjusted by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 gives
    # 0.02, 0.03, 0.06, 0.04, and the running maximum lifts the last to 0.06.
    from reference_stats import holm_reference

    assert holm_reference([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_reference([0.5, 0.9]) == pytest.approx([1.0, 1.0])
