"""Issue #14 items 1, 6 and 7: rater names never change numbers; the panel's rule, n and the
tie handling are stated; three-way human ties can be excluded; NULL splits can be chosen."""

import pandas as pd

from judgescope.calibration import panel as cal
from test_calibration import NM, M, SMALL, make, published_counts


def _rename(judg, mapping):
    return judg.assign(judge_model=judg["judge_model"].replace(mapping))


def test_a_judge_named_panel_is_a_judge_with_two_judges():
    items, judg = published_counts()
    two = _rename(judg[judg.judge_model != "c"], {"a": "panel", "b": "judge_b"})
    rep = cal.report(items, two, judge_gate=0.6, panel_gate=0.8, resamples=200)
    assert set(rep["judges"]) == {"panel", "judge_b"}
    assert rep["judges"]["panel"]["gate"] == 0.6 and rep["judges"]["panel"]["verdict"] == "PASS"
    assert rep["panel"] is None  # two judges: no panel, whatever a judge is called


def test_a_judge_named_panel_keeps_its_numbers_with_three_judges():
    items, judg = SMALL
    plain = cal.report(items, judg, resamples=200)
    named = cal.report(items, _rename(judg, {"a": "panel"}), resamples=200)
    assert set(named["judges"]) == {"panel", "b", "c"}
    assert named["judges"]["panel"] == plain["judges"]["a"]
    assert named["panel"] == plain["panel"]
    frame = cal.build_frame(items, _rename(judg, {"a": "panel"}))
    assert cal.raters(frame) == [cal.judge_id("b"), cal.judge_id("c"), cal.judge_id("panel"),
                                 cal.PANEL]
    judge = cal.rater_stats(frame, cal.judge_id("panel"), 0.6, resamples=100)
    assert (judge["tp"], judge["fp"], judge["fn"], judge["tn"]) == (1, 2, 1, 2)
    assert cal.cell_items(frame, cal.judge_id("panel"), "FP")["key"].tolist() == ["q1:0", "q5:0"]
    assert cal.summary_table(named)["Rater"].tolist() == ["b", "c", "panel",
                                                          "panel (strict majority of 3 judges)"]


def test_panel_definition_states_rule_and_items():
    items, judg = make([(M, M, M), (NM, NM, NM), (M, M, M)], [(M,) * 5, (NM,) * 5, (M,) * 5],
                       judges=("a", "b", "c", "d", "e"))
    judg = judg.drop(judg.index[(judg.key == "q2:0") & (judg.judge_model == "b")])
    rep = cal.report(items, judg, resamples=100)
    panel = rep["panel"]
    assert panel["rule"] == "strict majority (3 of 5) of the judges' binary verdicts, on items " \
                            "every judge rated"
    assert (panel["n_items"], panel["items_without_all_judges"]) == (2, 1)
    assert cal.definitions_sentence(rep) == (
        "Panel: strict majority (3 of 5) of the judges' binary verdicts, on items every judge "
        "rated: 2 of 3 items (1 without all judges). Binary: match = 1, no_match and "
        "no_answer = 0. Human majority: 2 of 3 human binary verdicts; 0 three-way human "
        "ties counted as not match.")


def test_three_way_ties_counted_or_excluded():
    items, judg = SMALL  # q1 is a three-way human tie (match, no_match, no_answer)
    kept = cal.report(items, judg, resamples=100)
    dropped = cal.report(items, judg, resamples=100, exclude_ties=True)
    assert kept["panel"]["n"] == 6 and dropped["panel"]["n"] == 5
    assert (dropped["panel"]["tp"], dropped["panel"]["fp"]) == (1, 0)  # q1 was the FP
    assert kept["definitions"]["three_way_ties"] == {"n": 1, "handling": "counted as not match"}
    assert dropped["definitions"]["three_way_ties"] == {"n": 1, "handling": "excluded"}
    assert dropped["humans"]["three_way_ties"] == ["q1:0"]
    assert "1 three-way human tie excluded" in cal.definitions_sentence(dropped)


def test_no_split_is_a_choice():
    splits = pd.Series(["test", None, "train"])
    assert cal.split_options(splits) == ["test", "train", cal.NO_SPLIT]
    assert cal.split_params(["train", cal.NO_SPLIT]) == {"splits": ["train"], "no_split": True}
    assert cal.split_params([]) == {"splits": [], "no_split": False}
