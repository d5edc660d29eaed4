"""Hub loading, offline, from a Hugging Face cache laid out by the test (blobs, refs, snapshots)."""

import hashlib
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.manifest import load_manifest

COMMIT = "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840"
REPO = "owner/audit-demo"
ROWS = [{"judge_record_id": f"r{i}", "target_language": "th", "unit": "answer", "score": 50 + i}
        for i in range(5)]
CARD = ("---\nconfigs:\n- config_name: judge\n  data_files:\n  - split: audit\n"
        "    path: data/audit.parquet\n---\n# audit\n")


def lay_out_cache(cache, tamper=False):
    """datasets--owner--name/{blobs/<sha256>, refs/main, snapshots/<commit>/…} as the HF cache has it."""
    repo = cache / ("datasets--" + REPO.replace("/", "--"))
    snap = repo / "snapshots" / COMMIT
    (snap / "data").mkdir(parents=True)
    (repo / "blobs").mkdir()
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    tmp = cache / "audit.parquet"
    pq.write_table(pa.Table.from_pylist(ROWS), tmp)
    for rel, data in (("README.md", CARD.encode()), ("data/audit.parquet", tmp.read_bytes())):
        sha = hashlib.sha256(data).hexdigest()
        (repo / "blobs" / sha).write_bytes(data + (b"x" if tamper and rel.endswith("parquet") else b""))
        os.symlink(os.path.relpath(repo / "blobs" / sha, (snap / rel).parent), snap / rel)
    return cache


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    cache = lay_out_cache(tmp_path / "hf")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return cache


def _catalog(write_manifest, revision=COMMIT, repo=REPO):
    body = ('[[collection]]\nname = "c"\ndatasets = ["hub"]\n[[dataset]]\nname = "hub"\n'
            f'kind = "judge_audit"\nhub = "{repo}"\nrevision = "{revision}"\n'
            'config = "judge"\nsplit = "audit"\n')
    return Catalog(load_manifest(write_manifest(body)), providers=TABLES)


def test_pinned_hub_dataset_loads_offline_from_the_cache(hub_cache, write_manifest):
    d = _catalog(write_manifest).dataset("hub")
    assert d.ok, d.error
    assert d.report["rows_used"] == 5
    (f,) = d.report["files"]
    assert f["lfs_sha256"] == f["sha256"]  # the Hub's own LFS sha256 is checked


def test_lfs_mismatch_is_named(tmp_path, monkeypatch, write_manifest):
    monkeypatch.setenv("HF_HUB_CACHE", str(lay_out_cache(tmp_path / "hf", tamper=True)))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    d = _catalog(write_manifest).dataset("hub")
    assert not d.ok and "LFS sha256" in d.error and "audit.parquet" in d.error


def test_revision_not_in_cache_offline_fails_fast_with_a_clear_message(hub_cache, write_manifest):
    d = _catalog(write_manifest, revision="1" * 40).dataset("hub")
    assert not d.ok and "not in the local Hugging Face cache" in d.error


def test_branch_name_is_refused_with_how_to_pin(hub_cache, write_manifest):
    d = _catalog(write_manifest, revision="main").dataset("hub")
    assert "not pinned" in d.error and "40-hex" in d.error
