"""The on-disk cache of validated and derived tables: its root, sealed entries, and a sweep.

An entry (a folder of Parquet files and report.json) is built beside its final name and renamed
into place; `seal` then writes entry.json last, recording each file's size (and, for JSON, its
sha256; for Parquet, its footer's sha256: the footer holds the statistics lookups prune by, and
hashing it costs a few kilobytes where hashing the data would cost the whole file). An entry
without a seal, or whose files no longer match it (deleted, truncated, a Parquet footer that
does not parse or was edited, an edited report), is damaged: the catalog names what
happened and rebuilds it. Temporary build folders and DuckDB spill folders carry the builder's
process id, so one left by a killed process is swept at start without touching a live one's.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from pathlib import Path

SEAL = "entry.json"


def cache_root() -> Path:
    root = os.environ.get("JUDGESCOPE_CACHE") or Path.home() / ".cache" / "judgescope"
    return Path(root)


def ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


_ENTRY_LOCKS: dict[str, threading.Lock] = {}
_ENTRY_GUARD = threading.Lock()


class Lane:
    """Builds in one lane share one memory bound (a build's DuckDB memory limit is its share of
    it): a build takes its share, waiting until that much is free, and gives it back when done.
    A build of the whole bound runs alone, as every build did before datasets were validated
    together (catalog.Catalog.collection_datasets: an audit and its snapshot at once, 2/3 and
    1/3, on the two cores a first open otherwise leaves half idle through the audit's ordered
    write). A build holding its share waits for nothing else, so no two builds wait on each
    other."""

    def __init__(self):
        self.free = Fraction(1)
        self.changed = threading.Condition()

    @contextmanager
    def share(self, part: Fraction = Fraction(1)):
        part = min(Fraction(1), max(Fraction(part), Fraction(0)))  # exact: shares add up to 1 again
        with self.changed:
            self.changed.wait_for(lambda: self.free >= part)
            self.free -= part
        try:
            yield
        finally:
            with self.changed:
                self.free += part
                self.changed.notify_all()


# Builds run in two lanes, bounding memory to two builds' bounds: the manifest's datasets and
# derived tables in one, a visitor's upload or Hub open in the other (session_builds), so a
# visitor's build never holds up the manifest's collections.
_LANES = {False: Lane(), True: Lane()}
_SESSION = ContextVar("judgescope_session_build", default=False)


def entry_lock(folder: Path) -> threading.Lock:
    """The lock of one cache entry: its damage check and build, never another entry's."""
    with _ENTRY_GUARD:
        return _ENTRY_LOCKS.setdefault(str(folder), threading.Lock())


@contextmanager
def session_builds():
    """Builds started inside (this thread) run in the visitors' lane, not the manifest's."""
    token = _SESSION.set(True)
    try:
        yield
    finally:
        _SESSION.reset(token)


def build_slot(part: Fraction = Fraction(1)):
    """Wait for `part` of this thread's lane (see Lane, _LANES), build, give it back."""
    return _LANES[_SESSION.get()].share(part)


def temp_prefix(name: str) -> str:
    """Prefix of a build folder: hidden, with this process's id (see sweep)."""
    return f".tmp-{os.getpid()}-{name}-"


def spill_dir() -> Path:
    """This process's DuckDB spill folder for collection queries."""
    return cache_root() / ".spill" / str(os.getpid())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def seal(folder: Path) -> None:
    """Record every file of a complete entry; written last, so a seal means complete."""
    files = {}
    for path in sorted(folder.iterdir()):
        if path.name != SEAL and path.is_file():
            files[path.name] = {"size": path.stat().st_size}
            if path.suffix == ".json":
                files[path.name]["sha256"] = _sha256(path)
            elif path.suffix == ".parquet":  # a same-size edit of the footer (statistics) is caught
                files[path.name]["footer_sha256"] = _footer_sha256(path)
    tmp = folder / f".{SEAL}.tmp"
    tmp.write_text(json.dumps(files, indent=1), encoding="utf-8")
    tmp.replace(folder / SEAL)


