"""Load every dataset of a manifest once: resolve, hash-check, validate, cache on disk, serve views."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judgescope import __version__, db, hub
from judgescope.readers import read_raw
from judgescope.schema import SCHEMAS
from judgescope.snapshot import prepare as prepare_snapshot
from judgescope.sources import (DatasetSpec, Manifest, ResolvedFiles, SourceError, load_manifest,
                                resolve_local)
from judgescope.validate import (build_checked, check_required, clean_select, columns_of,
                                 ledger_select, normalize_pairwise)

# Bump when validation changes what it writes, so cached tables are rebuilt.
BUILD_VERSION = 6  # 6: optional source_language column
_LOCK = threading.RLock()
# A snapshot's texts are hashed once per file revision, here, so that verifying an audit against
# it (every page's sidebar badge) joins stored digests instead of re-hashing gigabytes of text.
SNAPSHOT_DIGESTS = (", sha256(CAST(source_text AS VARCHAR)) AS source_sha256_computed"
                    ", sha256(CAST(candidate_text AS VARCHAR)) AS candidate_sha256_computed")
# Bounds for DuckDB: validation, derived tables (catalog.derived_views) and a collection's queries
# spill to disk rather than take the machine. Validation and derived tables run in the app's
# process on first use of a revision, so each keeps the process under 2 GB RSS.
BUILD_MEMORY, DERIVED_MEMORY, STORE_MEMORY = "1536MB", "1GB", "1536MB"
SCORED_KINDS = ("judge_audit", "raw_judge_records")
# Rows per Parquet row group of every cached table. Lookups (a Review page, a record, a snapshot
# row by position) read whole row groups once min/max statistics have pruned the others, so a
# smaller group is read faster; 30,720 rows keeps a 10M-row audit at ~330 groups.
ROW_GROUP_ROWS = 30_720
_HASHES: dict[tuple, str] = {}


def cache_root() -> Path:
    root = os.environ.get("JUDGESCOPE_CACHE") or Path.home() / ".cache" / "judgescope"
    return Path(root)


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


@dataclass
class Loaded:
    spec: DatasetSpec
    report: dict | None = None
    error: str | None = None
    folder: Path | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.report is not None

    def path(self, part: str) -> Path:
        return self.folder / f"{part}.parquet"


def resolve(spec: DatasetSpec) -> ResolvedFiles:
    if spec.path:
        return resolve_local((spec.base / spec.path).resolve(), spec.config, spec.split, spec.name)
    folder, lfs = hub.fetch(spec.hub, spec.revision, dataset=spec.name)
    resolved = resolve_local(folder, spec.config, spec.split, spec.name)
    resolved.lfs_sha256 = lfs
    return resolved


def expected_checksums(manifest: Manifest) -> dict[str, dict]:
    """Recorded sha256/size of files, from the manifest's [integrity] checksums files."""
    out = {}
    for path in manifest.checksums:
        try:
            recorded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise SourceError(f"checksums file unreadable: {err}", file=str(path)) from err
        out.update({str((path.parent / rel).resolve()): v for rel, v in recorded.items()})
    return out


