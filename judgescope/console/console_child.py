"""The SQL console's child process (python -m judgescope.console.console_child): bounds its own
memory before importing DuckDB, runs the checked statement on a locked connection with no spill
folder and streams the capped result back as Arrow IPC, its status as the last stderr line
(console_worker.py is the parent's side)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from judgescope.console.console_worker import (BATCH_ROWS, CHILD_MEMORY_LIMIT, MEMORY_BOUND, MEMORY_EXIT,
                                               PARENT_ENV)

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _child(job: dict) -> None:
    import pyarrow as pa

    from judgescope.duck import console_guard as guard
    from judgescope.duck import db

    # The views of the parent's Store, which refused any name not declared (db.declared).
    con = db.locked_connection({k: [Path(p) for p in v] for k, v in job["views"].items()},
                               CHILD_MEMORY_LIMIT, None, spill=False, derived=tuple(job["views"]))
    cur = con.cursor()
    guard.check_plan(cur, job["sql"])
    reader = cur.sql(job["sql"]).limit(job["max_rows"] + 1).to_arrow_reader(BATCH_ROWS)
    kept, rows, size, truncated = [], 0, 0, None
    for batch in reader:
        for i in range(batch.num_rows):
            row = batch.slice(i, 1)
            if rows == job["max_rows"]:
                truncated = "rows"
                break
            if size + row.nbytes > job["max_bytes"]:
                truncated = "bytes"
                break
            kept.append(row)
            rows, size = rows + 1, size + row.nbytes
        if truncated:
            break
    table = pa.Table.from_batches(kept, schema=reader.schema)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    sys.stdout.buffer.write(sink.getvalue().to_pybytes())
    sys.stdout.flush()
    _status({"status": "ok", "truncated": truncated})


def _status(status: dict) -> None:
    sys.stderr.write("\n" + json.dumps(status) + "\n")
    sys.stderr.flush()


def die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the parent dies (Linux), then exit if it already has: a
    console query never outlives the server that asked for it. (The signal follows the parent
    thread that started this process; it waits for the answer, so it outlives the query.)"""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    parent = os.environ.get(PARENT_ENV, "")
    if parent.isdigit() and os.getppid() != int(parent):  # died before the request took hold
        os._exit(4)


def bound(cpu_seconds: int) -> None:
    """This process's memory (RLIMIT_DATA) and CPU time (RLIMIT_CPU: SIGXCPU at the bound, SIGKILL
    two seconds of CPU later), and no core file when a signal ends it; set before DuckDB is
    imported."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_BOUND, MEMORY_BOUND))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    hard = cpu_seconds + 2 if hard == resource.RLIM_INFINITY else min(hard, cpu_seconds + 2)
    resource.setrlimit(resource.RLIMIT_CPU, (min(cpu_seconds, hard), hard))


def main() -> None:
    die_with_parent()
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    bound(int(job["cpu_seconds"]))
    import duckdb

    from judgescope.duck import console_guard as guard

    try:
        _child(job)
    except guard.Refused as err:
        _status({"status": "refused", "message": str(err)})
    except duckdb.Error as err:
        _status({"status": "error", "kind": type(err).__name__,
                 "message": guard.redact(str(err))})
    except MemoryError:
        sys.exit(MEMORY_EXIT)


if __name__ == "__main__":
    main()
