"""Issue 44, what a new user trips on, in a real headless Chromium: the Review list's review state
in view (1400 px), a collection chip on a phone starting at the top, copied finding text without
invisible marks. Screenshots in screenshots/newcomer/: look at them."""

from __future__ import annotations

import pytest

from test_journeys import browser, manifest, open_url, server, settle  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# The header cells glide-data-grid keeps in its accessible table: only the columns it draws.
HEADERS = """g => [...g.querySelectorAll('table [role="columnheader"], table th')]
    .map(h => h.textContent.trim()).filter(Boolean)"""


def _shot(page, name: str) -> None:
    from test_journeys import SHOTS

    folder = SHOTS.parent / "newcomer"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_review_list_leads_with_the_review_state_at_1400_px(server, browser):  # noqa: F811
    """The columns a reviewer works by (Review, then the score) are drawn without scrolling the
    grid sideways: before, Review and Draft were the last of ~15 columns, off-screen."""
    base, _ = server
    context, page = open_url(browser, base + "/review?collection=xhotpotqa&lang=th", height=1400)
    try:
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.wait_for(state="visible")
        page.wait_for_timeout(500)
        headers = grid.evaluate(HEADERS)
        _shot(page, "review-1400")
        assert headers[:2] == ["Review", "Score"], headers
        box = grid.bounding_box()
        assert box["x"] + box["width"] <= 1400, box
    finally:
        context.close()
