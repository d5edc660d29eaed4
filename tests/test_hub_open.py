"""Issue #16.5, offline: a Hugging Face cache laid out by the test (HF_HUB_OFFLINE=1); a branch
resolved against a cached ref, a revision that does not exist, a dataset over the cap, the
switch; the page flow to a working Distributions page."""

import pytest

from hub_page import EMPTY, submit_repo
from judgescope.remote import hub_open
from judgescope.sources.catalog import Catalog
from judgescope.ingest.manifest import SourceError, load_manifest
from test_hub import COMMIT, REPO, hub_cache  # noqa: F401 — the fixture lays out the cache


@pytest.fixture
def catalog(write_manifest):
    return Catalog(load_manifest(write_manifest(EMPTY)))


def test_branch_resolves_to_the_cached_commit(hub_cache):
    assert hub_open.resolve_commit(REPO, "main") == COMMIT
    assert hub_open.resolve_commit(REPO, COMMIT) == COMMIT


@pytest.mark.parametrize("revision,words", [("nope", "'nope' is not in the local Hugging Face cache"),
                                            ("../x", "neither a 40-hex commit")])
def test_unknown_revision_is_refused(hub_cache, revision, words):
    with pytest.raises(SourceError, match=words):
        hub_open.resolve_commit(REPO, revision)


def test_opened_dataset_is_a_session_collection_with_its_kind_detected(hub_cache, catalog):
    name = hub_open.open_dataset(catalog, REPO, "main")
    loaded = catalog.dataset(name)
    assert loaded.ok, loaded.error
    assert loaded.spec.revision == COMMIT and loaded.spec.kind == "judge_audit"
    assert "audit" in catalog.roles(name) and loaded.report["rows_used"] == 5
    entry = hub_open.manifest_entry(loaded.spec)
    assert f'revision = "{COMMIT}"' in entry and 'kind = "judge_audit"' in entry


def test_over_the_cap_is_refused_with_the_size(hub_cache, catalog, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_HUB_OPEN_MAX_BYTES", "100")
    size = hub_open.repo_size(REPO, COMMIT)
    with pytest.raises(SourceError, match=f"holds {size:,} bytes, over the cap of 100 bytes"):
        hub_open.open_dataset(catalog, REPO, "main")
    assert not [n for n in catalog.manifest.collections if n.startswith("hub-")]


def test_switched_off(hub_cache, catalog, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_ALLOW_HUB_OPEN", "0")
    with pytest.raises(SourceError, match="switched off"):
        hub_open.open_dataset(catalog, REPO, COMMIT)


def test_page_opens_a_branch_and_links_to_a_working_distributions_page(hub_cache, write_manifest,
                                                                       monkeypatch):
    at = submit_repo(REPO, write_manifest, monkeypatch)
    assert any(COMMIT in str(s.value) for s in at.success), [e.value for e in at.error]
    assert at.query_params["revision"] in (COMMIT, [COMMIT])  # the commit, never the branch
    name = hub_open.session_name(REPO, COMMIT, None, None)
    at.query_params["collection"] = name
    at.switch_page("pages/distributions.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert not [i.value for i in at.info if "has no" in i.value]  # filled, not "unavailable"
    assert any("Mean" in m.label or "mean" in m.label.lower() for m in at.metric) or at.dataframe
