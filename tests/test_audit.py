"""Audit statistics from score counts (fixtures built in code), every audit_* query bound strictly."""

import numpy as np
import pandas as pd
import pytest

import reference_stats as R
from judgescope.audit import summary as audit
from judgescope.audit import versions
from judgescope.audit import rows as audit_rows

THRESHOLDS = (60, 80, 90)


def counts_of(frame: pd.DataFrame, by=("unit", "target_language")) -> pd.DataFrame:
    """What audit_score_counts returns, computed here from rows with pandas."""
    return frame.groupby(list(by) + ["score"]).size().rename("n").reset_index()


@pytest.fixture
def rows() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    parts = []
    for lang, unit, n, centre in [("th", "answer", 20, 60), ("th", "paragraph", 40, 94),
                                  ("de", "answer", 20, 97), ("de", "paragraph", 40, 92),
                                  ("ar", "question", 7, 90)]:
        scores = np.clip(np.round(rng.normal(centre, 15, n)), 0, 100)
        parts.append(pd.DataFrame({"target_language": lang, "unit": unit, "score": scores}))
    return pd.concat(parts, ignore_index=True)


def test_describe_counts_matches_row_statistics(rows):
    for _key, part in rows.groupby(["unit", "target_language"]):
        v, c = np.unique(part.score, return_counts=True)
        assert audit.describe_counts(v, c) == pytest.approx(R.describe(part.score, THRESHOLDS))


def test_describe_counts_hand_computed():
    got = audit.describe_counts([50, 85, 95, 100], [1, 1, 2, 1])  # 50, 85, 95, 95, 100
    assert got["n"] == 5 and got["mean"] == 85 and got["median"] == 95
    assert got["sd"] == pytest.approx(np.std([50, 85, 95, 95, 100], ddof=1))
    assert (got["below_60"], got["below_80"], got["at_least_90"]) == (1, 1, 3)


def test_undefined_values_are_none():
    one = audit.describe_counts([70.0], [1])
    assert one["sd"] is None and one["mean"] == 70
    empty = audit.describe_counts([], [])
    assert empty["n"] == 0 and empty["mean"] is None and empty["median"] is None


def test_thresholds_are_adjustable():
    got = audit.describe_counts([50, 85, 95], [1, 1, 1], thresholds=(55, 90, 95))
    assert (got["below_55"], got["below_90"], got["at_least_95"]) == (1, 2, 1)


def test_unit_summary_has_weighted_overall(rows):
    table = audit.unit_summary(counts_of(rows))
    assert list(table.unit) == ["paragraph", "question", "answer", "overall"]
    overall = table.iloc[-1]
    assert overall.n == len(rows)
    assert overall["mean"] == pytest.approx(rows.score.mean())
    assert overall["share_below_60"] == pytest.approx((rows.score < 60).mean())


def test_facet_split_labels_missing_values():
    counts = pd.DataFrame({"unit": ["a", "a", "a"], "target_language": ["x"] * 3,
                           "facet": ["train", None, "train"], "score": [90.0, 80.0, 70.0],
                           "n": [2, 1, 1]})
    table = audit.unit_summary(counts, facet=True)
    assert set(table.facet) == {"train", "not recorded", ""}
    assert table.loc[table.facet == "train", "mean"].item() == pytest.approx((180 + 70) / 3)


def test_language_summary_adds_language_overall(rows):
    table = audit.language_summary(counts_of(rows))
    th = table[table.target_language == "th"]
    assert list(th.unit) == ["paragraph", "answer", "overall"]
    assert th.iloc[-1]["mean"] == pytest.approx(rows[rows.target_language == "th"].score.mean())
    assert list(table.columns) == ["target_language", "unit", "n", "mean", "median", "sd",
                                   "below_60", "below_80", "at_least_90"]


def test_float_scores_group_by_exact_value():
    scores = np.array([95.5, 95.5, 12.25, 88.0, 95.5])
    counts = pd.DataFrame({"unit": "segment", "target_language": "de", "score": [95.5, 12.25, 88.0],
                           "n": [3, 1, 1]})
    boot = audit.bootstrap_table(counts, ["unit"], resamples=10_000, seed=3).iloc[0]
    rows = R.row_bootstrap_means(scores, 10_000, seed=4)  # a plain row bootstrap
    assert boot["mean"] == pytest.approx(scores.mean())
    # Monte-Carlo endpoints of the same distribution: 0.2 SE is about five sigma apart.
    se = scores.std(ddof=1) / np.sqrt(scores.size)
    assert boot["low"] == pytest.approx(np.percentile(rows, 2.5), abs=0.2 * se)
    assert boot["high"] == pytest.approx(np.percentile(rows, 97.5), abs=0.2 * se)


def test_bootstrap_is_seeded_and_brackets_mean(rows):
    counts = counts_of(rows)
    a = audit.unit_bootstrap(counts, resamples=1000, seed=11)
    b = audit.unit_bootstrap(counts, resamples=1000, seed=11)
    c = audit.unit_bootstrap(counts, resamples=1000, seed=12)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    assert (a["low"] <= a["mean"]).all() and (a["mean"] <= a["high"]).all()
    assert "10,000 resamples, seed 20260810" in audit.ci_label()


def test_tails_and_spread(rows):
    tails = audit.tails_table(counts_of(rows), threshold=60)
    th = tails[(tails.target_language == "th") & (tails.unit == "answer")].iloc[0]
    part = rows[(rows.target_language == "th") & (rows.unit == "answer")].score
    assert th.p5 == pytest.approx(np.percentile(part, 5))
    assert th.p10 == pytest.approx(np.percentile(part, 10))
    assert th.below == (part < 60).sum() and th.share_low <= th.share_below <= th.share_high
    assert "Thai (th) × answer" in audit.spread_note(tails)


