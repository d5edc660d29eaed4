"""Issue #25 item 5: without a network, Open from the Hub says so plainly — "This server cannot
reach the Hugging Face Hub" and what to do — never an exception's text. The Hub client is made to
fail as it does without a network (no request leaves the test)."""

import httpx2
import pytest
from huggingface_hub import HfApi

from judgescope.remote import hub, hub_open
from hub_page import submit_repo
from judgescope.ingest.manifest import SourceError
from textutil import plain

REPO = "someone/some-audit"
COMMIT = "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840"


@pytest.fixture
def no_network(monkeypatch, tmp_path):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    calls = []

    def unreachable(self, repo_id, **kwargs):
        calls.append(repo_id)
        raise httpx2.ConnectError("[Errno -2] Name or service not known")
    monkeypatch.setattr(HfApi, "dataset_info", unreachable)
    return calls


def _plain(text: str) -> None:
    assert text.startswith("This server cannot reach the Hugging Face Hub"), text
    assert "HF_HUB_OFFLINE=1" in text
    assert "Errno" not in text and "ConnectError" not in text and "Name or service" not in text


def test_resolving_a_branch_without_network(no_network):
    with pytest.raises(SourceError) as err:
        hub_open.resolve_commit(REPO, "main")
    _plain(str(err.value))
    assert no_network == [REPO]


def test_sizing_a_commit_without_network(no_network):
    with pytest.raises(SourceError) as err:
        hub_open.repo_files(REPO, COMMIT)
    _plain(str(err.value))


def test_fetching_a_pinned_dataset_without_network(no_network):
    with pytest.raises(SourceError) as err:
        hub.fetch(REPO, COMMIT, dataset="d")
    _plain(str(err.value).removeprefix("dataset d: "))


def test_a_missing_repository_is_named_as_such(monkeypatch):
    from huggingface_hub.errors import RepositoryNotFoundError

    response = httpx2.Response(404, request=httpx2.Request("GET", "https://hf.invalid/x"))
    error = RepositoryNotFoundError("404 Client Error: secret detail", response=response)
    text = str(hub.failure(error, f"{REPO}: revision 'main' cannot be resolved"))
    assert "no such dataset repository" in text and "secret detail" not in text


def test_the_page_says_it_plainly(no_network, write_manifest, monkeypatch):
    at = submit_repo(REPO, write_manifest, monkeypatch)
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    _plain(plain(errors[0]))
