"""`python -m judgescope rank`: JSON shape and values on a file built here, exit 2 on unusable
input, and the real third-party pair files (no decisions, many human ties) handled politely."""

import json

import pytest

from judgescope.cli import main

ROWS = [  # human prefers 1, 2, tie, 1; qwen right, wrong(tie), -, unparsed
    {"dataset": "d", "src_text": "s1", "tgt_texts": ["a", "b"], "human_scores": [2, 1],
     "one_step_ranking/qwen": "Translation 1 is better.", "two_step_scoring/qwen": "Scores: 9, 3"},
    {"dataset": "d", "src_text": "s2", "tgt_texts": ["a", "b"], "human_scores": [1, 2],
     "one_step_ranking/qwen": "Both are of equal quality.", "two_step_scoring/qwen": "Scores: 4, 8"},
    {"dataset": "d", "src_text": "s3", "tgt_texts": ["a", "b"], "human_scores": [1, 1],
     "one_step_ranking/qwen": "Translation 2 is better.", "two_step_scoring/qwen": "Scores: 4, 4"},
    {"dataset": "d", "src_text": "s4", "tgt_texts": ["a", "b"], "human_scores": [3, 1],
     "one_step_ranking/qwen": "Hmm.", "two_step_scoring/qwen": "Scores: 5, 6"},
]


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_rank_json_shape_and_values(tmp_path):
    src, out = _write(tmp_path / "pairs.jsonl", ROWS), tmp_path / "out.json"
    assert main(["rank", str(src), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["rows"] == 4
    res = {r["method"]: r for r in report["results"]}
    assert set(res) == {"one_step_ranking", "two_step_scoring"}
    one = res["one_step_ranking"]
    assert set(one) == {"dataset", "method", "model", "n", "human_ties", "correct", "accuracy", "ci",
                        "model_ties", "unparsed", "first_choice_rate", "human_first_rate"}
    assert (one["dataset"], one["model"], one["n"], one["human_ties"], one["correct"]) == ("d", "qwen", 3, 1, 1)
    assert (one["model_ties"], one["unparsed"]) == (1, 1)
    assert one["accuracy"] == pytest.approx(1 / 3) and one["ci"][0] < 1 / 3 < one["ci"][1]
    assert one["first_choice_rate"] == 1.0 and one["human_first_rate"] == 1.0
    two = res["two_step_scoring"]
    assert (two["correct"], two["model_ties"], two["unparsed"]) == (2, 0, 0)
    assert two["first_choice_rate"] == pytest.approx(1 / 3)


def test_rank_json_to_stdout(tmp_path, capsys):
    assert main(["rank", str(_write(tmp_path / "p.jsonl", ROWS)), "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 4


@pytest.mark.parametrize("rows", [None, [{"src_text": "s", "human_scores": [1, 2]}]])
def test_rank_unusable_input_exits_2(tmp_path, rows, capsys):
    path = tmp_path / "bad.jsonl"
    if rows is not None:
        _write(path, rows)
    assert main(["rank", str(path)]) == 2
    assert "error" in capsys.readouterr().err


def test_rank_real_ted_pairs_without_decisions(realdata, capsys):
    path = realdata / "pairwise_ted_mqm_ende_human_only.jsonl"
    assert main(["rank", str(path), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows"] == 200 and report["results"] == []
    assert main(["rank", str(path)]) == 0
    assert "no model decision columns" in capsys.readouterr().out


def test_rank_real_transevalnia_sample(realdata, capsys):
    path = realdata / "transevalnia_sample_with_wmt21_systems.jsonl"
    assert main(["rank", str(path), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows"] == 10 and report["dataset"] == path.stem


def test_real_ted_pairs_count_93_human_ties(realdata):
    from judgescope.duck import db
    from judgescope.ranking import decisions as ranking
    from judgescope.cli import load_source

    loaded = load_source(str(realdata / "pairwise_ted_mqm_ende_human_only.jsonl"), "pairwise_ranking")
    pairs, decisions = ranking.load(db.Store({"ranking": [loaded.path("clean")]}).run, loaded.spec.name)
    summary = ranking.human_summary(pairs)
    assert decisions.empty and list(summary["dataset"]) == [loaded.spec.name]
    assert (int(summary["pairs"].iloc[0]), int(summary["human_ties"].iloc[0])) == (200, 93)
