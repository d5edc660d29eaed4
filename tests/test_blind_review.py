"""Issue 43 item 6: blind labels. The store keeps them apart from the verdicts, marked blind, and
migrates a version-3 database; Review with ?blind=1 hides the judge's score and explanation until
the reviewer's label is saved; the calibration on blind labels matches an independent count
(sklearn's κ, statsmodels' Wilson, Rogan–Gladen by hand); `reviews blind` is its CLI twin."""

import json
import re
import sqlite3

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.proportion import proportion_confint
from streamlit.testing.v1 import AppTest

from judgescope.calibration import blind as blind_cal
from judgescope.reviews import blind_labels
from judgescope.reviews import database, migrations, verdict_log as reviews
from review_session import record_in_url, state  # noqa: F401 — the fixture

APP = "../app.py"
DATASET = "xhotpotqa_v2_audit"


def _label(db, rid, label, reviewer="ann", score=70.0):
    return blind_labels.save(db, reviewer=reviewer, collection="c", dataset="d", judge_record_id=rid,
                             label=label, score=score)


def test_blind_labels_are_stored_marked_blind_and_apart_from_verdicts(tmp_path):
    db = tmp_path / "reviews.sqlite"
    reviews.record(db, reviewer="ann", collection="c", dataset="d", judge_record_id="r1", verdict="too_harsh")
    _label(db, "r1", "pass")
    _label(db, "r2", "fail", score=10.0)
    stored = blind_labels.log(db)
    assert stored[["judge_record_id", "label", "blind"]].values.tolist() == [["r1", "pass", 1], ["r2", "fail", 1]]
    assert reviews.log(db).verdict.tolist() == ["too_harsh"]  # a blind label is no verdict
    assert blind_labels.latest(db, "d").judge_record_id.tolist() == ["r1", "r2"]  # a verdict is no label
    assert blind_labels.mine("ann", "d", "r1", db) == "pass" and blind_labels.mine("bob", "d", "r1", db) is None
    _label(db, "r1", "retracted")
    assert blind_labels.mine("ann", "d", "r1", db) is None
    assert blind_labels.latest(db, "d").judge_record_id.tolist() == ["r2"]
    con = sqlite3.connect(db)
    for sql in ("UPDATE blind_labels SET label = 'fail'", "DELETE FROM blind_labels",
                "INSERT INTO blind_labels (review_id, reviewer, created_at, collection, dataset, "
                "judge_record_id, label, blind) VALUES ('x', 'a', 't', 'c', 'd', 'r', 'pass', 0)"):
        with pytest.raises(sqlite3.DatabaseError):
            con.execute(sql)
    with pytest.raises(ValueError, match="blind label"):
        _label(db, "r3", "judge_right")


def _version_3_database(db) -> None:
    """A reviews database at schema version 3 (before blind labels) holding one verdict, 'old'."""
    con = sqlite3.connect(db)
    con.executescript(migrations.MIGRATIONS[1] + ";" + migrations.MIGRATIONS[2] + ";" + migrations.MIGRATIONS[3]
                      + "; CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);"
                      " INSERT INTO schema_version VALUES (1, 't'), (2, 't'), (3, 't');")
    con.execute("INSERT INTO reviews (review_id, reviewer, created_at, collection, dataset, judge_record_id, "
                "verdict) VALUES ('old', 'ann', '2025', 'c', 'd', 'r9', 'unsure')")
    con.commit()
    con.close()


def test_a_version_3_database_migrates_keeping_its_verdicts(tmp_path):
    db = tmp_path / "reviews.sqlite"
    _version_3_database(db)
    _label(db, "r9", "fail")
    assert migrations.schema_version(database.open_db(db)) == 4
    assert reviews.log(db).review_id.tolist() == ["old"]
    assert blind_labels.log(db).label.tolist() == ["fail"]


def _labels(rows):
    return pd.DataFrame(rows, columns=["judge_record_id", "reviewer", "label", "score", "created_at"])


def _wilson(k, n):
    return proportion_confint(k, n, alpha=0.05, method="wilson")


