"""A dataset one visitor opens from the Hub is not listed in another visitor's picker."""

from streamlit.testing.v1 import AppTest

from judgescope.remote import hub_open
from judgescope.web import context
from judgescope.wiring import get_catalog
from judgescope.ingest.manifest import Collection


def test_session_collections_are_listed_only_where_opened(monkeypatch):
    cat = get_catalog()
    name = "hub-someone-else-0000000"
    monkeypatch.setitem(cat.manifest.collections, name,
                        Collection(name=name, title="Hub: someone/else", datasets=[]))
    monkeypatch.setattr(hub_open, "SESSION_COLLECTIONS", {name})
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    assert name not in at.sidebar.selectbox(key=context.PICKER_KEY).options
    assert "Hub: someone/else" not in at.sidebar.selectbox(key=context.PICKER_KEY).options
