"""A data file uploaded in the browser becomes a collection of that visitor's session only,
validated exactly as a manifest dataset is (catalog.load_dataset: the same kind detection,
limits, ledger and hostile-input handling), under a size cap. On by default when run locally,
off on a public deployment (a Hugging Face Space sets SPACE_ID) unless JUDGESCOPE_ALLOW_UPLOAD=1.
Pure: no streamlit."""

from __future__ import annotations

import hashlib
import os
import secrets
import tempfile
from pathlib import Path

from judgescope.sources.cache import cache_root, ensure
from judgescope.sources.manifest import FORMATS, Collection, DatasetSpec, SourceError, readable

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
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


def _stem(filename: str) -> str:
    import re

    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(str(filename)).stem).strip("_-")[:40]
    return stem or "upload"


def add_upload(catalog, filename: str, data: bytes) -> str:
    """Store the bytes under the cache (named by their sha256) and add a one-dataset collection
    to `catalog`; its name, which the caller keeps in the visitor's session. Refused when
    switched off, over the cap, or not a Parquet, JSONL or CSV file (by its name)."""
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
    if not target.exists():  # written beside, renamed into place: never a half file
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    name = f"upload-{stem[:30]}-{sha[:8]}-{secrets.token_hex(4)}"
    title = f"Upload: {readable(stem)}"
    manifest = catalog.manifest
    manifest.datasets[name] = DatasetSpec(name=name, kind="", title=title, base=folder,
                                          path=target.name)
    manifest.collections[name] = Collection(name=name, title=title, datasets=[name],
                                            description="Uploaded in this browser session only.")
    UPLOAD_COLLECTIONS.add(name)
    return name
