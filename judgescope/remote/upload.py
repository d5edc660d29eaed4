"""A data file uploaded in the browser becomes a collection of that visitor's session only,
validated exactly as a manifest dataset is (catalog.load_dataset: the same kind detection,
limits, ledger and hostile-input handling), under caps on its bytes, rows and uncompressed
bytes (remote/limits.py), in the visitors' build lane (cache.session_builds). At most
MAX_UPLOADS are kept in a process, and an upload whose session ended is forgotten (forget,
prune): its catalog entries, its cache entries and its file. On by default when run locally,
off on a public deployment (a Hugging Face Space sets SPACE_ID) unless JUDGESCOPE_ALLOW_UPLOAD=1.
Pure: no streamlit."""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from judgescope.remote import limits
from judgescope.duck.cache import cache_root, ensure
from judgescope.ingest.manifest import FORMATS, Collection, DatasetSpec, SourceError, readable

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_ROWS = 2_000_000
DEFAULT_MAX_UNCOMPRESSED = 512 * 1024 * 1024
MAX_UPLOADS = 8  # kept in this process (all visitors); the least recently added is forgotten beyond
_ON, _OFF = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}

# Collections uploaded in this process; each visitor's picker lists only their own, and a URL
# naming another visitor's upload does not reveal it (unlike a Hub dataset, it is not public).
UPLOAD_COLLECTIONS: set[str] = set()


def public_deployment() -> bool:
    return bool(os.environ.get("SPACE_ID"))


def allowed() -> bool:
    raw = os.environ.get("JUDGESCOPE_ALLOW_UPLOAD", "").strip().lower()
    if raw in _ON or raw in _OFF:
        return raw in _ON
    return not public_deployment()


def max_bytes() -> int:
    raw = os.environ.get("JUDGESCOPE_UPLOAD_MAX_BYTES", "")
    return int(raw) if raw.strip().isdigit() else DEFAULT_MAX_BYTES


def caps() -> limits.Caps:
    """Rows and uncompressed bytes an upload may hold (JUDGESCOPE_UPLOAD_MAX_ROWS,
    JUDGESCOPE_UPLOAD_MAX_UNCOMPRESSED_BYTES)."""
    return limits.caps("upload", "JUDGESCOPE_UPLOAD", DEFAULT_MAX_ROWS, DEFAULT_MAX_UNCOMPRESSED)


# Uploads kept: collection name → the session that sent it (None: unknown) and its file's folder.
_UPLOADS: OrderedDict[str, tuple[str | None, Path]] = OrderedDict()
_GUARD = threading.Lock()


def _stem(filename: str) -> str:
    import re

    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(str(filename)).stem).strip("_-")[:40]
    return stem or "upload"


def add_upload(catalog, filename: str, data: bytes, owner: str | None = None) -> str:
    """Store the bytes under the cache (named by their sha256) and add a one-dataset collection
    to `catalog`; its name, which the caller keeps in the visitor's session (`owner`: the
    session's id, so prune can forget it when the session ends). Refused when switched off, over
    a cap (bytes, rows, uncompressed bytes), or not a Parquet, JSONL or CSV file (by its name)."""
    if not allowed():
        raise SourceError("uploading files is switched off here (JUDGESCOPE_ALLOW_UPLOAD=1 turns "
                          "it on)")
    cap = max_bytes()
    if len(data) > cap:
        raise SourceError(f"{len(data):,} bytes, over the upload cap of {cap:,} bytes "
                          "(JUDGESCOPE_UPLOAD_MAX_BYTES): not read", file=Path(filename).name)
    if not data:  # said as such, not as a file that fits no kind
        raise SourceError("the file is empty (0 bytes): there is nothing to read", file=Path(filename).name)
    suffix = Path(str(filename)).suffix.lower()
    if suffix not in FORMATS:
        raise SourceError(f"unsupported file type {suffix!r} (use Parquet, JSONL or CSV)",
                          file=Path(filename).name)
    sha = hashlib.sha256(data).hexdigest()
    folder = ensure(cache_root() / "uploads" / sha[:32])
    stem = _stem(filename)
    target = folder / f"{stem}{suffix}"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
    try:  # measured before it is kept: written beside, renamed into place, never a half file
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        caps().check([Path(tmp)])
    except SourceError as err:
        os.unlink(tmp)
        try:
            folder.rmdir()  # only when empty: another upload may have kept the same bytes
        except OSError:
            pass
        raise SourceError(err.message, file=Path(filename).name) from None
    os.replace(tmp, target)
    name = f"upload-{stem[:30]}-{sha[:8]}-{secrets.token_hex(4)}"
    title = f"Upload: {readable(stem)}"
    manifest = catalog.manifest
    manifest.datasets[name] = DatasetSpec(name=name, kind="", title=title, base=folder,
                                          path=target.name)
    manifest.collections[name] = Collection(name=name, title=title, datasets=[name],
                                            description="Uploaded in this browser session only.")
    catalog.limits[name] = caps()  # checked again before a build, which runs in the visitors' lane
    UPLOAD_COLLECTIONS.add(name)
    with _GUARD:
        _UPLOADS[name] = (owner, folder)
        evicted = list(_UPLOADS)[:-MAX_UPLOADS]
    for old in evicted:
        forget(catalog, old)
    return name


def forget(catalog, name: str) -> None:
    """Forget an upload: its collection and dataset in the catalog, the cache entries built from
    it (dataset and derived tables: folders under the cache root that no other collection
    reads) and its file, unless another upload kept the same bytes. A request still holding its
    store finishes with it where its files are already open."""
    with _GUARD:
        _, folder = _UPLOADS.pop(name, (None, None))
    entries = _entries(catalog, name)
    catalog.forget(name)
    UPLOAD_COLLECTIONS.discard(name)  # after: never listed to every visitor in between
    used = set().union(*(_entries(catalog, other) for other in list(catalog.manifest.collections)))
    root = cache_root().resolve()
    for entry in entries - used:
        if entry.parent == root:
            shutil.rmtree(entry, ignore_errors=True)
    with _GUARD:
        shared = any(f == folder for _, f in _UPLOADS.values())
    if folder is not None and not shared:
        shutil.rmtree(folder, ignore_errors=True)


def _entries(catalog, collection: str) -> set[Path]:
    """The cache folders a collection's loaded datasets and opened store read (no build)."""
    out = set()
    for d in catalog.loaded(collection):
        if d.folder is not None:
            out.add(d.folder.resolve())
    store = catalog.opened_store(collection)
    if store is not None:
        out |= {Path(p).resolve().parent for paths in store.views.values() for p in paths}
    return out


def prune(catalog, alive: Callable[[str], bool]) -> list[str]:
    """Forget every upload whose session has ended (alive(owner) is false); their names."""
    with _GUARD:
        ended = [n for n, (owner, _) in _UPLOADS.items() if owner is not None and not alive(owner)]
    for name in ended:
        forget(catalog, name)
    return ended
