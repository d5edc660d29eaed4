"""Load every dataset of a manifest once: resolve, hash-check, validate, cache on disk, serve views."""

from __future__ import annotations

import hashlib
import json
import os
import contextvars
import threading
from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from judgescope import __version__
from judgescope.duck import db, progress
from judgescope.remote import hub
from judgescope.ingest import join_key
from judgescope.duck.views import parts_of
from judgescope.sources import derived
from judgescope.duck.cache import (build_slot, cache_root, damage, entry_lock, parquet_ok, redact,
                                     session_builds, spill_dir, sweep)
from judgescope.duck.cache import ensure as _ensure
from judgescope.ingest.build import (BUILD_MEMORY, BUILD_QUERIES, BUILD_VERSION,  # noqa: F401 (re-exported)
                                      SCORED_KINDS, SNAPSHOT_DIGESTS, build_dataset, build_memory,
                                      safe_name, write_counts, write_score_summaries)
from judgescope.sources.collection_notes import assign_roles, notices
from judgescope.ingest.kinds import detect_resolved
from judgescope.ingest.layout import ResolvedFiles, resolve_local
from judgescope.ingest.manifest import DatasetSpec, Manifest, SourceError, load_manifest, unreadable

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent  # the folder holding judgescope/


def build_modules() -> list[Path]:
    """The source files whose code decides a validated dataset's files: every module of ingest/
    (the room that reads files into validated tables, importers/ included, so a new reader is
    hashed without being listed), the cache's layout, the vocabulary and this catalog."""
    package = _PACKAGE_ROOT / "judgescope"
    return [*sorted((package / "ingest").rglob("*.py")), package / "duck" / "cache.py",
            package / "schema.py", Path(__file__).resolve()]


# A collection's queries spill to disk rather than take the machine (validation's bound,
# BUILD_MEMORY, is in build.py; derived tables', DERIVED_MEMORY, in derived.py).
STORE_MEMORY = "1536MB"
# Datasets of a collection validated at once (the cores of the machine this is sized for), and
# each kind's weight in the share of memory they split (Catalog._load_together).
TOGETHER = 2
SHARE_WEIGHTS = {kind: 2 for kind in SCORED_KINDS} | {"source_snapshot": 1}
_HASHES: dict[tuple, str] = {}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, computed once per process for each (path, size, mtime)."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _HASHES:
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        _HASHES[key] = h.hexdigest()
    return _HASHES[key]


@lru_cache(maxsize=1)
def build_code_sha256() -> str:
    """SHA-256 of the source of every module that reads, validates and writes a dataset, and of
    the named queries validation runs."""
    h = hashlib.sha256()
    for path in build_modules():
        h.update(path.read_bytes())
    for query in BUILD_QUERIES:
        h.update(db.query_text(query).encode())
    return h.hexdigest()


@dataclass
class Loaded:
    spec: DatasetSpec
    report: dict | None = None
    error: str | None = None
    folder: Path | None = None
    note: str | None = None  # what happened to its cache entry, when something did

    @property
    def ok(self) -> bool:
        return self.error is None and self.report is not None

    def path(self, part: str) -> Path:
        return self.folder / f"{part}.parquet"


def resolve(spec: DatasetSpec) -> ResolvedFiles:
    if spec.path:
        return resolve_local((spec.base / spec.path).resolve(), spec.config, spec.split, spec.name)
    folder, lfs = hub.fetch(spec.hub, spec.revision, dataset=spec.name)
    # A cache snapshot's files link to <repo>/blobs/<sha256>; nothing else outside it is read.
    resolved = resolve_local(folder, spec.config, spec.split, spec.name,
                             blobs=folder.parent.parent / "blobs")
    resolved.lfs_sha256 = lfs
    return resolved


def expected_checksums(manifest: Manifest) -> dict[str, dict]:
    """Recorded sha256/size of files, from the manifest's [integrity] checksums files."""
    out = {}
    for path in manifest.checksums:
        try:
            recorded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise SourceError(f"checksums file unreadable: {err}", file=path.name) from err
        out.update({str((path.parent / rel).resolve()): v
                    for rel, v in _checked_checksums(recorded, path).items()})
    return out


