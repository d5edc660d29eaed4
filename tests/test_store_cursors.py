"""The Store keeps one cursor per thread (db.Store._cursor): a thread's queries reuse it, threads
running at once never share one, a failed query leaves it usable, and a closed Store refuses."""

import threading

import duckdb
import pandas as pd
import pytest

from judgescope.duck import db


@pytest.fixture
def store(tmp_path):
    """A Store over a small ledger, 30 rows of dataset a and 12 of b, so a query answered for
    another thread's parameters would show."""
    path = tmp_path / "ledger.parquet"
    pd.DataFrame({"dataset": ["a"] * 30 + ["b"] * 12, "file": "f", "row": range(42), "column": "c",
                  "reason": "r", "value": "v", "record_id": "i"}).to_parquet(path)
    with db.Store({"ledger": [path]}) as s:
        yield s


def _count(store, dataset: str) -> int:
    """Rows of `dataset`, through the pages' path (Store.run of a named query)."""
    rows = store.run("ledger_rows", datasets=[dataset], reasons=[], limit=1_000)
    assert set(rows["dataset"]) == {dataset}
    return len(rows)


def test_a_threads_queries_reuse_its_cursor(store):
    first = store._cursor()
    assert _count(store, "a") == 30 and _count(store, "b") == 12
    assert store._cursor() is first


def test_threads_running_at_once_each_get_their_own_cursor_and_their_own_answers(store):
    seen, wrong, errors = [], [], []
    start = threading.Barrier(8)

    def work(i):
        try:
            start.wait()
            seen.append(id(store._cursor()))
            dataset, expected = ("a", 30) if i % 2 else ("b", 12)
            for _ in range(200):
                if _count(store, dataset) != expected:
                    wrong.append(i)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not wrong, (errors, wrong)
    assert len(set(seen)) == 8  # no two live threads held the same cursor


def test_a_failed_query_leaves_the_threads_cursor_usable(store):
    with pytest.raises(duckdb.Error):
        store._cursor().execute("SELECT no_such_column FROM ledger")
    with pytest.raises(duckdb.Error):
        store.run("ledger_rows", unexpected=1)  # DuckDB rejects an extra parameter
    assert _count(store, "a") == 30


def test_a_closed_store_refuses_even_on_a_thread_that_has_a_cursor(store):
    assert _count(store, "a") == 30
    store.close()
    with pytest.raises(duckdb.ConnectionException):
        store._cursor()
