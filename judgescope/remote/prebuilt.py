"""A prebuilt cache read where it is published, without downloading it (issue #28 item 6).

`judgescope build --out DIR` writes a cache (validated files and derived tables) and its index,
prebuilt.json: per collection, every view's files relative to DIR and each dataset's
validation report. Published as a Hub dataset revision, the app reads it through fsspec:
DuckDB's `register_filesystem` with huggingface_hub's HfFileSystem, views over
`hf://datasets/org/cache@<40-hex commit>/…` URLs. DuckDB then fetches only the byte ranges a
query needs: each Parquet footer once per connection (parquet_metadata_cache), and the row
groups its min/max statistics keep. A pinned commit makes the files immutable, so the footers
never go stale (ImmutableFileSystem keeps them, and each file's metadata, for the life of
the connection). Any fsspec filesystem works the same way (tests use fsspec's memory or local
filesystem in place of the Hub: no network).

`CountingFileSystem` wraps a filesystem to count the bytes read and the round trips (each
metadata call and each read of a file) an interaction costs, so the remote latency can be
computed: time ≈ round trips × latency + bytes ÷ bandwidth (bench/remote.py reports both).
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from pathlib import Path

from fsspec import AbstractFileSystem

from judgescope.duck import db
from judgescope.remote import prebuilt_index
from judgescope.ingest.manifest import SourceError
from judgescope.remote.prebuilt_index import FORMAT, INDEX  # noqa: F401 (re-exported)

# hf://datasets/<org>/<name>@<40-hex commit>[/sub/folder]: a revision, never a moving branch.
HF_URL = re.compile(r"^hf://datasets/[A-Za-z0-9][\w.-]*/[\w.-]+@[0-9a-f]{40}(/[\w./-]*)?$")


class _WrappedFileSystem(AbstractFileSystem):
    """Another fsspec filesystem seen through this one: its protocol and path rules, and a lock
    for what the wrapper keeps (thread-safe: DuckDB reads from several threads)."""

    cachable = False

    def __init__(self, fs: AbstractFileSystem):
        super().__init__()
        self.fs = fs
        self.protocol = fs.protocol
        self.lock = threading.Lock()

    def _strip_protocol(self, path):  # the wrapped filesystem's own rules
        return self.fs._strip_protocol(path)


class CountingFileSystem(_WrappedFileSystem):
    """Another fsspec filesystem, with the bytes read and the round trips counted (thread-safe).
    A round trip: one metadata call (info, ls, exists, modified) or one read of an open file."""

    def __init__(self, fs: AbstractFileSystem):
        super().__init__(fs)
        self.bytes_read = 0
        self.round_trips = 0
        self.kinds: Counter = Counter()  # round trips by kind: read, info, ls, modified, exists

    def counts(self) -> tuple[int, int]:
        with self.lock:
            return self.bytes_read, self.round_trips

    def reset(self) -> None:
        with self.lock:
            self.bytes_read = self.round_trips = 0
            self.kinds.clear()

    def _trip(self, nbytes: int = 0, kind: str = "read") -> None:
        with self.lock:
            self.round_trips += 1
            self.bytes_read += nbytes
            self.kinds[kind] += 1

    def _open(self, path, mode="rb", **kwargs):
        if "r" not in mode:
            raise PermissionError("a prebuilt cache is read-only")
        return _CountingFile(self.fs.open(path, mode, **kwargs), self)

    def info(self, path, **kwargs):
        self._trip(kind="info")
        return self.fs.info(path, **kwargs)

    def ls(self, path, detail=True, **kwargs):
        self._trip(kind="ls")
        return self.fs.ls(path, detail=detail, **kwargs)

    def modified(self, path):
        self._trip(kind="modified")
        return self.fs.modified(path)

    def exists(self, path, **kwargs):
        self._trip(kind="exists")
        return self.fs.exists(path, **kwargs)

    def cat_file(self, path, start=None, end=None, **kwargs):
        data = self.fs.cat_file(path, start=start, end=end, **kwargs)
        self._trip(len(data))
        return data


class _CountingFile:
    """A file of the wrapped filesystem whose reads are counted."""

    def __init__(self, f, owner: CountingFileSystem):
        self._f, self._owner = f, owner

    def read(self, length=-1):
        data = self._f.read(length)
        self._owner._trip(len(data))
        return data

    def readinto(self, buffer):
        n = self._f.readinto(buffer)
        self._owner._trip(n or 0)
        return n

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


class ImmutableFileSystem(_WrappedFileSystem):
    """Another fsspec filesystem whose files never change (a pinned commit), with what DuckDB
    asks again on every query kept for the life of this object (one per connection): each
    file's metadata (info, ls, modified) and the reads of its Parquet footer (a read that ends at
    the end of the file, or lies within the footer). DuckDB's own footer cache does not hold for
    fsspec files (it re-reads them on each query), so this is what caches footers per
    connection; data pages are not kept (bounded memory: footers only)."""

    def __init__(self, fs: AbstractFileSystem):
        super().__init__(fs)
        self.meta: dict[tuple, object] = {}
        self.tails: dict[tuple[str, int, int], bytes] = {}
        self.footers: dict[str, int] = {}  # file → where its Parquet footer starts

    def _remember(self, key: tuple, compute):
        with self.lock:
            if key in self.meta:
                return self.meta[key]
        value = compute()
        with self.lock:
            self.meta[key] = value
        return value

    def info(self, path, **kwargs):
        return self._remember(("info", self._strip_protocol(path)), lambda: self.fs.info(path, **kwargs))

    def ls(self, path, detail=True, **kwargs):
        return self._remember(("ls", self._strip_protocol(path), detail),
                              lambda: self.fs.ls(path, detail=detail, **kwargs))

    def modified(self, path):
        return self._remember(("modified", self._strip_protocol(path)), lambda: self.fs.modified(path))

    def _open(self, path, mode="rb", **kwargs):
        if "r" not in mode:
            raise PermissionError("a prebuilt cache is read-only")
        key = self._strip_protocol(path)
        size = int(self.info(path)["size"])
        return _FooterCachedFile(lambda: self.fs.open(path, mode, **kwargs), self, key, size)


class _FooterCachedFile:
    """A file opened lazily: a read the footer cache answers never reaches the wrapped filesystem.
    DuckDB reads one handle from several threads, each a seek then a read: the position is kept
    per thread and the wrapped file is read under a lock, so one thread's seek never moves
    another's read."""

    def __init__(self, opener, owner: ImmutableFileSystem, key: str, size: int):
        self._opener, self._owner, self._key, self.size = opener, owner, key, size
        self._f = None
        self._io = threading.Lock()
        self._where = threading.local()

    @property
    def _pos(self) -> int:
        return getattr(self._where, "pos", 0)

    def seek(self, pos, whence=0):
        self._where.pos = pos if whence == 0 else (self._pos + pos if whence == 1 else self.size + pos)
        return self._where.pos

    def tell(self):
        return self._pos

    def read(self, length=-1):
        pos = self._pos
        length = self.size - pos if length is None or length < 0 else max(0, min(length, self.size - pos))
        key = (self._key, pos, length)
        with self._owner.lock:
            data = self._owner.tails.get(key)
        if data is None:
            with self._io:
                if self._f is None:
                    self._f = self._opener()
                self._f.seek(pos)
                data = self._f.read(length)
            with self._owner.lock:
                start = self._owner.footers.get(self._key)
                if pos + len(data) == self.size and len(data) >= 8 and data[-4:] == b"PAR1":
                    # a tail read: it ends with the footer's length, so the footer's start is known
                    start = self.size - 8 - int.from_bytes(data[-8:-4], "little")
                    self._owner.footers[self._key] = start
                if pos + len(data) == self.size or (start is not None and pos >= start):
                    self._owner.tails[key] = data
        self._where.pos = pos + len(data)
        return data

    def readable(self):
        return True

    def seekable(self):
        return True

    def close(self):
        with self._io:
            if self._f is not None:
                self._f.close()
                self._f = None

    @property
    def closed(self):
        return False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check_url(url: str) -> str:
    """A prebuilt cache's URL: an hf:// one must pin a 40-hex commit (immutable files, so cached
    footers never go stale); other fsspec URLs (memory://, file://) are taken as given."""
    url = url.rstrip("/")
    if url.split("://", 1)[0].strip().lower() == "hf" and not HF_URL.match(url):
        raise SourceError(f"a prebuilt cache on the Hub is read at a pinned commit: "
                          f"hf://datasets/org/name@<40-hex commit>, not {url[:200]!r}")
    return url


