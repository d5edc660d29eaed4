"""AppTest over every registered page with the demo manifest (rule 15: one parametrized test)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from pages_index import page_cases, registered_pages

APP = "../app.py"


def test_app_registers_every_page_file():
    pages = sorted(page for _, page in registered_pages())
    files = sorted(f"pages/{p.name}" for p in (Path(__file__).resolve().parent.parent / "pages")
                   .glob("*.py"))
    assert pages == files and len(pages) == 23  # + Reviews (#18), Human ratings, Open from the Hub (#16), Drift (#43)


@pytest.mark.parametrize("page,collection", page_cases())
def test_page_runs_without_exception(page, collection):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = collection
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} shows no title"