def test_mean_matrix_orders_units(rows):
    m = audit.mean_matrix(counts_of(rows))
    assert list(m.columns) == ["paragraph", "question", "answer"]
    assert np.isnan(m.loc["th", "question"])


def test_compare_unpaired_and_overlap():
    prev = pd.DataFrame({"unit": ["a", "a"], "target_language": "x", "score": [80.0, 90.0], "n": [5, 5]})
    cur = pd.DataFrame({"unit": ["a", "a"], "target_language": "x", "score": [90.0, 100.0], "n": [5, 5]})
    table = versions.unit_compare(prev, cur, resamples=500, seed=1)
    assert table.iloc[0]["diff"] == pytest.approx(10) and table.iloc[-1]["unit"] == "overall"
    assert table.iloc[0]["low"] <= 10 <= table.iloc[0]["high"]
    small = pd.DataFrame({"unit": ["a", "b"], "n_current": [10, 10], "n_previous": [10, 10],
                          "overlap": [1, 0]})
    assert versions.overlap_is_small(small)
    assert not versions.overlap_is_small(small.assign(overlap=[10, 9]))
    assert versions.overlap_sentence(small) == ("Pairs on (source_id, else instance_id; target_language, "
                                             "unit, paragraph_id), each key once in both versions: "
                                             "1 a, 0 b.")


def test_paired_table_counts_pairs():
    diffs = pd.DataFrame({"unit": ["a", "a"], "diff": [-2.0, 4.0], "n": [1, 3]})
    out = versions.paired_table(diffs, resamples=200, seed=1)
    assert out.iloc[0]["pairs"] == 4 and out.iloc[0]["mean_diff"] == pytest.approx(2.5)


@pytest.mark.parametrize("text,latin,name", [
    ("Barack Obama", True, True), ("1987", False, True), ("บารัค โอบามา", False, False),
    ("The film was released in 1987 by the studio.", True, False), ("São Paulo", True, True),
    ("", False, False), ("yes", True, False)])
def test_script_and_name_hints(text, latin, name):
    assert audit_rows.is_latin_only(text) is latin
    assert audit_rows.looks_like_name_or_number(text) is name


def test_exact_copy_hints_need_text_and_script():
    rows = pd.DataFrame({"target_language": ["th", "de", "th", "xx"],
                         "candidate_text": ["Barack Obama", "Barack Obama", None, "Barack Obama"]})
    out = audit_rows.exact_copy_hints(rows)
    assert list(out.latin_in_non_latin_language) == [True, False, None, False]
    assert list(out.name_or_number) == [True, True, None, True]


def test_distribution_table_and_headline(rows):
    table = audit.distribution_table(counts_of(rows), resamples=500, seed=1)
    assert list(table.columns[:6]) == ["unit", "n", "mean", "ci_low", "ci_high", "median"]
    assert (table.ci_low <= table["mean"]).all()
    text = audit.headline(table)
    low, high = table[table.unit == audit.OVERALL].iloc[0][["ci_low", "ci_high"]]
    assert text.startswith(f"{len(rows):,} scored rows; weighted mean {rows.score.mean():.2f} "
                           f"(95% CI [{low:.2f}, {high:.2f}])")  # as every page writes an interval
    assert "heaviest lower tail: answer" in text


def test_exact_copy_matrix_totals():
    counts = pd.DataFrame({"target_language": ["th", "th", "de"], "unit": ["answer", "paragraph", "answer"],
                           "n": [20, 80, 20], "hashed": [20, 80, 20], "exact_copies": [5, 0, 2]})
    m = audit_rows.exact_copy_matrix(counts).set_index("language")
    assert list(m.columns) == ["paragraph", "answer", "total"]
    assert m.loc["th", "total"] == 5 and m.loc["overall", "answer"] == 7 and m.loc["de", "paragraph"] == 0


def test_exact_copy_total_follows_the_filters():
    counts = pd.DataFrame({"target_language": ["th", "th", "de"], "unit": ["answer", "question", "answer"],
                           "exact_copies": [3, 1, 5]})
    assert audit_rows.exact_copy_total(counts, [], []) == 9
    assert audit_rows.exact_copy_total(counts, ["th"], []) == 4
    assert audit_rows.exact_copy_total(counts, ["th", "de"], ["answer"]) == 8
    assert audit_rows.exact_copy_total(counts, ["xx"], []) == 0


def test_pooled_groups_equal_a_groupby_per_group():
    """summary._samples pools every group's per-score counts with one sort of the frame: the same
    groups, in the same order (first appearance, missing keys kept), with the same values and
    counts as a pandas groupby of each group (rows without a score counted nowhere)."""
    from judgescope.audit import summary as S

    rng = np.random.default_rng(7)
    for _ in range(150):
        m = int(rng.integers(0, 40))
        frame = pd.DataFrame({"target_language": rng.choice(["de", "th", None], m),
                              "unit": rng.choice(["answer", "question"], m),
                              "score": rng.choice([1.0, 2.5, np.nan, 100.0], m),
                              "n": rng.integers(0, 5, m)})
        for by in (["target_language"], ["target_language", "unit"], []):
            expected = [(key, part[part.score.notna()].groupby("score")["n"].sum())
                        for key, part in S._groups(frame, by)]
            got = list(S._pooled_groups(frame, by))
            assert [str(k) for k, _ in got] == [str(k) for k, _ in expected]
            for (_, (values, counts)), (_, sums) in zip(got, expected):
                assert values.tolist() == sums.index.tolist() and counts.tolist() == sums.tolist()
