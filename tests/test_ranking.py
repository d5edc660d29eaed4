"""Pairwise ranking: the decision parser on real-looking texts, accuracy and bias on fixtures built
in code, and loading through the rank_* queries (dataset column absent, no decision columns)."""

import json
import re

import pandas as pd
import pyarrow as pa
import pytest

from judgescope.duck import db
from judgescope.ranking import decisions as ranking
from judgescope.cli import load_source
from judgescope.ranking import tables as rt
from judgescope.schema import RANKING_METHODS

# (text, expected): 1 / 2 = that translation, 0 = tie, None = unparsed.
RANKING_TEXTS = [
    ("Translation 1 is better.", 1),
    ("Overall, Translation 2 is the best translation.", 2),
    ("Both are close, but Translation 2 is marginally better.", 2),
    ("I would rank Translation 1 first, though the difference is small.", 1),
    ("Translation 2 is better in fluency. However, considering accuracy, Translation 1 is the best "
     "translation.", 1),  # contradictory: the last statement wins
    ("Translation 1 is slightly better, although Translation 2 reads more smoothly.", 1),  # hedged
    ("Translation 1 is better. On reflection, Translation 2 is better.", 2),
    ("Based on the dimensional evaluations, translation 2 is better.", 2),  # lower case
    ("**Translation 2** is clearly superior to Translation 1.", 2),  # markdown
    ("Translation 1 is worse than Translation 2 because it omits a clause.", 2),
    ("I prefer Translation 1.", 1),
    ("Ranking: Translation 2 > Translation 1", 2),
    ("Best translation: 1", 1),
    ("Final answer: Translation 2", 2),
    ("Both translations are of equal quality.", 0),
    ("The two translations are equally good; neither stands out.", 0),
    ("Translation 1 is slightly better at first glance, but overall they are of equal quality.", 0),
    ("Both translations are equally good, but Translation 2 is slightly better.", 2),
    ("Neither translation is better; it's a tie.", 0),
    ("Both translations have strengths and weaknesses in accuracy and style.", None),
    ("Translation 1 is not better than Translation 2 in any respect.", None),  # negation: no statement
    ("Translation 1 omits the second sentence. Translation 2 conveys the full meaning.", None),
    ("", None),
    (None, None),
    (float("nan"), None),
]


@pytest.mark.parametrize("text,expected", RANKING_TEXTS)
def test_parse_ranking(text, expected):
    assert ranking.parse_ranking(text) == expected


SCORING_TEXTS = [
    ("Translation 1: 4/5 - minor issues only.\nTranslation 2: 2/5 - notable errors.", (4.0, 2.0), 1),
    ("Scores: 7, 9", (7.0, 9.0), 2),
    ("Scores: 10, 10", (10.0, 10.0), 0),
    ("Score for Translation 1: 6.5\nScore for Translation 2: 8", (6.5, 8.0), 2),
    ("Translation 1 score: 3\nTranslation 2 score: 5\nRevised: Translation 1: 5", (5.0, 5.0), 0),
    ("Translation 2 is better.", None, None),  # scoring texts need scores
    ("Translation 1: 8", None, None),  # only one score
]


@pytest.mark.parametrize("text,scores,decision", SCORING_TEXTS)
def test_parse_scores_and_decision(text, scores, decision):
    assert ranking.parse_scores(text) == scores
    assert ranking.parse_decision(text, "two_step_scoring") == decision


def test_decision_columns_keep_known_methods_only():
    names = ["dataset", "one_step_ranking/qwen", "dim_evals/qwen", "interleaved_dim_evals/qwen",
             "two_step_scoring/claude", "four_step_ranking/x", "one_step_ranking/", "three_step_ranking/a/b"]
    assert ranking.decision_columns(names) == [
        ("one_step_ranking/qwen", "one_step_ranking", "qwen"),
        ("two_step_scoring/claude", "two_step_scoring", "claude"),
        ("three_step_ranking/a/b", "three_step_ranking", "a/b")]


def test_unpivot_regex_mirrors_schema_methods():
    sql = db.query_text("rank_decisions")
    methods = re.search(r"COLUMNS\('\^\(([^)]*)\)/", sql).group(1).split("|")
    assert sorted(methods) == sorted(RANKING_METHODS)


def _decisions(rows) -> pd.DataFrame:
    """rows: (dataset, method, model, human, decision)."""
    return pd.DataFrame(rows, columns=["dataset", "method", "model", "human", "decision"]).astype(
        {"human": object, "decision": object})


