"""A 390 × 844 phone: the Languages heatmap never overprints (no chart text overlaps another,
every cell value at least 10 px), the ranking grid is wider than its labels, and Overview's
findings come before anything else. Screenshots in screenshots/phone/."""

from __future__ import annotations

import pytest

from chromium import browser, needs_chromium, open_url, screenshot  # noqa: F401 (fixture)
from test_journeys import manifest, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, needs_chromium]
PHONE = dict(width=390, height=844)

# Every text a plotly chart draws, with its box and font size (px).
CHART_TEXT = """(sel) => [...document.querySelectorAll(sel + ' .js-plotly-plot svg.main-svg text')]
  .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
  .map(t => { const b = t.getBoundingClientRect();
              return {text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height,
                      size: parseFloat(getComputedStyle(t).fontSize),
                      cls: (t.closest('g') && t.closest('g').getAttribute('class')) || ''}; })"""


def _overlaps(boxes: list[dict], slack: float = 1.0) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
                    and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"]):
                out.append((a["text"], b["text"]))
    return out


def _wait_chart(page) -> None:
    page.wait_for_selector(".js-plotly-plot svg.main-svg text", timeout=90_000)
    page.wait_for_timeout(800)


def test_languages_heatmap_does_not_overprint_on_a_phone(server, browser):  # noqa: F811
    base, _ = server
    context, page = open_url(browser, base + "/languages?collection=xhotpotqa", **PHONE)
    try:
        page.wait_for_selector(".st-key-heatmap_table [data-testid='stDataFrame']", timeout=90_000)
        page.wait_for_timeout(800)
        # The grid gives way to the sorted table: nothing of the heatmap is drawn over anything.
        assert not page.locator(".st-key-heatmap").is_visible()
        table = page.locator(".st-key-heatmap_table").bounding_box()
        assert table and table["height"] > 200 and table["width"] <= PHONE["width"]
        assert _overlaps(page.evaluate(CHART_TEXT, '[data-testid="stPlotlyChart"]')) == []
        screenshot(page, "phone", "languages")
    finally:
        context.close()


def test_languages_heatmap_values_are_readable_on_a_desktop(server, browser):  # noqa: F811
    base, _ = server
    context, page = open_url(browser, base + "/languages?collection=xhotpotqa", width=1400, height=1000)
    try:
        _wait_chart(page)
        assert not page.locator(".st-key-heatmap_table").is_visible()
        texts = page.evaluate(CHART_TEXT, ".st-key-heatmap")
        values = [t for t in texts if t["text"].replace(".", "").isdigit()]
        assert len(values) >= 60 and min(t["size"] for t in values) >= 10
        assert _overlaps(texts) == []
    finally:
        context.close()


def test_ranking_grid_is_wider_than_its_labels_on_a_phone(server, browser):  # noqa: F811
    base, _ = server
    context, page = open_url(browser, base + "/ranking?collection=transevalnia", **PHONE)
    try:
        _wait_chart(page)
        screenshot(page, "phone", "ranking")
        plots = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(p => {
            const area = p.querySelector('.nsewdrag'); const a = area.getBoundingClientRect();
            const labels = [...p.querySelectorAll('.ytick text')].map(t => t.getBoundingClientRect().width);
            return {plot: a.width, label: Math.max(0, ...labels)}; })""")
        assert plots
        for p in plots:
            assert p["plot"] > p["label"], p
        assert _overlaps(page.evaluate(CHART_TEXT, '[data-testid="stPlotlyChart"]')) == []
    finally:
        context.close()


def test_overview_findings_come_first_on_a_phone(server, browser):  # noqa: F811
    base, _ = server
    context, page = open_url(browser, base + "/?collection=xhotpotqa", **PHONE)
    try:
        heads = page.locator('[data-testid="stMainBlockContainer"] h2, '
                             '[data-testid="stMainBlockContainer"] h3').all_inner_texts()
        assert heads and heads[0].strip() == "Findings"
        first = page.get_by_text("Mean judge score").first.bounding_box()
        datasets = page.get_by_text("Datasets and provenance").first.bounding_box()
        assert first["y"] < datasets["y"]
        assert first["y"] < 2 * PHONE["height"]  # within one scroll of the top
        screenshot(page, "phone", "overview")
    finally:
        context.close()
