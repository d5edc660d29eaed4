"""The paired-test sections appended to Judges vs humans, Compare versions and Ranking accuracy
(AppTest over the demo manifest)."""

from streamlit.testing.v1 import AppTest

from apptest import open_page


def _open(page: str, collection: str, **params) -> AppTest:
    return open_page(page, collection, **params)


def _table(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def test_judge_pairs_matrix_on_calibration():
    at = _open("pages/calibration.py", "localgate", sig_resamples="500", sig_seed="9")
    assert any(s.value == "Do two judges really differ?" for s in at.header)
    pairs = _table(at, "B01")
    assert len(pairs) == 3  # three judges → three pairs
    assert "exact McNemar" in _captions(at) and "Holm" in _captions(at)
    assert "500 resamples, seed 9" in _captions(at)


def test_version_tests_on_compare():
    at = _open("pages/compare.py", "xhotpotqa")
    assert any(s.value == "Did the scores really change on the same units?" for s in at.header)
    tests = _table(at, "Wilcoxon p")
    assert len(tests) >= 1 and "sign-flip" in _captions(at)


def test_method_pairs_and_clusters_on_ranking():
    at = _open("pages/ranking.py", "transevalnia", dataset="wmt 2023 en-de")
    clusters = _table(at, "Rank")
    assert clusters["Rank"].iloc[0] == 1 and clusters["Rank"].is_monotonic_increasing
    assert "MT-Metrics-Eval" in _captions(at)
