"""What users do, by clicking, in a real headless Chromium: a stakeholder reading the landing
page, a reviewer drilling from Languages into Review and through records, a collection switch in
the middle of a list, matrix and grid cells that open their rows, and the keyboard (the crash
matrix of every page × every collection is tests/test_page_matrix.py; the phone-width checks of
every page run in tests/test_accessibility.py's phone crawl).

One server runs on a manifest the test builds: the demo's collections, plus real third-party
data when ../shared/realdata is beside the checkout. Screenshots of every step land in
screenshots/journeys/: look at them.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import time
from pathlib import Path

import pytest

from browser_server import serving
from chromium import (browser, heatmap_cell, main_text, needs_chromium, no_exception, open_expander, switch_on,  # noqa: F401 (fixture)
                      open_url, params, ranking_grid, settle, wait_for_param)


ROOT = Path(__file__).resolve().parent.parent
from conftest import REAL_MANIFEST, REALDATA  # noqa: E402, F401 — ../shared/realdata, or JUDGESCOPE_SHARED
SHOTS = ROOT / "screenshots" / "journeys"
pytestmark = [pytest.mark.browser, needs_chromium]

DEMO_COLLECTIONS = ("xhotpotqa", "localgate", "transevalnia")
REAL_COLLECTIONS = ("real_audit", "real_pairs", "real_sample")


@pytest.fixture(scope="module")
def manifest(tmp_path_factory) -> Path:
    """The demo manifest and its files, plus the real data's collections when present."""
    folder = tmp_path_factory.mktemp("journeys")
    shutil.copytree(ROOT / "data" / "demo", folder / "demo")
    text = (ROOT / "data" / "sources.toml").read_text(encoding="utf-8")
    if REALDATA.is_dir():
        shutil.copytree(REALDATA, folder / "realdata")
        text += REAL_MANIFEST
    path = folder / "sources.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(manifest, tmp_path_factory):
    """`python -m judgescope.web.serve` on the test manifest; its log is checked for tracebacks."""
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(log, JUDGESCOPE_SOURCES=str(manifest)) as base:
        yield base, log


def shot(page, name: str) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside its main block, so the viewport
    is made as tall as that block for the picture, then restored."""
    size = page.viewport_size
    tall = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(tall, 6000))})
    page.wait_for_timeout(400)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    page.set_viewport_size(size)


def wait_for_text(page, text: str, timeout: int = 30_000) -> None:
    """Until the main block's text (main_text: without the marks around data text) shows `text`;
    a run the URL change started may still be drawing."""
    deadline = time.monotonic() + timeout / 1000
    while text not in (shown := main_text(page)):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never shown on {page.url}: {shown[:1500]}")
        page.wait_for_timeout(200)


def language_filter(page) -> str:
    """What Review's Language filter shows."""
    return page.get_by_role("combobox", name="Language").input_value()


def click_grid_row(page, grid, row: int) -> None:
    """Select row `row` (0-based) of a dataframe by its selection checkbox (canvas coordinates)."""
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 35 * row + 17)


