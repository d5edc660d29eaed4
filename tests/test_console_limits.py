"""The SQL console's hostile cases of issue #39: a deeply nested query is refused with a reason,
not a RecursionError (item 13); a console query dies with the server that started it, its CPU
time is bounded in the child, and a child ended by a signal is reported by that signal, not as
out of memory (item 14)."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from judgescope.console import console_worker, sql_console
from judgescope.duck import console_guard

from judgescope.duck import db
from stores import write_select

ROOT = Path(__file__).resolve().parent.parent
LONG = "SELECT count(*) FROM range(100000000000000) t(i) WHERE i % 7 = 3"  # hours of one core


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = write_select(tmp_path_factory.mktemp("console") / "audit.parquet",
                        "SELECT i AS id, i % 100 AS score FROM range(50) t(i)")
    with db.Store({"audit": [path]}) as s:
        yield s


def nested_select(levels: int) -> str:
    return "SELECT " + "(SELECT " * levels + "1" + ")" * levels


def nested_from(levels: int) -> str:
    return "SELECT * FROM " + "(SELECT * FROM " * levels + "audit" + ")" * levels


@pytest.mark.parametrize("sql,reason", [
    (nested_select(400), "nested too deeply (its syntax tree is"),
    (nested_from(400), "nested too deeply (its syntax tree is"),
    ("SELECT " + "+".join(["score"] * 1000) + " FROM audit", "nested too deeply (its syntax tree is"),
    ("SELECT " + "(" * 5000 + "1" + ")" * 5000, "nested too deeply for DuckDB's parser"),
    (nested_from(900), "nested too deeply (its syntax tree is"),
    (nested_select(5000), "longer than 20,000 characters"),
], ids=["400 scalar subqueries", "400 FROM subqueries", "a 1000-term sum", "5000 parentheses",
        "900 FROM subqueries", "5000 subqueries"])
def test_a_deeply_nested_query_is_refused_with_its_reason(store, sql, reason):
    with pytest.raises(sql_console.Refused, match="refused: ") as err:
        sql_console.run_console(store, sql)
    assert reason in str(err.value)
    assert "SET" not in str(err.value)  # DuckDB's hint to raise its limit is not passed on


def test_a_moderately_nested_query_still_runs(store):
    assert sql_console.run_console(store, nested_from(40)).rows.shape == (50, 2)
    assert sql_console.run_console(store, nested_select(60)).rows.iloc[0, 0] == 1


def test_the_depth_refusal_holds_deep_in_the_callers_stack():
    """json.loads' limit is shared with the caller's frames: a tree the depth check lets through
    is still refused, not raised, when the caller is itself deep (the RecursionError fallback)."""
    def deep(n):
        return deep(n - 1) if n else console_guard.loads("[" * 590 + "]" * 590, "syntax tree")
    with pytest.raises(console_guard.Refused, match="nested too deeply"):
        deep(sys.getrecursionlimit() - 300)
    assert console_guard.depth('[{"a": "[[[[ \\" ]]"}]') == 2  # brackets in strings do not count


def test_a_deep_plan_is_refused_not_raised():
    """The child's plan check reads EXPLAIN's JSON through the same depth check."""
    plan = '{"name": "P", "children": [' * 2000 + "]}" * 2000
    with pytest.raises(console_guard.Refused, match="nested too deeply \\(its plan is 4,000 levels"):
        console_guard.operators(plan)
    assert console_guard.operators('[{"name": "SEQ_SCAN ", "children": []}]') == ["SEQ_SCAN"]


PARENT = textwrap.dedent("""
    import subprocess, sys
    from pathlib import Path
    from judgescope.console import console_worker
    real = subprocess.Popen
    class Told(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            print(self.pid, flush=True)
    subprocess.Popen = Told
    console_worker.run({"audit": [Path(sys.argv[1])]}, sys.argv[2], 10, 3600, 10_000, "256MB")
""")


def _state(pid: int) -> str | None:
    """The process's state letter, None when it no longer exists (a zombie counts as gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state = text.rsplit(")", 1)[1].split()[0]
    return None if state in ("Z", "X") else state


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_console_query_dies_with_its_killed_parent(store):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(store.views["audit"][0]), LONG],
                              stdout=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        child = int(parent.stdout.readline())
        # The child is running the query (CPU spent past its imports): its request is in place.
        assert _wait(lambda: _state(child) is not None and _cpu_ticks(child) > 300, 120)
        parent.kill()  # kill -9: no cleanup of the parent's runs
        parent.wait()
        assert _wait(lambda: _state(child) is None, 20), "the console child outlived its parent"
    finally:
        parent.kill()
        if _state(child) is not None:
            os.kill(child, signal.SIGKILL)


def test_the_child_bounds_its_own_cpu_time(store):
    statement = db.console_statement(LONG)
    with pytest.raises(sql_console.Refused, match=r"used more than its 2 s of CPU time .*SIGXCPU"):
        console_worker.run(store.views, statement, 10, 300, 10_000, "256MB", cpu=2)


def test_a_child_killed_from_outside_is_reported_as_killed(store, monkeypatch):
    started = []
    real = subprocess.Popen

    class Seen(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            started.append(self.pid)
    monkeypatch.setattr(console_worker.subprocess, "Popen", Seen)
    answer = {}

    def ask():
        try:
            sql_console.run_console(store, LONG, seconds=300)
        except sql_console.Refused as err:
            answer["error"] = str(err)
    thread = threading.Thread(target=ask)
    thread.start()
    assert _wait(lambda: bool(started), 60)
    assert _wait(lambda: _cpu_ticks(started[0]) > 100, 120)
    os.kill(started[0], signal.SIGTERM)
    thread.join(60)
    assert "killed from outside (SIGTERM)" in answer["error"]
    assert "memory" not in answer["error"]


@pytest.mark.parametrize("code,words", [
    (-signal.SIGKILL, "killed from outside (SIGKILL)"),
    (-signal.SIGTERM, "killed from outside (SIGTERM)"),
    (-signal.SIGXCPU, "used more than its 7 s of CPU time"),
    (-signal.SIGSEGV, "crashed (SIGSEGV)"),
    (3, "needed more than the console's 2.5 GB of memory"),
    (1, "ended without an answer (exit 1)"),
])
def test_how_a_child_ended_is_said(code, words):
    with pytest.raises(sql_console.Refused) as err:
        console_worker._result(b"", b"Traceback ...\n", code, 7)
    assert words in str(err.value)
    assert json.dumps(str(err.value))  # one plain sentence
