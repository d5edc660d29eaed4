"""Issue #14 item 9: serve.warm no longer hides what goes wrong in its background thread."""

import logging

import pytest

from judgescope import wiring
from judgescope.web import serve
from judgescope.ingest.manifest import SourceError


def _raise(err):
    def get_catalog():
        raise err
    return get_catalog


def test_an_unexpected_error_is_logged_with_its_traceback(monkeypatch, caplog):
    monkeypatch.setattr(wiring, "get_catalog", _raise(KeyError("our own bug")))
    with caplog.at_level(logging.INFO, logger="judgescope.web.serve"):
        serve.warm()
    record = next(r for r in caplog.records if r.name == "judgescope.web.serve")
    assert record.levelno == logging.ERROR and record.exc_info[0] is KeyError


def test_an_unusable_dataset_is_noted_for_the_page(monkeypatch, caplog):
    monkeypatch.setattr(wiring, "get_catalog", _raise(SourceError("no such file")))
    with caplog.at_level(logging.INFO, logger="judgescope.web.serve"):
        serve.warm()
    record = next(r for r in caplog.records if r.name == "judgescope.web.serve")
    assert record.levelno == logging.WARNING and "no such file" in record.getMessage()


def test_a_keyboard_interrupt_is_not_swallowed(monkeypatch):
    monkeypatch.setattr(wiring, "get_catalog", _raise(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        serve.warm()
