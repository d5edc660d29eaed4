"""Shared by the Review page tests (test_review_loop_pages.py, test_reviews_pages.py): a reviews
database of the test's own, with reviewing on, and the record the page has open in its URL."""

import pytest


@pytest.fixture
def state(tmp_path, monkeypatch):
    path = tmp_path / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(path))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    return path


def record_in_url(at) -> str:
    """The judge_record_id of the record open on Review (?record=)."""
    value = at.query_params["record"]
    return value[0] if isinstance(value, list) else value
