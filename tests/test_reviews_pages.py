"""Issue #18: recording a verdict on Review (AppTest), hostile notes shown as text, and the
Reviews page with verdicts of two reviewers."""

import json
import threading

import pytest
from streamlit.testing.v1 import AppTest

from judgescope.reviews import verdict_log as reviews
from judgescope.web import verdicts
from review_session import record_in_url, state  # noqa: F401 — the fixture

APP = "../app.py"
HOSTILE = "<script>alert(1)</script> **bold** [x](http://evil.example) \u202eevil\x00end"


def _open_review(record=None):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.run()
    at.switch_page("pages/review.py").run()
    if record is None:
        at.selectbox(key="open_record").select_index(1).run()
    else:
        at.query_params["record"] = record
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _progress(at) -> str:
    return " ".join(p.proto.text for p in at.get("progress"))


def _markup(at) -> str:
    return " ".join(str(e.value) for e in [*at.markdown, *at.caption])


def test_a_verdict_recorded_on_review_is_stored_and_shown_as_text(state):
    at = _open_review()
    record = record_in_url(at)
    assert "Reviewed 0 of" in _progress(at)
    at.text_input(key="reviewer_name_input").input("Ann").run()
    note_key = verdicts.widget_keys("review", "Ann", record)[1]  # this record's own note
    at.text_area(key=note_key).input(HOSTILE).run()
    assert not at.exception, [e.value for e in at.exception]
    at.button(key="review_verdict_too_harsh").click().run()
    assert not at.exception, [e.value for e in at.exception]
    stored = reviews.log(state)
    assert stored[["reviewer", "judge_record_id", "verdict"]].values.tolist() == [
        ["Ann", record, "too_harsh"]]
    assert stored.note.iloc[0] == HOSTILE and stored.dataset.iloc[0] and stored.revision.iloc[0]
    assert at.text_area(key=note_key).value == ""  # saved: no draft left on this row
    assert reviews.draft("Ann", stored.dataset.iloc[0], record, state) is None
    # A new session (reload, another browser) finds it; the note is an escaped text block.
    again = _open_review(record)
    html = " ".join(str(h.proto.body) for h in again.get("html"))
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert "Reviewed 1 of" in _progress(again)
    assert "Too harsh" in _markup(again) and "<script>" not in _markup(again)
    assert "**bold**" in html  # markdown shown as typed, not rendered
    assert "changed or gone" not in _markup(again)  # reviewed on this very row


def test_a_review_of_an_earlier_version_of_the_row_says_so(state):
    at = _open_review()
    record = record_in_url(at)
    reviews.record(state, reviewer="old", collection="xhotpotqa", dataset="xhotpotqa_v2_audit",
                   judge_record_id=record, verdict="too_lenient", revision="abc123",
                   source_sha256="0" * 64, candidate_sha256="1" * 64)
    at.run()
    assert "from revision abc123, row changed or gone" in _markup(at).replace("\\", "")