def _checked_checksums(recorded, path: Path) -> dict:
    """A checksums file's content: an object of {path: {"sha256": hex, "size": bytes}}."""
    if not isinstance(recorded, dict):
        raise SourceError(f"a checksums file holds a JSON object of file → {{sha256, size}}, "
                          f"not a JSON {type(recorded).__name__}", file=path.name)
    for rel, v in recorded.items():
        if not (isinstance(v, dict) and isinstance(v.get("sha256"), str)
                and isinstance(v.get("size"), int) and not isinstance(v.get("size"), bool)):
            raise SourceError(f"entry {str(rel)[:200]!r} is not {{\"sha256\": text, \"size\": "
                              "integer}", file=path.name)
    return recorded


def file_records(spec: DatasetSpec, resolved: ResolvedFiles, expected: dict) -> list[dict]:
    """sha256 and size of each data file, checked against what was recorded; a change is named."""
    records = []
    for f in resolved.files:
        sha, size = file_sha256(f), f.stat().st_size
        want = expected.get(str(f.resolve()))
        if want and (want["sha256"] != sha or want["size"] != size):
            raise SourceError(f"file changed since it was recorded: sha256 {sha[:12]}… size {size}, "
                              f"recorded {want['sha256'][:12]}… size {want['size']}",
                              dataset=spec.name, file=_rel(f, resolved.root))
        lfs = resolved.lfs_sha256.get(str(f))
        if lfs and lfs != sha:
            raise SourceError(f"file does not match the Hub's LFS sha256 {lfs[:12]}…",
                              dataset=spec.name, file=_rel(f, resolved.root))
        records.append({"file": _rel(f, resolved.root), "sha256": sha, "size": size,
                        "lfs_sha256": lfs, "recorded": bool(want)})
    return records


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


# One dataset's files are resolved at a time: `datasets`' DataFilesDict.from_patterns runs tqdm's
# thread_map, whose class-wide lock two threads at once delete under each other (AttributeError:
# 'tqdm' has no attribute '_lock'). Two builds at once (Catalog._load_together), or two sessions
# opening collections, resolve one after the other; they validate together.
_RESOLVING = threading.Lock()


def load_dataset(spec: DatasetSpec, expected: dict | None = None, limits=None,
                 part: Fraction = Fraction(1)) -> Loaded:
    """Validated tables of one dataset, from the disk cache when its files are unchanged.
    limits(resolved): a visitor's dataset (an upload, a Hub open) is checked against its caps
    before it is built, and built in the visitors' lane (cache.session_builds). `part`: the share
    of the lane's memory bound its build takes (cache.Lane; Catalog.collection_datasets)."""
    if spec.problem:
        return Loaded(spec, None, spec.problem)
    try:
        with _RESOLVING:  # datasets' file patterns are not thread-safe (tqdm's thread_map lock)
            resolved = resolve(spec)
            if not spec.kind:  # the schema decides: exactly one kind fits, or each candidate is named
                spec.kind = detect_resolved(resolved, spec.name, spec.form)
                spec.kind_detected = True
        files = file_records(spec, resolved, expected or {})
        key = hashlib.sha256(json.dumps(
            [BUILD_VERSION, __version__, build_code_sha256(), spec.kind, spec.form, [e.__dict__ for e in spec.exclude],
             [(f["file"], f["sha256"]) for f in files]], sort_keys=True).encode()).hexdigest()[:20]
        folder = cache_root() / f"{safe_name(spec.name)}-{key}"
        with entry_lock(folder):  # one builder per entry; every other entry is read or built meanwhile
            hurt = damage(folder) if folder.exists() else "missing"
            if hurt:
                if limits is not None:
                    limits(resolved)
                with session_builds() if limits is not None else nullcontext(), build_slot(part):
                    build_dataset(spec, resolved, files, folder, build_memory(part))
        note = None if hurt in (None, "missing") else (
            f"dataset {spec.name}: its cached tables were damaged ({hurt}) and have been rebuilt")
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        return Loaded(spec, report, None, folder, note)
    except SourceError as err:
        text = str(err) if err.dataset else f"dataset {spec.name}: {err}"
        return Loaded(spec, None, redact(text, spec.base))
    except OSError as err:  # an unreadable file: this dataset is named, the others load
        return Loaded(spec, None, redact(str(unreadable(err, spec.name, spec.path)), spec.base))


