"""Calibration domain functions on fixtures built in code (seed 001's rules)."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from judgescope.calibration import panel as cal
from judgescope.calibration import bulk

M, NM, NA = "match", "no_match", "no_answer"


def make(humans, votes, judges=("a", "b", "c"), question_ids=None):
    """items (one per humans triple) and long judgements (one verdict per judge per item)."""
    keys = [f"q{i}:0" for i in range(len(humans))]
    items = pd.DataFrame({"key": keys, "question_id": question_ids or [k[:-2] for k in keys],
                          "split": "train", "category": "x", "question": "Q?",
                          "reference_answer": "R", "model_response": "A"})
    for j, col in enumerate(cal.HUMAN_COLS):
        items[col] = [h[j] for h in humans]
    items["human_correct"] = None
    rows = [{"key": k, "judge_model": name, "verdict": v[j], "reason": f"{name} on {k}"}
            for k, v in zip(keys, votes) for j, name in enumerate(judges)]
    return items, pd.DataFrame(rows)


SMALL = make(
    humans=[(M, M, M), (M, NM, NA), (NM, NM, NA), (M, M, NM), (NA, NA, NA), (NM, NM, NM)],
    votes=[(M, M, M), (M, M, NM), (NM, NM, NM), (NM, NM, M), (NA, NA, NM), (M, NM, NM)])


def test_human_majority_ties_and_modal():
    maj = cal.human_majority(SMALL[0])
    assert maj["human_correct"].tolist() == [1, 0, 0, 1, 0, 0]
    assert maj["three_way_tie"].tolist() == [False, True, False, False, False, False]
    assert [None if pd.isna(v) else v for v in maj["human_modal"]] == [M, None, NM, M, NA, NM]
    assert maj["human_votes"].tolist() == [3, 1, 0, 2, 0, 0]


def _modal_row_by_row(labels: pd.DataFrame) -> list:
    """The reference: each row's labels counted one row at a time (the rule: more than half of
    all the columns hold it; a missing label counts for none)."""
    out = []
    for row in labels.itertuples(index=False):
        held = pd.Series(row).dropna().astype(str).value_counts()
        out.append(held.index[0] if len(held) and held.iloc[0] * 2 > labels.shape[1] else None)
    return out


@pytest.mark.parametrize("columns", [1, 2, 3, 4, 5])
def test_modal_and_three_way_ties_column_by_column_equal_row_by_row(columns):
    """_modal and the three-way tie, computed column by column (calibrate at 100,000 answers:
    72 s → 7 s), equal the row-by-row reference on labels with gaps (None and NaN)."""
    rng = np.random.default_rng(columns)
    labels = pd.DataFrame(rng.choice(np.array([M, NM, NA, None, np.nan], dtype=object), (2_000, columns)))
    assert cal._modal(labels).tolist() == _modal_row_by_row(labels)
    distinct = [len(set(r)) == columns and not any(pd.isna(v) for v in r) for r in labels.itertuples(index=False)]
    assert cal._all_differ(labels).tolist() == distinct


def test_frame_panel_is_judge_majority():
    frame = cal.build_frame(*SMALL)
    assert cal.raters(frame) == ["judge:a", "judge:b", "judge:c", cal.PANEL]
    assert frame["panel_binary"].tolist() == [1, 1, 0, 0, 0, 0]
    assert [None if pd.isna(v) else v for v in frame["panel_verdict"]] == [M, M, NM, NM, NA, NM]


def test_rater_stats_confusion_and_gate():
    frame = cal.build_frame(*SMALL)
    r = cal.rater_stats(frame, "panel", Fraction(4, 5), resamples=500)
    assert (r["tp"], r["fp"], r["fn"], r["tn"]) == (1, 1, 1, 3)
    assert r["agreement"] == pytest.approx(4 / 6)
    # pooled marginals: 4 ones of 12 -> p_e = (1/3)^2 + (2/3)^2 = 5/9; pi = (2/3 - 5/9)/(4/9)
    assert r["scotts_pi_fraction"] == "1/4" and r["verdict"] == "FAIL"


def test_disagreement_summary_counts_human_support():
    frame = cal.build_frame(*SMALL)
    s = cal.disagreement_summary(frame)
    # q1: panel 1, humans tie (one says match) -> supported; q3: panel 0, one human no_match.
    assert s["keys"] == ["q1:0", "q3:0"] and s["with_human_support"] == 2
    assert s["unanimous_human"] == []


def test_unanimous_human_disagreement():
    items, judg = make([(M, M, M), (NM, NM, NM)], [(NM, NM, NM), (NM, NM, NM)])
    s = cal.disagreement_summary(cal.build_frame(items, judg))
    assert s["n"] == 1 and s["with_human_support"] == 0 and s["unanimous_human"] == ["q0:0"]


def test_cells_and_three_way_matrix():
    frame = cal.build_frame(*SMALL)
    assert cal.cell_items(frame, "panel", "FN")["key"].tolist() == ["q3:0"]
    assert cal.cell_items(frame, "panel", "disagree")["key"].tolist() == ["q1:0", "q3:0"]
    assert cal.cell_items(frame, "judge:c", "na/x").empty
    assert cal.cell_items(frame, "judge:c", f"{NA}/{NM}")["key"].tolist() == ["q4:0"]
    table, left_out = cal.three_way_matrix(frame, "judge:a")
    assert left_out == 1 and table.loc[M, M] == 1 and table.loc[NM, M] == 1
    assert int(table.to_numpy().sum()) == 5
    listed = cal.cell_items(frame, "panel", "TP")
    detail = cal.item_verdicts(listed.iloc[0])
    assert detail["grader"].tolist() == ["human 1", "human 2", "human 3", "a", "b", "c"]
    assert detail["reason"].tolist()[3] == "a on q0:0"


def test_missing_verdict_and_even_judges():
    items, judg = make([(M, M, M), (NM, NM, NM), (M, M, M)], [(M, M, M), (NM, NM, NM), (M, M, M)])
    judg = judg.drop(judg.index[(judg.key == "q2:0") & (judg.judge_model == "b")])
    frame = cal.build_frame(items, judg)
    assert cal.rater_stats(frame, "judge:b", 0.6, resamples=100)["n"] == 2
    assert cal.rater_stats(frame, "panel", 0.8, resamples=100)["n"] == 2
    two = judg[judg.judge_model != "c"]
    assert cal.raters(cal.build_frame(items, two)) == ["judge:a", "judge:b"]


def published_counts():
    """Seed 001's panel table built in code: TP 44, TN 46, FP 2, FN 8, all judges alike."""
    humans = [(M, M, M)] * 44 + [(NM, NM, NM)] * 46 + [(NM, NM, NA)] * 2 + [(M, M, NM)] * 8
    votes = [(M, M, M)] * 44 + [(NM, NM, NM)] * 46 + [(M, M, M)] * 2 + [(NM, NM, NM)] * 8
    return make(humans, votes)


