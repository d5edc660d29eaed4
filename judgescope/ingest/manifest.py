"""The sources manifest: which pinned datasets exist and how they group (their files: layout.py)."""

from __future__ import annotations

import functools
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from judgescope import resources
from judgescope.schema import SCHEMAS

DEFAULT_MANIFEST = resources.DEMO_MANIFEST
LOCAL_MANIFEST = "sources.toml"  # in the current folder: `judgescope init` writes it there
REVISION_RE = re.compile(r"[0-9a-f]{40}")  # used with fullmatch: no trailing newline slips by
# Dataset names become cache folder names: a safe slug, never a path.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
REPO_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")
FORMATS = {".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv",
           ".eval": "inspect"}  # a file another tool wrote is told by its content (ingest/importers)
PIN_HINT = ('pin a full 40-hex commit, e.g. revision = "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840"; '
            "find it with huggingface_hub.HfApi().dataset_info(repo_id).sha or on the repo's "
            "'Files and versions' history")


class SourceError(Exception):
    """A dataset or file that cannot be used; the message names dataset, file and column."""

    def __init__(self, message: str, dataset: str | None = None, file: str | None = None,
                 column: str | None = None, row: int | None = None):
        self.dataset, self.file, self.column, self.row = dataset, file, column, row
        self.message = message
        where = ", ".join(f"{k} {v}" for k, v in (("dataset", dataset), ("file", file),
                                                   ("column", column), ("row", row)) if v is not None)
        super().__init__(f"{where}: {message}" if where else message)


def unreadable(err: OSError, dataset: str | None = None, file: str | None = None) -> SourceError:
    """A file the operating system will not read (permissions, an I/O error), named (`file`
    when the error does not say which: a failed read, not a failed open)."""
    name = Path(err.filename).name if isinstance(err.filename, str) and err.filename else file
    return SourceError(f"cannot be read: {err.strerror or err}", dataset=dataset, file=name)


@dataclass(frozen=True)
class Exclusion:
    column: str
    values: tuple[str, ...]
    reason: str


@dataclass
class DatasetSpec:
    name: str
    kind: str
    title: str
    base: Path
    path: str | None = None
    hub: str | None = None
    revision: str | None = None
    config: str | None = None
    split: str | None = None
    form: str = "flat"
    synthetic: bool = False
    exclude: tuple[Exclusion, ...] = ()
    problem: str | None = None  # set when the manifest entry itself is unusable
    kind_detected: bool = False  # no kind given: the one kind its columns fit (kinds.py)

    @property
    def origin(self) -> str:
        if self.hub:
            return f"{self.hub}@{(self.revision or '?')[:7]}"
        if self.path is not None and self.base == Path(self.base.anchor):
            # Files from several places (`judgescope open /a/x /b/y`) share only the filesystem's
            # root: "work/x.jsonl" would read as relative to here, so the path is shown whole.
            return f"local: {(self.base / self.path).as_posix()}"
        return f"local: {self.path}"


@dataclass
class Collection:
    name: str
    title: str
    datasets: list[str]
    previous: str | None = None
    join_key: tuple[str, ...] = ("instance_id", "target_language", "unit", "paragraph_id")
    description: str = ""
    join_key_declared: bool = False  # else inferred: the key columns both sides have
    # A deviation the release recorded, per gate ("panel" or a judge's name): shown beside the badge.
    deviations: dict[str, str] = field(default_factory=dict)
    guidelines: str = ""  # review guidelines, shown beside the verdict buttons (plain text)


@dataclass
class Manifest:
    path: Path
    datasets: dict[str, DatasetSpec]
    collections: dict[str, Collection]
    checksums: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def manifest_path() -> Path:
    """The active manifest: JUDGESCOPE_SOURCES, else sources.toml in the current folder (as
    `judgescope init` writes it), else the embedded demo's, resolved. Every page run asks for it many times, so the
    resolution (a realpath, an lstat per path part) is kept per value (and working directory,
    for a relative one)."""
    raw = os.environ.get("JUDGESCOPE_SOURCES") or (LOCAL_MANIFEST if os.path.isfile(LOCAL_MANIFEST)
                                                   else str(DEFAULT_MANIFEST))
    return _resolved(raw, "" if os.path.isabs(raw) else os.getcwd())


