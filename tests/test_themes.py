"""Explanation themes: tokenisation across scripts and the log-odds ratio with an informative
Dirichlet prior against a hand-computed example (issue #19)."""

import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from judgescope.audit import themes


def test_log_odds_hand_computed_pooled_prior():
    # low: wrong ×3, ok ×1 (n = 4); rest: wrong ×1, ok ×5 (n = 6); pooled N = 10, α0 = N, so
    # α_wrong = 4, α_ok = 6. δ_wrong = log(7 / (4 + 10 − 3 − 4)) − log(5 / (6 + 10 − 1 − 4))
    # = log(7/7) − log(5/11) = log(11/5) = 0.78846; σ² = 1/7 + 1/5 = 12/35; z = 1.34655.
    got = themes.log_odds(Counter(wrong=3, ok=1), Counter(wrong=1, ok=5)).set_index("term")
    assert got.loc["wrong", "delta"] == pytest.approx(0.788457, abs=1e-6)
    assert got.loc["wrong", "z"] == pytest.approx(1.346548, abs=1e-6)
    # ok: δ = log(7/7) − log(11/5) = −0.78846; σ² = 1/7 + 1/11.
    assert got.loc["ok", "z"] == pytest.approx(-0.788457 / math.sqrt(1 / 7 + 1 / 11), abs=1e-6)
    assert got.loc["wrong", ["low_count", "rest_count"]].tolist() == [3, 1]


def test_log_odds_hand_computed_explicit_alpha0():
    # α0 = 2: α_wrong = 0.8. δ = log(3.8 / 2.2) − log(1.8 / 6.2) = 0.546544 + 1.236763 = 1.783306; σ² = 1/3.8 + 1/1.8.
    got = themes.log_odds(Counter(wrong=3, ok=1), Counter(wrong=1, ok=5), alpha0=2)
    row = got.set_index("term").loc["wrong"]
    assert row["delta"] == pytest.approx(1.783306, abs=1e-6)
    assert row["z"] == pytest.approx(1.783306 / math.sqrt(1 / 3.8 + 1 / 1.8), abs=1e-6)


def test_empty_counts_give_no_terms():
    assert themes.log_odds(Counter(), Counter()).empty


@pytest.mark.parametrize("text,expected", [
    ("Wrong TENSE, missing word.", [["wrong", "tense"], ["missing", "word"]]),
    ("हिन्दी शब्द छूटा", [["हिन्दी", "शब्द", "छूटा"]]),  # combining marks stay inside words
    ("ภาษาไทย ok", [["ภาษาไทย", "ok"]]),
    ("ﬁx the ＡＢＣ", [["fix", "the", "abc"]]),  # NFKC: ligature and fullwidth letters
    ("don't 42 x_y", [["don't", "x", "y"]]),  # digits and underscores split
    ("«Straße» ΣΊΣΥΦΟΣ", [["strasse"], ["σίσυφοσ"]]),  # case-folded
])
def test_tokens_across_scripts(text, expected):
    assert themes.tokens(text) == expected


def test_phrases_skip_stopword_edges_and_punctuation():
    got = themes.terms("The meaning of the source is lost. Lost meaning")
    assert "meaning" in got and "meaning of the source" not in got  # 4-grams are not counted
    assert "the source" not in got and "source" in got
    assert "lost lost" not in got and "lost meaning" in got


def test_hostile_text_is_tokenised_without_backtracking():
    """A backtracking pattern would hang on this for hours; a subprocess turns a hang into a
    failure (the 120 s bound guards against a hang, it is not a speed target: see make bench)."""
    code = ("import sys; from judgescope.audit import themes; "
            "print(themes.tokens('meaning lost ' + \"a'\" * 200_000 + 'b' * 100_000))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parent.parent, check=False)
    assert done.returncode == 0, done.stderr
    # The 500,000-character run (cut at MAX_CHARS) is longer than any token and is skipped.
    assert done.stdout.strip() == "[['meaning', 'lost']]"


def test_themes_by_language_is_deterministic_and_json_shaped():
    rows = pd.DataFrame({
        "target_language": ["th"] * 8 + ["de"] * 2,
        "low": [True] * 4 + [False] * 4 + [True, False],
        "judge_explanation": ["Latin script left in place."] * 3 + ["Name kept in Latin script."]
                             + ["Accurate and fluent."] * 4 + ["Fine", None],
    })
    first = themes.themes_by_language(rows)
    # "latin" and "script" occur only inside "latin script" (same counts, same z): one theme
    assert first["th"]["term"].iloc[0] == "latin script"
    assert first["th"]["folded"].iloc[0] == "latin, script"
    assert not {"latin", "script"} & set(first["th"]["term"])
    assert first["de"].empty  # one low occurrence, below the minimum count
    again = themes.themes_by_language(rows.sample(frac=1, random_state=3))
    pd.testing.assert_frame_equal(first["th"], again["th"])
    out = themes.to_json(60.0, first)
    assert out["threshold"] == 60.0
    assert set(out["by_language"]["th"][0]) == {"term", "z", "low_count", "rest_count", "folded"}
    assert out["by_language"]["th"][0]["folded"] == ["latin", "script"]


def test_nested_phrases_with_one_z_fold_into_the_longest():
    low = Counter({"appears": 5, "appears mid": 5, "mid sentence": 5, "appears mid sentence": 5,
                   "mid": 7, "wrong": 4})
    rest = Counter({"appears": 0, "mid": 1, "fine": 30})
    top = themes.top_terms(themes.log_odds(low, rest))
    by_term = dict(zip(top["term"], top["folded"]))
    assert by_term["appears mid sentence"] == "appears, appears mid, mid sentence"
    assert by_term["mid"] == ""  # more occurrences than the phrase: its own theme
    assert by_term["wrong"] == "" and "appears" not in by_term


def test_theme_texts_query_splits_filters_and_caps(tmp_path):
    from judgescope.duck import db

    from stores import write_select

    path = write_select(tmp_path / "audit.parquet",
                        "SELECT 'r' || i AS judge_record_id, CASE WHEN i < 6 THEN 'th' ELSE 'de' "
                        "END AS target_language, 'answer' AS unit, i * 10.0 AS score, "
                        "CASE WHEN i = 3 THEN NULL ELSE 'e' || i END AS judge_explanation FROM range(10) t(i)")
    with db.Store({"audit": [path]}) as store:
        rows = store.run("audit_theme_texts", languages=["th"], units=[], threshold=30.0,
                         per_group=100)
        # th rows 0–5, row 3 has no explanation; low = score < 30 → rows 0, 1, 2.
        assert sorted(rows.loc[rows.low, "judge_explanation"]) == ["e0", "e1", "e2"]
        assert sorted(rows.loc[~rows.low, "judge_explanation"]) == ["e4", "e5"]
        capped = store.run("audit_theme_texts", languages=[], units=["answer"], threshold=30.0,
                           per_group=1)
        assert len(capped) == 3  # th low, th rest, de rest: one each
