"""Derived tables: tables built once from validated files by named queries (queries/*.sql),
cached on disk, then read as views. This module only builds and caches them; the domains own
what they build, each declaring its tables as data (`Tables`) in its own module
(integrity/verification_tables.py: the hash verification; audit/record_tables.py: the record
index, provenance, exact copies and the version comparison; audit/interval_tables.py: the
default intervals). The composition root (judgescope/wiring.py) gathers the declarations and
hands them to the catalog, which builds what the collection's datasets can feed: sources/ has no
import statement of a domain (tests/test_layout.py), and nothing registers itself at import."""

from __future__ import annotations

import contextvars
import hashlib
import json
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Callable


from judgescope.duck import db, progress, views
from judgescope.ingest.build import BUILD_MEMORY, BUILD_VERSION, parquet_options
from judgescope.duck.cache import build_slot, cache_root, damage, entry_lock, publish, redact, temp_prefix
from judgescope.duck.cache import ensure as _ensure
from judgescope.ingest.manifest import SourceError

if TYPE_CHECKING:
    import pandas as pd

# Derived tables spill to disk rather than take the machine, within validation's bound: a
# derived table is built with the whole of its lane (duck/cache.py Lane), alone, so it never
# holds more than the validation before it may. At 10M rows the verification join took 23.8 s at this bound
# against 28.5 s at 1 GB (issue 45: the first open within 1.5x raw DuckDB, which has the same cap).
DERIVED_MEMORY = BUILD_MEMORY
# build(clean, built, key, notes): the collection's clean files by role, the views built before
# it, the join key and the catalog's list of rebuild notes → view name → files.
Build = Callable[..., dict[str, list[Path]]]


@dataclass(frozen=True)
class Tables:
    """Derived tables a domain declares, as data: `what` they are (named in messages), the
    dataset roles they `need`, the `views` they produce (views.derived or views.computed: each
    view's literal name, build query or module, and what it holds), the named `queries` that
    build them (queries/*.sql; none for a table computed in Python), `keyed`: they need a join
    key. `build` is the domain's function that builds them (Build); it reads the views of tables
    declared before it when they are built. `lazy`: built when a query first reads one of its
    views (a page, a command, an export), not when the collection first opens; a table of
    derived_views, or of computed_views with its views' names declared, can be, and no other
    table reads its views (those after it are not handed them). A lazy table whose cache entry
    is intact is read from the start."""
    what: str
    needs: tuple[str, ...]
    views: tuple[views.View, ...]
    queries: tuple[str, ...]
    build: Build
    keyed: bool = False
    lazy: bool = False


def registry(providers) -> views.Registry:
    """Every view a collection's store may hold: the data rooms' (views.BASE) and those the
    declared tables of `providers` produce."""
    return views.Registry(views.BASE + tuple(v for t in providers for v in t.views))


def usable(providers, roles) -> list[Tables]:
    """The declared tables whose input roles the collection has, in the order given (build order)."""
    return [t for t in providers if all(r in roles for r in t.needs)]


# Inside deferring(): a missing or damaged entry is not built but listed, with what builds it.
_DEFERRED: contextvars.ContextVar[list | None] = contextvars.ContextVar("judgescope_deferred", default=None)


@contextmanager
def deferring():
    """Within it, derived_views builds no missing entry: it returns the views' paths as they will
    be, and the yielded list gets a build() per entry left to build, which builds it exactly as
    at once would (the entry's lock, the build slot, publish, its stages told to the progress
    listener of the thread that calls it), and does nothing once the entry is intact."""
    later: list[Callable[[], None]] = []
    token = _DEFERRED.set(later)
    try:
        yield later
    finally:
        _DEFERRED.reset(token)


def derived_views(kind: str, inputs: dict[str, Path], steps: list[tuple[str, str, dict]],
                  notes: list[str] | None = None) -> dict[str, list[Path]]:
    """Tables derived from clean files by named queries, built once and cached on disk.

    inputs: view name → clean file; steps: (output view, query name, params), run in order, each
    output readable as a view by the next. Cached per (inputs, queries with the macros, params):
    clean files are written once and renamed into place, so (path, size, mtime) identify them;
    a clean file in the cache is named by its folder (a content hash) and size instead, so a
    cache copied to another machine or folder keeps its derived tables (issue #17 item 3).
    A damaged entry found and rebuilt is told in `notes` (the catalog's, named on Overview).
    """
    sql = "".join(p.read_text(encoding="utf-8") for p in sorted((db.QUERIES_DIR / "macros").glob("*.sql")))
    sql += "".join(db.query_text(q) for _, q, _ in steps)
    stamp = [BUILD_VERSION, kind, [[v, q, params] for v, q, params in steps],
             hashlib.sha256(sql.encode()).hexdigest()]
    folder = _cached(kind, stamp, inputs, lambda into: build_derived(inputs, steps, into), notes)
    return {view: [folder / f"{view}.parquet"] for view, _, _ in steps}


