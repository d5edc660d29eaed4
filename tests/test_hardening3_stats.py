"""Hardening, part 3: the last wrong answers (exact paired differences, Holm's count, no panel
of fewer than three judges, one rater said plainly, the README's bound) and bad CLI input
(exit 2 with a sentence, never a traceback)."""

import json
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats as sps

from judgescope.cli import main
from judgescope.cli import load_source
from judgescope.significance import paired as sig
from judgescope.significance import matrices
from judgescope.duck import db

ROOT = Path(__file__).resolve().parent.parent


def test_paired_differences_are_exact_decimals():
    """Ten pairs each +0.1 (0.3 − 0.2, 0.7 − 0.6, …): one difference value, so Wilcoxon's ranks
    tie as they should (p = 0.00157, scipy's normal approximation on ten equal differences)."""
    prev = [0.2, 0.6, 1.1, 2.2, 3.3, 10.2, 20.6, 33.3, 50.8, 70.9]
    con = db.scratch()
    for view, scores in (("audit", [round(p + 0.1, 10) for p in prev]), ("audit_previous", prev)):
        frame = pd.DataFrame({"source_id": [f"s{i}" for i in range(10)], "instance_id": None, "target_language": "th",
                              "unit": "answer", "paragraph_id": None, "score": scores})
        con.register(f"{view}_df", frame)
        con.execute(f"CREATE TABLE {view} AS SELECT * FROM {view}_df")
    diffs = con.execute(db.query_text("audit_build_paired_diff_counts")).df()
    assert diffs["diff"].tolist() == [0.1] and diffs["n"].tolist() == [10]
    got = sig.wilcoxon(diffs["diff"], diffs["n"])
    ref = sps.wilcoxon([0.1] * 10, zero_method="wilcox", method="approx", correction=False)
    assert got["p"] == pytest.approx(ref.pvalue, rel=1e-9) and got["p"] == pytest.approx(0.00157, abs=1e-5)


def test_holm_text_counts_the_pairs_it_used():
    rows = [{"mcnemar_exact_p": 0.01}, {"mcnemar_exact_p": None}, {"mcnemar_exact_p": 0.2}]
    assert matrices.holm_text(rows) == f"{sig.HOLM} over 2 pairs with a defined p (1 undefined pair left out)"
    assert matrices.holm_text(rows[:1]) == f"{sig.HOLM} over 1 pair with a defined p"


@pytest.fixture(scope="module")
def judgements():
    return pd.read_parquet(load_source("localgate_judgements", "calibration_judgements").path("clean"))


@pytest.mark.parametrize("judges", [["qwen"], ["qwen", "gptoss"]])
def test_no_panel_with_fewer_than_three_judges(judgements, judges, tmp_path, capsys):
    path, out = tmp_path / "judgements.parquet", tmp_path / "cal.json"
    judgements[judgements.judge_model.isin(judges)].drop(columns=["_file", "_row"]).to_parquet(path)
    main(["calibrate", "localgate_items", str(path), "--json", str(out)])
    report = json.loads(out.read_text())
    assert report["panel"] is None
    assert "strict majority of 1" not in capsys.readouterr().out
    assert "at least 3" in json.dumps(report["definitions"]) or report["definitions"]["panel"] is None


def test_agreement_with_one_rater_says_so(tmp_path, capsys):
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps({"item_id": f"i{i}", "rater": "r1", "verdict": "ok" if i % 2 else "bad"})
                            + "\n" for i in range(6)))
    out = tmp_path / "agreement.json"
    code = main(["agreement", str(path), "--json", str(out), "--resamples", "50"])
    printed = capsys.readouterr().out
    assert code in (0, 1) and "one rater" in printed
    assert "different numbers of ratings" not in printed
    report = json.loads(out.read_text())
    assert "one rater" in report["note"]
    if "verdicts" in report:
        assert "one rating per item" in report["verdicts"]["fleiss_kappa"]["note"]


def test_readme_states_the_bound_per_interval():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "On 0–100 scores the bound is about 1.4% of the interval's width." not in text
    assert "stated per interval" in text


def _ranking(tmp_path, decisions: dict, name="pairs") -> str:
    rows = []
    for i in range(12):
        rows.append({"dataset": "d", "src_text": f"s{i}", "tgt_texts": ["a", "b"],
                     "human_scores": [1, 2] if i % 2 else [2, 1],
                     **{k: (v(i) if callable(v) else v) for k, v in decisions.items()}})
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_compare_methods_says_when_there_is_nothing_to_compare(tmp_path, capsys):
    src = _ranking(tmp_path, {"one_step_ranking/only": "Translation 1 is better."})
    assert main(["compare-methods", src]) == 0
    assert "nothing to compare" in capsys.readouterr().out


