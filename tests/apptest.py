"""Open one page of the app in AppTest the way a user arrives: collection and URL parameters
first, then the page; a page that raises fails the test."""

import pyarrow as pa
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


def shown_table(element) -> tuple:
    """A table element's data as Streamlit sends it to the browser (an Arrow table), read without
    building a DataFrame: each column's name, type and values, with NaN made comparable. Arrow's
    own equality holds NaN unequal to NaN, and the IPC bytes of equal tables can differ."""
    table = pa.ipc.open_stream(element.proto.arrow_data.data).read_all()
    return tuple((field.name, str(field.type),
                  tuple(v if v == v else "NaN" for v in table.column(i).to_pylist()))
                 for i, field in enumerate(table.schema))
