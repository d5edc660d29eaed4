"""The sidebar hash badge, the visible diffs, and the Integrity page on fixtures built in code."""

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from judgescope.integrity import hashes as verify
from test_verify import CASES, NFC_CAFE, NFD_CAFE, write_fixture

APP = "../app.py"


def _summary(verified: int, checked: int) -> verify.Summary:
    counts = dict.fromkeys(verify.CLASSES, 0)
    counts["verified"], counts["missing"] = verified, checked - verified
    return verify.Summary(counts, pd.DataFrame(columns=["target_language", "unit", "class", "hint", "rows"]), 0)


@pytest.mark.parametrize("summary,origin,text,colour", [
    (_summary(2760, 2760), "owner/name@abc1234", "2,760 / 2,760 verified against owner/name@abc1234", "green"),
    (_summary(2750, 2760), "demo/snap", "10 problems: 2,750 / 2,760 verified against demo/snap", "red"),
    (_summary(0, 1), "demo/snap", "1 problem: 0 / 1 verified against demo/snap", "red"),
    (None, None, "not verified: no snapshot in this collection", "gray"),
])
def test_badge_text(summary, origin, text, colour):
    assert verify.badge(summary, origin) == (text, colour)


def test_nfd_accent_and_trailing_space_are_made_visible():
    left, right = verify.mark_differences(NFD_CAFE, NFC_CAFE)
    assert "⟦e⟨U+0301⟩⟧" in left and "⟦é⟧" in right
    left, right = verify.mark_differences("Paris ", "Paris")
    assert left == "Paris⟦⟨space⟩⟧" and right == "Paris⟦⟧"


def test_explain_side_shows_the_normalised_match():
    view = verify.explain_side(NFD_CAFE, "stored", "other", "nfc")
    assert not view["ok"] and "⟨U+0301⟩" in view["text"] and "⟦é⟧" in view["diff"]
    plain = verify.explain_side("x ", "h", "h", None)  # verified, but a trailing space still shows
    assert plain["ok"] and plain["text"] == "x⟦⟨space⟩⟧" and plain["diff"] is None
    assert verify.explain_side("ข้อความ", "h", "h", None)["text"] == "ข้อความ"  # Thai marks untouched


@pytest.fixture
def fixture_app(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_fixture(tmp_path / "fx")))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "fx"
    return at


def _plain(markdown: str) -> str:
    """The words of a badge the sidebar escaped with text.md_literal (backslashes, word joiners, isolates)."""
    return "".join(c for c in str(markdown).replace("\\", "") if c not in "\u2060\u2068\u2069")


def _texts(at) -> str:
    parts = [m.value for m in at.sidebar.markdown] + [m.value for m in at.markdown]
    parts += [t.value for t in at.text] + [c.value for c in at.caption]
    return "\n".join(map(str, parts))


def test_integrity_page_lists_problems(fixture_app):
    at = fixture_app
    at.run()
    at.switch_page("pages/integrity.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="class").value == "source_mismatch"
    at.radio(key="class").set_value("candidate_mismatch").run()
    assert not at.exception
    shown = _texts(at)
    assert "r_nfd" in shown and "would match after nfc" in shown
    assert [m.value for m in at.metric][:3] == ["8", "3", "5"]


def test_integrity_class_comes_from_the_url(fixture_app):
    at = fixture_app
    at.query_params["class"] = "ambiguous"
    at.run()
    at.switch_page("pages/integrity.py").run()
    assert not at.exception and at.radio(key="class").value == "ambiguous"
    assert not at.warning  # a valid value raises no notice


def test_sidebar_badge_links_problems(fixture_app):
    at = fixture_app
    at.run()
    assert not at.exception
    links = [e for e in at.sidebar if getattr(e, "proto", None) is not None
             and "problems" in str(getattr(e.proto, "label", ""))]
    assert links and "5 problems" in str(links[0].proto.label)
    assert links[0].proto.page.endswith("integrity") or "integrity" in str(links[0].proto)
    assert any("3 / 8 verified against snapshot.jsonl" in _plain(m.value) for m in at.sidebar.markdown)


def test_sidebar_badge_green_when_all_verified(tmp_path, monkeypatch):
    manifest = write_fixture(tmp_path / "ok", [c for c in CASES if c[8] == "verified"])
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception
    assert any("3 / 3 verified against snapshot.jsonl" in _plain(m.value) for m in at.sidebar.markdown)