def test_compare_methods_with_a_list_valued_decision_column(tmp_path, capsys):
    src = _ranking(tmp_path, {"one_step_ranking/a": "Translation 2 is better.",
                              "one_step_ranking/b": lambda i: ["Translation 1", i]})
    assert main(["compare-methods", src, "--resamples", "100"]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err


def test_themes_say_when_no_term_stands_out(tmp_path, capsys):
    assert main(["themes", "xhotpotqa_v2_audit", "--threshold", "0"]) in (0, 1)
    assert "no term is over-represented" in capsys.readouterr().out


@pytest.mark.parametrize("argv, says", [
    (["compare-judges", "localgate_items", "--seed", "-1"], "seed"),
    (["compare-judges", "localgate_items", "--resamples", "0"], "resamples"),
    (["compare-judges", "localgate_items", "--resamples", "10000000000"], "resamples"),
    (["compare-methods", "x.jsonl", "--seed", "1e400"], "seed"),
    (["themes", "xhotpotqa_v2_audit", "--threshold", "nan"], "finite"),
    (["themes", "xhotpotqa_v2_audit", "--threshold", "inf"], "finite"),
    (["report", "xhotpotqa_v2_audit", "--resamples", "-5"], "resamples"),
])
def test_bad_arguments_exit_2_with_a_sentence(argv, says, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_json_into_a_missing_folder_exits_2(tmp_path, capsys):
    code = main(["compare-judges", "localgate_items", "--resamples", "50", "--json",
                 str(tmp_path / "missing" / "out.json")])
    err = capsys.readouterr().err
    assert code == 2 and "does not exist" in err and "Traceback" not in err


def test_themes_vocabulary_is_bounded():
    from judgescope.audit import themes

    # 8 MB of explanations whose words are all distinct: the reading stops at MAX_GROUP_CHARS.
    texts = [" ".join(f"w{i}x{j}" for j in range(400)).replace("0", "a").replace("1", "b")
             .replace("2", "c").replace("3", "d").replace("4", "e").replace("5", "f")
             .replace("6", "g").replace("7", "h").replace("8", "i").replace("9", "j")
             for i in range(2_400)]
    assert sum(map(len, texts)) > 8_000_000
    counts = themes.count_terms(texts)
    read = sum(len(t) for t, n in counts.items() if " " not in t for _ in range(n))
    assert read <= themes.MAX_GROUP_CHARS
    assert len(counts) < 3 * themes.MAX_GROUP_CHARS / 5


def test_log_odds_scores_kept_terms_as_without_the_filter():
    from collections import Counter

    from judgescope.audit import themes

    low = Counter({"bad": 5, "wrong": 3, "rare": 1, "fine": 1})
    rest = Counter({"fine": 9, "good": 7, "bad": 1, "rare": 2})
    full = themes.log_odds(low, rest).set_index("term")
    kept = themes.log_odds(low, rest, min_low=3).set_index("term")
    assert sorted(kept.index) == ["bad", "wrong"]
    assert kept.z.to_dict() == pytest.approx(full.loc[kept.index].z.to_dict())


def test_a_checksums_file_that_is_a_json_list_is_named(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.jsonl").write_text(json.dumps({"judge_record_id": "r1", "target_language": "th",
                                                  "unit": "answer", "score": 5}) + "\n")
    (tmp_path / "sums.json").write_text("[1, 2, 3]")
    (tmp_path / "sources.toml").write_text(
        '[integrity]\nchecksums = ["sums.json"]\n\n[[collection]]\nname = "c"\ntitle = "C"\n'
        'datasets = ["a"]\n\n[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\n'
        'path = "a.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    from judgescope import wiring
    from judgescope.sources import catalog

    manifest = wiring.get_catalog().manifest
    with pytest.raises(catalog.SourceError, match="JSON object"):
        catalog.expected_checksums(manifest)
    code = main(["validate", "a"])
    assert code in (0, 1, 2) and "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("row, column", [(b'x,"de"x,s,5\n', "target_language"),
                                         (b'x,de,s,"5\n', "score"),
                                         (b'x,de,s\r,5\n', "unit")])
def test_a_malformed_csv_row_names_its_row_and_column(tmp_path, row, column):
    from judgescope.sources.catalog import load_dataset
    from judgescope.ingest.manifest import DatasetSpec

    good = b"".join(f"r{i},de,s,{40 + i}\n".encode() for i in range(3))
    (tmp_path / "a.csv").write_bytes(b"judge_record_id,target_language,unit,score\n" + good + row)
    d = load_dataset(DatasetSpec(name="a", kind="judge_audit", title="a", base=tmp_path, path="a.csv"))
    assert d.ok, d.error
    ledger = pd.read_parquet(d.path("ledger"))
    bad = ledger[ledger.reason.str.startswith("malformed CSV row")]
    assert bad[["row", "column"]].values.tolist() == [[5, column]]
    assert f"(column '{column}')" in bad.reason.iloc[0]
