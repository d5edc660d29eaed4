"""Issue #25 item 2: a file uploaded on Overview becomes a collection of that browser session
only, validated exactly as a manifest dataset (a hostile file gets the CLI's words), under a size
cap; on locally, off on a public deployment unless JUDGESCOPE_ALLOW_UPLOAD=1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_server import serving
from chromium import needs_chromium

from judgescope.cli import main
from judgescope.remote import upload
from judgescope.ingest.manifest import SourceError
from judgescope.web.serve import upload_options

ROOT = Path(__file__).resolve().parent.parent
GOOD = "".join(json.dumps({"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment",
                           "score": 50 + i}) + "\n" for i in range(6))
HOSTILE = GOOD + '{"judge_record_id": "r9", "target_language": "de", "unit": "segment", "score": 500}\nnot json\n'


def test_on_locally_off_on_a_space_unless_asked(monkeypatch):
    monkeypatch.delenv("JUDGESCOPE_ALLOW_UPLOAD", raising=False)
    monkeypatch.delenv("SPACE_ID", raising=False)
    assert upload.allowed()
    monkeypatch.setenv("SPACE_ID", "team/judgescope")
    assert not upload.allowed()
    assert "--server.enableXsrfProtection=false" not in upload_options([])
    monkeypatch.setenv("JUDGESCOPE_ALLOW_UPLOAD", "1")
    assert upload.allowed()
    # inside the Space's iframe the XSRF cookie is third-party: uploads need it off there
    assert "--server.enableXsrfProtection=false" in upload_options([])
    assert upload_options(["--server.enableXsrfProtection=true"]).count(
        "--server.enableXsrfProtection=true") == 1
    monkeypatch.delenv("SPACE_ID")
    monkeypatch.setenv("JUDGESCOPE_ALLOW_UPLOAD", "0")
    assert not upload.allowed()


def test_an_upload_is_validated_as_a_manifest_dataset(catalog):
    name = upload.add_upload(catalog, "my audit.jsonl", GOOD.encode())
    assert name in upload.UPLOAD_COLLECTIONS
    loaded = catalog.dataset(name)
    assert loaded.ok, loaded.error
    assert loaded.spec.kind == "judge_audit" and loaded.report["rows_used"] == 6
    assert catalog.manifest.collections[name].title == "Upload: My audit"


def test_a_hostile_upload_gets_the_same_ledger_as_the_cli(catalog, tmp_path, capsys):
    name = upload.add_upload(catalog, "bad.jsonl", HOSTILE.encode())
    loaded = catalog.dataset(name)
    assert loaded.ok and loaded.report["rows_excluded"] == 2
    src = tmp_path / "bad.jsonl"
    src.write_text(HOSTILE, encoding="utf-8")
    assert main(["validate", str(src)]) == 1
    printed = capsys.readouterr().out
    for reason in loaded.report["reasons"]:
        assert reason in printed


def test_the_cap_and_the_file_type_hold(catalog, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_UPLOAD_MAX_BYTES", "100")
    with pytest.raises(SourceError, match=r"over the upload cap of 100 bytes"):
        upload.add_upload(catalog, "a.jsonl", GOOD.encode())
    monkeypatch.delenv("JUDGESCOPE_UPLOAD_MAX_BYTES")
    with pytest.raises(SourceError, match="unsupported file type '.exe'"):
        upload.add_upload(catalog, "a.exe", b"MZ")
    monkeypatch.setenv("JUDGESCOPE_ALLOW_UPLOAD", "0")
    with pytest.raises(SourceError, match="switched off"):
        upload.add_upload(catalog, "a.jsonl", GOOD.encode())


# --- in Chromium ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(log, drop=("SPACE_ID", "JUDGESCOPE_ALLOW_UPLOAD"), JUDGESCOPE_UPLOAD_MAX_BYTES="4000") as base:
        yield base


def _upload(browser, base, path: Path):
    from chromium import settle

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{base}/?collection=xhotpotqa", wait_until="domcontentloaded")
    settle(page)
    page.get_by_text("Open a file of your own").click()
    page.locator('input[type="file"]').set_input_files(str(path))
    page.wait_for_timeout(1500)
    page.get_by_test_id("stBaseButton-secondaryFormSubmit").click()
    page.wait_for_timeout(1000)
    settle(page)
    return context, page


@pytest.mark.browser
@needs_chromium
def test_upload_in_chromium_is_for_this_session_only(server, tmp_path):
    from playwright.sync_api import sync_playwright

    from chromium import launch, main_text, no_exception, settle

    good, bad, big = tmp_path / "my_audit.jsonl", tmp_path / "bad.jsonl", tmp_path / "big.jsonl"
    good.write_text(GOOD, encoding="utf-8")
    bad.write_text(HOSTILE, encoding="utf-8")
    big.write_text(GOOD * 20, encoding="utf-8")
    with sync_playwright() as p:
        browser = launch(p)
        try:
            context, page = _upload(browser, server, good)
            no_exception(page)
            text = main_text(page)
            assert "my_audit.jsonl: judge_audit, loaded 6 = used 6 + excluded 0" in text, text[-800:]
            page.get_by_role("link", name="Distributions").last.click()
            page.wait_for_url("**/distributions?collection=upload-*", timeout=30_000)
            settle(page)
            name = page.url.split("collection=")[1].split("&")[0]
            assert name.startswith("upload-my_audit-"), page.url
            assert main_text(page).startswith("Score distributions")
            assert "Not enough" not in main_text(page) and "has no audit" not in main_text(page)
            # another browser context (another visitor) with the same URL does not see it
            other = browser.new_context()
            page2 = other.new_page()
            page2.goto(f"{server}/?collection={name}", wait_until="domcontentloaded")
            settle(page2)
            assert "Upload: My audit" not in main_text(page2)
            assert "xhotpotqa" in page2.url and name not in page2.url
            other.close()
            context.close()

            context, page = _upload(browser, server, bad)
            text = main_text(page)
            assert "loaded 8 = used 6 + excluded 2" in text, text[-800:]
            context.close()

            context, page = _upload(browser, server, big)
            text = main_text(page)
            assert "over the upload cap of 4,000 bytes" in text or "4KB" in text or \
                "exceeds" in text.lower(), text[-800:]
            context.close()
        finally:
            browser.close()