def dataset_views(roles: dict[str, Loaded]) -> dict[str, list[Path]]:
    """Each dataset's validated rows under its role, and the parts validation wrote beside them
    (per-score counts, excluded rows) under their registered names."""
    views = {role: [d.path("clean")] for role, d in roles.items()}
    return views | {v.name: [d.path(v.source)] for role, d in roles.items()
                    for v in parts_of(role) if d.path(v.source).exists()}


def _declared_store(views: dict[str, list[Path]], registry, later: dict | None = None) -> db.Store:
    undeclared = sorted((set(views) | set(later or {})) - set(registry.by_name))
    if undeclared:  # every view is declared once: in judgescope/duck/views.py or by a domain's tables
        raise SourceError(f"views declared neither in judgescope/duck/views.py nor by a domain: "
                          f"{', '.join(undeclared)}")
    return db.Store(views, memory_limit=STORE_MEMORY, temp_dir=_ensure(spill_dir()),
                    derived=set(registry.by_name), later=later)


def derived_tables(roles: dict[str, Loaded], key: list[str] | None, failed, providers,
                   notes: list[str] | None = None, later: dict | None = None) -> dict[str, list[Path]]:
    """The derived tables of `providers` (derived.Tables, as judgescope/wiring.py gathers them)
    that the datasets can feed, in the order given, each seeing the views built before it; keyed
    tables only with a join key. failed(tables, error) is told of a build that failed; the rest
    go on. A damaged cache entry rebuilt is told in `notes`. `later`: a lazy table whose entry is
    not built yet is left to build, its views put there as view → (files as they will be, what
    builds them), for the Store to build on first read (db.Store); without it every table is
    built now. A lazy table's views, ready or not, are handed to no table after it."""
    clean = {role: d.path("clean") for role, d in roles.items()}
    built: dict[str, list[Path]] = {}
    lazy: dict[str, list[Path]] = {}
    for tables in derived.usable(providers, clean):
        if tables.keyed and not key:
            continue
        try:
            if not (tables.lazy and later is not None):
                built |= tables.build(clean, built, key, notes)
                continue
            with derived.deferring() as builds:
                made = tables.build(clean, built, key, notes)
            if builds:
                later |= {view: (paths, _once(builds)) for view, paths in made.items()}
            else:
                lazy |= made
        except (SourceError, db.DBError) as err:
            failed(tables, err)
    return built | lazy


def _in_session_lane(build):
    def built() -> None:
        with session_builds():
            build()
    return built


def _once(builds):
    """One call that runs every build left by one table (derived.deferring)."""
    def build() -> None:
        for b in builds:
            b()
    return build


def open_store(roles: dict[str, Loaded], key: list[str] | None = None, *, providers) -> db.Store:
    """A store over datasets the CLI loaded, built as the app builds a collection's: their views
    and the derived tables of `providers` (the hash verification when an audit and a snapshot
    are given with a join key), each by the same builders; a build failure raises SourceError."""
    def failed(tables, err):
        raise err if isinstance(err, SourceError) else SourceError(f"{tables.what}: {err}")

    later: dict = {}
    views = dataset_views(roles) | derived_tables(roles, key, failed, providers, later=later)
    views["ledger"] = [d.path("ledger") for d in roles.values() if d.path("ledger").exists()] \
        or [_empty_ledger()]
    return _declared_store(views, derived.registry(providers), later)


