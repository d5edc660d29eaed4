"""What a reader of a report meets first and how it reads (issue 44 items 3 and 7): the localgate
report opens on the panel's decision, states each method once and links it, and does not cut the
panel's label; a GEMBA-style audit (a `system` column, zh-en beside en-de) names language pairs as
the pages do, has a per-system section, and says nothing about hovering in a static file."""

import json
import re
from html import unescape

import pytest

from judgescope import cli
from judgescope.report import html as report_html

AT = "2026-12-01T12:00:00+00:00"


def _visible(text: str) -> str:
    body = text.split("<body>", 1)[1].split('<script type="application/json"', 1)[0]
    return unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", body, flags=re.S)))


@pytest.fixture(scope="module")
def localgate(tmp_path_factory):
    path = tmp_path_factory.mktemp("layout") / "lg.html"
    cli.main(["report-html", "localgate", "--out", str(path), "--generated-at", AT])
    return path.read_text(encoding="utf-8")


def test_localgate_opens_on_the_panel_decision(localgate):
    findings = localgate.split('<section id="findings"', 1)[1].split("</section>", 1)[0]
    first = re.search(r"<li[^>]*>(.*?)</li>", findings, re.S).group(1)
    assert "calibration.panel.badge" in first and "FAIL · inconclusive" in first
    # The calibration table lists the panel first too.
    table = localgate.split('<section id="calibration"', 1)[1]
    rows = re.findall(r'<tr><th scope="row"><bdi><span data-n="[^"]*">([^<]*)</span></bdi>', table)
    assert rows[0].startswith("panel")


def test_each_method_is_stated_once_and_linked(localgate):
    manifest = report_html.read_manifest(localgate)
    methods = [e for e in manifest["numbers"] if e["id"].startswith("method.")]
    assert {m["id"] for m in methods} >= {"method.gate_rule", "method.calibration.pi_ci"}
    visible = _visible(localgate)
    for m in methods:
        assert visible.count(m["shown"][:60]) == 1, m["id"]
        assert m["elements"] == 1
    # Four gates, one method text: each finding links it instead of repeating it.
    assert localgate.count('href="#m-pi"') >= 4 and 'id="m-pi"' in localgate


def test_the_panel_label_is_drawn_whole(localgate):
    """The forest's row labels: every word of 'panel (strict majority of 3 judges)' is drawn."""
    chart = localgate.split('<section id="calibration"', 1)[1].split("</svg>", 1)[0]
    lines = [" ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", t))
             for t in re.findall(r'<text class="label"[^>]*>(.*?)</text>', chart, re.S)]
    assert "panel (strict majority of 3 judges)" in lines
    assert not any("…" in line for line in lines)


ROWS = [("en", "de", "Online-A", 90), ("en", "de", "Online-B", 70), ("zh", "en", "Online-A", 60),
        ("zh", "en", "Online-B", 85)]


@pytest.fixture
def gemba(tmp_path, monkeypatch):
    folder = tmp_path / "gemba"
    folder.mkdir()
    lines = []
    for i in range(40):
        src, tgt, system, base = ROWS[i % 4]
        lines.append(json.dumps({"judge_record_id": f"r{i}", "source_language": src, "target_language": tgt,
                                 "unit": "segment", "system": system, "score": float(base + i % 7),
                                 "score_origin": "GEMBA-DA numeric answer"}))
    (folder / "audit.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "sources.toml").write_text('[[collection]]\nname = "gemba"\ndatasets = ["gemba"]\n\n[[dataset]]\n'
                                         'name = "gemba"\nkind = "judge_audit"\npath = "audit.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(folder / "sources.toml"))
    out = tmp_path / "gemba.html"
    assert cli.main(["report-html", "gemba", "--out", str(out), "--generated-at", AT, "--resamples", "200"]) == 0
    return out


def test_a_gemba_style_report_reads_as_the_app_does(gemba, capsys):
    text = gemba.read_text(encoding="utf-8")
    visible = _visible(text)
    assert "Mandarin Chinese → English (zh-en)" in visible
    assert "English (en) ×" not in visible
    assert 'id="systems"' in text and "Per system" in visible
    for system in ("Online-A", "Online-B"):
        assert re.search(rf">{system}</span></bdi></th><td class=\"num\"><span data-n=\"audit.system.\d+.n\">20<",
                         text)
    assert "hover" not in visible.lower()
    assert cli.main(["check-report", str(gemba)]) == 0


def test_the_real_gemba_report_reads_as_the_app_does(realdata, monkeypatch, tmp_path):
    (realdata / "sources.toml").write_text('[[collection]]\nname = "gemba"\ndatasets = ["gemba"]\n[[dataset]]\n'
                                           'name = "gemba"\nkind = "judge_audit"\n'
                                           'path = "judge_audit_gemba_wmt22.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(realdata / "sources.toml"))
    out = tmp_path / "gemba.html"
    assert cli.main(["report-html", "gemba", "--out", str(out), "--generated-at", AT, "--resamples", "500"]) == 0
    visible = _visible(out.read_text(encoding="utf-8"))
    assert "Mandarin Chinese → English (zh-en)" in visible and "Per system" in visible
    assert "hover" not in visible.lower()
    assert cli.main(["check-report", str(out)]) == 0
