"""DuckDB's owner: it opens every connection (each with a memory limit) and runs the named
queries over locked, read-only views. Validation and cache building (catalog, validate,
readers, snapshot) run their own SQL on the unlocked scratch connections opened here."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import duckdb
import pandas as pd

from judgescope.sources import trace

QUERIES_DIR = Path(__file__).resolve().parent.parent.parent / "queries"
QUERY_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
DBError = duckdb.Error
# Every connection gets a memory limit and spills beyond it; callers that know better (the
# catalog's builds and Stores) pass their own.
DEFAULT_MEMORY_LIMIT = "1536MB"


class Refused(ValueError):
    """Console SQL that is not exactly one SELECT statement, or that ran past its time limit."""


CONSOLE_MAX_CHARS = 20_000


def console_statement(sql: str):
    """The one SELECT statement of console SQL, checked with DuckDB's own parser: anything that
    does not parse, holds more (or fewer) than one statement, or is not a SELECT (COPY, ATTACH,
    PRAGMA, SET, INSTALL/LOAD, CALL, EXPLAIN, PIVOT …) is refused. WITH … SELECT, VALUES,
    DESCRIBE and SUMMARIZE parse as SELECT; comments and string literals are the parser's to read."""
    if not isinstance(sql, str) or not sql.strip():
        raise Refused("refused: no SQL")
    if len(sql) > CONSOLE_MAX_CHARS:
        raise Refused(f"refused: longer than {CONSOLE_MAX_CHARS:,} characters")
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as err:
        raise Refused(f"refused: does not parse ({str(err).splitlines()[0]})") from err
    if len(statements) != 1:
        raise Refused(f"refused: {len(statements)} statements; the console runs exactly one")
    if statements[0].type != duckdb.StatementType.SELECT:
        raise Refused(f"refused: a {statements[0].type.name} statement; only SELECT (or WITH … "
                      "SELECT) runs here")
    return _without_final_semicolon(statements[0].query)


def _without_final_semicolon(sql: str) -> str:
    """The statement without its closing ';' (and the comments after it), found by DuckDB's
    tokenizer, so the row-cap wrapper can take it as a subquery."""
    tokens = [t for t in duckdb.tokenize(sql) if t[1] != duckdb.token_type.comment]
    if tokens and tokens[-1][1] == duckdb.token_type.operator and sql[tokens[-1][0]] == ";":
        return sql[:tokens[-1][0]]
    return sql


class UnknownQuery(KeyError):
    """Only the named .sql files in queries/ can run; anything else is refused."""


class MacroError(RuntimeError):
    """A file in queries/macros/ failed on a connection that has every view it reads."""


# The views each queries/macros/<name>.sql reads. DuckDB binds a macro when it is created, so a
# file is created only where these views exist; every other error is the file's and is raised.
MACRO_VIEWS = {"review": set(), "verify": {"audit", "snapshot_numbered"}, "calibration": {"items"}}


_TEXTS: dict[str, str] = {}
_TEXTS_LOCK = threading.Lock()


def query_names() -> list[str]:
    return sorted(p.stem for p in QUERIES_DIR.glob("*.sql"))


def query_text(name: str) -> str:
    """The SQL of queries/<name>.sql, read once per process."""
    if not isinstance(name, str) or not QUERY_NAME_RE.match(name):
        raise UnknownQuery(f"refused: {name!r} is not the name of a query in queries/")
    with _TEXTS_LOCK:
        if name not in _TEXTS:
            path = QUERIES_DIR / f"{name}.sql"
            if not path.is_file():
                raise UnknownQuery(f"refused: no query named {name!r} in queries/")
            _TEXTS[name] = path.read_text(encoding="utf-8")
        return _TEXTS[name]


def query_params(name: str) -> list[str]:
    """The $parameters a query binds, in order of first use."""
    sql = re.sub(r"--[^\n]*", "", query_text(name))
    sql = re.sub(r"'(?:[^']|'')*'", "''", sql)
    return list(dict.fromkeys(re.findall(r"\$([a-z_][a-z0-9_]*)", sql)))


def scratch(threads: int | None = None, temp_dir: Path | None = None,
            memory_limit: str | None = None) -> duckdb.DuckDBPyConnection:
    """An unlocked in-memory connection, used only to validate and materialise files."""
    con = duckdb.connect(":memory:")
    con.execute("SET memory_limit = $m", {"m": memory_limit or DEFAULT_MEMORY_LIMIT})
    if temp_dir:  # spill big builds beside the cache, not into the working directory
        con.execute("SET temp_directory = $d", {"d": str(temp_dir)})
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    return con


