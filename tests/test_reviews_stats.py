"""Issue #18 item 5/6: the judge against its reviewers (reference values) and the CLI."""

import json

import pandas as pd
import pytest

from judgescope import cli
from judgescope.reviews import log_files, verdict_log as reviews
from judgescope.reviews import verdict_stats as reviews_stats


def _latest(rows):
    """rows: (record, reviewer, verdict[, language, score])."""
    out = []
    for i, r in enumerate(rows):
        rid, who, verdict = r[:3]
        lang, score = (r[3], r[4]) if len(r) > 3 else ("th", 10.0)
        out.append({"review_id": f"id{i}", "reviewer": who, "created_at": f"2026-01-01T00:00:{i:02d}",
                    "collection": "c", "dataset": "d", "revision": "rev1", "judge_record_id": rid,
                    "source_sha256": "s" + rid, "candidate_sha256": "c" + rid, "verdict": verdict,
                    "tags": "[]", "note": "", "language": lang, "unit": "answer", "score": score})
    return pd.DataFrame(out, columns=list(reviews.COLUMNS))


def test_cohen_kappa_matches_artstein_poesio():
    # Artstein & Poesio (2008): stat/stat 46, ireq/stat 6, ireq/ireq 32, ireq/chck 6, chck/chck 10
    # → Cohen's κ 0.8013 (NLTK agreement doctest). stat/ireq/chck → three verdicts.
    v = {"stat": "judge_right", "ireq": "too_harsh", "chck": "too_lenient"}
    pairs = ([("stat", "stat")] * 46 + [("ireq", "stat")] * 6 + [("ireq", "ireq")] * 32
             + [("ireq", "chck")] * 6 + [("chck", "chck")] * 10)
    rows = [(f"r{i}", who, v[p[k]]) for i, p in enumerate(pairs) for k, who in enumerate(("ann", "bob"))]
    out = reviews_stats.agreement(_latest(rows))
    assert out["method"] == "Cohen's κ" and out["rows"] == 100
    assert out["kappa"] == pytest.approx(0.8013, abs=5e-5)


def test_fleiss_kappa_by_hand():
    # 3 reviewers, 4 rows: [3,0], [0,3], [2,1], [1,2] → P̄ = 2/3, P_e = 1/2, κ = 1/3.
    pattern = {"r1": "AAA", "r2": "BBB", "r3": "AAB", "r4": "ABB"}
    v = {"A": "judge_right", "B": "too_harsh"}
    rows = [(rid, who, v[c]) for rid, s in pattern.items() for who, c in zip(("a", "b", "c"), s)]
    out = reviews_stats.agreement(_latest(rows))
    assert out["method"].startswith("Fleiss") and out["kappa"] == pytest.approx(1 / 3)


def test_agreement_undefined_without_shared_rows():
    assert reviews_stats.agreement(_latest([("r1", "a", "judge_right")]))["kappa"] is None


def test_summary_majority_ties_and_wilson():
    rows = [(f"r{i}", "ann", "judge_right") for i in range(7)] + \
           [(f"r{i}", "ann", "too_harsh") for i in range(7, 10)] + \
           [("r10", "ann", "judge_right"), ("r10", "bob", "too_lenient"), ("r11", "ann", "unsure")]
    out = reviews_stats.summary(_latest(rows))
    assert out["reviewed"] == 12 and out["reviewers"] == ["ann", "bob"]
    assert out["by_verdict"] == {"judge_right": 8, "too_harsh": 3, "too_lenient": 1, "unsure": 1}
    assert out["ci"]["rows"] == 10 and out["judge_right_share"] == pytest.approx(0.7)
    assert (out["ci"]["low"], out["ci"]["high"]) == pytest.approx((0.3968, 0.8922), abs=1e-4)
    assert reviews_stats.disagreements(_latest(rows)).judge_record_id.tolist() == ["r10"]


def test_share_by_language_counts_low_rows_only():
    rows = [("r1", "a", "judge_right", "th", 10.0), ("r2", "a", "too_harsh", "th", 20.0),
            ("r3", "a", "too_harsh", "th", 95.0), ("r4", "a", "judge_right", "ar", 5.0)]
    out = reviews_stats.judge_share_by_language(_latest(rows)).set_index("language")
    assert out.loc["th", "rows"] == 2 and out.loc["th", "share"] == 0.5
    assert out.loc["ar", "share"] == 1.0


def test_changed_or_gone_is_kept_and_named():
    latest = _latest([("r1", "a", "judge_right"), ("r2", "a", "too_harsh"), ("r3", "a", "unsure")])
    current = pd.DataFrame({"judge_record_id": ["r1", "r2"], "source_text_sha256": ["sr1", "sr2"],
                            "candidate_text_sha256": ["cr1", "changed"]})
    notes = reviews_stats.changed_or_gone(latest, current)
    assert notes.tolist() == [None, "from revision rev1, row changed or gone",
                              "from revision rev1, row changed or gone"]


def test_calibration_table_shape():
    out = reviews_stats.calibration_table(_latest([("r1", "a", "too_harsh"), ("r2", "a", "unsure")]))
    assert out[["key", "judge_model", "verdict", "verdict_binary"]].values.tolist() == [
        ["r1", "audit judge", "no_match", 0], ["r1", "reviewer a", "match", 1]]


def test_cli_export_import_summary(tmp_path, capsys):
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    log_files.import_frame(_latest([("r1", "ann", "judge_right"), ("r2", "bob", "too_harsh")]), a)
    out = tmp_path / "log.csv"
    assert cli.main(["reviews", "--state", a, "export", "--out", str(out)]) == 0
    for expected in (2, 0):
        assert cli.main(["reviews", "--state", b, "import", str(out)]) == 0
        assert f"imported {expected} new" in capsys.readouterr().out
    assert cli.main(["reviews", "--state", b, "summary", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) == {"reviewed", "by_verdict", "judge_right_share", "ci", "reviewers"}
    assert got["reviewed"] == 2 and got["judge_right_share"] == 0.5
    assert cli.main(["reviews", "--state", b, "import", str(tmp_path / "missing.txt")]) == 2


def test_review_storage_and_statistics_do_not_import_streamlit():
    import subprocess
    import sys
    code = ("import sys; import judgescope.reviews.verdict_log, judgescope.reviews.log_files, "
            "judgescope.reviews.blind_labels, judgescope.reviews.verdict_stats, judgescope.reviews.sharing, "
            "judgescope.cli.commands.reviews; print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_review_state_for_export_names_each_reviewers_latest_verdict():
    from judgescope.reviews import verdict_stats as reviews_stats
    rows = pd.DataFrame({"judge_record_id": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]})
    latest = pd.DataFrame({"judge_record_id": ["a", "a", "b", "zz"],
                           "reviewer": ["bob", "ann", "ann", "ann"],
                           "verdict": ["too_harsh", "judge_right", "unsure", "unsure"]})
    out = reviews_stats.review_state(rows, latest)
    assert out.review_state.tolist() == ["disputed", "unsure", "not yet reviewed"]
    assert out.reviewers.tolist() == [2, 1, 0]
    assert out.verdicts_by_reviewer.tolist() == ["ann: judge_right; bob: too_harsh", "ann: unsure", ""]
    assert out.disputed.tolist() == [True, False, False]
    assert out.score.tolist() == [1.0, 2.0, 3.0]  # the rows themselves unchanged, in order