def test_blind_calibration_matches_an_independent_count():
    # 12 rows; r0 has two reviewers who agree, r1 two who tie (left out), r2 only 'unsure' (left out).
    truth = [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1]
    scores = [90, 40, 20, 60, 80, 10, 55, 30, 49, 75, 70, 95]
    rows = [(f"r{i + 3}", "ann", "pass" if t else "fail", s, f"2026-01-{i + 10}") for i, (t, s) in
            enumerate(zip(truth, scores))]
    rows += [("r3", "bob", "pass", 90, "2026-02-01"), ("r1", "ann", "pass", 50, "1"), ("r1", "bob", "fail", 50, "2"),
             ("r2", "ann", "unsure", 50, "3")]
    cal = blind_cal.calibration(_labels(rows), passes_unlabelled=30, n_unlabelled=80, threshold=50, budget=False)
    pred = [int(s >= 50) for s in scores]
    tp = sum(t and p for t, p in zip(truth, pred))
    fn = sum(t and not p for t, p in zip(truth, pred))
    tn = sum(not t and not p for t, p in zip(truth, pred))
    fp = sum(not t and p for t, p in zip(truth, pred))
    assert (cal["n"], cal["tp"], cal["fp"], cal["fn"], cal["tn"]) == (12, tp, fp, fn, tn) == (12, 5, 2, 2, 3)
    assert cal["left_out"] == {"unsure_only": 1, "tied": 1, "no_score": 0}
    assert cal["kappa"] == pytest.approx(cohen_kappa_score(truth, pred))
    assert cal["kappa_ci"][0] < cal["kappa"] < cal["kappa_ci"][1]
    assert (cal["tpr"]["low"], cal["tpr"]["high"]) == pytest.approx(_wilson(tp, tp + fn))
    assert (cal["tnr"]["low"], cal["tnr"]["high"]) == pytest.approx(_wilson(tn, tn + fp))
    assert cal["base_rate"]["share"] == pytest.approx(sum(truth) / 12)
    se, sp, q = tp / (tp + fn), tn / (tn + fp), 30 / 80
    assert cal["corrected"]["rogan_gladen"]["estimate"] == pytest.approx(min(1, max(0, (q + sp - 1) / (se + sp - 1))))
    assert "score ≥ 50" in cal["rule"] and "never the verdicts" in cal["rule"]


def test_an_inconclusive_kappa_gets_a_label_budget():
    cells = [("pass", 80)] * 4 + [("fail", 80)] + [("pass", 20)] + [("fail", 20)] * 3  # κ = 0.55, 9 rows
    rows = [(f"r{i}", "ann", label, score, str(i)) for i, (label, score) in enumerate(cells)]
    cal = blind_cal.calibration(_labels(rows), 10, 50, threshold=50)
    assert cal["gate_verdict"]["inconclusive"] and cal["label_budget"]["method"].startswith("seeded simulation")
    assert any(line.startswith("label budget:") for line in blind_cal.lines(cal))


def _cli(capsys, *argv):
    from judgescope.cli import main
    code = main(list(argv))
    return code, capsys.readouterr()


def test_reviews_blind_cli_reads_only_blind_labels(state, capsys):
    from judgescope.cli import load_source
    from judgescope.wiring import open_store
    full = open_store({"audit": load_source(DATASET, "judge_audit")}).run("audit_review_export", **{
        "languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
        "max_score": 100.0, "q": ""})
    audit = full.sort_values("judge_record_id").head(6)
    truth = [1, 0, 1, 0, 0, 1]
    for (rid, score), t in zip(zip(audit.judge_record_id, audit.score), truth):
        blind_labels.save(state, reviewer="ann", collection="xhotpotqa", dataset=DATASET, judge_record_id=rid,
                          label="pass" if t else "fail", score=float(score))
        reviews.record(state, reviewer="ann", collection="xhotpotqa", dataset=DATASET, judge_record_id=rid,
                       verdict="too_lenient")  # verdicts on the same rows: never read by blind
    code, out = _cli(capsys, "reviews", "--state", str(state), "blind", "xhotpotqa", "--threshold", "50", "--json")
    assert code == 0, out.err
    got = json.loads(out.out)
    pred = [int(s >= 50) for s in audit.score]
    assert got["n"] == 6 and got["dataset"] == DATASET
    assert got["tp"] + got["fn"] == sum(truth) and got["tp"] + got["fp"] == sum(pred)
    if len(set(truth)) > 1 and len(set(pred)) > 1:
        assert got["kappa"] == pytest.approx(cohen_kappa_score(truth, pred))
    rest = full[~full.judge_record_id.isin(audit.judge_record_id) & full.score.notna()]
    assert got["corrected"]["n_unlabelled"] == len(rest) > 0
    assert got["corrected"]["raw_judge_rate"] == pytest.approx((rest.score >= 50).mean())
    code, out = _cli(capsys, "reviews", "--state", str(state), "blind", "no_such_thing")
    assert code == 2 and "Traceback" not in out.err and out.err.count("\n") == 1


def _everything(at) -> str:
    parts = [str(e.value) for e in [*at.markdown, *at.caption, *at.info, *at.success, *at.text]]
    parts += [str(h.proto.body) for h in at.get("html")] + [f"{m.label}={m.value}" for m in at.metric]
    parts += [" ".join(map(str, d.value.columns)) + " " + " ".join(map(str, d.value.to_numpy().ravel()))
              for d in at.dataframe]
    return "\n".join(parts)


