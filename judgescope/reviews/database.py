"""The reviews database (an SQLite file): where it lives, opening it migrated, reading it when
it cannot be written, and running statements on it. Pure: no streamlit.

WAL and synchronous=FULL: a write whose call returned is on disk. Writers that meet a lock
retry with backoff, so "database is locked" does not reach a reviewer. Values are bound
parameters. What the tables hold is in migrations.py.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from judgescope.reviews import migrations

BUSY_TIMEOUT_MS = 2_000
RETRY_SECONDS = 30.0


class ReviewStoreBusy(RuntimeError):
    """The reviews database stayed locked for RETRY_SECONDS; the verdict was not saved."""


class ReviewStoreUnavailable(RuntimeError):
    """The reviews database is damaged, unreadable or read-only: reviewing is unavailable."""


def _unavailable(path, err: BaseException) -> ReviewStoreUnavailable:
    name = Path(path).name if path else default_path().name
    reason = (err.strerror if isinstance(err, OSError) and err.strerror  # without the path
              else str(err).splitlines()[0] if str(err) else type(err).__name__)
    return ReviewStoreUnavailable(f"Reviewing is unavailable: the reviews database ({name}) "
                                  f"cannot be used ({reason}).")


def default_path() -> Path:
    """JUDGESCOPE_STATE, else ~/.local/share/judgescope/reviews.sqlite."""
    env = os.environ.get("JUDGESCOPE_STATE")
    return Path(env) if env else Path.home() / ".local/share/judgescope/reviews.sqlite"


def now() -> str:
    """The time now (UTC, microseconds) as stored in created_at, updated_at and applied_at."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _retry(fn, deadline: float = RETRY_SECONDS):
    """fn() retried with jittered exponential backoff while SQLite reports locked or busy."""
    start, delay = time.monotonic(), 0.01
    while True:
        try:
            return fn()
        except (sqlite3.DatabaseError, OSError) as err:
            if not isinstance(err, sqlite3.OperationalError) or ("locked" not in str(err)
                                                                  and "busy" not in str(err)):
                raise _unavailable(getattr(fn, "path", None), err) from err
            if time.monotonic() - start > deadline:
                raise ReviewStoreBusy(f"the reviews database stayed busy for {deadline:g} s; "
                                      "the verdict was not saved, try again") from err
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.5)


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = FULL")
    return con


def open_db(path: Path | str | None = None) -> sqlite3.Connection:
    """A connection to the reviews database, created or migrated to SCHEMA_VERSION."""
    path = Path(path) if path else default_path()

    def go():
        con = _connect(path)
        try:
            if migrations.schema_version(con) < migrations.SCHEMA_VERSION:
                migrations.migrate(con, now())
        except BaseException:
            con.close()
            raise
        return con
    go.path = path
    return _retry(go)


def unavailable(path=None) -> str | None:
    """None when the reviews database can be read and written, else one sentence why not."""
    def probe(con):
        con.execute("BEGIN IMMEDIATE")  # a write lock: refused on a read-only file or folder
        con.execute("ROLLBACK")
        con.execute("SELECT count(*) FROM reviews").fetchone()
    try:
        with closing(open_db(path)) as con:
            _retry(lambda: probe(con))
    except ReviewStoreUnavailable as err:
        return str(err)
    return None


def open_read_only(path=None) -> sqlite3.Connection:
    """A read-only connection to a database this process cannot write (a read-only file or
    folder): SQLite's read-only mode, else, where it cannot make its shared-memory file beside
    a WAL database, the database read as immutable. ReviewStoreUnavailable when it cannot be
    read either, or is of a schema older than READABLE_VERSIONS (which would need a write to migrate)."""
    path = Path(path) if path else default_path()
    last: BaseException = FileNotFoundError(2, "No such file")
    for query in ("mode=ro", "mode=ro&immutable=1"):
        con = None
        try:
            if not path.is_file():
                break
            con = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, isolation_level=None)
            version = migrations.schema_version(con)
            if version in migrations.READABLE_VERSIONS:
                return con
            last = sqlite3.DatabaseError(f"schema version {version}, not {migrations.SCHEMA_VERSION}")
        except (sqlite3.DatabaseError, OSError) as err:
            last = err
        if con is not None:
            con.close()
    raise _unavailable(path, last)


def read_only(path=None) -> str | None:
    """One sentence when the database cannot be written but its verdicts can be read, else None."""
    problem = unavailable(path)
    if problem is None:
        return None
    try:
        open_read_only(path).close()
    except ReviewStoreUnavailable:
        return None
    return problem.replace("Reviewing is unavailable", "Saving verdicts is off", 1) + \
        " The verdicts already in it are shown."


def integrity_ok(path=None) -> bool:
    with closing(open_db(path)) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def bound(v):
    """A value as SQLite binds it: None for a missing one (NaN, NA), a numpy scalar as Python's."""
    if v is None or (not isinstance(v, str) and pd.api.types.is_scalar(v) and pd.isna(v)):
        return None
    return v.item() if hasattr(v, "item") else v


def write(path, statements: list[tuple[str, tuple]], many: bool = False) -> int:
    """Statements run in one IMMEDIATE transaction (retried while the database is busy); each
    one's params a list of rows when `many`. The rows they changed."""
    def go():
        with closing(open_db(path)) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                before = con.total_changes
                for sql, params in statements:
                    (con.executemany if many else con.execute)(sql, params)
                changed = con.total_changes - before
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            return changed
    go.path = path
    return _retry(go)


def read(path, sql: str, params: tuple = ()) -> pd.DataFrame:
    """A query's rows as a frame; a database this process cannot write is read read-only."""
    def go():
        try:
            con = open_db(path)
        except ReviewStoreUnavailable:  # a read-only database is still read (open_read_only)
            con = open_read_only(path)
        with closing(con):
            cur = con.execute(sql, params)
            return pd.DataFrame(cur.fetchall(), columns=[d[0] for d in cur.description])
    return _retry(go)
