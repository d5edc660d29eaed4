"""DuckDB's owner: it opens every connection (each with a memory limit) and runs the named
queries over locked, read-only views. Validation and cache building (catalog, validate,
readers, snapshot) run their own SQL on the unlocked scratch connections opened here."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from judgescope import resources
from judgescope.duck import trace
from judgescope.duck import console_guard

if TYPE_CHECKING:
    import pandas as pd

QUERIES_DIR = resources.QUERIES
QUERY_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
DBError = duckdb.Error
# Every connection gets a memory limit and spills beyond it; callers that know better (the
# catalog's builds and Stores) pass their own.
DEFAULT_MEMORY_LIMIT = "1536MB"


Refused = console_guard.Refused
CONSOLE_MAX_CHARS = console_guard.MAX_CHARS
PARSE_MEMORY = "256MB"  # the console's parse-only connection reads no data


def console_statement(sql: str):
    """The one SELECT statement of console SQL, checked with DuckDB's own parser and syntax tree
    (judgescope/duck/console_guard.py): anything else is Refused."""
    return console_guard.statement(sql, lambda: scratch(memory_limit=PARSE_MEMORY))


class UnknownQuery(KeyError):
    """Only the named .sql files in queries/ can run; anything else is refused."""


class MacroError(RuntimeError):
    """A file in queries/macros/ failed on a connection that has every view it reads."""


# The views each queries/macros/<name>.sql reads. DuckDB binds a macro when it is created, so a
# file is created only where these views exist; every other error is the file's and is raised.
MACRO_VIEWS = {"audit": set(), "review": set(), "review_bins": {"audit_bins"}, "review_rows": {"audit"},
               "verify": {"audit", "snapshot_numbered"}, "calibration": {"items"}}


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


def query_title(name: str, limit: int = 90) -> str:
    """What a query computes, in words: the first sentence of its leading comment (spinners
    name it), cut at `limit` characters; the query's name when it has no comment."""
    lines = []
    for line in query_text(name).splitlines():
        if not line.startswith("--") or line[2:].strip().startswith("Params:"):
            break
        lines.append(line[2:].strip())
    text = " ".join(lines)
    text = re.split(r"(?<=[a-z)])[.:;]\s|\s\(", text, maxsplit=1)[0].rstrip(".:; ") if text else ""
    text = text or name.replace("_", " ")
    return text if len(text) <= limit else text[:limit - 1] + "…"


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


def ident(name: str) -> str:
    """A DuckDB identifier, quoted (embedded double quotes doubled), so no name can end it."""
    if not isinstance(name, str) or not name or "\x00" in name:
        raise ValueError(f"not an identifier: {str(name)[:80]!r}")
    return '"' + name.replace('"', '""') + '"'


def view_sql(view: str, paths: list[Path]) -> str:
    """CREATE VIEW over Parquet files. A view the registry (judgescope/duck/views.py) declares
    `numbered` also exposes file_row_number, a row's position in its file (only a dataset's view
    is). The name is quoted (ident) and the paths are string literals, whatever they hold."""
    from judgescope.duck.views import BASE_VIEWS

    numbered = view in BASE_VIEWS and BASE_VIEWS.view(view).numbered
    files = ", ".join(sql_path(p) for p in paths)
    extra = ", file_row_number = true" if numbered else ""
    return (f"CREATE VIEW {ident(view)} AS SELECT * FROM read_parquet([{files}], "
            f"union_by_name = true{extra})")


class UndeclaredView(ValueError):
    """A view name neither the registry (judgescope/duck/views.py) nor a domain declares."""


def declared(views, derived=()) -> None:
    """Refuse any view name the registry does not declare (a locked connection serves only
    those): views.BASE, or `derived`, the names of the derived and computed views the domains'
    tables declare (the caller's registry, e.g. a catalog's views)."""
    from judgescope.duck.views import BASE_VIEWS

    unknown = sorted(str(v)[:80] for v in views if v not in BASE_VIEWS and v not in derived)
    if unknown:
        raise UndeclaredView(f"refused: views not declared (judgescope/duck/views.py, or a domain's "
                             f"tables): {', '.join(map(repr, unknown))}")


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


def _names(sql: str, view: str) -> bool:
    """Whether SQL names the view outside its comments (as a word: a lazy view is built for a
    query that may read it, not for one whose header only mentions it)."""
    return re.search(rf"\b{re.escape(view)}\b", re.sub(r"--[^\n]*", "", sql)) is not None


# GLOBAL: every cursor (a connection of its own) inherits it.
PARQUET_METADATA_CACHE = "SET GLOBAL parquet_metadata_cache = true"