def manifest_origin() -> str:
    """Which manifest is active and why, in words (for a message naming what was not found)."""
    if os.environ.get("JUDGESCOPE_SOURCES"):
        return (f"JUDGESCOPE_SOURCES={os.environ['JUDGESCOPE_SOURCES']}; unset, ./{LOCAL_MANIFEST} "
                "or else the embedded demo is read")
    if os.path.isfile(LOCAL_MANIFEST):
        return f"./{LOCAL_MANIFEST} of this folder, as JUDGESCOPE_SOURCES is not set"
    return f"the embedded demo's, as JUDGESCOPE_SOURCES is not set and this folder has no {LOCAL_MANIFEST}"


@functools.lru_cache(maxsize=64)
def _resolved(path: str, cwd: str) -> Path:
    return (Path(cwd) / path).resolve()


def load_manifest(path: Path | str | None = None) -> Manifest:
    """Parse a manifest; a bad entry is kept with its problem (named on Overview, CLI exit 2) so
    the rest still works. Only an unreadable manifest raises."""
    path = Path(path).resolve() if path else manifest_path()
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, IsADirectoryError) as err:
        where = f" ({manifest_origin()})" if path == manifest_path() else ""
        raise SourceError(f"manifest not found: {path.name}{where}") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise SourceError(f"manifest {path.name} is not valid TOML: {err}") from err
    problems: list[str] = []
    base = _root(doc, path.parent, problems)
    datasets: dict[str, DatasetSpec] = {}
    for i, entry in enumerate(_tables(doc, "dataset", problems)):
        spec = _dataset_spec(entry, base, i)
        if spec.name in datasets:
            problems.append(f"dataset {spec.name}: defined twice in the manifest; both refused")
            datasets[spec.name].problem = f"dataset {spec.name}: defined twice in the manifest"
            continue
        datasets[spec.name] = spec
    collections: dict[str, Collection] = {}
    for entry in _tables(doc, "collection", problems):
        coll = _collection(entry, datasets, problems)
        if coll and coll.name in collections:
            problems.append(f"collection {coll.name}: defined twice in the manifest; the first is used")
        elif coll:
            collections[coll.name] = coll
    if not collections:
        problems.append("the manifest defines no [[collection]]: nothing to show")
    return Manifest(path, datasets, collections, _checksums(doc, path.parent, problems), problems)


def _root(doc: dict, folder: Path, problems: list[str]) -> Path:
    """The folder dataset paths resolve against (and may not leave): top-level `root` (absolute,
    or relative to the manifest), else the manifest's own folder. `judgescope open --save` writes
    it when the files it was given live elsewhere."""
    root = doc.get("root")
    if root is None:
        return folder
    if not isinstance(root, str) or not root.strip():
        problems.append(f"`root` must be a folder path, not {root!r}; the manifest's folder is used")
        return folder
    target = (folder / root).resolve()
    if not target.is_dir():
        problems.append(f"`root` {root!r} is not a folder; the manifest's folder is used")
        return folder
    return target


def _tables(doc: dict, key: str, problems: list[str]) -> list[dict]:
    """The [[key]] tables of a manifest; anything else under that key is a named problem."""
    entries = doc.get(key, [])
    entries = entries if isinstance(entries, list) else [entries]
    bad = [e for e in entries if not isinstance(e, dict)]
    if bad:
        problems.append(f"`{key}` entries must be [[{key}]] tables; {len(bad)} ignored")
    return [e for e in entries if isinstance(e, dict)]


def _checksums(doc: dict, base: Path, problems: list[str]) -> list[Path]:
    integrity = doc.get("integrity", {})
    listed = integrity.get("checksums", []) if isinstance(integrity, dict) else None
    out = []
    for p in listed if isinstance(listed, list) else [None]:
        try:
            if not isinstance(p, str):
                raise SourceError(f"integrity.checksums must be a list of paths, not {p!r}")
            out.append(_inside(base, p, "integrity.checksums"))
        except SourceError as err:
            problems.append(str(err))
    return out


def _opt_str(entry: dict, key: str, problems: list[str]) -> str | None:
    value = entry.get(key)
    if value is not None and not isinstance(value, str):
        problems.append(f"`{key}` must be a string, not {type(value).__name__} {value!r}")
        return str(value)
    return value


def _exclusions(entry: dict, problems: list[str]) -> tuple[Exclusion, ...]:
    out = []
    for x in entry.get("exclude", []) if isinstance(entry.get("exclude", []), list) else [None]:
        if not isinstance(x, dict) or "column" not in x or "value" not in x:
            problems.append("each [[dataset.exclude]] needs column = … and value = …")
            continue
        out.append(Exclusion(str(x["column"]), tuple(map(str, _as_list(x["value"]))),
                             str(x.get("reason", "excluded by the manifest"))))
    return tuple(out)


