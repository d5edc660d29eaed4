"""The crash matrix, in a real headless Chromium: every page × every collection, on the demo and
on ../shared/realdata when it is beside the checkout, opened by its URL on a server of its own
(tests/test_journeys.py holds the journeys; a file each, so the two run on separate workers).
The pages a collection fills are saved as screenshots/<page>--<collection>.png: look at them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chromium import BENIGN_404, browser, main_text, needs_chromium, no_exception, wait_until_drawn  # noqa: F401
from pages_index import page_cases
from judgescope import navigation
from test_journeys import DEMO_COLLECTIONS, REAL_COLLECTIONS, REALDATA, ROOT, manifest, server  # noqa: F401

pytestmark = [pytest.mark.browser, needs_chromium]

COLLECTIONS = DEMO_COLLECTIONS + (REAL_COLLECTIONS if REALDATA.is_dir() else ())
# The pages each demo collection fills (pages_index.page_cases: a page of its section's
# collection, every Collection page on each): their screenshot is screenshots/<page>--<collection>.png.
FILLED = {(Path(page).stem, collection) for page, collection in page_cases()}


@pytest.mark.parametrize("collection", COLLECTIONS)
def test_every_page_on_every_collection(server, browser, collection):
    """Every page, including those the collection cannot fill, opened by its URL: no exception,
    no page error, console error or failed request, a title, the collection still in the URL,
    every visible chart and grid drawn; a page the collection cannot fill names the collections
    that can. One browser context per collection (its second page reloads the app as a shared
    link does, with the browser's cache warm)."""
    base, log = server
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    # A failed request is judged by its response below (the console line carries no URL).
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.on("response", lambda r: errors.append(f"HTTP {r.status} {r.url}")
            if r.status >= 400 and not BENIGN_404.search(r.url) else None)
    try:
        for spec in navigation.PAGES:
            page.goto(f"{base}/{spec.url_path}?collection={collection}", wait_until="domcontentloaded")
            wait_until_drawn(page)
            no_exception(page)
            assert f"collection={collection}" in page.url, page.url  # the view is a URL
            text = main_text(page)
            assert "Traceback" not in text and "Uncaught app execution" not in text
            if "needs. These collections have one" in text:  # each named collection is a link
                links = page.locator('[data-testid="stMainBlockContainer"] [data-testid="stPageLink"]')
                assert links.count() >= 1, text[:500]
            stem = Path(spec.path).stem
            name = f"{stem}--{collection}" if (stem, collection) in FILLED else \
                f"journeys/matrix-{collection}-{spec.url_path or 'overview'}"
            page.screenshot(path=str(ROOT / "screenshots" / f"{name}.png"), full_page=True)
        assert not errors, errors
        logged = log.read_text(errors="replace")
        assert "Traceback" not in logged and "Uncaught app execution" not in logged, logged[-3000:]
    finally:
        context.close()
