"""The review-state rules (judgescope/reviews/states.py), pure: the reviewing mode a deployment
runs in, each row's state from its reviewers' latest verdicts, and where a verdict belongs."""

from types import SimpleNamespace

import pandas as pd
import pytest

from judgescope.reviews import states


@pytest.mark.parametrize("setting, problem, expected", [
    (None, None, "open"),          # unset: reviewing with a typed name
    (" Login ", None, "login"),    # read trimmed, case-insensitive
    ("off", None, "off"),
    ("sometimes", None, "off"),    # unknown: the safe reading
    ("open", "the database is read-only", "off"),
])
def test_mode(setting, problem, expected):
    assert states.mode(setting, lambda: problem) == expected


def test_mode_asks_about_the_database_only_when_reviewing_would_be_on():
    asked = []
    states.mode("off", lambda: asked.append(1))
    assert asked == []


def test_row_states():
    latest = pd.DataFrame({"judge_record_id": ["a", "b", "b", "c"],
                           "verdict": ["too_harsh", "judge_right", "unsure", "unsure"]})
    assert states.row_states(latest, ["a", "b", "c", "d"]) == [
        "too harsh", "disputed", "unsure", "not yet reviewed"]


def _loaded(hub, revision, files):
    return SimpleNamespace(spec=SimpleNamespace(name="audit_v1", hub=hub, revision=revision),
                           report={"files": files})


def test_verdict_target_revision():
    row = pd.Series({"judge_record_id": 7, "score": 55, "target_language": "th", "unit": "line",
                     "source_text_sha256": "s" * 64, "candidate_text_sha256": None})
    pinned = states.verdict_target(row, "demo", _loaded("org/data", "abc123", [{"sha256": "f" * 64}]))
    assert (pinned["revision"], pinned["dataset"], pinned["judge_record_id"]) == ("abc123", "audit_v1", "7")
    local = states.verdict_target(row, "demo", _loaded(None, "ignored", [{"sha256": "0123456789abcdef"}]))
    assert local["revision"] == "0123456789ab"  # a local file: its sha256, 12 places
    assert local["candidate_sha256"] is None and local["score"] == 55.0
    assert states.verdict_target(row, "demo", None)["dataset"] == "audit"
