"""The SQL console's query, run in a child process so every limit is a hard one: the child
bounds its own memory (RLIMIT_DATA) before importing DuckDB, opens a locked connection over the
collection's views with no spill folder (it cannot write a file anywhere), refuses a plan that
writes (console_guard.check_plan), and streams at most max_rows rows and max_bytes bytes back as
Arrow IPC. The parent kills it when the wall limit (planning, running and fetching) passes;
the child bounds its own CPU time too (RLIMIT_CPU) and asks the kernel to kill it when its parent
dies (PR_SET_PDEATHSIG on Linux), so a query never outlives a killed server. A child that ends
on a signal is reported by that signal (CPU limit, killed from outside), not as out of memory.
This module is the parent's side; the child's is console_child.py (which opens the connection
through db.py, so the two sides never import each other)."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

import pandas as pd

MAX_BYTES = 50_000_000  # the result's Arrow size; the row cap holds too
MEMORY_BOUND = 5 << 29  # bytes of heap the child may allocate (DuckDB's own strings included)
CHILD_MEMORY_LIMIT = "1GB"  # DuckDB's buffer pool inside that bound
BATCH_ROWS = 64
MAX_RUNNING = 2  # console queries running at once in this process; the next waits its turn
_RUNNING = threading.BoundedSemaphore(MAX_RUNNING)
ROOT = Path(__file__).resolve().parent.parent.parent
PARENT_ENV = "JUDGESCOPE_CONSOLE_PARENT"  # the parent's pid: a child whose parent is gone exits
MEMORY_EXIT = 3  # the child's exit status when Python ran out of its memory bound


def cpu_seconds(seconds: float) -> int:
    """The child's CPU-time bound: the wall limit on every core DuckDB may use, and a margin for
    starting Python and importing DuckDB."""
    return math.ceil(seconds * max(1, os.cpu_count() or 1)) + 5


class ConsoleResult(NamedTuple):
    rows: pd.DataFrame  # (the worker's own result holds the Arrow table; db.py converts it)
    truncated: str | None  # None, "rows" (the row cap cut it) or "bytes" (the byte cap did)


def run(views: dict, statement: str, max_rows: int, seconds: float, max_bytes: int,
        memory_limit: str, cpu: int | None = None) -> ConsoleResult:
    """The checked statement's capped result, from a child process killed after `seconds` of wall
    time or `cpu` seconds of CPU time (cpu_seconds(seconds) by default)."""
    from judgescope.duck.console_guard import Refused

    cpu = int(cpu or cpu_seconds(seconds))
    job = json.dumps({"views": {k: [str(p) for p in v] for k, v in views.items()},
                      "sql": statement, "max_rows": int(max_rows), "max_bytes": int(max_bytes),
                      "cpu_seconds": cpu})
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "PYTHONDONTWRITEBYTECODE": "1", "HOME": os.environ.get("HOME", "/"),
           "LANG": "C.UTF-8", PARENT_ENV: str(os.getpid())}
    # The roots error messages are redacted against (cache.redact) name the same folders here.
    env |= {k: os.environ[k] for k in ("JUDGESCOPE_CACHE", "HF_HUB_CACHE") if k in os.environ}
    start = time.monotonic()
    if not _RUNNING.acquire(timeout=seconds):  # the wait counts towards the wall limit
        raise Refused(f"stopped: {MAX_RUNNING} console queries were running for {seconds:g} s; "
                      "try again")
    try:
        proc = subprocess.Popen([sys.executable, "-m", "judgescope.console.console_child"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT, env=env)
        try:
            out, err = proc.communicate(job.encode("utf-8"),
                                        timeout=max(0.1, seconds - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise Refused(f"stopped: the query ran longer than {seconds:g} s") from None
    finally:
        _RUNNING.release()
    return _result(out, err, proc.returncode, cpu)


def _result(out: bytes, err: bytes, code: int, cpu: int | None = None) -> ConsoleResult:
    import duckdb
    import pyarrow as pa

    from judgescope.duck.console_guard import Refused

    lines = err.decode("utf-8", "replace").strip().splitlines()
    try:
        status = json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        status = {}
    if status.get("status") == "ok":
        # An Arrow table: db.Store.run_console turns it into a frame on a connection of its own.
        return ConsoleResult(pa.ipc.open_stream(out).read_all(), status.get("truncated"))
    if status.get("status") == "refused":
        raise Refused(status["message"])
    if status.get("status") == "error":
        kind = getattr(duckdb, str(status.get("kind")), None)
        kind = kind if isinstance(kind, type) and issubclass(kind, duckdb.Error) else duckdb.Error
        raise kind(status["message"])
    raise Refused(ended(code, cpu))


def ended(code: int, cpu: int | None = None) -> str:
    """Why a child that sent no status ended, in one sentence: its signal, or its exit status."""
    memory = f"the console's {MEMORY_BOUND / (1 << 30):g} GB of memory"
    if code == MEMORY_EXIT:
        return f"stopped: the query needed more than {memory} (exit {code})"
    if code >= 0:
        return f"stopped: the console's worker process ended without an answer (exit {code})"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    if -code == getattr(signal, "SIGXCPU", None):
        return (f"stopped: the query used more than its {cpu or 'allowed'} s of CPU time "
                f"(the console's CPU bound, {name})")
    if -code in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        return (f"stopped: the console's worker process was killed from outside ({name}), "
                "not by a limit of the console; try again")
    return f"stopped: the console's worker process crashed ({name}), most likely short of {memory}"