def write_index(cat, out: Path, collections: list[str]) -> dict:
    """Build every dataset and derived table of `collections` into the cache at `out` (the
    current cache root) and write its index, prebuilt.json: per collection its views' files
    relative to `out`, its verification problems, and each usable dataset's report."""
    out = out.resolve()
    index = {"format": FORMAT, "judgescope": _version(), "datasets": {}, "collections": {}, "files": {}}
    for coll in collections:
        store = cat.store(coll)
        views = {}
        for view, paths in store.ready().items():  # lazy tables too: the cache is read as published
            try:
                views[view] = [Path(p).resolve().relative_to(out).as_posix() for p in paths]
            except ValueError as err:  # a view over a file outside the cache (never expected)
                raise SourceError(f"view {view} reads a file outside {out.name}: {err}") from err
        index["collections"][coll] = {"views": views, "verify_problems": cat.verify_problems(coll)}
        index["files"] |= {f: _file_seal(out / f) for paths in views.values() for f in paths}
        for d in cat.collection_datasets(coll):
            if d.ok:
                index["datasets"][d.spec.name] = d.report
    (out / INDEX).write_text(json.dumps(index, indent=1, ensure_ascii=False), encoding="utf-8")
    return index


def _file_seal(path: Path) -> dict:
    """What the index records of a file: its size and its Parquet footer's digest."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        return {"size": size, "footer_sha256": prebuilt_index.footer_sha256(fh, size)}


def _version() -> str:
    from judgescope import __version__
    return __version__


def filesystem_for(url: str) -> AbstractFileSystem:
    """The fsspec filesystem of a URL: the Hub's for hf://, fsspec's own for the others."""
    if url.startswith("hf://"):
        return hub_filesystem()
    import fsspec
    return fsspec.filesystem(url.split("://", 1)[0] if "://" in url else "file")


def hub_filesystem() -> AbstractFileSystem:
    """huggingface_hub's fsspec filesystem (token from the environment, as the Hub client reads it)."""
    from huggingface_hub import HfFileSystem
    return HfFileSystem()