class Catalog:
    """Every dataset of one manifest, loaded on first use, and a locked Store per collection
    with the derived tables of `providers` (derived.Tables, in build order; judgescope/wiring.py
    gathers the domains' declarations, and the app and the CLI pass them)."""

    def __init__(self, manifest: Manifest, prebuilt: str | None = None, filesystem=None, *, providers):
        self.manifest = manifest
        self.providers = tuple(providers)
        self.views = derived.registry(self.providers)  # every view a store of this catalog may hold
        self.rebuilt: list[str] = []  # this catalog's derived entries found damaged and rebuilt
        self._loaded: dict[str, Loaded] = {}
        self._stores: dict[str, db.Store] = {}
        self._verify_problems: dict[str, list[str]] = {}
        self._expected: dict | None = None
        # A prebuilt cache (`judgescope build`, remote/prebuilt.py): its URL, read through fsspec;
        # datasets come from its index and stores read its files where they are published.
        self.prebuilt = prebuilt if prebuilt is not None else os.environ.get("JUDGESCOPE_PREBUILT") or None
        self._filesystem = filesystem
        self._index: dict | None = None
        self._guard = threading.Lock()  # held only to read or change the dicts, never to build
        self._entries: dict[tuple, threading.Lock] = {}
        # A visitor's dataset (an upload, a Hub open) → its caps, checked before it is built
        # (remote/upload.py, hub_open.py); such datasets build in the visitors' lane.
        self.limits: dict[str, object] = {}
        if not self.prebuilt:  # a pin that cannot be read is a manifest problem from the start
            self._expected_checksums()

    def _expected_checksums(self) -> dict:
        if self._expected is None:
            try:
                self._expected = expected_checksums(self.manifest)
            except SourceError as err:  # said on Overview and by validate; the data may still load
                self.manifest.problems.append(redact(str(err), self.manifest.path.parent))
                self._expected = {}
        return self._expected

    def _prebuilt_index(self) -> dict:
        from judgescope.remote import prebuilt as remote
        if self._index is None:
            url = remote.check_url(self.prebuilt)
            self._filesystem = self._filesystem or remote.filesystem_for(url)
            self._index = remote.read_index(self._filesystem, url, set(self.views.by_name))
        return self._index

    def _prebuilt_dataset(self, name: str) -> Loaded:
        spec = self.manifest.datasets[name]
        try:
            report = self._prebuilt_index()["datasets"].get(name)
        except SourceError as err:
            return Loaded(spec, None, redact(str(err)))
        if report is None:
            return Loaded(spec, None, f"dataset {name}: not in the prebuilt cache")
        return Loaded(spec, report)

    def _entry(self, key: tuple) -> threading.Lock:
        """The lock of one dataset's load or one collection's store: a load or store of another
        is never held up by it, and a dataset already loaded is read without any lock."""
        with self._guard:
            return self._entries.setdefault(key, threading.Lock())

    def dataset(self, name: str, part: Fraction = Fraction(1)) -> Loaded:
        """One dataset, validated on first use (`part`: its build's share of the lane's memory
        bound, load_dataset)."""
        loaded = self._loaded.get(name)
        if loaded is not None:
            return loaded
        spec = self.manifest.datasets[name]
        with self._entry(("dataset", name)):
            loaded = self._loaded.get(name)
            if loaded is None:
                if self.prebuilt:
                    loaded = self._prebuilt_dataset(name)
                else:
                    loaded = load_dataset(spec, self._expected_checksums(), self.limits.get(name), part)
                    if loaded.note:
                        self.manifest.problems.append(loaded.note)
                with self._guard:
                    if self.manifest.datasets.get(name) is spec:  # not forgotten meanwhile
                        self._loaded[name] = loaded
            return loaded

    def pending(self, collection: str) -> list[DatasetSpec]:
        """Datasets of the collection not loaded yet in this process (first use, or a download)."""
        return [self.manifest.datasets[n] for n in self.manifest.collections[collection].datasets
                if n not in self._loaded]

    def collection_datasets(self, collection: str) -> list[Loaded]:
        """The collection's datasets, validated on first use: those not loaded yet together
        (_load_together), so an audit and its snapshot are built at once."""
        names = self.manifest.collections[collection].datasets
        pending = [n for n in names if n not in self._loaded]
        if len(pending) > 1 and not self.prebuilt:
            self._load_together(pending)
        return [self.dataset(n) for n in names]

    def _load_together(self, names: list[str]) -> None:
        """Load `names` TOGETHER at a time, each build taking a share of its lane's memory bound
        by weight (SHARE_WEIGHTS: an audit's ordered write sorts, a snapshot's streams) over the
        weights of the TOGETHER heaviest, so the builds running at once never hold more than one
        build did alone. At 10M rows the audit's ordered write leaves one of two cores idle for
        ~37 s; with the snapshot hashed meanwhile, validating both took 104 s against 118 s one
        after the other (issue 45). Each runs in this thread's context (the progress listener, the
        visitors' lane) on a thread the listener may attach to (the web's script context)."""
        weight = {n: SHARE_WEIGHTS.get(self.manifest.datasets[n].kind, max(SHARE_WEIGHTS.values()))
                  for n in names}
        whole = sum(sorted(weight.values(), reverse=True)[:TOGETHER])
        queue, failed = list(names), []
        take = threading.Lock()

        def work(context: contextvars.Context) -> None:
            while True:
                with take:
                    if not queue:
                        return
                    name = queue.pop(0)
                try:
                    context.run(self.dataset, name, Fraction(weight[name], whole))
                except BaseException as err:  # noqa: BLE001 raised below, in the caller's thread
                    failed.append(err)

        attach = progress.attacher()
        workers = [threading.Thread(target=work, args=(contextvars.copy_context(),), daemon=True,
                                    name=f"judgescope-validate-{i}") for i in range(min(TOGETHER, len(names)))]
        for worker in workers:
            if attach:
                attach(worker)
            worker.start()
        for worker in workers:
            worker.join()
        if failed:
            raise failed[0]

    def roles(self, collection: str) -> dict[str, Loaded]:
        """View name → dataset: the kind's role, `audit_previous` for the earlier version; a
        second dataset of a kind is ignored and named (collection_notes.notices)."""
        coll = self.manifest.collections[collection]
        return assign_roles(self.collection_datasets(collection), coll.previous)[0]

    def notices(self, collection: str, detail: bool = True) -> list[str]:
        """The collection's unusable and ignored datasets, each in one sentence."""
        coll = self.manifest.collections[collection]
        return notices(self.collection_datasets(collection), coll.previous, detail)

    def store(self, collection: str) -> db.Store:
        store = self._stores.get(collection)
        if store is not None:
            return store
        coll = self.manifest.collections[collection]
        with self._entry(("store", collection)):
            store = self._stores.get(collection)
            if store is None:
                visitor = any(n in self.limits for n in coll.datasets)
                with session_builds() if visitor else nullcontext():
                    store = self._open_store(collection, visitor)
                with self._guard:
                    if self.manifest.collections.get(collection) is coll:  # not forgotten meanwhile
                        self._stores[collection] = store
            return store

    def _open_store(self, collection: str, visitor: bool = False) -> db.Store:
        if self.prebuilt:
            from judgescope.remote import prebuilt as remote
            index = self._prebuilt_index()
            store = remote.open_store(self.prebuilt, collection, self._filesystem,
                                      memory_limit=STORE_MEMORY, index=index,
                                      derived=set(self.views.by_name))
            self._verify_problems[collection] = list(
                index["collections"].get(collection, {}).get("verify_problems", []))
            return store
        loaded = [d for d in self.collection_datasets(collection) if d.ok]
        roles = self.roles(collection)
        later: dict = {}
        views = dataset_views(roles) | self._derived(collection, roles, later)
        views["ledger"] = [d.path("ledger") for d in loaded] or [_empty_ledger()]
        if visitor:  # a visitor's lazy table is built in the visitors' lane too, when first read
            later = {view: (paths, _in_session_lane(build)) for view, (paths, build) in later.items()}
        store = _declared_store(views, self.views, later)
        self.manifest.problems += [n for n in self.rebuilt if n not in self.manifest.problems]
        return store

    def forget(self, collection: str) -> None:
        """Drop a collection and its datasets from this process (an evicted session collection
        opened from the Hub, an upload whose session ended); a request still holding its store
        finishes with it."""
        with self._guard:
            coll = self.manifest.collections.pop(collection, None)
            self._stores.pop(collection, None)
            self._verify_problems.pop(collection, None)
            self._entries.pop(("store", collection), None)
            for name in (coll.datasets if coll else []):
                self._loaded.pop(name, None)
                self.manifest.datasets.pop(name, None)
                self.limits.pop(name, None)
                self._entries.pop(("dataset", name), None)

    def loaded(self, collection: str) -> list[Loaded]:
        """The collection's datasets loaded so far (none is loaded by asking)."""
        coll = self.manifest.collections.get(collection)
        return [self._loaded[n] for n in (coll.datasets if coll else []) if n in self._loaded]

    def opened_store(self, collection: str) -> db.Store | None:
        """The collection's store if it has been opened (none is opened by asking)."""
        return self._stores.get(collection)

    def has_store(self, collection: str) -> bool:
        return collection in self._stores

    def join_key(self, collection: str) -> list[str]:
        """The collection's declared join key, else the key columns its audit and snapshot share."""
        coll = self.manifest.collections[collection]
        roles = self.roles(collection)
        if coll.join_key_declared or "audit" not in roles or "snapshot" not in roles:
            return list(coll.join_key)
        return join_key.infer_key(roles["audit"].report["columns_missing"],
                                roles["snapshot"].report["columns_missing"])

    def verify_problems(self, collection: str) -> list[str]:
        """Why the collection's audit cannot be verified against its snapshot (empty: it can,
        or there is nothing to verify)."""
        self.store(collection)
        return self._verify_problems.get(collection, [])

    def _derived(self, collection: str, roles: dict[str, Loaded], later: dict) -> dict[str, list[Path]]:
        """The collection's derived tables (a lazy one not built yet: in `later`, derived_tables).
        A join key that cannot be used, or a verification that fails, is named on Integrity
        (verify_problems); another table that cannot be built is named on Overview (a lazy one
        failing when first read: on the page that reads it); the rest of the collection keeps
        working either way."""
        key = None
        if "audit" in roles and "snapshot" in roles:
            key = self.join_key(collection)
            missing = roles["audit"].report["columns_missing"], roles["snapshot"].report["columns_missing"]
            problems = join_key.input_problems(key, *missing) if key else [join_key.no_shared_key(*missing)]
            if problems:
                self._verify_problems[collection], key = problems, None
            else:
                key = join_key.check_key(key)

        def failed(tables, err):
            text = redact(str(err).splitlines()[0])
            if tables.keyed:
                self._verify_problems[collection] = [f"verification failed: {text}"]
            else:
                self.manifest.problems.append(f"{tables.what} of {roles['audit'].spec.name}: {text}")

        return derived_tables(roles, key, failed, self.providers, self.rebuilt, later)


