"""Issue #25: `judgescope open` on every ../shared/realdata file at once, in Chromium, from a
folder outside the repository: every page the inferred collections can fill opens, with no
hand-written manifest. (Each file alone is opened page by page in test_open.py, in AppTest.)"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from chromium import needs_chromium
from conftest import REALDATA
from judgescope.wiring import get_catalog
from judgescope.ingest.manifest import load_manifest
from judgescope import navigation

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.browser, needs_chromium,
              pytest.mark.skipif(not REALDATA.is_dir(), reason="../shared/realdata is not beside this checkout")]


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    from browser_server import free_port, started

    here = tmp_path_factory.mktemp("elsewhere")
    saved = tmp_path_factory.mktemp("saved") / "sources.toml"
    port = free_port()
    log = here.parent / "open.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("JUDGESCOPE_SOURCES", None)
    with started([sys.executable, "-m", "judgescope", "open", str(REALDATA), "--save", str(saved),
                  "--port", str(port)], port, log, here, env, 90) as base:
        yield base, saved, log, here


def test_every_page_of_every_inferred_collection_opens(opened):
    from playwright.sync_api import sync_playwright

    from chromium import launch, main_text, no_exception, settle

    base, saved, log, here = opened
    manifest = load_manifest(saved)
    assert len(manifest.collections) == 4
    catalog = get_catalog(saved)
    with sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            opened_pages = 0
            for name in manifest.collections:
                for spec in navigation.available(catalog.roles(name)):
                    if spec.url_path == "hub_open":
                        continue
                    page.goto(f"{base}/{spec.url_path}?collection={name}",
                              wait_until="domcontentloaded")
                    settle(page)
                    no_exception(page)
                    text = main_text(page)
                    assert "Traceback" not in text and "needs. These collections" not in text, \
                        (name, spec.path, text[:300])
                    opened_pages += 1
            assert opened_pages >= 20
            assert not errors, errors
        finally:
            context.close()
            browser.close()
    logged = log.read_text(errors="replace")
    assert "Traceback" not in logged, logged[-3000:]
    assert list(here.iterdir()) == []  # nothing written where it was started
