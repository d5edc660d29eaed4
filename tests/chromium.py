"""What the Chromium tests share: Debian's chromium and its flags (`launch`; bench/browser.py
holds them for the browser benchmarks too), `needs_chromium` to skip where it is missing, the app
served on the demo (`server`, through tests/browser_server.py), one browser per module
(`browser`), waiting until Streamlit has run and every visible chart and grid has drawn
(`wait_until_drawn`), and a page as a user sees it (`open_url`, `settle`, `params`, `main_text`,
`ranking_grid`…).

The page × collection matrix that opens every page is tests/test_page_matrix.py's
test_every_page_on_every_collection. Screenshots land in screenshots/ (git-ignored): look at them.
"""

import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from bench.browser import CHROMIUM, LAUNCH
from browser_server import serving
from textutil import plain

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "screenshots"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian chromium")


def launch(playwright):
    """Debian's chromium, headless, with the flags above (from a sync_playwright() context)."""
    return playwright.chromium.launch(**LAUNCH)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on the demo manifest: its base URL."""
    with serving(tmp_path_factory.mktemp("server") / "server.log") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def screenshot(page, folder: str, name: str, full_page: bool = True) -> None:
    """A screenshot into screenshots/<folder>/<name>.png."""
    (SHOTS / folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / folder / f"{name}.png"), full_page=full_page)


# Conditions are checked every POLL_MS. Playwright's default polls on every animation frame, which
# keeps headless Chromium drawing frames (renderer, compositor and browser process) for as long as
# a test waits: about a tenth of a core per waiting page, measured here.
POLL_MS = 50


def _settle(page, condition: str, what: str, timeout: int = 60_000) -> None:
    """Wait until `condition` holds; a chart or grid that never draws fails the test."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition, timeout=timeout, polling=POLL_MS)
    except PlaywrightTimeout:
        pytest.fail(f"{what} did not draw within {timeout / 1000:.0f} s on {page.url}")


# Streamlit's frontend states its script run on the app root (data-test-script-state: initial,
# running, rerunRequested, notRunning…); the status widget only shows once a run has lasted a
# while, so a loaded machine can pass a check for it while a run is still drawing.
NOT_RUNNING = """() => document.querySelector('[data-testid="stApp"]')
    ?.getAttribute('data-test-script-state') === 'notRunning'"""


def wait_for_run_end(page, timeout: int = 90_000) -> None:
    """Until no script run is requested or running, and the DOM it drew is still."""
    page.wait_for_function(NOT_RUNNING, timeout=timeout, polling=POLL_MS)
    wait_until_still(page)


def _no_status_nor_spinner(page) -> None:
    """Until the status widget (shown while the script runs) is gone, and the spinner of a cached
    computation ("Summarising the collection…"), which can run without the status widget."""
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')""",
                           timeout=90_000, polling=POLL_MS)
    page.wait_for_function("""() => !document.querySelector('[data-testid="stSpinner"]')""",
                           timeout=90_000, polling=POLL_MS)