def test_login_mode_without_login_records_nothing(state, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_REVIEWS", "login")
    at = _open_review()
    assert not [b for b in at.button if b.key == "review_verdict_judge_right"]
    assert "requires a login" in _markup(at)


def test_reviews_page_shows_progress_share_and_disagreement(state):
    at = _open_review()
    record = record_in_url(at)
    base = {"collection": "xhotpotqa", "dataset": "xhotpotqa_v2_audit", "judge_record_id": record,
            "language": "th", "unit": "answer", "score": 10.0}
    for who, verdict in (("ann", "judge_right"), ("bob", "too_harsh")):
        reviews.record(state, reviewer=who, verdict=verdict, note="<i>n</i>", **base)
    reviews.record(state, reviewer="ann", verdict="unsure", revision="oldrev",
                   **dict(base, judge_record_id="gone-1"))
    dataset = reviews.log(state).dataset.iloc[0]
    at.switch_page("pages/reviews.py").run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Reviewers"] == "2" and metrics["Reviewed rows"] == "2", (metrics, dataset)
    assert metrics["Judge right, every score"] == "n/a"  # the one decisive row is a tie: no reviewer call
    cells = [v for d in at.dataframe for v in d.value.astype(str).to_numpy().ravel()]
    assert "from revision oldrev, row changed or gone" in cells
    assert "disagree" in _markup(at) or at.header
    frames = [d.value for d in at.dataframe]
    assert any(record in f.astype(str).to_numpy().ravel().tolist() for f in frames)


def test_exact_copies_records_a_verdict_with_a_tag(state):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.run()
    at.switch_page("pages/exact_copies.py").run()
    assert "Reviewed 0 of" in _progress(at)
    at.selectbox(key="copies_pick").select_index(1).run()
    rid = at.selectbox(key="copies_pick").value
    at.text_input(key="reviewer_name_input").input("Bea").run()
    at.pills(key=verdicts.widget_keys("copies", "Bea", rid)[0]).set_value(["name or number"]).run()
    at.button(key="copies_verdict_judge_right").click().run()
    assert not at.exception, [e.value for e in at.exception]
    stored = reviews.log(state)
    assert stored[["reviewer", "judge_record_id", "verdict", "tags"]].values.tolist() == [
        ["Bea", rid, "judge_right", json.dumps(["name or number"])]]
    assert "Reviewed 1 of" in _progress(at)


@pytest.mark.parametrize("state_name,expected", [("judge too harsh", ["r_harsh"]), ("disputed", ["r_both"]),
                                                 ("judge right", ["r_both"])])
def test_review_state_ids(state_name, expected):
    from judgescope.reviews import states
    import pandas as pd
    latest = pd.DataFrame({"judge_record_id": ["r_harsh", "r_both", "r_both"],
                           "verdict": ["too_harsh", "judge_right", "too_lenient"]})
    assert states.ids_in_state(latest, state_name) == (expected, False)
    assert states.ids_in_state(latest, "not yet reviewed") == (["r_both", "r_harsh"], True)


def test_review_list_filters_by_review_state(state):
    at = _open_review()
    record = record_in_url(at)
    at.text_input(key="reviewer_name_input").input("Ann").run()
    at.button(key="review_verdict_too_harsh").click().run()
    at.pills(key="rstate").set_value("judge too harsh").run()
    assert not at.exception, [e.value for e in at.exception]
    def state_table():
        (frame,) = [f.value for f in at.dataframe if "Open" in f.value.columns]
        return frame.astype(str).to_numpy().ravel().tolist()
    assert record in state_table() and "too harsh" in state_table()
    at.pills(key="rstate").set_value("not yet reviewed").run()
    assert record not in state_table() and "not yet reviewed" in state_table()


def test_hostile_notes_and_names_are_shown_as_text(state):
    from test_reviews import HOSTILE as NOTES
    at = _open_review()
    record = record_in_url(at)
    dataset = "xhotpotqa_v2_audit"
    for kind, note in NOTES.items():
        reviews.record(state, reviewer=f"<b>{kind}</b> [x](http://e.example)", collection="xhotpotqa",
                       dataset=dataset, judge_record_id=record, verdict="unsure", note=note)
    assert len(reviews.for_record(dataset, record, state)) == len(NOTES)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    html = " ".join(str(h.proto.body) for h in at.get("html"))
    assert "&lt;script&gt;" in html and "<script>" not in html and "<img" not in html
    assert "\u202e" not in html or "unicode-bidi:isolate" in html
    assert "␀" in html  # the NUL drawn, not sent
    markup = _markup(at)
    assert "<b>" not in markup and "](http" not in markup
    assert any("The whole text" in str(d.proto) for d in at.get("download_button"))  # the 1 MB note


def test_a_verdict_on_review_reaches_the_shared_target(state, tmp_path, monkeypatch):
    import pandas as pd
    from judgescope.reviews import sharing as reviews_hub
    remote = tmp_path / "remote"
    other = tmp_path / "other.sqlite"
    reviews.record(other, reviewer="Zed", collection="xhotpotqa", dataset="xhotpotqa_v2_audit",
                   judge_record_id="elsewhere", verdict="unsure")
    reviews_hub.write_outbox(other, remote / reviews_hub.PATH_IN_REPO, threading.Lock())
    monkeypatch.setenv("JUDGESCOPE_REVIEWS_REPO", f"file://{remote}")
    at = _open_review()
    assert "Zed" in reviews.log(state).reviewer.tolist()  # merged on start
    at.text_input(key="reviewer_name_input").input("Ann").run()
    at.button(key="review_verdict_judge_right").click().run()
    assert not at.exception, [e.value for e in at.exception]
    outbox = state.parent / "outbox" / f"{reviews_hub.instance_id(state)}.parquet"
    assert "Ann" in pd.read_parquet(outbox).reviewer.tolist()  # what the scheduler uploads


@pytest.mark.parametrize("setting,says", [("off", "switched off"), ("open", "No reviewer has recorded"),
                                          ("nonsense", "switched off")])
def test_reviews_page_when_off_or_empty(state, monkeypatch, setting, says):
    monkeypatch.setenv("JUDGESCOPE_REVIEWS", setting)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.run()
    at.switch_page("pages/reviews.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert says in " ".join(i.value for i in at.info)
    assert not at.metric