def _dataset_spec(entry: dict, base: Path, index: int) -> DatasetSpec:
    problems: list[str] = []
    name = str(entry.get("name") or f"dataset_{index + 1}")
    if not NAME_RE.fullmatch(name):
        problems.append(f"dataset name {name!r} is not a safe name (letters, digits, _ . -, "
                        "at most 64, starting with a letter or digit)")
    hub = _opt_str(entry, "hub", problems)
    revision = _opt_str(entry, "revision", problems)
    spec = DatasetSpec(
        name=name, kind=str(entry.get("kind", "")), title=str(entry.get("title") or readable(name)),
        base=base,
        path=_opt_str(entry, "path", problems), hub=hub,
        # "" rather than None for an unpinned Hub entry: it is refused, and still prints.
        revision=revision if revision is not None or not hub else "",
        config=_opt_str(entry, "config", problems), split=_opt_str(entry, "split", problems),
        form=str(entry.get("form", "flat")), synthetic=bool(entry.get("synthetic", False)),
        exclude=_exclusions(entry, problems))
    try:
        if problems:
            raise SourceError("; ".join(problems), dataset=name)
        _check_spec(spec)
    except SourceError as err:
        spec.problem = str(err)
    return spec


def _check_spec(spec: DatasetSpec) -> None:
    if spec.kind and spec.kind not in SCHEMAS:  # no kind: detected from the columns on load
        raise SourceError(f"unknown kind {spec.kind!r}; known kinds: {', '.join(SCHEMAS)}",
                          dataset=spec.name)
    if bool(spec.path) == bool(spec.hub):
        raise SourceError("give exactly one origin: path = ... or hub = ...", dataset=spec.name)
    if spec.path:
        _inside(spec.base, spec.path, f"dataset {spec.name}")
    else:
        check_repo_id(spec.hub, spec.name)
        check_revision(spec.revision, spec.name)


def check_repo_id(repo_id: str | None, dataset: str | None = None) -> str:
    if not isinstance(repo_id, str) or not REPO_ID_RE.fullmatch(repo_id) or ".." in repo_id:
        raise SourceError(f"hub repo id {repo_id!r} is not of the form owner/name", dataset=dataset)
    return repo_id


def check_revision(revision: str | None, dataset: str | None = None) -> str:
    if not isinstance(revision, str) or not REVISION_RE.fullmatch(revision):
        raise SourceError(f"revision {revision!r} is not pinned: {PIN_HINT}", dataset=dataset)
    return revision


def _inside(base: Path, rel: str, what: str) -> Path:
    """Resolve a manifest path, refusing one that escapes the manifest's folder."""
    target = (base / rel).resolve()
    if Path(rel).is_absolute() or not target.is_relative_to(base.resolve()):
        raise SourceError(f"{what}: path {rel!r} escapes the manifest folder")
    return target


def _collection(entry: dict, datasets: dict, problems: list[str]) -> Collection | None:
    name = entry.get("name")
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        problems.append(f"collection {name!r}: needs a safe name (letters, digits, _ . -); ignored")
        return None
    listed = entry.get("datasets", [])
    previous = entry.get("previous")
    coll = Collection(name=name, title=str(entry.get("title") or readable(name)),
                      datasets=[str(d) for d in _as_list(listed)],
                      previous=None if previous is None else str(previous),
                      description=str(entry.get("description", "")),
                      guidelines=str(entry.get("guidelines", "")))
    if "join_key" in entry:
        coll.join_key = tuple(map(str, _as_list(entry["join_key"])))
        coll.join_key_declared = True
    deviations = entry.get("deviations", {})
    if isinstance(deviations, dict):
        coll.deviations = {str(k): str(v) for k, v in deviations.items()}
    else:
        problems.append(f"collection {coll.name}: deviations must be a table of gate = \"sentence\"; ignored")
    for missing in [d for d in coll.datasets if d not in datasets]:
        problems.append(f"collection {coll.name}: dataset {missing!r} is not defined")
    coll.datasets = [d for d in coll.datasets if d in datasets]
    return coll


def readable(stem: str) -> str:
    """A default title from a name: 'judge_audit_gemba_wmt22.source_snapshot' →
    'Judge audit gemba wmt22 · source snapshot'."""
    parts = [re.sub(r"[_\-\s]+", " ", p).strip() for p in str(stem).split(".")]
    text = " · ".join(p for p in parts if p) or str(stem)
    return text[:1].upper() + text[1:]


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]