def read_index(fs: AbstractFileSystem, url: str, derived=()) -> dict:
    """prebuilt.json of the cache at `url`, checked (`derived`: the names of the derived and
    computed views the domains declare, as prebuilt_index.check takes them)."""
    try:
        with fs.open(f"{url}/{INDEX}", "rb") as fh:
            data = fh.read(prebuilt_index.MAX_INDEX_BYTES + 1)
    except (OSError, ValueError) as err:
        raise SourceError(f"no readable {INDEX} at the prebuilt cache: {str(err)[:200]}") from err
    return prebuilt_index.parse(data, derived)


def open_store(url: str, collection: str, fs: AbstractFileSystem | None = None,
               memory_limit: str | None = None, index: dict | None = None, *, derived) -> db.Store:
    """A Store over one collection of the prebuilt cache at `url`, read through `fs` (the
    filesystem of the URL by default: the Hub's for hf://): the same locked views and named
    queries as a local cache's, on a connection of its own that keeps the files' footers.
    `derived`: the names of the derived and computed views the domains declare (wiring.VIEWS)."""
    url = check_url(url)
    fs = ImmutableFileSystem(fs or filesystem_for(url))
    index = index or read_index(fs, url, derived)
    if collection not in index["collections"]:
        raise SourceError(f"the prebuilt cache has no collection {collection!r} "
                          f"(it has: {', '.join(sorted(index['collections'])) or 'none'})")
    index = prebuilt_index.check(index, derived)  # an index passed in is checked as one read here
    views = {}
    for view, files in index["collections"][collection]["views"].items():
        for f in files:
            _check_file(fs, url, f, index["files"][f])
        views[view] = [f"{url}/{f}" for f in files]
    return RemoteStore(views, fs, memory_limit=memory_limit, derived=derived)


def _check_file(fs: AbstractFileSystem, url: str, name: str, seal: dict) -> None:
    """The file is the one the index recorded: its size and its Parquet footer's digest (the
    footer is what DuckDB reads first, and is kept for the connection's life)."""
    try:
        size = int(fs.info(f"{url}/{name}")["size"])
        with fs.open(f"{url}/{name}", "rb") as fh:
            digest = prebuilt_index.footer_sha256(fh, size) if size == seal["size"] else None
    except (OSError, ValueError, KeyError) as err:
        raise SourceError(f"{INDEX} names a file the cache cannot read: {str(err)[:200]}", file=name) from err
    if size != seal["size"]:
        raise SourceError(f"{size:,} bytes, but {INDEX} recorded {seal['size']:,}: not the file "
                          "the cache was built with", file=name)
    if digest != seal["footer_sha256"]:
        raise SourceError(f"its Parquet footer differs from the one {INDEX} recorded (same size, "
                          "edited or replaced): not the file the cache was built with", file=name)


class RemoteStore(db.Store):
    """db.Store whose views read URLs through a registered fsspec filesystem."""

    console_reads_paths = False  # the console's child has no filesystem for the cache's URLs

    def __init__(self, views: dict[str, list[str]], fs: AbstractFileSystem, memory_limit: str | None = None,
                 derived=()):
        self.fs = fs
        self._connect({name: list(paths) for name, paths in views.items()}, memory_limit,
                      spill=False, filesystem=fs, derived=frozenset(derived))

