"""promptfoo results written by promptfoo itself (tests/fixtures/importers/make_promptfoo.py: the
echo provider graded offline by a local llm-rubric grader): scores, verdicts, grader errors and
the grader's identity checked against what the script planted (planted.json)."""

import json
import shutil
from hashlib import sha256
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from judgescope import cli
from judgescope.cli import load_source
from judgescope.ingest import importers
from judgescope.ingest.importers.import_rows import JUDGE_UNKNOWN

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "importers"
PLANTED = json.loads((FIXTURES / "planted.json").read_text())["promptfoo"]
FILES = ["promptfoo_results.json", "promptfoo_results.jsonl"]


def _copy(tmp_path, name: str) -> Path:
    shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / name


def _answers(loaded) -> dict:
    """answer text → row, through the candidate digest (the answer is what echo returned)."""
    by_digest = {sha256(a.encode()).hexdigest(): a for a in [*PLANTED["scores"], *PLANTED["grader_errors"]]}
    return {by_digest[r["candidate_text_sha256"]]: r for r in pq.read_table(loaded.path("clean")).to_pylist()}


@pytest.mark.parametrize("name", FILES)
def test_scores_are_the_audit_and_grader_errors_are_unscored(name, tmp_path):
    path = _copy(tmp_path, name)
    assert importers.detect(path) == "promptfoo"
    loaded = load_source(str(path), "judge_audit")
    rows = _answers(loaded)
    assert {a: r["score"] for a, r in rows.items()} == pytest.approx({a: s * 100 for a, s in PLANTED["scores"].items()})
    assert {r["requested_judge_model"] for r in rows.values()} == {PLANTED["judge"]}
    ledger = pq.read_table(loaded.path("ledger")).to_pylist()
    assert len(ledger) == len(PLANTED["grader_errors"]) and {r["reason"] for r in ledger} == {"unscored: grader error"}
    assert loaded.report["rows_used"] == len(PLANTED["scores"])  # never counted as a score of 0


@pytest.mark.parametrize("name", FILES)
def test_pass_and_fail_are_the_judgements(name, tmp_path):
    loaded = load_source(str(_copy(tmp_path, name)), "calibration_judgements")
    rows = _answers(loaded)
    assert {a: r["verdict"] for a, r in rows.items()} == \
        {a: "match" if p else "no_match" for a, p in PLANTED["pass"].items()}
    assert loaded.report["rows_excluded"] == len(PLANTED["grader_errors"])


def test_validate_names_version_and_the_assertions_it_ignored(tmp_path, capsys):
    code = cli.main(["validate", str(_copy(tmp_path, "promptfoo_results.json")), "--kind", "judge_audit"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS
    assert f"format: promptfoo results (.json); {PLANTED['tool']}, results format 3" in out
    assert "ignored (not read): assertions that are no judge (contains)" in out


def test_a_result_without_a_recorded_grader_is_judge_unknown_with_why(tmp_path, capsys):
    """The file promptfoo wrote, less every place a grader is recorded (as when its default
    grader ran): each scored row is counted as judge unknown, with the reason."""
    doc = json.loads((FIXTURES / "promptfoo_results.json").read_text())
    doc["config"]["defaultTest"]["options"].pop("provider")
    for r in doc["results"]["results"]:
        r["testCase"]["options"].pop("provider")
    path = tmp_path / "default_grader.json"
    path.write_text(json.dumps(doc))
    code = cli.main(["validate", str(path), "--kind", "calibration_judgements"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS
    assert f"judge unknown: {len(PLANTED['pass'])} rows (no grader recorded" in out
    rows = pq.read_table(load_source(str(path), "calibration_judgements").path("clean")).to_pylist()
    assert {r["judge_model"] for r in rows} == {JUDGE_UNKNOWN}