def sql_path(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def view_sql(view: str, paths: list[Path]) -> str:
    """CREATE VIEW over Parquet files. A view the registry (judgescope/sources/views.py) declares
    `numbered` also exposes file_row_number, a row's position in its file. Identifiers come from
    fixed role names, never from user text."""
    from judgescope.sources.views import BY_NAME

    numbered = view in BY_NAME and BY_NAME[view].numbered
    files = ", ".join(sql_path(p) for p in paths)
    extra = ", file_row_number = true" if numbered else ""
    return (f'CREATE VIEW "{view}" AS SELECT * FROM read_parquet([{files}], '
            f"union_by_name = true{extra})")


def create_macros(con) -> None:
    """Macros of queries/macros/*.sql whose views (MACRO_VIEWS) the connection has; a file not
    listed there, or one that fails on a connection with its views, raises MacroError."""
    present = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal "
                                         "UNION SELECT table_name FROM duckdb_tables()").fetchall()}
    for macro in sorted((QUERIES_DIR / "macros").glob("*.sql")):
        where = f"queries/macros/{macro.name}"
        if macro.stem not in MACRO_VIEWS:
            raise MacroError(f"{where}: not listed in db.MACRO_VIEWS (which views does it read?)")
        if not MACRO_VIEWS[macro.stem] <= present:
            continue
        try:
            con.execute(macro.read_text(encoding="utf-8"))
        except duckdb.Error as err:
            raise MacroError(f"{where}: {str(err).splitlines()[0]}") from err


# GLOBAL: every cursor (a connection of its own) inherits it.
PARQUET_METADATA_CACHE = "SET GLOBAL parquet_metadata_cache = true"


class Store:
    """A locked connection whose views expose one collection's validated Parquet files."""

    def __init__(self, views: dict[str, list[Path]], memory_limit: str | None = None,
                 temp_dir: Path | None = None):
        self.views = {name: [Path(p) for p in paths] for name, paths in views.items()}
        self.con = duckdb.connect(":memory:")
        self.con.execute("SET memory_limit = $m", {"m": memory_limit or DEFAULT_MEMORY_LIMIT})
        if temp_dir:  # set before the lock; spilling is DuckDB's own, not a user's file access
            self.con.execute("SET temp_directory = $d", {"d": str(temp_dir)})
        # Parse each Parquet footer once, not on every query: a 10M-row file has hundreds of row
        # groups whose statistics every pruned lookup reads (the files never change in place).
        self.con.execute(PARQUET_METADATA_CACHE)
        for view, paths in self.views.items():
            # Identifiers come from the fixed role names in schema.py, never from user text.
            self.con.execute(view_sql(view, paths))
        create_macros(self.con)
        allowed = sorted({str(p) for paths in self.views.values() for p in paths})
        self.con.execute("SET allowed_paths = $paths", {"paths": allowed})
        self.con.execute("SET enable_external_access = false")
        self.con.execute("SET autoinstall_known_extensions = false")
        self.con.execute("SET autoload_known_extensions = false")
        self.con.execute("SET lock_configuration = true")

    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has(self, view: str) -> bool:
        return view in self.views

    def run(self, name: str, **params) -> pd.DataFrame:
        """Run queries/<name>.sql with its $parameters bound; DuckDB rejects missing or extra ones."""
        trace.note(name)
        cur = self.con.cursor()
        try:
            return cur.execute(query_text(name), params).df()
        finally:
            cur.close()

    def run_console(self, sql: str, max_rows: int, seconds: float) -> tuple[pd.DataFrame, bool]:
        """(at most max_rows rows, whether more existed) of one checked SELECT on the locked
        connection; a timer thread interrupts it after `seconds` (Refused). The lock, the
        refused file access and the memory limit of the Store all still hold."""
        statement = console_statement(sql)  # the checked SELECT's text
        cur = self.con.cursor()
        timer = threading.Timer(seconds, cur.interrupt)
        timer.start()
        try:
            # The row cap wraps the statement as a relation (never by editing its text).
            frame = cur.sql(statement).limit(int(max_rows) + 1).df()
        except duckdb.InterruptException as err:
            raise Refused(f"stopped: the query ran longer than {seconds:g} s") from err
        finally:
            timer.cancel()
            cur.close()
        return frame.head(int(max_rows)), len(frame) > max_rows

    def execute_raw(self, sql: str):
        """Run SQL on the locked connection (tests use it to prove the lock holds)."""
        cur = self.con.cursor()
        try:
            return cur.execute(sql).fetchall()
        finally:
            cur.close()
