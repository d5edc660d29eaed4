"""Hugging Face Hub datasets at a pinned commit: from the local cache first, the network only if asked."""

from __future__ import annotations

import os
import re
from pathlib import Path

from judgescope.ingest.manifest import SourceError, check_repo_id, check_revision

LFS_SHA256 = re.compile(r"^[0-9a-f]{64}$")
CONNECT_TIMEOUT = 5.0


NO_HUB = ("This server cannot reach the Hugging Face Hub (no network, or the Hub does not answer). "
          "A dataset already in this server's local Hugging Face cache opens without it: start "
          "the server with HF_HUB_OFFLINE=1. Otherwise give this server network access, or "
          "download the dataset once on a machine that has it and open the local folder.")


def failure(err: Exception, what: str, dataset: str | None = None) -> SourceError:
    """A Hub request that failed, said plainly: the Hub's own answer (no such repository or
    revision, gated, an HTTP status) when it gave one, else NO_HUB; never the exception text."""
    from huggingface_hub.errors import (GatedRepoError, HfHubHTTPError, RepositoryNotFoundError,
                                        RevisionNotFoundError)

    if isinstance(err, RevisionNotFoundError):
        text = f"{what}: the Hub has no such revision"
    elif isinstance(err, GatedRepoError):
        text = f"{what}: the dataset is gated; accept its terms on the Hub and set HF_TOKEN"
    elif isinstance(err, RepositoryNotFoundError):
        text = f"{what}: the Hub has no such dataset repository (or it is private: set HF_TOKEN)"
    elif isinstance(err, HfHubHTTPError) and getattr(err, "response", None) is not None:
        text = f"{what}: the Hugging Face Hub answered HTTP {err.response.status_code}"
    else:
        text = f"{NO_HUB} (Asked for {what}.)"
    return SourceError(text, dataset=dataset)


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def fetch(repo_id: str, revision: str, dataset: str | None = None,
          cache_dir: str | Path | None = None, progress=None) -> tuple[Path, dict[str, str]]:
    """Folder of the dataset repository at `revision`, and the LFS sha256 of each file we can see."""
    check_repo_id(repo_id, dataset)
    check_revision(revision, dataset)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    # Read at call time (the library reads it at import), so a test or a user can point it anywhere.
    cache_dir = cache_dir or os.environ.get("HF_HUB_CACHE") or None
    try:
        folder = snapshot_download(repo_id, repo_type="dataset", revision=revision,
                                   cache_dir=cache_dir, local_files_only=True)
    except LocalEntryNotFoundError:  # not in the cache: only then the network
        folder = _download(repo_id, revision, dataset, cache_dir, progress)
    except OSError as err:  # a cache we cannot read (permissions, a broken disk) is no reason to download
        raise SourceError(f"cannot read the local Hugging Face cache for {repo_id}@{revision[:7]}: "
                          f"{type(err).__name__}: {err.strerror or 'unreadable'}",
                          dataset=dataset) from err
    folder = Path(folder)
    return folder, lfs_hashes(folder)


def _download(repo_id, revision, dataset, cache_dir, progress) -> str:
    if offline():
        raise SourceError(f"{repo_id}@{revision[:7]} is not in the local Hugging Face cache and "
                          "HF_HUB_OFFLINE is set; download it once online (or unset HF_HUB_OFFLINE)",
                          dataset=dataset)
    from huggingface_hub import HfApi, snapshot_download

    try:
        # One quick request first: without a network this fails in seconds, not after retries.
        HfApi().dataset_info(repo_id, revision=revision, timeout=CONNECT_TIMEOUT)
    except Exception as err:  # noqa: BLE001 — the Hub client raises many types; failure() sorts them
        raise failure(err, f"{repo_id}@{revision[:7]}", dataset) from err
    if progress:
        progress(f"Downloading {repo_id}@{revision[:7]}…")
    return snapshot_download(repo_id, repo_type="dataset", revision=revision, cache_dir=cache_dir,
                             etag_timeout=CONNECT_TIMEOUT)


def lfs_hashes(folder: Path) -> dict[str, str]:
    """In the HF cache a snapshot file links to blobs/<sha256> when it is stored with LFS."""
    out = {}
    for path in folder.rglob("*"):
        if path.is_symlink():
            blob = Path(os.readlink(path)).name
            if LFS_SHA256.match(blob):
                out[str(path)] = blob
    return out
