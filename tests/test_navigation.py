"""The one page registry: every page file is declared once, and a collection's roles decide
which pages it can fill."""

from pathlib import Path

import pytest

from judgescope import navigation

ROOT = Path(__file__).resolve().parent.parent


def test_every_page_file_is_registered_once():
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
    declared = [p.path for p in navigation.PAGES]
    assert sorted(declared) == files
    assert len(set(declared)) == len(declared)
    assert [p.path for p in navigation.PAGES if p.default] == ["pages/overview.py"]


def test_pages_follow_the_collection_roles():
    audit_only = {p.title for p in navigation.available({"audit": 1})}
    assert {"Overview", "Excluded rows", "Distributions", "Review"} <= audit_only
    assert "Integrity" not in audit_only and "Judges vs humans" not in audit_only
    assert "Integrity" in {p.title for p in navigation.available({"audit": 1, "snapshot": 1})}
    calibration = {p.title for p in navigation.available({"items": 1, "judgements": 1})}
    assert {"Judges vs humans", "Human agreement", "Disagreements", "Bulk judgements"} <= calibration
    assert "Review" not in calibration


def test_collections_that_fill_a_page():
    spec = navigation.page("languages")
    roles = {"a": {"audit": 1}, "b": {"items": 1}, "c": {"audit": 1, "snapshot": 1}}
    assert navigation.collections_for(spec, roles) == ["a", "c"]


def test_links_are_relative_and_carry_lists():
    review = navigation.page("pages/review.py")
    assert navigation.href(review, collection="x", lang=["th", "el"], q="") == \
        "review?collection=x&lang=th&lang=el"
    assert navigation.href(navigation.page(""), collection="x") == "./?collection=x"


def test_unknown_page_is_named():
    with pytest.raises(KeyError):
        navigation.page("nope")
