"""Langfuse scores exports built from Langfuse's documented export columns
(tests/fixtures/importers/make_langfuse.py cites them; Langfuse is a server, so no offline run
writes one): the same scores as JSON lines, CSV and Parquet, checked against planted.json."""

import json
import shutil
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from judgescope import cli
from judgescope.cli import load_source
from judgescope.ingest import importers
from judgescope.ingest.importers.import_rows import JUDGE_UNKNOWN

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "importers"
PLANTED = json.loads((FIXTURES / "planted.json").read_text())["langfuse"]
FILES = ["langfuse_scores.jsonl", "langfuse_scores.csv", "langfuse_scores.parquet"]


def _copy(tmp_path, name: str) -> Path:
    shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / name


@pytest.mark.parametrize("name", FILES)
def test_numeric_scores_are_the_audit_with_judge_unknown(name, tmp_path):
    path = _copy(tmp_path, name)
    assert importers.detect(path) == "langfuse"
    loaded = load_source(str(path), "judge_audit")
    rows = pq.read_table(loaded.path("clean")).to_pylist()
    assert {r["instance_id"]: r["score"] for r in rows} == PLANTED["scores"]
    assert {r["requested_judge_model"] for r in rows} == {None}
    assert [r["reason"] for r in pq.read_table(loaded.path("ledger")).to_pylist()] == \
        ["unscored: no value"] * len(PLANTED["unscored"])
    [imported] = loaded.report["imported"]
    assert sum(imported["judge_unknown"].values()) == len(PLANTED["scores"])
    assert imported["ignored"] == PLANTED["ignored"]


@pytest.mark.parametrize("name", FILES)
def test_boolean_judge_scores_and_annotations_calibrate(name, tmp_path, capsys):
    path = _copy(tmp_path, name)
    judgements = load_source(str(path), "calibration_judgements")
    rows = pq.read_table(judgements.path("clean")).to_pylist()
    assert {r["question_id"]: r["verdict_binary"] for r in rows} == PLANTED["verdicts"]
    assert {r["judge_model"] for r in rows} == {JUDGE_UNKNOWN}
    out = tmp_path / "calibration.json"
    cli.main(["calibrate", str(path), "--json", str(out)])
    judge = json.loads(out.read_text())["judges"][JUDGE_UNKNOWN]
    humans = PLANTED["humans"]
    cells = Counter()
    for trace in set.intersection(*(set(h) for h in humans.values())):
        human = Counter(h[trace] for h in humans.values()).most_common(1)[0][0]
        cells[{(1, 1): "tp", (1, 0): "fp", (0, 1): "fn", (0, 0): "tn"}[PLANTED["verdicts"][trace], human]] += 1
    assert {k: judge[k] for k in ("tp", "fp", "fn", "tn")} == {k: cells[k] for k in ("tp", "fp", "fn", "tn")}


def test_overview_names_the_format_and_the_unknown_judge(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    _copy(tmp_path, "langfuse_scores.jsonl")
    (tmp_path / "s.toml").write_text('[[collection]]\nname = "lf"\ndatasets = ["scores"]\n[[dataset]]\n'
                                     'name = "scores"\nkind = "judge_audit"\npath = "langfuse_scores.jsonl"\n',
                                     encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "s.toml"))
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    captions = " ".join(c.value for c in at.caption).replace("\\", "").replace("\u2060", "")
    assert "format: Langfuse scores export (jsonl)" in captions
    assert f"judge unknown: {len(PLANTED['scores'])} rows (a Langfuse score records no judge model" in captions