def test_summarize_counts_accuracy_ties_and_baselines():
    # 10 pairs: 2 human ties; of 8 decided (6 prefer T1, 2 prefer T2): model right on 4,
    # 1 model tie, 1 unparsed, 2 wrong picks.
    human = [1, 1, 1, 1, 1, 1, 2, 2, 0, 0]
    model = [1, 1, 1, 0, None, 2, 2, 1, 1, 2]
    frame = _decisions([("d", "one_step_ranking", "m", h, d) for h, d in zip(human, model)])
    s = ranking.summarize(frame)
    assert (s["n"], s["human_ties"], s["correct"], s["model_ties"], s["unparsed"]) == (8, 2, 4, 1, 1)
    assert s["accuracy"] == pytest.approx(0.5)
    # Wilson 95% of 4/8, by hand: centre 0.5, half-width 1.96 / (1 + z^2/8) *
    # sqrt(1/32 + z^2/256) = 0.28479.
    assert [round(x, 4) for x in s["ci"]] == [0.2152, 0.7848]
    assert s["always_first"]["rate"] == pytest.approx(6 / 8)
    # Position bias on decisive rows without a human tie (rows 1-3, 6-8): the model picks
    # 1, 1, 1, 2, 2, 1 and the humans prefer 1, 1, 1, 1, 2, 2 there.
    assert (s["first_choice"]["k"], s["first_choice"]["n"]) == (4, 6)
    assert (s["human_first"]["k"], s["human_first"]["n"]) == (4, 6)
    assert (s["acc_human_first"]["k"], s["acc_human_first"]["n"]) == (3, 6)
    assert (s["acc_human_second"]["k"], s["acc_human_second"]["n"]) == (1, 2)


def test_summarize_ci_is_wilson_newcombe_1998():
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score):
    # 81/263 -> 0.2553 to 0.3662.
    rows = [("d", "one_step_ranking", "m", 1, 1)] * 81 + [("d", "one_step_ranking", "m", 1, 2)] * 182
    s = ranking.summarize(_decisions(rows))
    assert (s["correct"], s["n"]) == (81, 263)
    assert [round(x, 4) for x in s["ci"]] == [0.2553, 0.3662]


def test_summarize_all_ties_is_undefined_not_zero():
    s = ranking.summarize(_decisions([("d", "one_step_ranking", "m", 0, 1)] * 3))
    assert s["n"] == 0 and s["accuracy"] is None and s["ci"] == [None, None]
    assert s["first_choice"]["rate"] is None and s["human_ties"] == 3


def test_results_group_order_and_total():
    rows = [("b", m, x, 1, 1) for m in ("two_step_scoring", "one_step_ranking") for x in ("q", "c")]
    rows += [("a", "one_step_ranking", "q", 2, 1)]
    out = ranking.results(_decisions(rows), with_total=True)
    assert [(r["dataset"], r["method"], r["model"]) for r in out][:4] == [
        ("a", "one_step_ranking", "q"), ("b", "one_step_ranking", "c"),
        ("b", "one_step_ranking", "q"), ("b", "two_step_scoring", "c")]
    total = [r for r in out if r["dataset"] == ranking.ALL_DATASETS]
    assert {(r["method"], r["model"]): r["n"] for r in total}[("one_step_ranking", "q")] == 2


def test_outcome_labels():
    assert [ranking.outcome(d, h) for d, h in [(1, 1), (2, 1), (0, 1), (None, 2), (1, 0), (1, None)]] == [
        "correct", "wrong pick", "model tie", "unparsed", "human tie", "no human score"]


def test_flatten_annotations_of_both_vendor_shapes():
    v1 = '{"accuracy_agree": "yes", "comment": "fine"}'
    v2 = {"ratings": {"accuracy": 5, "style": 3}, "overall": "agree", "notes": ["a", None]}
    assert ranking.flatten_annotations(v1) == [("accuracy_agree", "yes"), ("comment", "fine")]
    assert ranking.flatten_annotations(v2) == [("ratings.accuracy", "5"), ("ratings.style", "3"),
                                               ("overall", "agree"), ("notes[1]", "a"), ("notes[2]", "n/a")]
    assert ranking.flatten_annotations("not json {") == [("annotation", "not json {")]
    counts = rt.annotation_counts([v1, v1, '{"accuracy_agree": "no"}'])
    assert counts.set_index(["key", "value"])["rows"].to_dict() == {
        ("accuracy_agree", "no"): 1, ("accuracy_agree", "yes"): 2, ("comment", "fine"): 2}


