"""First-open progress (issue #28 item 4): the stages, row groups and time-left estimate told to
a listener, plain lines on the CLI when piped, a tqdm bar on a terminal. No timing is asserted:
clocks are fakes and a poll is awaited by an event, never measured."""

import io
import threading

import pytest

from bench import generate as gen
from judgescope.sources import catalog
from judgescope.wiring import TABLES
from judgescope.duck import progress


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_estimate_is_elapsed_times_weight_left_over_weight_done():
    clock, events = Clock(), []
    with progress.reporting(events.append, clock=clock) as tracker:
        tracker.declare(["read", "sorted write", "ledger"], "d: ")  # weights 1, 4, 0.5
        with progress.stage("read", prefix="d: "):
            clock.now = 12.0
        with progress.stage("sorted write", prefix="d: "):
            pass
    start_write = next(e for e in events if e.stage == "d: sorted write")
    assert (start_write.index, start_write.stages) == (2, 3)
    assert start_write.fraction == pytest.approx(1 / 5.5)
    assert start_write.remaining == pytest.approx(12.0 * 4.5 / 1)
    assert "Stage 2 of 3 · d: sorted write · about 54 s left" == start_write.text()
    assert events[-1].done and events[-1].fraction == 1.0 and events[-1].text().startswith("Opened in 12 s")


def test_no_estimate_before_any_weight_is_done():
    events = []
    with progress.reporting(events.append, clock=Clock()):
        with progress.stage("read"):
            pass
    assert events[0].remaining is None and events[0].index == 1


class FakeConnection:
    """query_progress as DuckDB reports it: -1 when it has nothing, then a percentage."""

    def __init__(self, values):
        self.values, self.settings = list(values), []

    def execute(self, sql):
        self.settings.append(sql)

    def query_progress(self):
        return self.values.pop(0) if len(self.values) > 1 else self.values[0]


def test_duckdb_progress_within_a_stage_moves_the_bar_and_counts_row_groups():
    from judgescope.ingest.build import ROW_GROUP_ROWS
    seen, got = [], threading.Event()

    def listen(e):
        seen.append(e)
        if e.row_groups and e.row_groups[0] > 0:
            got.set()

    con = FakeConnection([-1, 50.0])
    attached = []
    with progress.reporting(listen, attach=attached.append, clock=Clock(), poll=0.001):
        with progress.stage("sorted write", con, rows=10 * ROW_GROUP_ROWS):
            assert got.wait(30)  # the poller thread reported DuckDB's 50 %
    half = next(e for e in seen if e.row_groups and e.row_groups[0])
    assert half.row_groups == (5, 10) and half.fraction == pytest.approx(0.5)
    assert "SET enable_progress_bar = true" in con.settings
    assert len(attached) == 1 and attached[0].name == "judgescope-progress"  # the web attaches its context


def test_without_a_listener_a_stage_touches_nothing():
    con = FakeConnection([10.0])
    with progress.stage("read", con):
        pass
    assert con.settings == []


def test_a_first_open_reports_every_stage_as_plain_lines_when_piped(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "cache"))
    manifest = gen.generate(3_000, tmp_path / "data")
    out = io.StringIO()  # not a TTY
    with progress.cli_reporter(out):
        catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES).store(gen.COLLECTION)
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("Opened in ")
    stages = [line for line in lines if line.startswith("Stage ")]
    assert any("bench_audit: sorted write" in line for line in stages)
    assert any("bench_snapshot: read" in line for line in stages)
    assert any("hash verification" in line for line in stages)
    numbers = [int(line.split()[1]) for line in stages]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)  # one line per stage
    # a second open reads the cache: nothing is built, nothing is printed
    again = io.StringIO()
    with progress.cli_reporter(again):
        catalog.Catalog(catalog.load_manifest(manifest), providers=TABLES).store(gen.COLLECTION)
    assert again.getvalue() == ""


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_tqdm_bar():
    out = Tty()
    with progress.cli_reporter(out):
        with progress.stage("read"):
            pass
    text = out.getvalue()
    assert "%|" in text and "first open" in text and "Opened in" in text


def test_row_groups_shown_are_the_cache_row_groups():
    from judgescope.ingest.build import ROW_GROUP_ROWS
    assert progress.GROUP_ROWS == ROW_GROUP_ROWS
    assert progress.row_groups(ROW_GROUP_ROWS + 1) == 2 and progress.row_groups(0) is None


def test_a_listener_that_fails_in_the_poller_stops_updates_not_the_build(monkeypatch):
    calls, got, unhandled = [], threading.Event(), []
    monkeypatch.setattr(threading, "excepthook", unhandled.append)  # a thread that died of it

    class Gone(BaseException):  # as Streamlit's script-control exceptions are
        pass

    def listen(e):
        calls.append(e)
        if threading.current_thread() is not threading.main_thread():  # the poller's update
            got.set()
            raise Gone

    with progress.reporting(listen, clock=Clock(), poll=0.001):
        with progress.stage("sorted write", FakeConnection([40.0])):
            assert got.wait(30)
    assert calls[-1].done  # the build finished and said so from its own thread
    assert unhandled == []
