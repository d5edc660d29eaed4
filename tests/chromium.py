"""What the Chromium tests share: Debian's chromium and its flags, the app served on the demo
(`server`), one browser per module (`browser`), opening a URL and waiting until Streamlit has run
and every visible chart and grid has drawn (`open_page`, `wait_until_drawn`).

The page × collection matrix that opens every page is tests/test_journeys.py's
test_every_page_on_every_collection. Screenshots land in screenshots/ (git-ignored): look at them.
"""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "screenshots"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    proc, base = serve()
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def serve(**env_extra) -> tuple[subprocess.Popen, str]:
    """`python -m judgescope.web.serve` on a free localhost port, once healthy: (process, base URL)."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_extra)
    proc = subprocess.Popen(
        [sys.executable, "-m", "judgescope.web.serve", "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(f"{base}/_stcore/health", timeout=1).status == 200:
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    pytest.fail("streamlit did not become healthy: " + proc.stdout.read().decode()[-2000:])


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROME_ARGS)
        yield b
        b.close()


def _settle(page, condition: str, what: str, timeout: int = 60_000) -> None:
    """Wait until `condition` holds; a chart or grid that never draws fails the test."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition, timeout=timeout)
    except PlaywrightTimeout:
        pytest.fail(f"{what} did not draw within {timeout / 1000:.0f} s on {page.url}")


def open_page(browser, url: str):
    """Open url, wait until Streamlit has finished running the script; return page and errors."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    # A failed request is judged by its response below (the console line carries no URL).
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"HTTP {r.status} {r.url}")
            if r.status >= 400 and not BENIGN_404.search(r.url) else None)
    page.goto(url, wait_until="domcontentloaded")
    wait_until_drawn(page)
    return context, page, errors


def wait_until_drawn(page) -> None:
    """After a navigation: Streamlit has run the script, and every visible chart and grid drew."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=60_000)
    # app.py draws the sidebar's collection picker on every page: then the frame has run.
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSelectbox"]', timeout=90_000)
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=90_000)
    # The status widget shows while the script runs; wait for it to settle.
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')""",
                           timeout=90_000)
    # A cached computation's spinner ("Summarising the collection…") can run without the status widget.
    page.wait_for_function("""() => !document.querySelector('[data-testid="stSpinner"]')""",
                           timeout=90_000)
    # Charts and grids draw after the script ends; every visible one must draw (one in a closed
    # tab or expander is not visible and never draws).
    _settle(page, """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
        .every(c => !c.checkVisibility() || c.querySelector('.main-svg'))""", "a visible chart")
    _settle(page, """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
        .every(d => !d.checkVisibility() || d.querySelector('canvas'))""", "a visible table")
    page.wait_for_timeout(500)


# Opened on a page's own path, Streamlit's frontend first probes <page>/_stcore/… to find its
# base path, gets 404, and falls back to the root: expected, not an error of ours.
BENIGN_404 = re.compile(r"/[a-z_]+/_stcore/(health|host-config)$")