def computed_views(kind: str, inputs: dict[str, Path], what: str,
                   compute: Callable[[Callable[..., pd.DataFrame]], dict[str, pd.DataFrame]],
                   code: str, notes: list[str] | None = None, names: tuple[str, ...] = ()
                   ) -> dict[str, list[Path]]:
    """Tables a domain computes in Python from clean files, built once and cached on disk as
    derived_views caches them. compute(run) returns view name → frame, where run(query, **params)
    runs a named query on a connection holding `inputs` as views; `code`: the source text of
    what computes them (the stamp holds its digest, so a change to it builds them again).
    `names`: the views compute returns, declared, so a table built when first read (deferring)
    names its views before they are built; without them, the views of the entry as built."""
    stamp = [BUILD_VERSION, kind, what, hashlib.sha256(code.encode()).hexdigest()]
    views: list[str] = []

    def declared(run) -> dict[str, pd.DataFrame]:
        frames = compute(run)
        if names and sorted(frames) != sorted(names):
            raise ValueError(f"it returned {', '.join(frames) or 'no view'}, not the views "
                             f"declared ({', '.join(names)})")
        return frames

    def build(into: Path) -> None:
        views[:] = build_computed(inputs, what, declared, into)
    folder = _cached(kind, stamp, inputs, build, notes)
    names = tuple(names) or tuple(views) or tuple(p.stem for p in sorted(folder.glob("*.parquet")))
    return {view: [folder / f"{view}.parquet"] for view in names}


def _cached(kind: str, stamp: list, inputs: dict[str, Path], build: Callable[[Path], None],
            notes: list[str] | None) -> Path:
    """The cache folder of `stamp` and the inputs' identities, built by build(folder) when it is
    missing or damaged (a damaged one is told in `notes`, the asking catalog's own list)."""
    stamp = list(stamp)
    for view, path in sorted(inputs.items()):
        st = path.stat()
        stamp.append([view, *_input_identity(path.resolve(), st)])
    digest = hashlib.sha256(json.dumps(stamp, sort_keys=True).encode()).hexdigest()[:20]
    folder = _ensure(cache_root()) / f"{kind}-{digest}"
    later = _DEFERRED.get()
    if later is not None and (not folder.exists() or damage(folder)):
        later.append(lambda: _build_once(folder, build, notes))
        return folder
    _build_once(folder, build, notes)
    return folder


def _build_once(folder: Path, build: Callable[[Path], None], notes: list[str] | None) -> None:
    """Build the entry `folder` unless it is there intact (a damaged one is told in `notes`)."""
    with entry_lock(folder):  # one builder per entry; other entries are read or built meanwhile
        hurt = damage(folder) if folder.exists() else "missing"
        if hurt:
            with build_slot():
                build(folder)
        if hurt not in (None, "missing") and notes is not None:
            notes.append(f"derived tables {folder.name}: damaged ({hurt}); rebuilt")


def _input_identity(path: Path, st) -> list:
    try:
        return [path.relative_to(cache_root().resolve()).as_posix(), st.st_size]
    except ValueError:
        return [str(path), st.st_size, st.st_mtime_ns]


def build_derived(inputs: dict[str, Path], steps: list[tuple[str, str, dict]], folder: Path) -> None:
    """Run the steps of derived_views into `folder` (built beside it, renamed when complete)."""
    tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(folder.name), dir=_ensure(folder.parent)))
    spill = folder.parent / f".spill-{tmp.name}"
    con = db.scratch(temp_dir=spill, memory_limit=DERIVED_MEMORY)
    names = [view.replace("_", " ") for view, _, _ in steps]
    progress.declare(names)
    try:
        for view, path in inputs.items():
            con.execute(db.view_sql(view, [path]))
        db.create_macros(con)
        rows = max((r for r in map(_rows, inputs.values()) if r), default=None)  # row groups shown as written
        for (view, query, params), name in zip(steps, names):
            out = tmp / f"{view}.parquet"
            with progress.stage(name, con, rows):
                con.execute(f"COPY ({db.query_text(query)}\n) TO $out "
                            f"({parquet_options()})",
                            {**params, "out": str(out)})
            con.execute(db.view_sql(view, [out]))
        publish(tmp, folder)
    except db.DBError as err:
        raise SourceError(f"building {folder.name} failed: {redact(str(err).splitlines()[0])}") from err
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(spill, ignore_errors=True)


def build_computed(inputs: dict[str, Path], what: str, compute, folder: Path) -> list[str]:
    """Run compute of computed_views into `folder` (built beside it, renamed when complete);
    the views written, in order."""
    tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(folder.name), dir=_ensure(folder.parent)))
    con = db.scratch(memory_limit=DERIVED_MEMORY)
    progress.declare([what])
    try:
        for view, path in inputs.items():
            con.execute(db.view_sql(view, [path]))
        db.create_macros(con)
        with progress.stage(what):
            try:
                frames = compute(lambda name, **params: con.execute(db.query_text(name), params).df())
            except db.DBError:
                raise
            except Exception as err:  # noqa: BLE001 - a domain's computation: named, and the rest goes on
                raise SourceError(f"computing {what} failed: {type(err).__name__}: {redact(str(err))[:300]}") from err
        for view, frame in frames.items():
            con.register("computed_frame", frame)
            con.execute("COPY computed_frame TO $out (FORMAT parquet, COMPRESSION zstd)",
                        {"out": str(tmp / f"{view}.parquet")})
            con.unregister("computed_frame")
        publish(tmp, folder)
        return list(frames)
    except db.DBError as err:
        raise SourceError(f"building {folder.name} failed: {redact(str(err).splitlines()[0])}") from err
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _rows(path: Path) -> int | None:
    """Rows of an input Parquet file, from its footer (None when it cannot be read)."""
    import pyarrow.parquet as pq
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (OSError, ValueError):
        return None
