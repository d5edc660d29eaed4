"""DeepEval test runs written by deepeval itself (tests/fixtures/importers/make_deepeval.py: G-Eval
judged by an offline DeepEvalBaseLLM): scores, thresholded verdicts, the metric error and the
judge model checked against what the script planted (planted.json)."""

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from judgescope import cli
from judgescope.cli import load_source
from judgescope.ingest import importers

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "importers"
PLANTED = json.loads((FIXTURES / "planted.json").read_text())["deepeval"]
FILES = ["deepeval_test_run.json", "deepeval_latest_test_run.json"]  # the second: testRunData wrapper


def _copy(tmp_path, name: str) -> Path:
    shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / name


def _by_input(loaded) -> dict:
    from hashlib import sha256

    texts = {sha256(q.encode()).hexdigest(): q for q in [*PLANTED["scores"], *PLANTED["errors"]]}
    return {texts[r["source_text_sha256"]]: r for r in pq.read_table(loaded.path("clean")).to_pylist()}


@pytest.mark.parametrize("name", FILES)
def test_scores_judge_and_the_metric_error(name, tmp_path):
    path = _copy(tmp_path, name)
    assert importers.detect(path) == "deepeval"
    loaded = load_source(str(path), "judge_audit")
    rows = _by_input(loaded)
    assert {q: r["score"] for q, r in rows.items()} == pytest.approx({q: s * 100 for q, s in PLANTED["scores"].items()})
    assert {r["requested_judge_model"] for r in rows.values()} == {PLANTED["judge"]}
    assert {r["score_origin"] for r in rows.values()} == {f"{PLANTED['metric']} (DeepEval score × 100)"}
    ledger = pq.read_table(loaded.path("ledger")).to_pylist()
    assert [r["reason"] for r in ledger] == ["unscored: metric error"] * len(PLANTED["errors"])
    assert loaded.report["rows_used"] == len(PLANTED["scores"])


@pytest.mark.parametrize("name", FILES)
def test_success_against_the_threshold_is_the_verdict(name, tmp_path):
    loaded = load_source(str(_copy(tmp_path, name)), "calibration_judgements")
    rows = _by_input(loaded)
    expected = {q: "match" if s >= PLANTED["threshold"] else "no_match" for q, s in PLANTED["scores"].items()}
    assert {q: r["verdict"] for q, r in rows.items()} == expected
    assert loaded.report["rows_excluded"] == len(PLANTED["errors"])  # an error is no "fail"


def test_validate_says_default_names_are_positions(tmp_path, capsys):
    code = cli.main(["validate", str(_copy(tmp_path, "deepeval_test_run.json")), "--kind", "judge_audit"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS
    assert f"note: {len(PLANTED['unnamed'])} test case(s) carry DeepEval's default name test_case_<n>" in out
    assert f"judge: {PLANTED['judge']} ({len(PLANTED['scores'])} rows)" in out
