"""AppTest over every registered page with the demo manifest (rule 15: one parametrized test)."""

import pytest
from streamlit.testing.v1 import AppTest

from pages_index import page_cases, registered_pages

APP = "../app.py"


def test_app_registers_pages():
    assert len(registered_pages()) >= 2


@pytest.mark.parametrize("page,collection", page_cases())
def test_page_runs_without_exception(page, collection):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = collection
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} shows no title"
