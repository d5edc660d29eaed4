"""A calibration knows when it is stale (issue 43 item 5, for calibration judgements): a judge
whose unlabelled judgements were made with other settings than its calibration items is named
beside the corrected pass rates; one judged alike is not."""


import pandas as pd

from apptest import open_page
from calib_fixtures import calibration_collection  # noqa: F401 (fixture)
from judgescope.calibration import staleness
from judgescope.wiring import get_catalog


def _rows(*rows):
    cols = ["judge_model", "labelled", *staleness.FIELDS, "n"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows], columns=cols)


def test_a_judge_run_with_other_prompts_is_stale():
    rows = _rows(("a", True, "ep", "p1", None, "json", "low", 10), ("a", False, "ep", "p2", None, "json", "high", 50),
                 ("b", True, "ep", "p1", None, None, None, 10), ("b", False, "ep", "p1", None, None, None, 50),
                 ("c", True, "ep", "p1", None, None, None, 10))
    out = {j["judge_model"]: j for j in staleness.staleness(rows)}
    assert set(out) == {"a", "b"}  # c has no unlabelled run to be stale for
    assert out["a"]["stale"] and out["a"]["changed"] == ["prompts", "reasoning effort"]
    assert out["a"]["sentence"] == ("a: calibrated on endpoint ep / prompts p1 / output mode json / "
                                    "reasoning effort low; this run was judged by endpoint ep / prompts p2 / "
                                    "output mode json / reasoning effort high")
    assert not out["b"]["stale"] and (out["b"]["labelled"], out["b"]["unlabelled"]) == (10, 50)
    only_run = staleness.staleness(_rows(("d", False, "ep", "p1", None, None, None, 5)))[0]
    assert only_run["stale"] and "no calibration item" in only_run["sentence"]


def test_the_demo_bulk_run_is_judged_as_calibrated():
    checked = staleness.staleness(get_catalog().store("localgate_bulk").run("calib_judge_fingerprints"))
    assert [j["judge_model"] for j in checked] == ["gptoss", "ministral", "qwen"]
    assert not any(j["stale"] for j in checked)


def test_bulk_judgements_names_a_stale_calibration(calibration_collection):
    judg = [{"key": f"k{i}", "judge_model": "m", "verdict": "match" if i % 2 else "no_match",
             "prompts": "p-calibrated" if i < 12 else "p-new"} for i in range(30)]
    calibration_collection(judg)
    at = open_page("pages/judgements.py", "c")
    warned = [w.value for w in at.warning if "Stale calibration" in w.value]
    assert len(warned) == 1 and "p\\-calibrated" in warned[0] and "p\\-new" in warned[0]


def test_the_report_says_a_calibration_is_stale_and_check_report_notes_it(tmp_path, calibration_collection, capsys):
    from judgescope import cli
    judg = [{"key": f"k{i}", "judge_model": "m", "verdict": "match" if i % 2 else "no_match",
             "prompts": "pcal" if i < 12 else "pnew"} for i in range(30)]
    calibration_collection(judg)
    out = tmp_path / "r.html"
    assert cli.main(["report-html", "c", "--out", str(out), "--resamples", "200"]) == 0
    text = out.read_text(encoding="utf-8")
    assert '<section id="staleness">' in text and "STALE CALIBRATION" in text
    assert "m: calibrated on prompts pcal; this run was judged by prompts pnew" in text
    capsys.readouterr()
    assert cli.main(["check-report", str(out)]) == 0
    assert "note: stale calibration: m: calibrated on prompts pcal" in capsys.readouterr().out
