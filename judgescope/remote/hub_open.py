"""Open a Hub dataset from the browser (issue #16.5): a branch or tag resolved once to its commit,
the size capped before anything is downloaded, the dataset added to the catalog as a session
collection whose URL (repo and commit, never a branch) reopens it. Off with
JUDGESCOPE_ALLOW_HUB_OPEN=0. Pure: no streamlit."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from judgescope.remote import hub, limits
from judgescope.ingest.manifest import (REVISION_RE, Collection, DatasetSpec, SourceError, check_repo_id)

DEFAULT_MAX_BYTES = 500 * 1024 * 1024
DEFAULT_MAX_ROWS = 5_000_000
DEFAULT_MAX_UNCOMPRESSED = 2 * 1024 * 1024 * 1024
REF_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/]{0,99}")


def allowed() -> bool:
    return os.environ.get("JUDGESCOPE_ALLOW_HUB_OPEN", "1").strip().lower() not in {"0", "false", "no", "off"}


def max_bytes() -> int:
    raw = os.environ.get("JUDGESCOPE_HUB_OPEN_MAX_BYTES", "")
    return int(raw) if raw.strip().isdigit() else DEFAULT_MAX_BYTES


def caps() -> limits.Caps:
    """Rows and uncompressed bytes a dataset opened from the browser may hold, checked on its
    downloaded files before validation (JUDGESCOPE_HUB_OPEN_MAX_ROWS,
    JUDGESCOPE_HUB_OPEN_MAX_UNCOMPRESSED_BYTES)."""
    return limits.caps("Hub open", "JUDGESCOPE_HUB_OPEN", DEFAULT_MAX_ROWS, DEFAULT_MAX_UNCOMPRESSED)


def _cache_repo(repo_id: str) -> Path:
    from huggingface_hub.constants import HF_HUB_CACHE

    cache = Path(os.environ.get("HF_HUB_CACHE") or HF_HUB_CACHE)
    return cache / ("datasets--" + repo_id.replace("/", "--"))


def resolve_commit(repo_id: str, revision: str) -> str:
    """A 40-hex commit as is; a branch or tag → its commit (the cache's refs offline, the Hub
    online). Anything else is refused by name."""
    check_repo_id(repo_id)
    revision = (revision or "main").strip()
    if REVISION_RE.fullmatch(revision):
        return revision
    if not REF_RE.fullmatch(revision) or ".." in revision:
        raise SourceError(f"revision {revision!r} is neither a 40-hex commit nor a branch or tag name")
    ref = _cache_repo(repo_id) / "refs" / revision
    if hub.offline():
        if ref.is_file() and REVISION_RE.fullmatch(ref.read_text(encoding="utf-8").strip()):
            return ref.read_text(encoding="utf-8").strip()
        raise SourceError(f"{repo_id}: revision {revision!r} is not in the local Hugging Face "
                          "cache and HF_HUB_OFFLINE is set")
    from huggingface_hub import HfApi

    try:
        sha = HfApi().dataset_info(repo_id, revision=revision, timeout=hub.CONNECT_TIMEOUT).sha
    except Exception as err:  # noqa: BLE001 — the Hub client raises many types; hub.failure sorts them
        raise hub.failure(err, f"{repo_id}: revision {revision!r} cannot be resolved") from err
    return sha


def repo_files(repo_id: str, commit: str) -> list[int]:
    """Size of every file at `commit`: the cache's snapshot offline, the Hub's metadata online."""
    snap = _cache_repo(repo_id) / "snapshots" / commit
    if snap.is_dir():
        return [p.stat().st_size for p in snap.rglob("*") if p.is_file()]
    if hub.offline():
        raise SourceError(f"{repo_id}@{commit[:7]} is not in the local Hugging Face cache and "
                          "HF_HUB_OFFLINE is set")
    from huggingface_hub import HfApi

    try:
        info = HfApi().dataset_info(repo_id, revision=commit, files_metadata=True,
                                    timeout=hub.CONNECT_TIMEOUT)
    except Exception as err:  # noqa: BLE001 — as in resolve_commit
        raise hub.failure(err, f"{repo_id}@{commit[:7]}") from err
    return [s.size or 0 for s in info.siblings or []]


def repo_size(repo_id: str, commit: str) -> int:
    return sum(repo_files(repo_id, commit))


def check_size(repo_id: str, commit: str) -> tuple[int, int]:
    """(bytes, files) at `commit`, refused over the cap before anything is downloaded."""
    sizes, cap = repo_files(repo_id, commit), max_bytes()
    if sum(sizes) > cap:
        raise SourceError(f"{repo_id}@{commit[:7]} holds {sum(sizes):,} bytes, over the cap of "
                          f"{cap:,} bytes (JUDGESCOPE_HUB_OPEN_MAX_BYTES): not opened")
    return sum(sizes), len(sizes)


def session_name(repo_id: str, commit: str, config: str | None, split: str | None) -> str:
    """The session collection's name: readable, at most 64 characters, and distinct for every
    (repo, commit, config, split): when shortening or sanitising changed anything, a digest of
    the full tuple is appended, so two configs that differ only late never share a name."""
    slug = re.sub(r"[^A-Za-z0-9_.-]", "-", repo_id.replace("/", "--"))[:40]
    extra = "-".join(x for x in (config, split) if x)
    raw = f"hub-{slug}-{commit[:7]}" + (f"-{extra}" if extra else "")
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", raw)
    if name == raw and len(name) <= 64 and slug == repo_id.replace("/", "--"):
        return name
    digest = hashlib.sha256(json.dumps([repo_id, commit, config, split]).encode("utf-8")).hexdigest()
    return f"{name[:51]}-{digest[:12]}"


MAX_SESSION_COLLECTIONS = 16  # opened in this process; the oldest is forgotten beyond it
_OPENED: list[str] = []


def _remember(catalog, name: str) -> None:
    """Keep at most MAX_SESSION_COLLECTIONS opened collections: each distinct config string a
    visitor types adds one, so the oldest is dropped from the catalog (its files stay cached)."""
    if name in _OPENED:
        _OPENED.remove(name)
    _OPENED.append(name)
    SESSION_COLLECTIONS.add(name)
    while len(_OPENED) > MAX_SESSION_COLLECTIONS:
        old = _OPENED.pop(0)
        SESSION_COLLECTIONS.discard(old)
        catalog.forget(old)


# Collections opened from the browser in this process. They live in the process-wide catalog
# (validated once), but each visitor's picker lists only those that visitor opened or linked.
SESSION_COLLECTIONS: set[str] = set()


def open_dataset(catalog, repo_id: str, revision: str, config: str | None = None,
                 split: str | None = None, kind: str | None = None, progress=print) -> str:
    """Resolve, cap, and add the dataset as a session collection of `catalog`; its name.
    `progress` receives one sentence per step."""
    if not allowed():
        raise SourceError("opening Hub datasets from the browser is switched off here "
                          "(JUDGESCOPE_ALLOW_HUB_OPEN=0)")
    commit = resolve_commit(repo_id, revision)
    progress(f"Revision {revision or 'main'} → commit {commit}")
    size, files = check_size(repo_id, commit)
    progress(f"{files:,} files, {size:,} bytes (cap {max_bytes():,}); downloading if not cached, "
             "then validating")
    name = session_name(repo_id, commit, config or None, split or None)
    manifest = catalog.manifest
    if name not in manifest.collections:
        manifest.datasets[name] = DatasetSpec(
            name=name, kind=kind or "", title=f"{repo_id}@{commit[:7]}", base=manifest.path.parent,
            hub=repo_id, revision=commit, config=config or None, split=split or None)
        manifest.collections[name] = Collection(name=name, title=f"Hub: {repo_id}@{commit[:7]}",
                                                datasets=[name])
    catalog.limits[name] = caps()  # checked before the build, which runs in the visitors' lane
    _remember(catalog, name)
    return name


def manifest_entry(spec: DatasetSpec) -> str:
    """The sources.toml text that reproduces an opened dataset."""
    q = json.dumps  # a JSON string is a valid TOML basic string
    lines = ["[[collection]]", f"name = {q(spec.name)}", f"datasets = [{q(spec.name)}]", "",
             "[[dataset]]", f"name = {q(spec.name)}", f"kind = {q(spec.kind)}",
             f"hub = {q(spec.hub)}", f"revision = {q(spec.revision)}"]
    lines += [f"{k} = {q(v)}" for k, v in (("config", spec.config), ("split", spec.split)) if v]
    return "\n".join(lines) + "\n"