def grid_marks(grid) -> list[int]:
    """The rows (0-based) whose selection checkbox is ticked, read from the drawn grid: a ticked
    box is filled with the theme's red. (The accessible table glide-data-grid keeps beside its
    canvas does not show a default selection, so it cannot be read for this.)"""
    from PIL import Image

    grid.scroll_into_view_if_needed()
    shot_ = Image.open(io.BytesIO(grid.screenshot())).convert("RGB")
    marks = []
    for row in range((shot_.height - 35) // 35):
        cx, cy = 15, 35 + 35 * row + 17  # as click_grid_row clicks
        box = [shot_.getpixel((x, y)) for x in range(cx - 6, cx + 7) for y in range(cy - 6, cy + 7)]
        if sum(r - g > 90 and r - b > 80 for r, g, b in box) > len(box) // 3:
            marks.append(row)
    return marks


def demo_record_ids(lang: str, unit: str) -> list[str]:
    import duckdb

    rows = duckdb.sql(
        "SELECT judge_record_id FROM read_parquet($p) WHERE target_language = $l AND unit = $u "
        "ORDER BY score, judge_record_id",
        params={"p": str(ROOT / "data/demo/xhotpotqa_judge_v2/data/*.parquet"), "l": lang, "u": unit})
    return [r[0] for r in rows.fetchall()]


# --- (a) the stakeholder -------------------------------------------------------------------

def test_stakeholder_reads_the_landing_page_and_follows_its_links(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/")
    try:
        text = main_text(page)
        shot(page, "a1-landing-xhotpotqa")
        assert "Mean judge score" in text and "95 % CI" in text
        assert "Weak cell: Thai (th) × answer" in text, text[:2000]
        page.get_by_role("link", name=re.compile("Review its rows")).first.click()
        page.wait_for_url(re.compile(r"/review\?"))
        wait_for_param(page, "lang", "th")
        assert params(page)["unit"] == ["answer"]
        assert "Thai (th)" in language_filter(page)
        shot(page, "a2-review-thai-answers")
        no_exception(page)

        # The panel verdict of the calibration collection, read from its landing page.
        page.get_by_role("link", name="Overview").click()
        settle(page)
        pick_collection(page, "LocalGate judge-panel calibration")
        text = main_text(page)
        shot(page, "a3-landing-localgate")
        assert re.search(r"FAIL · inconclusive\s*Panel \(strict majority of the judges\): "
                         r"π = 1999/2499 = 0\.79992 < 0\.8; the 95 % CI \[0\.6\d\d, 0\.9\d\d\] includes the gate",
                         text), text[:1500]
        assert "includes the gate" in text
        page.get_by_role("link", name=re.compile("panel's disagreements")).click()
        page.wait_for_url(re.compile(r"/disagreements\?"))
        settle(page)
        wait_for_text(page, "All disagreements (FP + FN)")  # the page's first computation
        # judge=panel and cell=disagree are the page's defaults, which a bound widget leaves out.
        assert params(page).get("judge", ["panel"]) == ["panel"]
        assert "panel (all judges) · All disagreements (FP + FN): 10 items" in main_text(page)
        shot(page, "a4-panel-disagreements")
        no_exception(page)
    finally:
        context.close()


def pick_collection(page, title: str) -> None:
    picker = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    picker.click()
    page.get_by_role("option", name=title).click()
    page.wait_for_timeout(300)
    settle(page)


# --- (b) the reviewer ----------------------------------------------------------------------

def test_reviewer_drills_from_languages_into_records_and_exports_them(server, browser, tmp_path):
    base, _ = server
    context, page = open_url(browser, base + "/languages?collection=xhotpotqa", height=1800)
    try:
        chart = page.locator('[data-testid="stPlotlyChart"]').first
        chart.wait_for(state="visible")
        page.wait_for_selector("g.draglayer .nsewdrag", state="attached")
        shot(page, "b1-languages")
        page.mouse.click(*heatmap_cell(chart, "Thai (th)", "Answer"))
        page.wait_for_url(re.compile(r"/review\?"), timeout=30_000)
        wait_for_param(page, "lang", "th")
        assert params(page)["unit"] == ["answer"], page.url
        assert "20 rows match" in main_text(page)
        shot(page, "b2-review-from-heatmap")

        # Open the first record of the list by its row, then the next one with the "j" key.
        ids = demo_record_ids("th", "answer")
        click_grid_row(page, page.locator('[data-testid="stDataFrame"]').first, 0)
        wait_for_param(page, "record", ids[0])
        wait_for_text(page, "Candidate · Thai (th)")
        # The list (an opened record shows grids of its own above it).
        grid = page.locator('[data-testid="stDataFrame"]').filter(has=page.locator("th", has_text="Candidate"))
        assert grid_marks(grid) == [0]  # the list marks the record shown above it
        shot(page, "b3-record-opened")
        page.locator("h1").first.click()  # focus out of the grid: its canvas takes keys
        page.keyboard.press("j")
        wait_for_param(page, "record", ids[1])
        settle(page)
        assert grid_marks(grid) == [1], "the mark stayed on the record left behind"
        shot(page, "b4-next-record")
        # Selecting the first row again opens it again (the mark is not a stale selection).
        click_grid_row(page, grid, 0)
        wait_for_param(page, "record", ids[0])
        settle(page)
        assert grid_marks(grid) == [0]
        no_exception(page)

        # The export carries the texts.
        export = open_expander(page, re.compile("Export all 20 filtered rows"))
        switch_on(page, export, "Prepare the export")
        open_expander(page, re.compile("Export all 20 filtered rows"))  # still open after the run
        with page.expect_download() as dl:
            export.get_by_role("button", name="⬇ CSV", exact=True).click()
        path = tmp_path / "rows.csv"
        dl.value.save_as(path)
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 20
        assert {"source_text", "candidate_text"} <= set(rows[0])
        assert all(r["source_text"] for r in rows)

        # The URL alone reopens the same record in a fresh browser.
        url = page.url
    finally:
        context.close()
    context, page = open_url(browser, url)
    try:
        assert params(page)["record"] == [ids[0]]
        assert ids[0] in main_text(page)
        assert "Thai (th)" in language_filter(page)
        shot(page, "b5-same-url-fresh-context")
    finally:
        context.close()


def test_tails_row_link_opens_review(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/languages?collection=xhotpotqa")
    try:
        grid = page.locator('[data-testid="stDataFrame"]:visible').first  # the phone table is hidden here
        grid.wait_for(state="visible")
        click_grid_row(page, grid, 0)  # the first tails row: the first language's first unit
        page.wait_for_url(re.compile(r"/review\?"), timeout=30_000)
        wait_for_param(page, "lang")
        assert params(page)["lang"] and params(page)["unit"], page.url
        no_exception(page)
    finally:
        context.close()


# --- (c) a collection switch in the middle of a list -----------------------------------------

@pytest.mark.skipif(not REALDATA.is_dir(), reason="needs a second audit collection (../shared/realdata)")
def test_collection_switch_on_review_page_two_starts_clean(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/review?collection=xhotpotqa")
    try:
        page.get_by_role("button", name="Next ▶").click()
        wait_for_param(page, "at", "51")
        assert "showing 51–100" in main_text(page)
        pick_collection(page, "GEMBA on WMT22 (real data)")
        assert params(page)["collection"] == ["real_audit"]
        assert "at" not in params(page) and "after" not in params(page)
        text = main_text(page)
        assert "360 rows match; showing 1–50" in text, text[:800]
        shot(page, "c1-switched-collection-page-one")
        # The real data is zh→en among others: its source heading comes from the data.
        click_grid_row(page, page.locator('[data-testid="stDataFrame"]').first, 0)
        wait_for_param(page, "record")
        assert re.search(r"(English|German|Russian|Mandarin Chinese) \(\w\w\) source", main_text(page))
        no_exception(page)
    finally:
        context.close()


@pytest.mark.skipif(not REALDATA.is_dir(), reason="needs a second audit collection (../shared/realdata)")
def test_collection_switch_with_url_bound_filters_and_a_record_starts_clean(server, browser):
    """The filters Streamlit binds to the URL (score range, unit, order) cannot be cleared as
    plain parameters: the switch must still start the new collection with none of them."""
    base, _ = server
    context, page = open_url(browser, base + "/review?collection=xhotpotqa&min=40&max=60&unit=answer"
                             "&order=highest+first")
    try:
        wait_for_text(page, "rows match")
        click_grid_row(page, page.locator('[data-testid="stDataFrame"]').first, 0)
        wait_for_param(page, "record")
        pick_collection(page, "GEMBA on WMT22 (real data)")
        assert params(page) == {"collection": ["real_audit"]}, page.url
        text = main_text(page)
        assert "360 rows match; showing 1–50" in text, text[:800]
        # The inputs show what filters the list: their defaults, not the old collection's values.
        shown = [i.input_value() for i in page.locator('[data-testid="stNumberInput"] input').all()]
        assert shown == ["0", "100"], shown
        assert page.locator('[data-testid="stAlertContentWarning"]').count() == 0, text[:800]
        no_exception(page)
    finally:
        context.close()


# --- (d) matrix and grid cells ---------------------------------------------------------------

def test_confusion_matrix_cell_lists_its_items(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/calibration?collection=localgate")
    try:
        page.get_by_role("link", name="FN · 8").first.click()
        page.wait_for_url(re.compile(r"/disagreements\?"))
        settle(page)
        assert params(page)["cell"] == ["FN"]
        assert re.search(r"FN: humans match, judge not: 8 items", main_text(page))
        shot(page, "d1-confusion-cell")
    finally:
        context.close()


def test_ranking_grid_cell_lists_its_pairs(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/ranking?collection=transevalnia", height=1600)
    try:
        chart, ys, xs = ranking_grid(page)
        # Not the first row or column: those are the selectors' defaults, which the URL leaves out.
        row, column = ys[1], xs[-1]
        page.mouse.click(*heatmap_cell(chart, row, column))
        wait_for_param(page, "decision")
        picked, dataset = params(page)["decision"][0], params(page).get("dataset", [xs[0]])[0]
        assert picked.replace("/", " · ") == row and dataset == column
        assert f"{picked} on {dataset}" in main_text(page)
        shot(page, "d2-ranking-cell")
        no_exception(page)
    finally:
        context.close()


def test_a_selection_does_not_outlive_the_list_it_was_made_in(server, browser):
    """Pairs: the list marks the opened pair, also after Next; a pair opened from the list stays
    open when a filter changes the list, and no other row of the new list is marked or opened in
    its place (Streamlit keeps a selection, a row position, for as long as a grid's key lives)."""
    base, _ = server
    context, page = open_url(browser, base + "/pairs?collection=transevalnia", height=1600)
    try:
        grid = page.locator('[data-testid="stDataFrame"]').first

        def row_cell(r: int) -> str:  # the Row column (0 is the selection column, 1 Dataset)
            return grid.locator(f'[data-testid="glide-cell-2-{r}"]').inner_text()

        click_grid_row(page, grid, 2)
        wait_for_param(page, "row", row_cell(2))
        settle(page)
        assert grid_marks(grid) == [2]
        page.locator("h1").first.click()  # focus out of the grid: its canvas takes keys
        page.keyboard.press("j")
        wait_for_param(page, "row", row_cell(3))
        settle(page)
        assert grid_marks(grid) == [3], "the mark stayed on the pair left behind"
        opened = (params(page)["file"], params(page)["row"])
        heading = page.locator('[data-testid="stMainBlockContainer"] h2').first.inner_text()
        page.get_by_role("combobox", name="Human preference").click()
        page.get_by_role("option").nth(1).click()
        wait_for_param(page, "human")
        page.keyboard.press("Escape")
        settle(page)
        assert (params(page)["file"], params(page)["row"]) == opened, page.url
        assert page.locator('[data-testid="stMainBlockContainer"] h2').first.inner_text() == heading
        marks = grid_marks(grid)
        assert len(marks) <= 1 and all(row_cell(r) == opened[1][0] for r in marks), marks
        shot(page, "d3-pairs-filter-kept-the-pair")
        no_exception(page)
    finally:
        context.close()


# --- (e) the keyboard ------------------------------------------------------------------------

def test_keyboard_reaches_filters_and_opens_a_row(server, browser):
    base, _ = server
    context, page = open_url(browser, base + "/review?collection=xhotpotqa")
    try:
        # Streamlit's own skip link is the first stop; it moves focus past the sidebar.
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.textContent")
        assert focused.strip() == "Skip to main content"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "stMain"
        # The Language filter: type a name, Enter picks it.
        page.get_by_role("combobox", name="Language").focus()
        page.keyboard.type("Thai")
        page.keyboard.press("Enter")
        wait_for_param(page, "lang", "th")
        page.keyboard.press("Tab")  # to the next control: Enter there must not wipe the filter
        label = page.evaluate("(document.activeElement.getAttribute('aria-label') || '') + "
                              "document.activeElement.textContent")
        print("focused after the filter:", label)
        page.keyboard.press("Enter")
        page.wait_for_timeout(800)
        settle(page)
        assert params(page)["lang"] == ["th"], page.url
        # Open a row with the keyboard: the record picker under the list.
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        picker = page.get_by_label("Open a record of this page")
        option = page.get_by_role("option").first
        for attempt in range(3):  # a late rerun can redraw the picker and close its list
            picker.focus()
            page.keyboard.press("ArrowDown")  # opens the list; a loaded machine draws it late
            try:
                option.wait_for(state="visible", timeout=15_000)
                break
            except PlaywrightTimeout:
                if attempt == 2:
                    raise
                settle(page)
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        wait_for_param(page, "record")
        assert params(page)["record"][0] in main_text(page)
        shot(page, "e1-keyboard-record")
    finally:
        context.close()


def test_selecting_a_row_opens_it_in_the_same_tab(server, browser):
    """Issue #22 item 5: a Disagreements item and a Themes term open in this tab when their row
    is selected (the Open column is the same URL, for a new tab or to share)."""
    base, _ = server
    context, page = open_url(browser, base + "/disagreements?collection=localgate&judge=judge%3Agptoss&cell=FN")
    try:
        grid = page.locator('[data-testid="stDataFrame"]:visible').first
        grid.wait_for(state="visible")
        click_grid_row(page, grid, 0)
        wait_for_param(page, "item")
        assert params(page)["judge"] == ["judge:gptoss"] and params(page)["cell"] == ["FN"]
        assert len(context.pages) == 1
        page.goto(base + "/themes?collection=xhotpotqa&lang=th")
        grid = page.locator('[data-testid="stDataFrame"]:visible').first
        grid.wait_for(state="visible")
        settle(page)
        click_grid_row(page, grid, 0)
        shot(page, "r7-themes-row-selected")
        page.wait_for_url(re.compile(r"/review\?"), timeout=30_000, wait_until="commit")
        wait_for_param(page, "q")
        assert params(page)["lang"] == ["th"] and len(context.pages) == 1
        no_exception(page)
    finally:
        context.close()


def test_server_log_has_no_traceback_after_the_journeys(server, request):
    """Runs last in this module (it is the file's last test, and checks that it runs last among
    those selected): the whole crawl left no traceback in the server log."""
    here = [item for item in request.session.items if item.path == request.node.path]
    assert here[-1] is request.node, f"runs before {here[-1].name}: move it to the end of the file"
    _, log = server
    logged = log.read_text(errors="replace")
    assert "Traceback" not in logged, logged[-3000:]
