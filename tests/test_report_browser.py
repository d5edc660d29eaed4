"""Chromium opens each demo collection's report from file:// with every request logged and any
request outside the file refused: none is made, every chart is drawn, the hostile collection's
text stays text, the page prints (page.pdf) with every section, and screenshots are saved to
screenshots/report/ (desktop and 390 px phone)."""

from pathlib import Path

import pytest

from chromium import browser, needs_chromium  # noqa: F401 (fixture)
from judgescope import cli

pytestmark = [pytest.mark.browser, needs_chromium]
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "screenshots" / "report"
AT = "2026-12-01T12:00:00+00:00"
DEMO = ["xhotpotqa", "localgate", "transevalnia"]


def open_report(browser, path: Path, width: int = 1200):
    """(page, context, requests): every request the page makes is logged; any but the file
    itself is aborted."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    requests = []
    own = path.resolve().as_uri()

    def route(r):
        requests.append(r.request.url)
        if r.request.url == own:
            r.continue_()
        else:
            r.abort()
    context.route("**/*", route)
    page = context.new_page()
    page.goto(own)
    return page, context, requests


CHARTS_DRAWN = """() => [...document.querySelectorAll('svg.chart')].map(s => {
  const b = s.getBBox(); const r = s.getBoundingClientRect();
  return {shapes: s.querySelectorAll('rect,circle,line').length, w: b.width, h: b.height,
          shown: r.width > 0 && r.height > 0, title: s.querySelector('title').textContent};
})"""


def _write(name: str, folder: Path) -> Path:
    path = folder / f"{name}.html"
    cli.main(["report-html", name, "--out", str(path), "--generated-at", AT])
    return path


@pytest.mark.parametrize("name", DEMO)
def test_report_opens_offline_draws_every_chart_and_prints(browser, tmp_path, name):
    path = _write(name, tmp_path)
    page, context, requests = open_report(browser, path)
    try:
        assert requests == [path.resolve().as_uri()]  # nothing but the file itself
        charts = page.evaluate(CHARTS_DRAWN)
        assert charts, "no chart"
        for c in charts:
            assert c["shapes"] > 0 and c["w"] > 0 and c["h"] > 0 and c["shown"], c
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        # Print: every section and chart is laid out on paper, nothing hidden or clipped.
        page.emulate_media(media="print")
        sections = page.evaluate("""() => [...document.querySelectorAll('main > section')].map(s =>
            ({id: s.id, h: s.getBoundingClientRect().height}))""")
        assert {"findings", "not-measured", "provenance"} <= {s["id"] for s in sections}
        assert all(s["h"] > 0 for s in sections), sections
        printed = page.evaluate(CHARTS_DRAWN)
        assert len(printed) == len(charts) and all(c["shown"] for c in printed)
        page.screenshot(path=str(SHOTS / f"{name}-print.png"), full_page=True)
        pdf = page.pdf(format="A4", print_background=True)
        assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") \
            + pdf.count(b"/Type/Page") >= 2
        assert requests == [path.resolve().as_uri()]
    finally:
        context.close()


@pytest.mark.parametrize("name", DEMO)
def test_report_on_a_phone(browser, tmp_path, name):
    path = _write(name, tmp_path)
    page, context, requests = open_report(browser, path, width=390)
    try:
        # Nothing wider than the screen (tables scroll inside their own box).
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390
        order = page.evaluate("""() => [...document.querySelectorAll('main > section')].map(s => s.id)""")
        assert order[0] == "findings"
        page.screenshot(path=str(SHOTS / f"{name}-phone.png"), full_page=True)
    finally:
        context.close()


def test_hostile_text_stays_text(browser, tmp_path, monkeypatch):
    from test_hostile_text import LABEL, build

    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(build(tmp_path / "hostile")))
    path = tmp_path / "hostile.html"
    cli.main(["report-html", "hostile", "--out", str(path), "--generated-at", AT, "--resamples", "200"])
    page, context, requests = open_report(browser, path)
    try:
        assert page.evaluate("() => window.__pwned") is None
        assert page.title() != "PWNED"
        assert requests == [path.resolve().as_uri()]
        text = page.inner_text("body")
        assert LABEL.replace("\u202e", "") in text.replace("\u202e", "")
        assert "<script>window.__pwned=1" in text  # shown, as text
        assert page.locator("main iframe, main img, main script").count() == 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hostile.png"))
    finally:
        context.close()


AXIS_READ = """() => [...document.querySelectorAll('[data-axis]')].flatMap(a => {
  const lo = +a.dataset.lo, hi = +a.dataset.hi, p0 = +a.dataset.p0, p1 = +a.dataset.p1;
  const svg = a.closest('svg'); const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...a.querySelectorAll('text.tick, text.reflabel')].filter(t => t.closest('[data-axis]') === a).map(t => {
    const b = t.getBBox();
    const at = a.dataset.axis === 'y' ? b.y + b.height / 2 : b.x + b.width / 2;
    return {text: t.textContent, reads: lo + (at - p0) / (p1 - p0) * (hi - lo), span: Math.abs(hi - lo),
            px: parseFloat(getComputedStyle(t).fontSize) * scale, hist: svg.classList.contains('hist')};
  });
})"""


@pytest.mark.parametrize("name,width", [("localgate", 1400), ("xhotpotqa", 1400), ("xhotpotqa", 390),
                                        ("transevalnia", 1400)])
def test_tick_labels_read_back_in_chromium(browser, tmp_path, name, width):
    """Issue 44 items 1 and 7: where Chromium draws each tick label, the axis reads the value the
    label states (within 2 % of the axis), and the histograms' labels are at least 10 px."""
    import re

    path = _write(name, tmp_path)
    page, context, _ = open_report(browser, path, width=width)
    try:
        labels = page.evaluate(AXIS_READ)
        assert labels
        for x in labels:
            number = re.search(r"-?\d[\d,.]*", x["text"])
            if not number:
                continue
            value = float(number.group(0).replace(",", "")) / (100 if "%" in x["text"] else 1)
            assert abs(x["reads"] - value) <= 0.02 * x["span"], x
            if x["hist"]:
                assert x["px"] >= 10, x
    finally:
        context.close()
