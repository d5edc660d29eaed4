"""Issue 41 item 2: one cache decorator per collection (web/context.py per_collection) instead
of hand-written `_x(manifest, collection, …)` + `x()` pairs: keyed by manifest, collection and
arguments, a hit notes the queries the computation ran, a failure is not kept."""

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from judgescope.duck import trace
from judgescope.web import context

WEB = Path(__file__).resolve().parent.parent / "judgescope" / "web"


@pytest.fixture
def active(monkeypatch):
    """The active manifest and collection, as context.catalog() and collection_name() give them."""
    now = {"manifest": "m1.toml", "collection": "a"}
    monkeypatch.setattr(context, "catalog", lambda: SimpleNamespace(manifest=SimpleNamespace(path=now["manifest"])))
    monkeypatch.setattr(context, "collection_name", lambda: now["collection"])
    return now


def test_keyed_by_manifest_collection_and_arguments(active):
    calls = []

    @context.per_collection(max_entries=8, show_spinner=False)
    def rows(collection: str, n: int) -> str:
        calls.append((collection, n))
        return f"{collection}:{n}"

    rows.clear()
    assert [rows(1), rows(1)] == ["a:1", "a:1"]
    active["collection"] = "b"
    assert rows(1) == "b:1"  # another collection: computed for it, not served a's
    active["manifest"] = "m2.toml"
    assert rows(1) == "b:1"
    assert rows(2) == "b:2"
    active.update(manifest="m1.toml", collection="a")
    assert rows(1) == "a:1"  # still cached
    assert calls == [("a", 1), ("b", 1), ("b", 1), ("b", 2)]


def test_a_hit_notes_the_queries_the_computation_ran(active):
    @context.per_collection(max_entries=8, show_spinner=False)
    def counted(collection: str) -> int:
        trace.note(f"query_of_{collection}")
        return 1

    counted.clear()
    for _ in range(2):  # the first run computes, the second is a hit: both explain themselves
        with trace.traced() as names:
            counted()
        assert names == ["query_of_a"]


def test_a_failure_is_not_kept(active):
    answers = iter([RuntimeError("locked"), "read"])

    @context.per_collection(max_entries=8, show_spinner=False)
    def flaky(collection: str) -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    flaky.clear()
    with pytest.raises(RuntimeError):
        flaky()
    assert flaky() == "read" and flaky() == "read"


def test_no_hand_written_key_pairs_remain_in_web():
    """A function of web/ taking (manifest, collection, …) builds a cache key by hand; only the
    decorator's own keyed function may."""
    pairs = [f"{path.name}:{node.name}" for path in sorted(WEB.glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.FunctionDef) and [a.arg for a in node.args.args[:2]] == ["manifest", "collection"]]
    assert pairs == ["context.py:keyed"]