def _empty_ledger() -> Path:
    path = _ensure(cache_root()) / f"empty-ledger-v{BUILD_VERSION}.parquet"
    with entry_lock(path):  # two stores may open at once: one writes it, beside, then renamed
        if not path.exists() or not parquet_ok(path):
            tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
            con = db.scratch()
            con.execute("COPY (SELECT NULL::VARCHAR AS dataset, NULL::VARCHAR AS file, NULL::BIGINT AS row, "
                        "NULL::VARCHAR AS column, NULL::VARCHAR AS reason, NULL::VARCHAR AS value, "
                        "NULL::VARCHAR AS record_id WHERE false) TO $p (FORMAT parquet)", {"p": str(tmp)})
            con.close()
            os.replace(tmp, path)
    return path


@lru_cache(maxsize=8)
def _catalog(path: str, mtime_ns: int, providers: tuple) -> Catalog:
    _sweep_once()
    return Catalog(load_manifest(path), providers=providers)


@lru_cache(maxsize=1)
def _sweep_once() -> list[str]:
    """At start: build and spill folders left by a killed process are removed."""
    return sweep()


def get_catalog(path: Path | str | None = None, *, providers) -> Catalog:
    """The process-wide catalog of the active manifest (JUDGESCOPE_SOURCES or data/sources.toml)
    with the derived tables of `providers` (judgescope/wiring.get_catalog passes the domains')."""
    from judgescope.ingest.manifest import manifest_path
    p = Path(path).resolve() if path else manifest_path()
    return _catalog(str(p), p.stat().st_mtime_ns if p.exists() else 0, tuple(providers))
