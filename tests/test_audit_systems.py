"""The judge's score per system: on counts built here (worked by hand), on the real GEMBA audit
against pandas and scipy's bootstrap, in `report`'s JSON and on the Languages page."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap

from apptest import open_page
from judgescope.audit import systems
from judgescope.cli import main


def _counts(rows):
    """rows: (target_language, system, score, n) → audit_score_counts rows (facet = system)."""
    return pd.DataFrame([{"unit": "segment", "target_language": lang, "facet": sys_,
                          "score": float(score), "n": n} for lang, sys_, score, n in rows])


def test_by_system_worked_by_hand():
    # A: de 90 × 2, 70 × 2 → n 4, mean 80; ru 60 × 1; pooled A = (90·2 + 70·2 + 60) / 5 = 76.
    # B: de 100 × 3 → mean 100, every resample 100, CI [100, 100].
    # No system (None): 50 × 1 → "not recorded".
    out = systems.by_system(_counts([("de", "A", 90, 2), ("de", "A", 70, 2), ("ru", "A", 60, 1),
                                     ("de", "B", 100, 3), ("de", None, 50, 1)]), 2_000, 7)
    by = {r["system"]: r for r in out["systems"]}
    assert (by["A"]["n"], by["A"]["mean"]) == (5, pytest.approx(76.0))
    assert (by["B"]["n"], by["B"]["mean"], by["B"]["ci"]) == (3, 100.0, [100.0, 100.0])
    assert by["not recorded"]["n"] == 1
    assert by["A"]["ci"][0] < 76 < by["A"]["ci"][1]
    lang = {(r["target_language"], r["system"]): r for r in out["by_language"]}
    assert lang[("de", "A")]["mean"] == pytest.approx(80.0) and lang[("ru", "A")]["n"] == 1
    assert out["overall_mean"] == pytest.approx((380 + 300 + 50) / 9)
    assert "bootstrap" in out["method"] and out["seed"] == 7


def test_report_json_by_system_on_the_real_gemba_audit(realdata, capsys):
    path = realdata / "judge_audit_gemba_wmt22.jsonl"
    assert main(["report", str(path), "--resamples", "10000", "--seed", "3"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    rows = pd.read_json(path, lines=True)
    got = {r["system"]: r for r in report["by_system"]["systems"]}
    expect = rows.groupby("system")["score"].agg(["size", "mean"])
    assert set(got) == set(expect.index)
    for name, e in expect.iterrows():
        assert got[name]["n"] == e["size"] and got[name]["mean"] == pytest.approx(e["mean"])
    # The interval against scipy's percentile bootstrap of the same rows (another random stream:
    # endpoints within a point on the 0–100 scale).
    for name in ("Online-B", "Online-Y", "refA"):
        scores = rows.loc[rows["system"] == name, "score"].to_numpy(dtype=float)
        ref = bootstrap((scores,), np.mean, n_resamples=10_000, method="percentile",
                        random_state=np.random.default_rng(0)).confidence_interval
        assert got[name]["ci"] == pytest.approx([ref.low, ref.high], abs=1.0)
    lang = {(r["target_language"], r["system"]) for r in report["by_system"]["by_language"]}
    assert lang == set(rows.groupby(["target_language", "system"]).groups)
    assert "no human scores" in report["by_system"]["human_agreement"]


def test_languages_page_shows_the_systems_of_an_audit_that_has_them(realdata, use_manifest):
    # realdata is copied into the manifest's folder (manifest paths may not leave it).
    text = ('[[collection]]\nname = "g"\ntitle = "G"\ndatasets = ["gemba"]\n'
            '[[dataset]]\nname = "gemba"\npath = "realdata/judge_audit_gemba_wmt22.jsonl"\n')
    use_manifest(text)
    at = open_page("pages/languages.py", "g")
    assert not at.exception
    assert "By system" in [h.value for h in at.header]
    table = next(d.value for d in at.dataframe if "System" in d.value.columns)
    assert len(table) == 37 and (table["95% CI low"] <= table["Mean"]).all()
    # Each row opens Review filtered to its language and system.
    first = table.iloc[0]
    assert first["Review"].startswith("review?") and "lang=de" in first["Review"]
    assert f"system={first['System']}" in first["Review"]
    review = open_page("pages/review.py", "g", lang="de", system=first["System"])
    assert not review.exception
    assert review.multiselect(key="_w_system").value == [first["System"]]


def test_languages_page_has_no_system_section_without_a_system_column():
    at = open_page("pages/languages.py", "xhotpotqa")
    assert not at.exception and "By system" not in [h.value for h in at.header]


def _review(state, who, rid, verdict, score=30.0):
    from judgescope.reviews import verdict_log as reviews

    reviews.record(state, reviewer=who, collection="g", dataset="judge_audit_gemba_wmt22",
                   judge_record_id=rid, verdict=verdict, language="de", unit="segment",
                   score=score)


def test_judge_right_share_per_system_by_hand(tmp_path):
    from statsmodels.stats.proportion import proportion_confint

    from judgescope.reviews import verdict_stats as reviews_stats
    from judgescope.reviews import verdict_log as reviews

    state = tmp_path / "r.sqlite"
    # r1 (A): ann and bob say judge right → call judge right.  r2 (A): too harsh.
    # r3 (B): judge right.  r4 (B): ann right, bob harsh → tie, no call, left out.
    # r5 (B): score 95, not a low-score row → left out.  r6: no longer in the audit.
    for who, rid, verdict in (("ann", "r1", "judge_right"), ("bob", "r1", "judge_right"),
                              ("ann", "r2", "too_harsh"), ("ann", "r3", "judge_right"),
                              ("ann", "r4", "judge_right"), ("bob", "r4", "too_harsh"),
                              ("ann", "r6", "too_lenient")):
        _review(state, who, rid, verdict)
    _review(state, "ann", "r5", "judge_right", score=95.0)
    systems = pd.DataFrame({"judge_record_id": ["r1", "r2", "r3", "r4", "r5"],
                            "system": ["A", "A", "B", "B", "B"]})
    out = reviews_stats.judge_share_by_system(reviews.latest(state), systems).set_index("system")
    assert out.loc["A", ["rows", "judge_right"]].tolist() == [2, 1]
    assert out.loc["B", ["rows", "judge_right"]].tolist() == [1, 1]
    assert out.loc["not in audit", ["rows", "judge_right"]].tolist() == [1, 0]
    low, high = proportion_confint(1, 2, method="wilson")
    assert out.loc["A", ["ci_low", "ci_high"]].tolist() == pytest.approx([low, high])


def test_report_json_carries_the_reviewers_per_system(realdata, tmp_path, monkeypatch, capsys):
    state = tmp_path / "state.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(state))
    path = realdata / "judge_audit_gemba_wmt22.jsonl"
    rows = pd.read_json(path, lines=True)
    first = rows.iloc[0]
    _review(state, "ann", first["judge_record_id"], "too_harsh")
    assert main(["report", str(path), "--resamples", "200"]) in (0, 1)
    got = json.loads(capsys.readouterr().out)["by_system"]["reviewers"]
    # Wilson 95% for 0 of 1: [0, z² / (1 + z²)] = [0, 3.8415 / 4.8415] = [0, 0.7934].
    assert got["rows"] == [{"system": first["system"], "rows": 1, "judge_right": 0, "share": 0.0,
                            "ci_low": 0.0, "ci_high": pytest.approx(0.7934, abs=1e-4)}]
    assert "Wilson" in got["method"]


def test_reviews_page_shows_the_judge_right_share_per_system(realdata, tmp_path, monkeypatch, use_manifest):
    state = tmp_path / "page-state.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(state))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    text = ('[[collection]]\nname = "g"\ntitle = "G"\ndatasets = ["judge_audit_gemba_wmt22"]\n'
            '[[dataset]]\nname = "judge_audit_gemba_wmt22"\n'
            'path = "realdata/judge_audit_gemba_wmt22.jsonl"\n')
    use_manifest(text)
    first = pd.read_json(realdata / "judge_audit_gemba_wmt22.jsonl", lines=True).iloc[0]
    _review(state, "ann", first["judge_record_id"], "judge_right")
    at = open_page("pages/reviews.py", "g")
    assert not at.exception
    table = next(d.value for d in at.dataframe if "System" in d.value.columns)
    assert table[["System", "Rows", "Judge right"]].values.tolist() == [[first["system"], 1, 1]]
