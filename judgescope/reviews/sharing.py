"""Sharing the reviews log beyond one machine (issue #18, optional). Pure: no streamlit.

Each instance writes its whole log as one Parquet file, `<instance>.parquet`, into an outbox
folder; huggingface_hub's CommitScheduler uploads that folder to `reviews/` of the dataset repo
JUDGESCOPE_REVIEWS_REPO every few minutes (HF_TOKEN needed). On start, every instance's file is
downloaded and imported: append-only logs merge without conflicts, deduplicated by review_id.
JUDGESCOPE_REVIEWS_REPO=file:///some/folder shares through a folder instead (offline, tests).
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from pathlib import Path

from judgescope.sources import exports as export
from judgescope.reviews import database, log_files, verdict_log as reviews

PATH_IN_REPO = "reviews"
try:  # huggingface_hub speaks httpx: a refused connection is not an OSError
    from httpx import HTTPError as _HttpxError
    NETWORK_ERRORS: tuple = (OSError, _HttpxError)
except ImportError:
    NETWORK_ERRORS = (OSError,)
PUSH_EVERY_MINUTES = 5


def instance_id(state: Path) -> str:
    """A stable name for this instance's log file, kept next to the database."""
    file = state.parent / "instance_id"
    if not file.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(uuid.uuid4().hex, encoding="utf-8")
    return file.read_text(encoding="utf-8").strip()


def write_outbox(state: Path, outbox: Path, lock) -> Path:
    """The whole local log as <instance>.parquet in the outbox, replaced atomically under the
    scheduler's lock (so an upload never reads half a file)."""
    outbox.mkdir(parents=True, exist_ok=True)
    target = outbox / f"{instance_id(state)}.parquet"
    data = export.parquet_bytes(reviews.log(state))
    with lock:
        tmp = target.with_suffix(".parquet.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    return target


# Shared log files refused on import (a hostile or broken row names its row and column); the
# others are merged. Shown once on the pages that review.
REFUSED: list[str] = []


def pull(folder: Path | None, state: Path) -> int:
    """Import every log file under folder; returns the rows that were new here. A file with a
    bad row is refused whole and named in REFUSED; the other files still merge."""
    if folder is None:
        return 0
    added = 0
    for f in sorted(Path(folder).rglob("*.parquet")):
        try:
            added += log_files.import_file(f, state)
        except (ValueError, OSError) as err:
            REFUSED.append(str(err).splitlines()[0][:300])
    return added


class FolderTarget:
    """A CommitScheduler stand-in that commits to a local folder: the same outbox, lock and
    trigger, so the push path runs offline."""

    def __init__(self, folder_path: Path, target: Path, path_in_repo: str = PATH_IN_REPO):
        self.folder_path, self.target = Path(folder_path), Path(target) / path_in_repo
        self.lock = threading.Lock()

    def trigger(self) -> None:
        self.target.mkdir(parents=True, exist_ok=True)
        with self.lock:
            for f in self.folder_path.glob("*.parquet"):
                shutil.copy2(f, self.target / f.name)

    def stop(self) -> None:
        self.trigger()


class Sharing:
    """The outbox and its scheduler for one reviews database."""

    def __init__(self, state: Path, scheduler):
        self.state, self.scheduler = state, scheduler

    def after_write(self) -> None:
        write_outbox(self.state, Path(self.scheduler.folder_path), self.scheduler.lock)


def configured() -> str | None:
    """The share target when sharing is on: a Hub dataset repo (needs HF_TOKEN) or file:// folder."""
    repo = os.environ.get("JUDGESCOPE_REVIEWS_REPO", "").strip()
    if repo.startswith("file://") or (repo and os.environ.get("HF_TOKEN")):
        return repo
    return None


def start(state: Path | None = None) -> Sharing | None:
    """Merge the shared logs into the local database, then start pushing it; None when off."""
    repo = configured()
    if not repo:
        return None
    state = Path(state or database.default_path())
    outbox = state.parent / "outbox"
    if repo.startswith("file://"):
        remote = Path(repo.removeprefix("file://"))
        pull(remote / PATH_IN_REPO, state)
        scheduler = FolderTarget(outbox, remote)
    else:
        pull(_download(repo), state)
        from huggingface_hub import CommitScheduler
        scheduler = CommitScheduler(repo_id=repo, repo_type="dataset", folder_path=outbox,
                                    path_in_repo=PATH_IN_REPO, every=PUSH_EVERY_MINUTES,
                                    private=True, token=os.environ["HF_TOKEN"],
                                    allow_patterns=["*.parquet"])
    sharing = Sharing(state, scheduler)
    sharing.after_write()
    return sharing


def _download(repo: str) -> Path | None:
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import RepositoryNotFoundError

    try:
        return Path(snapshot_download(repo, repo_type="dataset", token=os.environ["HF_TOKEN"],
                                      allow_patterns=[f"{PATH_IN_REPO}/*.parquet"]))
    except RepositoryNotFoundError:  # the first instance creates it (CommitScheduler)
        return None
