"""Drift in the HTML report (issue 43): the re-judged demo's report shows the fingerprint
difference, the anchors, the judge's shift and the Thai alarm, every number bound to the
manifest with the same value `judgescope drift --json` writes; check-report verifies them and
names a drift number that a reader would see changed."""

import json
import re

import pytest

from judgescope import cli
from judgescope.demo import rejudge as demo

AT = "2026-12-01T12:00:00+00:00"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("drift-report")
    out, js = folder / "drift.html", folder / "drift.json"
    assert cli.main(["report-html", "xhotpotqa_drift", "--out", str(out), "--generated-at", AT,
                     "--resamples", "500"]) == 0
    assert cli.main(["drift", "xhotpotqa_v2_audit", "xhotpotqa_v2_drift", "--resamples", "500",
                     "--json", str(js)]) == 0
    return out, json.loads(js.read_text())


def _section(text: str) -> str:
    start = text.index('<section id="drift">')
    return text[start:text.index("</section>", start)]


def test_the_report_shows_the_drift_section(written):
    path, _ = written
    section = re.sub(r"<[^>]+>", "", _section(path.read_text(encoding="utf-8")))
    assert f"→ {demo.NEW_MODEL} (resolved {demo.NEW_REVISION})" in section
    assert "2,300 anchors of 2,760 units" in section
    assert " on th; the systems moved −" in section and "Bland–Altman: bias" in section
    assert "Bland &amp; Altman 1999" in section or "Bland & Altman 1999" in section


def test_every_drift_number_equals_the_cli_json(written):
    path, result = written
    text = path.read_text(encoding="utf-8")
    manifest = json.loads(re.search(r'id="judgescope-manifest">(.*?)</script>', text, re.S).group(1))
    entries = [n for n in manifest["numbers"] if n["id"].startswith("drift.") and "cli" in n]
    assert len(entries) > 100
    for n in entries:
        value = result
        for part in n["cli"][2:]:
            value = value[int(part)] if isinstance(value, list) else value[part]
        assert value == pytest.approx(n["value"]), n["id"]


def test_check_report_finds_a_changed_drift_number(written, tmp_path, capsys):
    path, result = written
    assert cli.main(["check-report", str(path)]) == 0
    shown = f"{result['judge_shift']['overall']['mean_diff']:+.2f}"
    tampered = tmp_path / "tampered.html"
    text = path.read_text(encoding="utf-8")
    target = f'<span data-n="drift.judge.mean">{shown}</span>'
    assert target in text
    tampered.write_text(text.replace(target, '<span data-n="drift.judge.mean">+9.99</span>'), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["check-report", str(tampered)]) == 1
    assert "drift.judge.mean" in capsys.readouterr().out