def test_blind_review_hides_the_judge_until_the_label_is_saved(state):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.query_params["blind"] = "1"
    at.run()
    at.switch_page("pages/review.py").run()
    at.selectbox(key="open_record").select_index(1).run()
    assert not at.exception, [e.value for e in at.exception]
    record = record_in_url(at)
    from judgescope.cli import load_source
    from judgescope.wiring import open_store
    row = open_store({"audit": load_source(DATASET, "judge_audit")}).run("audit_record", record_id=record).iloc[0]
    explanation = str(row.judge_explanation)[:60]
    assert len(explanation) > 20
    page = _everything(at)
    assert at.toggle(key="blind_toggle").value is True
    assert explanation not in page and "Judge explanation" not in page
    assert {m.label: m.value for m in at.metric}["Score"] == "hidden"
    (listed,) = [d.value for d in at.dataframe if "Judge record id" in d.value.columns or "Unit" in d.value.columns]
    assert not {"Score", "Explanation", "Review"} & set(listed.columns), listed.columns
    at.text_input(key="reviewer_name_input").input("Ann").run()
    assert explanation not in _everything(at)
    at.button(key="blind_label_fail").click().run()
    assert not at.exception, [e.value for e in at.exception]
    page = _everything(at)
    assert explanation in page and "Your blind label: **fail**" in page
    assert {m.label: m.value for m in at.metric}["Score"] == f"{row.score:g}"
    stored = blind_labels.log(state)
    assert stored[["reviewer", "judge_record_id", "label", "blind", "dataset"]].values.tolist() == [
        ["Ann", record, "fail", 1, DATASET]]
    assert stored.score.iloc[0] == pytest.approx(row.score)
    assert reviews.log(state).empty  # the blind label is not a verdict
    at.button(key="rec_close").click().run()
    at.button(key="queue_me").click().run()  # the list's first row without my blind label: not this one
    assert record_in_url(at) != record and {m.label: m.value for m in at.metric}["Score"] == "hidden"
    at.query_params["record"] = record
    at.run()
    at.switch_page("pages/reviews.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(h.value.startswith("Blind labels") for h in at.header)  # a section (h2), as axe-core asks
    (table,) = [d.value for d in at.dataframe if "Judge pass" in d.value.columns]
    judge_pass = row.score >= 50  # the reviewer said fail: FP when the judge passed it, else TN
    assert table.set_index("Reviewers").loc["fail"].tolist() == ([1, 0] if judge_pass else [0, 1])
    assert table.set_index("Reviewers").loc["pass"].tolist() == [0, 0]
    assert "score ≥ 50" in _everything(at)


def test_the_report_shows_the_blind_calibration_and_check_report_recomputes_it(state, tmp_path, capsys):
    from judgescope.cli import load_source, main
    from judgescope.wiring import open_store
    full = open_store({"audit": load_source(DATASET, "judge_audit")}).run("audit_review_export", **{
        "languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
        "max_score": 100.0, "q": ""}).sort_values("score")
    picked = full.iloc[[0, 1, 2, -1, -2, -3]]  # three low and three high scores
    labels = ["fail", "fail", "pass", "pass", "pass", "fail"]
    for rid, score, label in zip(picked.judge_record_id, picked.score, labels):
        blind_labels.save(state, reviewer="ann", collection="xhotpotqa", dataset=DATASET, judge_record_id=rid,
                          label=label, score=float(score))
    out = tmp_path / "r.html"
    assert main(["report-html", "xhotpotqa", "--out", str(out), "--resamples", "200"]) in (0, 1)
    text = out.read_text(encoding="utf-8")
    numbers = {e["id"]: e for e in json.loads(re.search(r'id="judgescope-manifest">(.*?)</script>', text, re.S)
                                               .group(1))["numbers"]}
    assert '<section id="blind">' in text
    assert numbers["blind.n"]["value"] == 6 and numbers["blind.n"]["elements"] == 1
    pred = [int(s >= 50) for s in picked.score]
    truth = [0, 0, 1, 1, 1, 0]
    assert numbers["blind.kappa"]["value"] == pytest.approx(cohen_kappa_score(truth, pred))
    capsys.readouterr()
    assert main(["check-report", str(out)]) == 0
    blind_labels.save(state, reviewer="bob", collection="xhotpotqa", dataset=DATASET,
                      judge_record_id=full.judge_record_id.iloc[5], label="pass", score=float(full.score.iloc[5]))
    assert main(["check-report", str(out)]) == 1  # a blind label given since: the report is stale
    assert "blind.n" in capsys.readouterr().out


def test_a_read_only_version_3_database_is_still_read_and_holds_no_blind_label(tmp_path):
    """Version 4 only adds blind labels: a version-3 database this process cannot write (so cannot
    migrate) is read as before (its verdicts), with no blind label, instead of being refused."""
    import shutil
    import subprocess
    if not shutil.which("chattr"):
        pytest.skip("chattr is not available")
    folder = tmp_path / "state"
    folder.mkdir()
    db = folder / "reviews.sqlite"
    _version_3_database(db)
    if subprocess.run(["chattr", "+i", str(db), str(folder)], capture_output=True).returncode:
        pytest.skip("this file system cannot mark a file immutable")
    try:
        assert reviews.latest(db).review_id.tolist() == ["old"]
        assert "Saving verdicts is off" in database.read_only(db)
        assert blind_labels.latest(db, "d").empty and blind_labels.mine("ann", "d", "r9", db) is None
    finally:
        subprocess.run(["chattr", "-i", str(db), str(folder)])