def _store(tmp_path, table: pa.Table) -> db.Store:
    """The table validated like any pairwise_ranking file, behind a `ranking` view."""
    path = tmp_path / "f.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in table.to_pylist()) + "\n", encoding="utf-8")
    return db.Store({"ranking": [load_source(str(path), "pairwise_ranking").path("clean")]})


def _pairs(n: int, with_dataset: bool) -> dict:
    cols = {"src_text": [f"s{i}" for i in range(n)], "tgt_texts": [["a", "b"]] * n,
            "human_scores": [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]][:n]}
    if with_dataset:
        cols["dataset"] = ["x"] * n
    return cols


def test_load_parses_each_column_and_names_missing_dataset(tmp_path):
    cols = _pairs(3, with_dataset=False) | {
        "one_step_ranking/qwen": ["Translation 1 is better.", "Translation 1 is better.", None],
        "two_step_scoring/qwen": ["Scores: 3, 4", "Scores: 2, 5", "Scores: 1, 1"],
        "dim_evals/qwen": [["x", "y"]] * 3}
    pairs, dec = ranking.load(_store(tmp_path, pa.table(cols)).run, "fallback_name")
    assert list(pairs["human"]) == [1, 2, 0] and set(pairs["dataset"]) == {"fallback_name"}
    assert set(dec["decision_column"]) == {"one_step_ranking/qwen", "two_step_scoring/qwen"}
    got = dec.set_index(["row", "decision_column"])["decision"].to_dict()
    assert got[(1, "one_step_ranking/qwen")] == 1 and got[(3, "one_step_ranking/qwen")] is None
    assert [got[(r, "two_step_scoring/qwen")] for r in (1, 2, 3)] == [2, 2, 0]
    res = {r["method"]: r for r in ranking.cli_results(dec)}
    assert res["one_step_ranking"]["correct"] == 1 and res["two_step_scoring"]["correct"] == 1
    assert res["one_step_ranking"]["human_ties"] == 1 and res["one_step_ranking"]["n"] == 2


def test_load_without_decision_columns(tmp_path):
    pairs, dec = ranking.load(_store(tmp_path, pa.table(_pairs(3, with_dataset=True))).run, "fb")
    assert dec.empty and len(pairs) == 3
    summary = ranking.human_summary(pairs).iloc[0]
    assert (summary["pairs"], summary["human_ties"], summary["human_prefers_1"]) == (3, 1, 1)


def test_cell_rows_and_pair_decisions_show_text_and_outcome(tmp_path):
    cols = _pairs(2, with_dataset=True) | {
        "one_step_ranking/m": ["Hard to say.", "Translation 2 is better."],
        "three_step_ranking/m": ["Translation 1 is better.", "Equal quality."]}
    pairs, dec = ranking.load(_store(tmp_path, pa.table(cols)).run, "fb")
    cell = rt.cell_rows(dec, pairs, "x", "one_step_ranking/m", "coll")
    assert list(cell["outcome"]) == ["unparsed", "correct"]
    assert cell["decision_text"].iloc[0] == "Hard to say."
    assert cell["open"].iloc[0] == "pairs?collection=coll&file=f.jsonl&row=1"
    detail = rt.pair_decisions(dec, "f.jsonl", 2)
    assert list(detail["method"]) == ["one_step_ranking", "three_step_ranking"]
    assert list(detail["decision"]) == ["Translation 2", "tie"]


def test_accuracy_grid_escapes_names_but_keeps_raw_values_for_clicks():
    from judgescope.ranking.charts import accuracy_grid

    name = '<a href="http://127.0.0.1:9/">d</a>'
    fig = accuracy_grid(ranking.results(_decisions([(name, "one_step_ranking", "<b>m</b>", 1, 1)] * 3)))
    assert list(fig.layout.xaxis.tickvals) == [name]
    assert fig.layout.xaxis.ticktext[0] == "&lt;a href=&quot;http://127.0.0.1:9/&quot;&gt;d&lt;/a&gt;"
    assert "<b>" not in fig.layout.yaxis.ticktext[0] and "<a" not in fig.data[1].hovertext[0]
    assert fig.data[0].z[0][0] == 1.0 and fig.data[0].z[-1][0] == 0.5  # model cell, coin baseline