def file_records(spec: DatasetSpec, resolved: ResolvedFiles, expected: dict) -> list[dict]:
    """sha256 and size of each data file, checked against what was recorded; a change is named."""
    records = []
    for f in resolved.files:
        sha, size = file_sha256(f), f.stat().st_size
        want = expected.get(str(f.resolve()))
        if want and (want["sha256"] != sha or want["size"] != size):
            raise SourceError(f"file changed since it was recorded: sha256 {sha[:12]}… size {size}, "
                              f"recorded {want['sha256'][:12]}… size {want['size']}",
                              dataset=spec.name, file=str(f))
        lfs = resolved.lfs_sha256.get(str(f))
        if lfs and lfs != sha:
            raise SourceError(f"file does not match the Hub's LFS sha256 {lfs[:12]}…",
                              dataset=spec.name, file=str(f))
        records.append({"file": _rel(f, resolved.root), "sha256": sha, "size": size,
                        "lfs_sha256": lfs, "recorded": bool(want)})
    return records


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def load_dataset(spec: DatasetSpec, expected: dict | None = None) -> Loaded:
    """Validated tables of one dataset, from the disk cache when its files are unchanged."""
    if spec.problem:
        return Loaded(spec, None, spec.problem)
    try:
        resolved = resolve(spec)
        files = file_records(spec, resolved, expected or {})
        key = hashlib.sha256(json.dumps(
            [BUILD_VERSION, __version__, spec.kind, spec.form, [e.__dict__ for e in spec.exclude],
             [(f["file"], f["sha256"]) for f in files]], sort_keys=True).encode()).hexdigest()[:20]
        folder = cache_root() / f"{spec.name}-{key}"
        with _LOCK:
            if not (folder / "report.json").exists():
                _build(spec, resolved, files, folder)
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        return Loaded(spec, report, None, folder)
    except SourceError as err:
        return Loaded(spec, None, str(err) if err.dataset else f"dataset {spec.name}: {err}")


