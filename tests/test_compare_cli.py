"""`compare-judges`, `compare-methods` and `themes`: the JSON shapes of issue #19, on the demo
manifest and on a ranking file built here."""

import json

import pytest
from scipy.stats import binomtest

from reference_stats import holm_reference
from judgescope.cli import main

PAIR_KEYS = {"a", "b", "n", "b01", "b10", "mcnemar_exact_p", "holm_p", "agreement_diff", "ci"}


def test_compare_judges_json(tmp_path):
    out = tmp_path / "judges.json"
    assert main(["compare-judges", "localgate_items", "--json", str(out), "--resamples", "500",
                 "--seed", "4"]) == 0
    report = json.loads(out.read_text())
    assert len(report["pairs"]) == 3 and PAIR_KEYS <= set(report["pairs"][0])
    for p in report["pairs"]:
        exact = binomtest(min(p["b01"], p["b10"]), p["b01"] + p["b10"], 0.5).pvalue
        assert p["mcnemar_exact_p"] == pytest.approx(exact, rel=1e-9)  # scipy, not our code
        assert p["agreement_diff"] == pytest.approx((p["b10"] - p["b01"]) / p["n"])
        assert p["seed"] == 4 and p["resamples"] == 500 and "McNemar" in p["test"]
    assert [p["holm_p"] for p in report["pairs"]] == \
        pytest.approx(holm_reference([p["mcnemar_exact_p"] for p in report["pairs"]]))


def test_compare_methods_json(tmp_path):
    rows = []
    for i in range(30):
        human = [2, 1] if i % 2 else [1, 2]
        better = 1 if human[0] > human[1] else 2
        rows.append({"dataset": "d", "src_text": f"s{i}", "tgt_texts": ["a", "b"],
                     "human_scores": human,
                     "one_step_ranking/good": f"Translation {better} is better.",
                     "one_step_ranking/bad": f"Translation {3 - better if i < 25 else better} "
                                             "is better."})
    src, out = tmp_path / "pairs.jsonl", tmp_path / "methods.json"
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert main(["compare-methods", str(src), "--json", str(out), "--resamples", "1000"]) == 0
    report = json.loads(out.read_text())
    (pair,) = report["datasets"]["d"]["pairs"]
    assert PAIR_KEYS <= set(pair) and pair["n"] == 30 and pair["b01"] + pair["b10"] == 25
    assert pair["permutation_p"] < 0.05
    ranks = {c["name"]: c["rank"] for c in report["datasets"]["d"]["clusters"]}
    assert ranks == {"one_step_ranking/good": 1, "one_step_ranking/bad": 2}


def test_themes_json(tmp_path):
    out = tmp_path / "themes.json"
    assert main(["themes", "xhotpotqa_v2_audit", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["threshold"] == 60.0
    th = report["by_language"]["th"]
    assert th and set(th[0]) == {"term", "z", "low_count", "rest_count", "folded"}  # folded: nested terms
    assert [t["z"] for t in th] == sorted((t["z"] for t in th), reverse=True)
    from pathlib import Path
    import pandas as pd
    audit = pd.read_parquet(next((Path(__file__).resolve().parent.parent / "data/demo/xhotpotqa_judge_v2").rglob(
        "*.parquet")))
    explained = int((audit["judge_explanation"].fillna("").str.strip() != "").sum())
    assert (report["explained_rows"], report["rows"]) == (explained, len(audit)) and "note" not in report


def test_themes_on_an_audit_without_explanations_says_so(tmp_path, capsys):
    """GEMBA-style scores carry no explanation: the note said "no term is over-represented … in
    any of 0 languages"; it now says there is nothing to read, as the Themes page does."""
    audit = tmp_path / "scores.jsonl"
    audit.write_text("".join(json.dumps({"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment",
                                         "score": 30 + 10 * i}) + "\n" for i in range(6)), encoding="utf-8")
    out = tmp_path / "themes.json"
    assert main(["themes", str(audit), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert (report["explained_rows"], report["rows"]) == (0, 6)
    assert report["note"].startswith("this audit has no judge explanations (0 of 6 rows")
    assert report["note"] in capsys.readouterr().out
