"""The report carries the reviewers' summary when reviewers have given verdicts (issue #24 item 1),
with numbers equal to `reviews summary --json`, and check-report calls a report stale once a
verdict is given after it."""

import json

import pytest

from judgescope import cli
from judgescope.report import assemble, check, html
from judgescope.reviews import verdict_log as reviews
from judgescope.wiring import get_catalog

AUDIT = "xhotpotqa_v2_audit"


@pytest.fixture
def state(tmp_path, monkeypatch):
    path = tmp_path / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(path))
    return path


def _verdict(i, reviewer, verdict):
    import duckdb

    cat = get_catalog()
    ids = duckdb.sql("SELECT judge_record_id FROM read_parquet($p) ORDER BY score, judge_record_id LIMIT 10",
                     params={"p": str(cat.dataset(AUDIT).path("clean"))}).fetchall()
    reviews.append(reviews.new_review(reviewer=reviewer, collection="xhotpotqa", dataset=AUDIT,
                                      judge_record_id=ids[i][0], verdict=verdict))


def _report():
    return assemble.collect(get_catalog(), "xhotpotqa", generated_at="2026-12-01T00:00:00+00:00")


def test_no_reviews_is_said_not_shown(state):
    rep = _report()
    assert "reviews" not in rep.sections
    assert any(n.startswith("Reviewers' summary: no reviewer") for n in rep.not_measured)


def test_reviewers_summary_equals_the_cli_and_goes_stale(state, capsys):
    for i, (who, verdict) in enumerate([("ann", "judge_right"), ("ann", "too_harsh"),
                                        ("bob", "judge_right"), ("bob", "judge_right")]):
        _verdict(i, who, verdict)
    rep = _report()
    assert rep.sections["reviews"]["reviewers"] == ["ann", "bob"]
    assert cli.main(["reviews", "summary", "--json"]) == 0
    twin = json.loads(capsys.readouterr().out)
    numbers = {k: v["value"] for k, v in rep.ledger.numbers.items() if k.startswith("reviews.")}
    assert numbers["reviews.reviewed"] == twin["reviewed"] == 4
    assert numbers["reviews.judge_right_share"] == pytest.approx(twin["judge_right_share"])
    assert numbers["reviews.ci.low"] == pytest.approx(twin["ci"]["low"])
    assert numbers["reviews.by_verdict.too_harsh"] == twin["by_verdict"]["too_harsh"] == 1
    page = html.render(rep)
    assert 'id="reviews"' in page and "<bdi>bob</bdi>" in page
    manifest = rep.manifest()
    assert check.check(get_catalog(), manifest).changed == []
    _verdict(5, "cy", "too_lenient")  # a verdict after the report
    changed = check.check(get_catalog(), manifest).changed
    assert any(c.startswith("reviews.reviewed: shown 4, now 5") for c in changed), changed