def _build(spec: DatasetSpec, resolved: ResolvedFiles, files: list[dict], folder: Path) -> None:
    schema = SCHEMAS[spec.kind]
    tmp = Path(tempfile.mkdtemp(prefix=f".{spec.name}-", dir=_ensure(cache_root())))
    spill = cache_root() / f".spill-{tmp.name}"
    con = db.scratch(temp_dir=spill, memory_limit=BUILD_MEMORY)
    try:
        broken = read_raw(con, resolved, spec.name)
        if spec.kind == "pairwise_ranking":
            normalize_pairwise(con)
        prepare_snapshot(con, spec)  # flattens a form = "nested" source snapshot
        check_required(con, schema, spec.name, files[0]["file"] if len(files) == 1 else resolved.root.name)
        casts = build_checked(con, schema, spec.exclude)
        present = columns_of(con, "raw")
        # Audits are stored sorted by score: low-score lists then read only the first row groups
        # (Parquet min/max statistics act as the low-score index); other kinds keep file order.
        order = "score, judge_record_id" if spec.kind in SCORED_KINDS else "_file, _row"
        select = clean_select(con, schema, casts) + (SNAPSHOT_DIGESTS if spec.kind == "source_snapshot" else "")
        con.execute(f"COPY (SELECT {select} FROM checked WHERE _reason IS NULL ORDER BY {order}) "
                    f"TO $p (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUP_ROWS})",
                    {"p": str(tmp / "clean.parquet")})
        if spec.kind in SCORED_KINDS:
            write_counts(con, tmp / "clean.parquet", tmp / "counts.parquet")
        _write_ledger(con, schema, spec, present, broken, tmp / "ledger.parquet")
        # The excluded rows in full, as read (a release's dropped runs stay inspectable).
        con.execute("COPY (SELECT * EXCLUDE (_reason, _column), _reason AS reason, "
                    "_column AS reason_column FROM checked WHERE _reason IS NOT NULL "
                    "ORDER BY _file, _row) TO $p (FORMAT parquet)", {"p": str(tmp / "excluded.parquet")})
        report = _report(con, spec, files, present, len(broken))
        (tmp / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    except db.DBError as err:
        raise SourceError(f"validation failed: {str(err).splitlines()[0]}", dataset=spec.name) from err
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(spill, ignore_errors=True)


def write_counts(con, clean: Path, out: Path) -> None:
    """Per-score counts by every facet, built once per file revision: pages aggregate these
    (thousands of rows) instead of scanning millions of audit rows on each interaction."""
    con.execute("""COPY (SELECT target_language, unit, score_origin, run_group, source_split,
                    dataset_version, judge_prompt_version, requested_judge_model, score,
                    (judge_explanation IS NULL) AS explanation_missing, count(*) AS n
                  FROM read_parquet($clean) GROUP BY ALL ORDER BY ALL) TO $p (FORMAT parquet)""",
                {"clean": str(clean), "p": str(out)})


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_ledger(con, schema, spec, present, broken: list[dict], out: Path) -> None:
    sql, params = ledger_select(schema, spec.name, present)
    con.execute(f"CREATE OR REPLACE TABLE ledger AS {sql}", params)
    for b in broken:
        con.execute("INSERT INTO ledger VALUES ($d, $f, $r, NULL, $reason, $v, NULL)",
                    {"d": spec.name, "f": b["file"], "r": b["row"], "reason": b["reason"],
                     "v": b["value"]})
    con.execute("COPY (SELECT * FROM ledger ORDER BY file, row) TO $p (FORMAT parquet)",
                {"p": str(out)})


def _report(con, spec: DatasetSpec, files: list[dict], present: dict, broken: int) -> dict:
    schema = SCHEMAS[spec.kind]
    used = con.execute("SELECT count(*) FROM checked WHERE _reason IS NULL").fetchone()[0]
    reasons = dict(con.execute("SELECT reason, count(*) FROM ledger GROUP BY 1 ORDER BY 2 DESC").fetchall())
    excluded = sum(reasons.values())
    known = {c.name for c in schema.columns}
    return {
        "dataset": spec.name, "kind": spec.kind, "title": spec.title, "origin": spec.origin,
        "hub": spec.hub, "revision": spec.revision, "path": spec.path, "config": spec.config,
        "split": spec.split, "synthetic": spec.synthetic, "files": files,
        "rows_loaded": used + excluded, "rows_used": used, "rows_excluded": excluded,
        "reasons": reasons, "unreadable_lines": broken,
        "columns_missing": [c.name for c in schema.columns if c.name not in present],
        "columns_extra": [c for c in present if c not in known and not c.startswith("_")],
    }


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
    for view, path in sorted(inputs.items()):
        st = path.stat()
        stamp.append([view, *_input_identity(path.resolve(), st)])
    digest = hashlib.sha256(json.dumps(stamp, sort_keys=True).encode()).hexdigest()[:20]
    folder = _ensure(cache_root()) / f"{kind}-{digest}"
    with _LOCK:
        if not folder.exists():
            build_derived(inputs, steps, folder)
    return {view: [folder / f"{view}.parquet"] for view, _, _ in steps}


def _input_identity(path: Path, st) -> list:
    try:
        return [path.relative_to(cache_root().resolve()).as_posix(), st.st_size]
    except ValueError:
        return [str(path), st.st_size, st.st_mtime_ns]


def build_derived(inputs: dict[str, Path], steps: list[tuple[str, str, dict]], folder: Path) -> None:
    """Run the steps of derived_views into `folder` (built beside it, renamed when complete)."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=_ensure(folder.parent)))
    spill = folder.parent / f".spill-{tmp.name}"
    con = db.scratch(temp_dir=spill, memory_limit=DERIVED_MEMORY)
    try:
        for view, path in inputs.items():
            con.execute(db.view_sql(view, [path]))
        db.create_macros(con)
        for view, query, params in steps:
            out = tmp / f"{view}.parquet"
            con.execute(f"COPY ({db.query_text(query)}\n) TO $out "
                        f"(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUP_ROWS})",
                        {**params, "out": str(out)})
            con.execute(db.view_sql(view, [out]))
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    except db.DBError as err:
        raise SourceError(f"building {folder.name} failed: {str(err).splitlines()[0]}") from err
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(spill, ignore_errors=True)


def verification_steps(key: list[str]) -> list[tuple[str, str, dict]]:
    return [("hash_verification", "verify_build_rows", {"key": list(key)}),
            ("hash_verification_summary", "verify_build_summary", {})]


def verification_views(audit: Path, snapshot: Path, key: list[str]) -> dict[str, list[Path]]:
    """Views `hash_verification` (every audit row's class and hint, in class order),
    `hash_verification_summary` (counts per language × unit × class × hint, and unreferenced
    snapshot rows) and `snapshot_numbered` (the snapshot with file_row_number), built once per
    (audit file, snapshot file, join key): the join of millions of audit keys to millions of
    snapshot keys is the expensive part of verification; pages and the badge read a few rows."""
    inputs = {"audit": audit, "snapshot_numbered": snapshot}
    return derived_views("verify", inputs, verification_steps(key)) | {"snapshot_numbered": [snapshot]}


def exact_copy_views(audit: Path, snapshot: Path | None) -> dict[str, list[Path]]:
    """Views `audit_exact_copies` (every exact-copy row, with the snapshot's candidate text when
    there is a snapshot) and `audit_exact_copy_summary` (counts per language × unit), built once
    per audit (and snapshot) file: the Exact copies page then filters a few rows."""
    inputs = {"audit": audit} | ({"snapshot": snapshot} if snapshot else {})
    rows = "audit_build_exact_copies_texts" if snapshot else "audit_build_exact_copies"
    return derived_views("copies", inputs, [("audit_exact_copies", rows, {}),
                                            ("audit_exact_copy_summary", "audit_build_exact_copy_counts", {})])


def compare_views(audit: Path, previous: Path) -> dict[str, list[Path]]:
    """Views `audit_version_overlap` and `audit_paired_diffs` (Compare versions), built once per
    pair of audit files: both join every row of one version to the other."""
    return derived_views("compare", {"audit": audit, "audit_previous": previous},
                         [("audit_version_overlap", "audit_build_overlap", {}),
                          ("audit_paired_diffs", "audit_build_paired_diff_counts", {})])


def audit_summary_views(audit: Path) -> dict[str, list[Path]]:
    """Views built once per audit file: `audit_record_index` (judge_record_id, score sorted by
    id: opening one record reads a row group of it, then only the audit's row groups holding that
    score, the audit being stored sorted by score) and `audit_model_provenance_summary`."""
    return derived_views("audit", {"audit": audit},
                         [("audit_record_index", "audit_build_record_index", {}),
                          ("audit_model_provenance_summary", "audit_build_model_provenance", {})])


class Catalog:
    """Every dataset of one manifest, loaded on first use, and a locked Store per collection."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self._loaded: dict[str, Loaded] = {}
        self._stores: dict[str, db.Store] = {}
        self._verify_problems: dict[str, list[str]] = {}
        self._expected: dict | None = None

    def dataset(self, name: str) -> Loaded:
        with _LOCK:
            if name not in self._loaded:
                if self._expected is None:
                    try:
                        self._expected = expected_checksums(self.manifest)
                    except SourceError as err:  # say so on Overview; the data may still load
                        self.manifest.problems.append(str(err))
                        self._expected = {}
                self._loaded[name] = load_dataset(self.manifest.datasets[name], self._expected)
            return self._loaded[name]

    def pending(self, collection: str) -> list[DatasetSpec]:
        """Datasets of the collection not loaded yet in this process (first use, or a download)."""
        return [self.manifest.datasets[n] for n in self.manifest.collections[collection].datasets
                if n not in self._loaded]

    def collection_datasets(self, collection: str) -> list[Loaded]:
        return [self.dataset(n) for n in self.manifest.collections[collection].datasets]

    def roles(self, collection: str) -> dict[str, Loaded]:
        """View name → dataset: the kind's role, `audit_previous` for the earlier version."""
        coll = self.manifest.collections[collection]
        roles: dict[str, Loaded] = {}
        for loaded in self.collection_datasets(collection):
            role = SCHEMAS[loaded.spec.kind].role if loaded.spec.kind in SCHEMAS else None
            if loaded.spec.name == coll.previous:
                role = "audit_previous"
            if role and loaded.ok and role not in roles:
                roles[role] = loaded
        return roles

    def store(self, collection: str) -> db.Store:
        with _LOCK:
            if collection not in self._stores:
                loaded = [d for d in self.collection_datasets(collection) if d.ok]
                roles = self.roles(collection)
                views = {role: [d.path("clean")] for role, d in roles.items()}
                views |= self._verification(collection, roles)
                views |= self._derived(roles)
                views |= {f"{role}_{part}": [d.path(part)] for role, d in roles.items()
                          for part in ("counts", "excluded") if d.path(part).exists()}
                views["ledger"] = [d.path("ledger") for d in loaded] or [_empty_ledger()]
                self._stores[collection] = db.Store(views, memory_limit=STORE_MEMORY,
                                                    temp_dir=_ensure(cache_root() / ".spill"))
            return self._stores[collection]

    def has_store(self, collection: str) -> bool:
        return collection in self._stores

    def verify_problems(self, collection: str) -> list[str]:
        """Why the collection's audit cannot be verified against its snapshot (empty: it can,
        or there is nothing to verify)."""
        self.store(collection)
        return self._verify_problems.get(collection, [])

    def _derived(self, roles: dict[str, Loaded]) -> dict[str, list[Path]]:
        """The audit's derived tables; one that cannot be built is named on Overview and the
        rest of the collection keeps working (its page then says the table is missing)."""
        clean = {role: d.path("clean") for role, d in roles.items()}
        wanted = []
        if "audit" in clean:
            wanted += [("record index and provenance", lambda: audit_summary_views(clean["audit"])),
                       ("exact copies", lambda: exact_copy_views(clean["audit"], clean.get("snapshot")))]
        if "audit" in clean and "audit_previous" in clean:
            wanted.append(("version comparison",
                           lambda: compare_views(clean["audit"], clean["audit_previous"])))
        views: dict[str, list[Path]] = {}
        for what, build in wanted:
            try:
                views |= build()
            except SourceError as err:
                self.manifest.problems.append(f"{what} of {roles['audit'].spec.name}: {err}")
        return views

    def _verification(self, collection: str, roles: dict[str, Loaded]) -> dict[str, list[Path]]:
        if "audit" not in roles or "snapshot" not in roles:
            return {}
        from judgescope import verify
        key = self.manifest.collections[collection].join_key
        problems = verify.input_problems(key, roles["audit"].report["columns_missing"],
                                         roles["snapshot"].report["columns_missing"])
        try:
            if not problems:
                return verification_views(roles["audit"].path("clean"),
                                          roles["snapshot"].path("clean"), verify.check_key(key))
        except (SourceError, db.DBError) as err:
            problems = [f"verification failed: {str(err).splitlines()[0]}"]
        self._verify_problems[collection] = problems
        return {}


def _empty_ledger() -> Path:
    path = _ensure(cache_root()) / f"empty-ledger-v{BUILD_VERSION}.parquet"
    if not path.exists():
        con = db.scratch()
        con.execute("COPY (SELECT NULL::VARCHAR AS dataset, NULL::VARCHAR AS file, NULL::BIGINT AS row, "
                    "NULL::VARCHAR AS column, NULL::VARCHAR AS reason, NULL::VARCHAR AS value, "
                    "NULL::VARCHAR AS record_id WHERE false) TO $p (FORMAT parquet)", {"p": str(path)})
        con.close()
    return path


@lru_cache(maxsize=8)
def _catalog(path: str, mtime_ns: int) -> Catalog:
    return Catalog(load_manifest(path))


def get_catalog(path: Path | str | None = None) -> Catalog:
    """The process-wide catalog of the active manifest (JUDGESCOPE_SOURCES or data/sources.toml)."""
    from judgescope.sources import manifest_path
    p = Path(path).resolve() if path else manifest_path()
    return _catalog(str(p), p.stat().st_mtime_ns if p.exists() else 0)
