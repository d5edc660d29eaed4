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


def test_the_server_skips_streamlits_repl_check(monkeypatch):
    """Issue 45 item 3: the first element of a process would run Streamlit's REPL check
    (inspect.stack(), 0.1-0.25 s of the first page); the server, started by `streamlit run`,
    marks it done, and the installed Streamlit still has the flag it sets."""
    from streamlit import delta_generator, env_util

    calls = []
    monkeypatch.setattr(env_util, "is_repl", lambda: calls.append(1) or False)
    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    delta_generator._maybe_print_use_warning()
    assert calls == [1]  # the check runs once per process…
    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    serve.skip_repl_check()
    delta_generator._maybe_print_use_warning()
    assert calls == [1]  # …and not after the server has marked it done
