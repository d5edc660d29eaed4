"""Derived tables: tables built once from validated files by named queries (queries/*.sql),
cached on disk, then read as views. This module only builds and caches them; the domains own
what they build: each registers its tables here at start-up (integrity/verification_tables.py: the hash
verification; audit/record_tables.py: the record index, provenance, exact copies and the version
comparison), and the catalog opens what the collection's datasets can feed. The domain modules
are named in judgescope.TABLE_MODULES and loaded on first use, as `datasets` loads its packaged
builders by name: sources/ has no import statement of a domain (tests/test_layout.py)."""

from __future__ import annotations

import hashlib
import importlib
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from judgescope.duck import db, progress
from judgescope.ingest.build import BUILD_VERSION, ROW_GROUP_ROWS
from judgescope.duck.cache import build_slot, cache_root, damage, entry_lock, redact, seal, temp_prefix
from judgescope.duck.cache import ensure as _ensure
from judgescope.ingest.manifest import SourceError

# Derived tables spill to disk rather than take the machine.
DERIVED_MEMORY = "1GB"
REBUILT: list[str] = []  # derived entries found damaged and rebuilt (named on Overview)


@dataclass(frozen=True)
class Tables:
    """Derived tables a domain builds: `build(clean, built, key)` takes the collection's clean
    files by role, the views already built (earlier providers) and the join key, and returns
    view name → files. `needs`: the roles it reads; `keyed`: it needs a join key."""
    what: str
    needs: tuple[str, ...]
    build: Callable[[dict[str, Path], dict[str, list[Path]], list[str] | None], dict[str, list[Path]]]
    keyed: bool = False


_PROVIDERS: list[Tables] = []


def register(tables: Tables) -> Tables:
    """A domain declares its derived tables (once, at import); order of registration is build order."""
    if all(t.what != tables.what for t in _PROVIDERS):
        _PROVIDERS.append(tables)
    return tables


def providers(roles) -> list[Tables]:
    """The registered tables whose input roles the collection has, in build order."""
    import judgescope

    for module in judgescope.TABLE_MODULES:  # each registers its tables when first imported
        importlib.import_module(module)
    return [t for t in _PROVIDERS if all(r in roles for r in t.needs)]


def derived_views(kind: str, inputs: dict[str, Path], steps: list[tuple[str, str, dict]]
                  ) -> dict[str, list[Path]]:
    """Tables derived from clean files by named queries, built once and cached on disk.

    inputs: view name → clean file; steps: (output view, query name, params), run in order, each
    output readable as a view by the next. Cached per (inputs, queries with the macros, params):
    clean files are written once and renamed into place, so (path, size, mtime) identify them;
    a clean file in the cache is named by its folder (a content hash) and size instead, so a
    cache copied to another machine or folder keeps its derived tables (issue #17 item 3).
    """
    sql = "".join(p.read_text(encoding="utf-8") for p in sorted((db.QUERIES_DIR / "macros").glob("*.sql")))
    sql += "".join(db.query_text(q) for _, q, _ in steps)
    stamp = [BUILD_VERSION, kind, [[v, q, params] for v, q, params in steps],
             hashlib.sha256(sql.encode()).hexdigest()]
    folder = _cached(kind, stamp, inputs, lambda into: build_derived(inputs, steps, into))
    return {view: [folder / f"{view}.parquet"] for view, _, _ in steps}


def computed_views(kind: str, inputs: dict[str, Path], what: str,
                   compute: Callable[[Callable[..., pd.DataFrame]], dict[str, pd.DataFrame]],
                   code: str) -> dict[str, list[Path]]:
    """Tables a domain computes in Python from clean files, built once and cached on disk as
    derived_views caches them. compute(run) returns view name → frame, where run(query, **params)
    runs a named query on a connection holding `inputs` as views; `code`: the source text of
    what computes them (the stamp holds its digest, so a change to it builds them again)."""
    stamp = [BUILD_VERSION, kind, what, hashlib.sha256(code.encode()).hexdigest()]
    views: list[str] = []

    def build(into: Path) -> None:
        views[:] = build_computed(inputs, what, compute, into)
    folder = _cached(kind, stamp, inputs, build)
    names = views or [p.stem for p in sorted(folder.glob("*.parquet"))]
    return {view: [folder / f"{view}.parquet"] for view in names}


def _cached(kind: str, stamp: list, inputs: dict[str, Path], build: Callable[[Path], None]) -> Path:
    """The cache folder of `stamp` and the inputs' identities, built by build(folder) when it is
    missing or damaged (a damaged one is named on Overview)."""
    stamp = list(stamp)
    for view, path in sorted(inputs.items()):
        st = path.stat()
        stamp.append([view, *_input_identity(path.resolve(), st)])
    digest = hashlib.sha256(json.dumps(stamp, sort_keys=True).encode()).hexdigest()[:20]
    folder = _ensure(cache_root()) / f"{kind}-{digest}"
    with entry_lock(folder):  # one builder per entry; other entries are read or built meanwhile
        hurt = damage(folder) if folder.exists() else "missing"
        if hurt:
            with build_slot():
                build(folder)
        if hurt not in (None, "missing"):
            REBUILT.append(f"derived tables {folder.name}: damaged ({hurt}); rebuilt")
    return folder


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
                            f"(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUP_ROWS})",
                            {**params, "out": str(out)})
            con.execute(db.view_sql(view, [out]))
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
        seal(folder)
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
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
        seal(folder)
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
