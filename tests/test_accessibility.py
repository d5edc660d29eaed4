"""Accessibility in a real headless Chromium: axe-core on every page × collection of the demo, at
desktop and phone widths, in Streamlit's light and dark themes; chart text contrast measured from
computed colours; at phone width no sideways scroll and no chart value under 10 px; keyboard-only
walks of Overview, Review and Languages.

axe-core comes bundled (axe.min.js) in the axe-playwright-python wheel pinned in
requirements-dev.txt; it is injected into each page and run with the WCAG 2.0/2.1/2.2 A and AA
rules. Screenshots land in screenshots/a11y/ (git-ignored): look at them.
"""

from __future__ import annotations

import json

import pytest

from pages_index import page_cases, url_path
from chromium import POLL_MS, ROOT, browser, needs_chromium, server, wait_until_drawn  # noqa: F401 (fixtures)

SHOTS = ROOT / "screenshots" / "a11y"
pytestmark = [pytest.mark.browser, needs_chromium]

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")
VIEWPORTS = {"desktop": (1400, 1000), "phone": (390, 844)}
THEMES = ("Light", "Dark")


def axe_script() -> str:
    from importlib.resources import files

    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def themed_context(browser, theme: str, width: int, height: int):
    """A browser context whose Streamlit theme is `theme`, chosen as a user does in the settings
    menu (Streamlit keeps the choice in localStorage, per page path)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('stActiveTheme-' + location.pathname + '-v2', '\"{theme}\"')")
    return context


# Counts the script runs the page has shown (Streamlit's running indicator appearing): a run that
# starts while axe reads the page fades its elements, so axe's reading is taken again.
RUN_COUNTER = """() => { if (window.__runs === undefined) { window.__runs = 0;
    new MutationObserver(() => { const on = !!document.querySelector('[data-testid="stStatusWidget"]');
        if (on && !window.__running) window.__runs++; window.__running = on; })
    .observe(document.body, {childList: true, subtree: true}); }
    return window.__runs + (document.querySelector('[data-testid="stStatusWidget"]') ? 0.5 : 0); }"""


def axe_violations(page, script: str, tries: int = 3) -> list[dict]:
    """axe's WCAG violations on the page at rest: a reading during which a script run started
    (a rerun, e.g. a widget writing the URL) is discarded and taken again once the run ended.
    axe is injected once per document: a page opened from the sidebar keeps the one loaded."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(script)
    for _ in range(tries):
        before = page.evaluate(RUN_COUNTER)
        result = page.evaluate("""tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                                             resultTypes: ['violations']})
                                        .then(r => r.violations)""", WCAG_TAGS)
        if page.evaluate(RUN_COUNTER) == before == int(before):
            break
        wait_until_drawn(page)
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [f"{n['target']} :: {n['html'][:120]} :: "
                       + (n.get("failureSummary") or "").replace("\n", " ")[:240] for n in v["nodes"]]}
            for v in result]