def wait_until_drawn(page) -> None:
    """After a navigation: Streamlit has run the script, and every visible chart and grid drew."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=60_000)
    # app.py draws the sidebar's collection picker on every page: then the frame has run.
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSelectbox"]', timeout=90_000)
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=90_000)
    page.wait_for_function(NOT_RUNNING, timeout=90_000, polling=POLL_MS)
    _no_status_nor_spinner(page)
    # Charts and grids draw after the script ends; every visible one must draw (one in a closed
    # tab or expander is not visible and never draws).
    _settle(page, """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
        .every(c => !c.checkVisibility() || c.querySelector('.main-svg'))""", "a visible chart")
    _settle(page, """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
        .every(d => !d.checkVisibility() || d.querySelector('canvas'))""", "a visible table")
    wait_until_still(page)


# Plotly's transitions and the grids' first paint change the DOM for a few frames after they
# appear: a page is read once nothing in it has changed for QUIET_MS (at most MAX_SETTLE_MS).
QUIET_MS, MAX_SETTLE_MS = 150, 3_000
STILL = """([quiet, cap]) => new Promise(resolve => {
    let timer;
    const done = () => { observer.disconnect(); clearTimeout(limit); resolve(); };
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
    const limit = setTimeout(done, cap);
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    timer = setTimeout(done, quiet);
})"""


def wait_until_still(page) -> None:
    """Until the DOM has not changed for QUIET_MS (a fixed sleep either wastes time or is too short)."""
    page.evaluate(STILL, [QUIET_MS, MAX_SETTLE_MS])


# Opened on a page's own path, Streamlit's frontend first probes <page>/_stcore/… to find its
# base path, gets 404, and falls back to the root: expected, not an error of ours.
BENIGN_404 = re.compile(r"/[a-z_]+/_stcore/(health|host-config)$")


# --- a page as a user sees it: settled after each run, its URL, its main text, its ranking grid ---

def settle(page) -> None:
    """Wait until Streamlit has run the script: a title is drawn and no run is in progress."""
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=90_000)
    page.wait_for_timeout(300)
    _no_status_nor_spinner(page)
    wait_for_run_end(page)  # the status widget can be absent while a run still draws


def open_url(browser, url: str, width: int = 1400, height: int = 1000):
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded")
    settle(page)
    return context, page


def params(page) -> dict:
    return {k: v for k, v in parse_qs(urlparse(page.url).query).items()}


def wait_for_param(page, key: str, value: str | None = None, timeout: int = 30_000) -> None:
    """Wait until the URL carries key (=value), then until the rerun it caused has finished."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        got = params(page).get(key)
        if got and (value is None or value in got):
            settle(page)
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"URL never got {key}={value}: {page.url}")


def open_expander(page, title):
    """The expander whose title matches `title`, opened (a click on an open one would close it)."""
    expander = page.locator('[data-testid="stExpander"]').filter(
        has=page.locator("summary", has_text=title)).first
    details = expander.locator("details").first
    if details.get_attribute("open") is None:
        expander.locator("summary").first.click()
    page.wait_for_function("d => d.open", arg=details.element_handle(), timeout=30_000, polling=POLL_MS)
    return expander


def switch_on(page, scope, label: str) -> None:
    """Turn on the st.toggle labelled `label` inside `scope`, and wait for the run it starts. A
    click that lands while an earlier run redraws the switch can be lost: it is clicked again,
    at most twice, and the switch must end on."""
    box = scope.locator('[data-testid="stCheckbox"]').filter(has_text=label).locator("input").first
    for _ in range(3):
        if box.is_checked():
            break
        scope.get_by_text(label, exact=True).click()
        settle(page)
    assert box.is_checked(), f"the switch {label!r} did not stay on: {page.url}"


def main_text(page) -> str:
    """The main block's text without the invisible marks around literal data text."""
    return plain(page.locator('[data-testid="stMainBlockContainer"]').inner_text())


def no_exception(page) -> None:
    boxes = page.locator('[data-testid="stException"]').all_inner_texts()
    assert not boxes, boxes


def ranking_grid(page):
    """The ranking grid once drawn and clickable: the chart, its row labels, its column labels."""
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.wait_for(state="visible")
    page.wait_for_selector("g.draglayer .nsewdrag", state="attached")
    return (chart, chart.locator("g.ytick text").evaluate_all(TICK_LABELS),
            chart.locator("g.xtick text").evaluate_all(TICK_LABELS))


def heatmap_cell(chart, row_label: str, column_label: str) -> tuple[float, float]:
    """Screen coordinates of one heatmap cell: where its row's and its column's tick labels
    point (the test's viewport is tall enough to show the whole chart)."""
    def centre(axis, text):
        ticks = chart.locator(f"g.{axis}tick text")
        tick = ticks.nth(ticks.evaluate_all(TICK_LABELS).index(text)).bounding_box()
        return tick["x"] + tick["width"] / 2, tick["y"] + tick["height"] / 2
    return centre("x", column_label)[0], centre("y", row_label)[1]


# A tick label as read: a label wrapped on two lines ("method<br>model") reads "method · model".
TICK_LABELS = """els => els.map(e => { const lines = [...e.querySelectorAll('tspan.line')]
    .map(t => t.textContent.trim()); return lines.length > 1 ? lines.join(' · ') : e.textContent.trim(); })"""