def publish(tmp: Path, folder: Path) -> None:
    """Put a complete build (`tmp`, beside `folder`) in place: sealed before it is renamed, so
    an entry is never seen without its seal, and an intact entry another process put there
    meanwhile is kept (the same inputs give the same files; removing it would pull the files
    from under whoever reads them). The caller removes `tmp` if it is still there."""
    seal(tmp)
    if folder.exists():
        if damage(folder) is None:
            return
        shutil.rmtree(folder)
    tmp.rename(folder)


def damage(folder: Path) -> str | None:
    """None when the entry is complete and intact, else what is wrong with it."""
    try:
        files = json.loads((folder / SEAL).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "it was never completed (no seal)"
    except (OSError, ValueError):
        return f"its {SEAL} is unreadable"
    for name, want in files.items():
        problem = _file_damage(folder / name, want)
        if problem:
            return f"{name} {problem}"
    return None


def _file_damage(path: Path, want: dict) -> str | None:
    if not path.is_file():
        return "is missing"
    if path.stat().st_size != want.get("size"):
        return "was truncated or changed (size differs)"
    if "sha256" in want and _sha256(path) != want["sha256"]:
        return "was changed (sha256 differs)"
    if path.suffix == ".parquet" and not parquet_ok(path):
        return "is not readable Parquet"
    if "footer_sha256" in want and _footer_sha256(path) != want["footer_sha256"]:
        return "was changed (its Parquet footer differs; same size)"
    return None


def _footer_sha256(path: Path) -> str:
    size = path.stat().st_size
    with path.open("rb") as fh:
        return footer_sha256(fh, size)


FOOTER_TAIL = 8  # a Parquet file ends with its footer's length (4 bytes, little-endian) and PAR1


def footer_sha256(fh, size: int) -> str:
    """sha256 of a Parquet file's footer: the footer, its length and the closing magic (read from
    an open binary file of `size` bytes); '' when the file does not end as Parquet does."""
    if size < 12:
        return ""
    fh.seek(size - FOOTER_TAIL)
    tail = fh.read(FOOTER_TAIL)
    if len(tail) != FOOTER_TAIL or tail[-4:] != b"PAR1":
        return ""
    length = int.from_bytes(tail[:4], "little")
    if length + FOOTER_TAIL + 4 > size:
        return ""
    fh.seek(size - FOOTER_TAIL - length)
    footer = fh.read(length)
    return hashlib.sha256(footer + tail).hexdigest()



def parquet_ok(path: Path) -> bool:
    """The file opens as Parquet: magic bytes and a footer that parses."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        with path.open("rb") as fh:
            if fh.read(4) != b"PAR1":
                return False
        pq.read_metadata(path)
        return True
    except (OSError, pa.ArrowException):
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_PID = re.compile(r"^\.(?:tmp|spill-\.tmp)-(\d+)-")


def sweep(root: Path | None = None) -> list[str]:
    """Remove build and spill folders left by processes that no longer run; return their names."""
    root = root or cache_root()
    if not root.is_dir():
        return []
    gone = []
    candidates = list(root.iterdir()) + (list((root / ".spill").iterdir())
                                         if (root / ".spill").is_dir() else [])
    for path in candidates:
        m = _PID.match(path.name) or (re.fullmatch(r"\d+", path.name)
                                      if path.parent.name == ".spill" else None)
        pid = int(m.group(1) if m and m.groups() else m.group(0)) if m else None
        if pid is not None and pid != os.getpid() and not _alive(pid) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            gone.append(path.name)
    return gone


def redact(text: str, *roots: Path | str | None) -> str:
    """A message without absolute server paths: each root becomes a short public name."""
    names = [(cache_root(), "$JUDGESCOPE_CACHE"), (os.environ.get("HF_HUB_CACHE"), "$HF_HUB_CACHE"),
             *((r, ".") for r in roots), (Path.home(), "~")]
    for root, name in names:
        if root:
            for form in {str(root), str(Path(root).resolve())}:
                if len(form) > 1:
                    text = text.replace(form.rstrip("/") + "/", name + "/").replace(form, name)
    return text
