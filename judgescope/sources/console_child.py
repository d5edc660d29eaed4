"""The SQL console's child process (python -m judgescope.sources.console_child): bounds its own
memory before importing DuckDB, runs the checked statement on a locked connection with no spill
folder and streams the capped result back as Arrow IPC, its status as the last stderr line
(console_worker.py is the parent's side)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from judgescope.sources.console_worker import BATCH_ROWS, CHILD_MEMORY_LIMIT, MEMORY_BOUND


def _child(job: dict) -> None:
    import pyarrow as pa

    from judgescope.sources import console_guard as guard
    from judgescope.sources import db

    con = db.locked_connection({k: [Path(p) for p in v] for k, v in job["views"].items()},
                               CHILD_MEMORY_LIMIT, None, spill=False)
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


def main() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_BOUND, MEMORY_BOUND))
    import duckdb

    from judgescope.sources import console_guard as guard

    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    try:
        _child(job)
    except guard.Refused as err:
        _status({"status": "refused", "message": str(err)})
    except duckdb.Error as err:
        _status({"status": "error", "kind": type(err).__name__,
                 "message": guard.redact(str(err))})
    except MemoryError:
        sys.exit(3)


if __name__ == "__main__":
    main()
