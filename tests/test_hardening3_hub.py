"""Hardening, part 3: Open from the Hub refuses URL data_files, keeps configs that differ late
apart, and bounds the collections it opens."""

import pytest

from judgescope.remote import hub_open

from judgescope.ingest import layout
from judgescope.sources.catalog import Catalog
from judgescope.ingest.manifest import SourceError, load_manifest
from test_hub import COMMIT, REPO, hub_cache  # noqa: F401 — the fixture lays out the cache


@pytest.mark.parametrize("path", ["https://127.0.0.1:9/x.parquet", "hf://datasets/a/b/x.parquet",
                                  "zip://x.parquet::https://127.0.0.1:9/a.zip"])
def test_url_data_files_are_refused_like_dotdot(tmp_path, path):
    (tmp_path / "README.md").write_text(
        "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: train\n"
        f"    path: \"{path}\"\n---\n# card\n")
    with pytest.raises(SourceError, match="is a URL"):
        layout.hub_layout_files(tmp_path, None, None)


def test_configs_that_differ_only_late_get_different_names():
    a = hub_open.session_name(REPO, COMMIT, "c" * 61 + "a", None)
    b = hub_open.session_name(REPO, COMMIT, "c" * 61 + "b", None)
    assert a != b and len(a) <= 64 and len(b) <= 64
    assert hub_open.session_name(REPO, COMMIT, "a/b", None) != hub_open.session_name(REPO, COMMIT, "a-b", None)
    assert hub_open.session_name(REPO, COMMIT, None, None) == f"hub-{REPO.replace('/', '--')}-{COMMIT[:7]}"


@pytest.fixture
def catalog(write_manifest):
    return Catalog(load_manifest(write_manifest('[[collection]]\nname = "c"\ndatasets = []\n')))


def test_opened_collections_are_bounded(hub_cache, catalog, monkeypatch):
    monkeypatch.setattr(hub_open, "SESSION_COLLECTIONS", set())
    monkeypatch.setattr(hub_open, "_OPENED", [])
    names = [hub_open.open_dataset(catalog, REPO, "main", config=f"config{i}", progress=lambda _: None)
             for i in range(hub_open.MAX_SESSION_COLLECTIONS + 5)]
    opened = [n for n in catalog.manifest.collections if n.startswith("hub-")]
    assert len(opened) == hub_open.MAX_SESSION_COLLECTIONS
    assert names[0] not in catalog.manifest.collections and names[-1] in catalog.manifest.collections
    assert hub_open.SESSION_COLLECTIONS == set(opened)
    assert names[0] not in catalog.manifest.datasets
