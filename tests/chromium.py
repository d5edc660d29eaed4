"""What the Chromium tests share: Debian's chromium and its flags (`launch`; bench/browser.py
holds them for the browser benchmarks too), `needs_chromium` to skip where it is missing, the app
served on the demo (`server`, through tests/browser_server.py), one browser per module
(`browser`), and waiting until Streamlit has run and every visible chart and grid has drawn
(`wait_until_drawn`).

The page × collection matrix that opens every page is tests/test_page_matrix.py's
test_every_page_on_every_collection. Screenshots land in screenshots/ (git-ignored): look at them.
"""

import re
from pathlib import Path

import pytest

from bench.browser import CHROMIUM, LAUNCH
from browser_server import serving

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


def wait_until_drawn(page) -> None:
    """After a navigation: Streamlit has run the script, and every visible chart and grid drew."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=60_000)
    # app.py draws the sidebar's collection picker on every page: then the frame has run.
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSelectbox"]', timeout=90_000)
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=90_000)
    # The status widget shows while the script runs; wait for it to settle.
    page.wait_for_function(NOT_RUNNING, timeout=90_000, polling=POLL_MS)
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')""",
                           timeout=90_000, polling=POLL_MS)
    # A cached computation's spinner ("Summarising the collection…") can run without the status widget.
    page.wait_for_function("""() => !document.querySelector('[data-testid="stSpinner"]')""",
                           timeout=90_000, polling=POLL_MS)
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