def heading_jumps(page) -> list[dict]:
    """Headings in order (h1, then h2 sections, …): axe's heading-order is a best practice, not
    a WCAG rule, so it is checked here, as a serious violation of this project's own."""
    levels = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid="stMain"] :is(h1, h2, h3, h4, h5, h6)')].filter(h => h.checkVisibility())
        .map(h => [Number(h.tagName[1]), h.textContent.slice(0, 60)])""")
    jumps = [f"h{a} then h{b} ({text!r})" for (a, _), (b, text) in zip([(0, "")] + levels, levels)
             if b > a + 1]
    return [{"id": "heading-order", "impact": "serious", "help": "Headings go down one level at a time",
             "nodes": jumps}] if jumps else []


def background_is_dark(page) -> bool:
    rgb = page.evaluate("""() => getComputedStyle(document.querySelector('[data-testid="stApp"]'))
        .backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)""")
    return sum(rgb) / 3 < 128


def crawl(page, base: str):
    """Open every page × collection of the demo (pages_index.page_cases) and yield its name once
    drawn. Each collection opens by URL; its pages then by their sidebar links, as a user
    moves (Streamlit swaps the page without reloading the app, which keeps the crawl short)."""
    cases = page_cases()
    for collection in dict.fromkeys(c for _, c in cases):
        names = [f"{url_path(f)}?collection={c}" for f, c in cases if c == collection]
        for i, name in enumerate(names):
            before = page.locator("h1").first.inner_text() if i else None
            # The link may sit in a collapsed sidebar (phone): a click event still follows it.
            # A page the collection cannot fill has no link: it opens by URL.
            if i == 0 or not page.evaluate("""href => { const a = document.querySelector(
                    `[data-testid="stSidebar"] a[href="${href}"]`); if (a) a.click(); return !!a; }""",
                                           name):
                page.goto(f"{base}/{name}", wait_until="domcontentloaded")
            else:
                page.wait_for_function("""([path, before]) => location.href.endsWith(path)
                    && document.querySelector('h1') && document.querySelector('h1').textContent !== before
                    """, arg=[name, before], timeout=60_000, polling=POLL_MS)
            wait_until_drawn(page)
            page.wait_for_function(STYLESHEET, timeout=30_000, polling=POLL_MS)
            yield name


# The app's stylesheet (judgescope/web/style.py) arrives with the page's first elements.
STYLESHEET = """() => [...document.styleSheets].some(s => { try {
    return [...s.cssRules].some(r => r.cssText.includes("stCaptionContainer")); }
    catch (e) { return false; } })"""


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_page_meets_wcag_aa(server, browser, viewport, theme):
    """Every page × collection: no serious or critical axe violation of the WCAG 2.0/2.1/2.2 A
    and AA rules, headings in order, (desktop) every chart text at least 4.5:1 against what is
    drawn behind it, and (phone) phone_problems finds nothing."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    script = axe_script()
    context = themed_context(browser, theme, *VIEWPORTS[viewport])
    page = context.new_page()
    found: dict[str, list[dict]] = {}
    low: list[str] = []
    unreadable: list[str] = []
    texts = cells = 0
    try:
        for name in crawl(page, server):
            assert background_is_dark(page) == (theme == "Dark"), f"{name}: theme not applied"
            found[name] = axe_violations(page, script) + heading_jumps(page)
            page.screenshot(path=str(SHOTS / f"{theme.lower()}-{viewport}-{name.replace('?collection=', '--')}.png"))
            if viewport == "desktop":
                n, c, bad = chart_text_contrast(page)
                texts, cells, low = texts + n, cells + c, low + [f"{name} {b}" for b in bad]
            else:
                unreadable += [f"{name}: {problem}" for problem in phone_problems(page)]
    finally:
        context.close()
    totals: dict[str, int] = {}
    for violations in found.values():
        for v in violations:
            totals[v["impact"]] = totals.get(v["impact"], 0) + len(v["nodes"])
    (SHOTS / f"axe-{theme.lower()}-{viewport}.json").write_text(
        json.dumps({"totals": totals, "urls": found}, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"axe {theme} {viewport}: {len(found)} URLs, failing nodes by impact {totals}")
    assert len(found) == len(page_cases())
    blocking = {name: [v for v in vs if v["impact"] in BLOCKING] for name, vs in found.items()}
    blocking = {name: vs for name, vs in blocking.items() if vs}
    assert not blocking, json.dumps(blocking, indent=1, ensure_ascii=False)[:6000]
    if viewport == "desktop":
        assert not low, "chart text under 4.5:1:\n" + "\n".join(low[:60])
        assert texts > 150 and cells > 60, (texts, cells)  # the charts drew their texts and values
    else:
        assert not unreadable, "\n".join(unreadable)


def phone_problems(page) -> list[str]:
    """At 390 px: the main block never scrolls sideways, and no value drawn on a chart (heatmap
    cells, bar labels) is set under 10 px."""
    overflow = page.evaluate("""() => {
        const m = document.querySelector('[data-testid="stMainBlockContainer"]');
        return m.scrollWidth - m.clientWidth; }""")
    sizes = page.evaluate("""() => [...document.querySelectorAll('g.heatmaplayer text, g.textpoint text')]
        .map(t => parseFloat(getComputedStyle(t).fontSize))""")
    small = sorted({s for s in sizes if s < 10})
    problems = [f"the main block scrolls sideways by {overflow}px"] if overflow > 1 else []
    return problems + ([f"chart values under 10 px: {small}"] if small else [])


# --- chart text contrast ---------------------------------------------------------------------

# Every text plotly draws: ticks, axis and chart titles, legend, colour bar, annotations, values.
CHART_TEXT = """els => els.filter(t => t.textContent.trim() && t.getBBox().width > 0).map(t => {
    const r = t.getBoundingClientRect();
    const s = getComputedStyle(t);
    return {text: t.textContent.trim().slice(0, 40), fill: s.fill, opacity: s.fillOpacity,
            cell: !!t.closest('g.textpoint'), x: r.left, y: r.top, w: r.width, h: r.height};
})"""


def _rgb(css: str) -> tuple[int, int, int]:
    import re

    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", css)[:3])


def _contrast(a, b) -> float:
    """WCAG 2.2 contrast ratio, computed here (not with the app's own helper)."""
    def lum(rgb):
        c = [v / 255 for v in rgb]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _background(picture, text: dict) -> tuple[int, int, int] | None:
    """The colour drawn just beside a text (left and right of it): a heatmap cell's fill, else
    the chart's background; the commoner of the samples."""
    from collections import Counter

    y = int(text["y"] + text["h"] / 2)
    samples = [picture.getpixel((int(x), y))[:3] for x in (text["x"] - 3, text["x"] + text["w"] + 3)
               if 0 <= int(x) < picture.width and 0 <= y < picture.height]
    return Counter(samples).most_common(1)[0][0] if samples else None


def chart_text_contrast(page) -> tuple[int, int, list[str]]:
    """(texts measured, heatmap values among them, texts under 4.5:1) over the page's visible
    charts: each text's computed fill against the pixels drawn beside it."""
    import io

    from PIL import Image

    n = cells = 0
    low = []
    for chart in page.locator('[data-testid="stPlotlyChart"]').all():
        if not chart.is_visible():
            continue
        chart.scroll_into_view_if_needed()
        texts = chart.locator("svg.main-svg text").evaluate_all(CHART_TEXT)
        picture = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        for t in texts:
            behind = _background(picture, t)
            if behind is None or not 0 <= t["y"] <= picture.height - t["h"]:
                continue  # outside the window (a chart taller than the viewport)
            assert float(t["opacity"]) == 1.0, t
            ratio = _contrast(_rgb(t["fill"]), behind)
            n += 1
            cells += t["cell"]
            if ratio < 4.5:
                low.append(f"{t['text']!r} {t['fill']} on rgb{behind}: {ratio:.2f}:1")
    return n, cells, low


# --- the keyboard ----------------------------------------------------------------------------

KEYBOARD_PAGES = ["?collection=xhotpotqa", "review?collection=xhotpotqa",
                  "languages?collection=xhotpotqa"]
# Controls a keyboard user must reach: links, buttons, form fields, tabs, expanders, grids.
# A radio group or a toolbar (radio buttons, pills) is one Tab stop: arrow keys move inside it.
GROUP = """const group = e => e.closest('[role="radiogroup"], [role="toolbar"]')
    || (e.type === 'radio' && e.closest('[data-testid="stRadio"]')) || e;"""
CONTROLS = "() => {" + GROUP + """
    return [...new Set([...document.querySelectorAll(
        'a[href], button, input, textarea, select, summary, [tabindex]')]
    .filter(e => !e.disabled && e.tabIndex >= 0 && e.checkVisibility({visibilityProperty: true})
                 && !e.closest('[aria-hidden="true"], [inert]'))
    .filter(e => e.closest('[data-testid="stMain"], [data-testid="stSidebar"]'))
    .map(group))]
    .map(e => e.dataset.a11yId || (e.dataset.a11yId = String(Math.random()).slice(2)));
}"""
# The focused element, and whether a ring shows on it or, for a radio or checkbox (whose input
# Streamlit hides), on the label a person sees, and for a table's cell, around the table.
FOCUS = "() => {" + GROUP + """
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const ring = el => { const s = getComputedStyle(el);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1)
               || (s.boxShadow && s.boxShadow !== 'none'); };
    const shown = ['radio', 'checkbox'].includes(e.type) ? e.closest('label') || e
        : e.closest('[data-testid="stDataFrame"]') || e;
    return {id: group(e).dataset.a11yId || null, ring: ring(shown),
            what: (e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent || '')).slice(0, 80)};
}"""


@pytest.mark.parametrize("path", KEYBOARD_PAGES, ids=["overview", "review", "languages"])
def test_keyboard_reaches_every_control_with_visible_focus(server, browser, path):
    """Tab from the top: every control is reached, each shows a focus ring, and Tab leaves the
    page at the end (no trap); Shift+Tab walks back."""
    context = themed_context(browser, "Light", 1400, 1000)
    page = context.new_page()
    try:
        page.goto(f"{server}/{path}", wait_until="domcontentloaded")
        wait_until_drawn(page)
        controls = set(page.evaluate(CONTROLS))
        reached, unringed, left = [], [], False
        for _ in range(len(controls) + 40):
            page.keyboard.press("Tab")
            now = page.evaluate(FOCUS)
            if now is None:  # focus left the document: the walk is over
                left = True
                break
            reached.append(now["id"])
            if not now["ring"]:  # a ring drawn a frame later (a grid redrawing its cells) is shown
                page.wait_for_timeout(400)
                again = page.evaluate(FOCUS)
                if not (again and again["id"] == now["id"] and again["ring"]):
                    unringed.append(now["what"])
        assert left, f"Tab never left the page: a trap near {reached[-5:]}"
        missed = controls - set(reached)
        described = page.evaluate("""ids => ids.map(i => { const e = document.querySelector(
            `[data-a11y-id="${i}"]`); return e.tagName + ' ' + (e.getAttribute('aria-label')
            || e.textContent).slice(0, 60); })""", sorted(missed))
        assert not missed, f"not reachable by Tab: {described}"
        assert not unringed, f"focus not visible on: {unringed}"
        page.keyboard.press("Shift+Tab")
        last = page.evaluate(FOCUS)
        assert last is not None and last["id"] == reached[-1], last
        page.screenshot(path=str(SHOTS / f"keyboard-{path.split('?')[0] or 'overview'}-last.png"))
    finally:
        context.close()