def locked_connection(views: dict[str, list[Path]], memory_limit: str,
                      temp_dir: Path | None = None, spill: bool = True, filesystem=None,
                      derived=(), later=()) -> duckdb.DuckDBPyConnection:
    """An in-memory connection locked first (only the views' files readable, no external access,
    no extension loading, configuration frozen), then given views over the files: no view is
    created, and no SQL a view's definition holds runs, on an unlocked connection. Only the
    registry's view names are accepted (UndeclaredView; `derived`: see declared). spill=False: no temp directory at all
    (the console's connection, which must not write anywhere). filesystem: an fsspec filesystem
    the views' URLs are read through (remote/prebuilt.py). later: files that are not there yet,
    readable once they are (a lazy table's, Store.ready adds their views)."""
    declared(views, derived)
    con = duckdb.connect(":memory:")
    if filesystem is not None:
        con.register_filesystem(filesystem)
    con.execute("SET memory_limit = $m", {"m": memory_limit})
    if not spill:  # an in-memory database would otherwise spill to ./.tmp
        con.execute("SET temp_directory = ''")
    elif temp_dir:  # set before the lock; spilling is DuckDB's own, not a user's file access
        con.execute("SET temp_directory = $d", {"d": str(temp_dir)})
    # Parse each Parquet footer once, not on every query: a 10M-row file has hundreds of row
    # groups whose statistics every pruned lookup reads (the files never change in place).
    con.execute(PARQUET_METADATA_CACHE)
    allowed = sorted({str(p) for paths in views.values() for p in paths} | {str(p) for p in later})
    con.execute("SET allowed_paths = $paths", {"paths": allowed})
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")
    for view, paths in views.items():  # after the lock: a view reads only the allowed files
        con.execute(view_sql(view, paths))
    create_macros(con)
    return con


class Store:
    """A locked connection whose views expose one collection's validated Parquet files."""

    def __init__(self, views: dict[str, list[Path]], memory_limit: str | None = None,
                 temp_dir: Path | None = None, derived=(), later=None):
        """derived: the names of the derived and computed views the caller's registry declares
        (declared); the data rooms' own views need none. later: view → (its files as they will
        be, build()), a lazy table not built yet (sources/derived.py): its files are allowed
        from the start, and its view is added once build() made them, when a query or the
        console first names it (ready)."""
        later = {name: ([Path(p) for p in paths], build) for name, (paths, build) in (later or {}).items()}
        declared(later, derived)
        self._later = later
        self._building = threading.Lock()
        self._connect({name: [Path(p) for p in paths] for name, paths in views.items()},
                      memory_limit, temp_dir=temp_dir, derived=frozenset(derived),
                      later=[p for paths, _ in later.values() for p in paths])

    # Whether the SQL console may run over these views: its child process opens them from
    # their paths (prebuilt.RemoteStore reads URLs through a filesystem it cannot pass on).
    console_reads_paths = True
    _later: dict = {}  # a Store opened without lazy tables (prebuilt.RemoteStore) has none

    def _connect(self, views: dict[str, list], memory_limit: str | None, **connection) -> None:
        """Open the locked connection over `views` (paths, or URLs for prebuilt.RemoteStore, which
        passes its filesystem in `connection`). Its cursors are kept, one per thread: a DuckDB
        connection may not be shared by threads running at once, and a new cursor costs ~1.5 ms,
        more than most of the pages' queries (a Streamlit run is one thread)."""
        self.views = views
        self.memory_limit = memory_limit or DEFAULT_MEMORY_LIMIT
        self.con = locked_connection(self.views, self.memory_limit, **connection)
        self._open = True
        self._cursors = threading.local()

    def close(self) -> None:
        self._open = False
        self.con.close()

    def _cursor(self):
        """This thread's cursor on the locked connection (made on the thread's first query)."""
        cur = getattr(self._cursors, "cur", None)
        if cur is None or not self._open:
            cur = self._cursors.cur = self.con.cursor()  # raises once the Store is closed
        return cur

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has(self, view: str) -> bool:
        """Whether the collection has the view (a lazy one not built yet too: reading builds it)."""
        return view in self.views or view in self._later

    def pending(self) -> list[str]:
        """The views of lazy tables not built yet."""
        return list(self._later)

    def ready(self, sql: str | None = None) -> dict[str, list[Path]]:
        """Build the lazy tables whose views `sql` names (every one when None), once per Store,
        one build at a time (the build itself is once per cache entry, across processes), and
        add their views; the views ready, self.views. A build that fails raises, and is tried
        again by the next read."""
        if self._later:
            with self._building:
                wanted = [v for v in self._later if sql is None or _names(sql, v)]
                for view in wanted:
                    if view in self._later:
                        self._later[view][1]()
                        paths = self._later.pop(view)[0]
                        self.con.execute(view_sql(view, paths))
                        self.views = {**self.views, view: paths}
        return self.views

    def run(self, name: str, **params) -> pd.DataFrame:
        """Run queries/<name>.sql with its $parameters bound; DuckDB rejects missing or extra ones.
        A lazy table the query reads is built first (ready)."""
        trace.note(name)
        sql = query_text(name)
        if self._later:
            self.ready(sql)
        return self._cursor().execute(sql, params).df()

    def execute_raw(self, sql: str):
        """Run SQL on the locked connection (tests use it to prove the lock holds)."""
        cur = self.con.cursor()
        try:
            return cur.execute(sql).fetchall()
        finally:
            cur.close()
