"""Issue 43 item 5, beside every gate badge: a judge whose unlabelled run was judged with other
settings than its calibration items is flagged 'stale calibration' with 'calibrated on X; this
run was judged by Y' beside its gate badge on Judges vs humans and in its Overview finding (the
panel's badge carries its stale judges); a judge run as calibrated carries none."""

import pytest

from apptest import open_page
from calib_fixtures import calibration_collection  # noqa: F401 (fixture)
from judgescope.calibration import calibration_findings

JUDGES = ("a", "b", "c")  # three judges: a panel; only b's unlabelled run used a new prompt


@pytest.fixture
def stale_collection(calibration_collection):
    judg = [{"key": f"k{i}", "judge_model": j, "verdict": "match" if (i + n) % 2 else "no_match",
             "prompts": "p-new" if (j == "b" and i >= 12) else "p-calibrated"}
            for n, j in enumerate(JUDGES) for i in range(30)]
    calibration_collection(judg)


def _stale_lines(at) -> list[str]:
    return [m.value for m in at.markdown if "stale calibration" in m.value]


def test_stale_notes_name_the_stale_judge_and_the_panel():
    rep = {"judges": {"a": {}, "b": {}}, "panel": {"n": 1}}
    checked = [{"judge_model": "a", "stale": False, "sentence": "a: as calibrated"},
               {"judge_model": "b", "stale": True, "sentence": "b: calibrated on P; this run was judged by Q"}]
    assert calibration_findings.stale_notes(rep, checked) == {
        "b": "b: calibrated on P; this run was judged by Q", "panel": "b: calibrated on P; this run was judged by Q"}
    assert calibration_findings.stale_notes(dict(rep, panel=None), checked[:1]) == {}


def test_judges_vs_humans_flags_the_stale_judge_beside_its_badge(stale_collection):
    at = open_page("pages/calibration.py", "c")
    lines = _stale_lines(at)
    assert len(lines) == 2, lines  # judge b's badge and the panel's
    assert all("p\\-calibrated" in line and "p\\-new" in line and line.count("b") for line in lines)
    assert not any("a: calibrated on" in line or "c: calibrated on" in line for line in lines)


def test_overview_finding_flags_the_stale_judge(stale_collection):
    at = open_page("pages/overview.py", "c")
    lines = _stale_lines(at)
    assert len(lines) == 2 and all("this run was judged by" in line for line in lines), lines


def test_a_judge_run_as_calibrated_has_no_stale_badge():
    at = open_page("pages/calibration.py", "localgate_bulk")  # three judges, each with an unlabelled run
    assert not _stale_lines(at) and any("gptoss" in m.value for m in at.markdown)  # all judged as calibrated


def _calibration_with_audit(calibration_collection, model: str, prompt: str):
    """One collection holding calibration items, judgements (judge m, prompts p-calibrated, all
    on the calibration items) and a judge audit judged by `model` with prompt hash `prompt`."""
    judg = [{"key": f"k{i}", "judge_model": "m", "verdict": "match" if i % 2 else "no_match",
             "prompts": "p-calibrated"} for i in range(12)]
    audit = [{"judge_record_id": f"r{i}", "target_language": "th", "unit": "answer", "score": 10.0 * i,
              "requested_judge_model": model, "judge_prompt_sha256": prompt} for i in range(10)]
    calibration_collection(judg, audit)


def test_an_audit_judged_by_another_judge_is_flagged_everywhere(tmp_path, calibration_collection, capsys):
    from judgescope import cli
    _calibration_with_audit(calibration_collection, "m2", "p-other")
    sentence = "audit: calibrated on judges m / prompts p-calibrated; this audit was judged by m2 / prompt sha256"
    for page in ("pages/calibration.py", "pages/overview.py"):
        lines = _stale_lines(open_page(page, "c"))
        assert len(lines) == 1 and "this audit was judged by m2" in lines[0].replace("\\", ""), (page, lines)
    out = tmp_path / "r.html"
    assert cli.main(["report-html", "c", "--out", str(out), "--resamples", "200"]) in (0, 1)
    text = out.read_text(encoding="utf-8")
    assert '<section id="staleness">' in text and "STALE CALIBRATION" in text and sentence in text
    capsys.readouterr()
    assert cli.main(["check-report", str(out)]) == 0
    assert "note: stale calibration: " + sentence in capsys.readouterr().out


def test_an_audit_judged_by_the_calibrated_judge_is_not_flagged(calibration_collection):
    _calibration_with_audit(calibration_collection, "m", "p-calibrated")
    assert not _stale_lines(open_page("pages/calibration.py", "c"))
    from judgescope.calibration import calibration_findings
    from judgescope.wiring import get_catalog
    checked = calibration_findings.audit_check(get_catalog().store("c").run)
    assert not checked["stale"] and checked["sentence"].startswith("audit: judged by m / prompt sha256")