@pytest.mark.parametrize("gate, verdict", [(Fraction(4, 5), "FAIL"), ("0.80", "FAIL"),
                                           (0.8, "FAIL"), ("0.7999", "PASS"),
                                           (Fraction(1999, 2499), "PASS")])
def test_never_round_to_pass(gate, verdict):
    rep = cal.report(*published_counts(), judge_gate=0.6, panel_gate=gate, resamples=1000)
    panel = rep["panel"]
    assert panel["scotts_pi_fraction"] == "1999/2499" and panel["verdict"] == verdict
    assert (panel["tp"], panel["tn"], panel["fp"], panel["fn"]) == (44, 46, 2, 8)
    assert panel["inconclusive"] is True  # the CI straddles 0.80
    assert panel["scotts_pi_shown"].startswith("1999/2499 = 0.7999")


def test_report_shape_and_recorded_mismatch():
    items, judg = published_counts()
    items["human_correct"] = [1] * 44 + [0] * 48 + [1] * 7 + [0]  # last one recorded wrongly
    rep = cal.report(items, judg, resamples=200)
    assert rep["n_items"] == 100 and set(rep["judges"]) == {"a", "b", "c"}
    assert rep["humans"]["recorded_majority_mismatches"] == ["q99:0"]
    assert len(rep["disagreements"]) == 10
    # FN items have one human on the panel's side; the two FP items have none (seed: 8 and 2).
    assert rep["disagreement_summary"]["with_human_support"] == 8
    assert rep["disagreement_summary"]["unanimous_human"] == ["q90:0", "q91:0"]
    table = cal.summary_table(rep)
    assert table["Verdict"].tolist() == ["PASS", "PASS", "PASS", "FAIL"]
    assert table["CI vs gate"].tolist()[-1] == "INCONCLUSIVE"


def test_vote_counts_and_ties():
    frame = cal.build_frame(*SMALL)
    votes = cal.vote_counts(frame)
    assert votes["items"].tolist() == [3, 1, 1, 1]
    assert votes["binary_majority"].tolist() == [0, 0, 1, 1]
    assert cal.tie_items(frame)["key"].tolist() == ["q1:0"]


def test_bulk_pair_agreement_from_counts():
    pairs = pd.DataFrame({"judge_a": ["a"] * 3, "judge_b": ["b"] * 3,
                          "verdict_a": [M, NM, NA], "verdict_b": [M, NM, NM], "n": [5, 4, 1]})
    out = bulk.pair_agreement(pairs, resamples=200).iloc[0]
    assert out["Shared keys"] == 10 and out["Agreement (3-way)"] == "0.9000"
    assert out["Agreement (binary)"] == "1.0000"
    dist = bulk.verdict_distribution(pd.DataFrame(
        {"judge_model": ["a", "a"], "verdict": [M, NA], "n": [3, 1], "share": [0.75, 0.25]}))
    assert dist.columns.tolist() == ["judge_model", M, NA, "total"]
    assert dist.iloc[0][M] == "3 (75.0%)"


def test_provenance_nulls_are_not_recorded():
    rows = pd.DataFrame({"judge_model": ["a"], "judge": ["x"], "prompts": ["e2c5"],
                         "template": [None], "output_mode": ["prompted JSON"],
                         "reasoning_effort": [np.nan], "finish_reason": [None],
                         "judgements": [4], "tokens_in_recorded": [0], "tokens_in_total": [None],
                         "tokens_in_mean": [None], "tokens_out_recorded": [2],
                         "tokens_out_total": [30], "tokens_out_mean": [15.0]})
    out = bulk.provenance_table(rows).iloc[0]
    assert out["template"] == out["reasoning_effort"] == out["tokens_in"] == "not recorded"
    assert out["finish_reason"] == "not recorded" and out["prompts"] == "e2c5"
    assert out["tokens_out"] == "30 total, mean 15.0 (2 of 4 recorded)"
