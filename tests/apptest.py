"""Open one page of the app in AppTest the way a user arrives: collection and URL parameters
first, then the page; a page that raises fails the test."""

from streamlit.testing.v1 import AppTest

APP = "../app.py"  # relative to the test file, as AppTest.from_file takes it


def open_page(page: str, collection: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = collection
    at.run()
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at
