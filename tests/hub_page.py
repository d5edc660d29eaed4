"""Shared by the Open from the Hub page tests (test_hub_open.py with a local cache,
test_hub_offline.py without a network): the page on a manifest with no dataset, a repo id typed
and submitted."""

from streamlit.testing.v1 import AppTest

from apptest import APP
from conftest import EMPTY_MANIFEST


def submit_repo(repo: str, use_manifest) -> AppTest:
    """The Open from the Hub page after `repo` (default revision) was submitted; it must not raise."""
    use_manifest(EMPTY_MANIFEST)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/hub_open.py").run()
    at.text_input(key="repo").input(repo)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at
