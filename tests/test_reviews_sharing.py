"""Issue #18 item 2: two instances share their logs through the push path (outbox written under
the scheduler's lock, committed to a local folder target, merged on start), offline."""

import threading

import pandas as pd
import pytest

from judgescope.reviews import verdict_log as reviews
from judgescope.reviews import sharing as reviews_hub


def _add(state, reviewer, n):
    for i in range(n):
        reviews.record(state, reviewer=reviewer, collection="c", dataset="d",
                       judge_record_id=f"r{i}", verdict="too_harsh", note=f"<b>{reviewer}</b>")


@pytest.fixture
def shared(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_REVIEWS_REPO", f"file://{tmp_path / 'remote'}")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return tmp_path


def test_sharing_is_off_without_a_repo_or_token(tmp_path, monkeypatch):
    monkeypatch.delenv("JUDGESCOPE_REVIEWS_REPO", raising=False)
    assert reviews_hub.start(tmp_path / "x.sqlite") is None
    monkeypatch.setenv("JUDGESCOPE_REVIEWS_REPO", "team/reviews")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert reviews_hub.configured() is None


def test_outbox_holds_the_whole_log_as_parquet(tmp_path):
    state = tmp_path / "a" / "reviews.sqlite"
    _add(state, "ann", 3)
    out = reviews_hub.write_outbox(state, tmp_path / "outbox", threading.Lock())
    assert out.name == reviews_hub.instance_id(state) + ".parquet"
    assert set(pd.read_parquet(out).review_id) == set(reviews.log(state).review_id)
    assert [p.name for p in out.parent.iterdir()] == [out.name]  # no temporary file left behind


def test_two_instances_merge_through_the_shared_target(shared):
    a, b = shared / "a" / "reviews.sqlite", shared / "b" / "reviews.sqlite"
    _add(a, "ann", 4)
    share_a = reviews_hub.start(a)
    share_a.scheduler.trigger()  # what CommitScheduler does every few minutes
    _add(b, "bob", 2)
    share_b = reviews_hub.start(b)  # merges ann's log on start
    assert sorted(reviews.log(b).reviewer.value_counts().items()) == [("ann", 4), ("bob", 2)]
    share_b.after_write()
    share_b.scheduler.trigger()
    reviews_hub.start(a)
    assert set(reviews.log(a).review_id) == set(reviews.log(b).review_id)
    assert len(reviews.log(a)) == 6
    assert reviews_hub.pull(shared / "remote", a) == 0  # merging again adds nothing
    assert reviews.log(a).note.str.startswith("<b>").all()
