"""MLflow evaluation tables written by mlflow itself (tests/fixtures/importers/make_mlflow.py): the
2.x eval_results_table.json of mlflow.evaluate with a custom metric, and mlflow 3's genai
evaluate traces with an LLM_JUDGE scorer and three people's HUMAN feedback; counts checked
against what the script planted (planted.json)."""

import json
import shutil
from collections import Counter
from hashlib import sha256
from pathlib import Path

import pyarrow.parquet as pq

from judgescope import cli
from judgescope.cli import load_source
from judgescope.ingest import importers

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "importers"
PLANTED = json.loads((FIXTURES / "planted.json").read_text())["mlflow"]
VERDICT = {"yes": "match", "no": "no_match"}


def _copy(tmp_path, name: str) -> Path:
    shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / name


def _digest(question: str, as_json: bool) -> str:
    text = json.dumps({"question": question}, sort_keys=True) if as_json else question
    return sha256(text.encode()).hexdigest()


def test_the_2x_table_is_an_audit_whose_judge_is_unknown(tmp_path, capsys):
    path = _copy(tmp_path, "mlflow_eval_results_table.json")
    assert importers.detect(path) == "mlflow"
    loaded = load_source(str(path), "judge_audit")
    rows = {r["source_text_sha256"]: r for r in pq.read_table(loaded.path("clean")).to_pylist()}
    assert {q: rows[_digest(q, False)]["score"] for q in PLANTED["legacy_scores"]} == PLANTED["legacy_scores"]
    assert {r["requested_judge_model"] for r in rows.values()} == {None}
    assert loaded.report["rows_excluded"] == len(PLANTED["legacy_unscored"])
    code = cli.main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS
    assert f"judge unknown: {len(PLANTED['legacy_scores'])} rows (eval_results_table.json records no judge model" in out


def test_mlflow3_llm_judge_feedback_is_the_judgements(tmp_path):
    loaded = load_source(str(_copy(tmp_path, "mlflow3_traces.json")), "calibration_judgements")
    rows = {r["source_text_sha256"]: r for r in pq.read_table(loaded.path("clean")).to_pylist()}
    assert {q: rows[_digest(q, True)]["verdict"] for q in PLANTED["verdicts"]} == \
        {q: VERDICT[v] for q, v in PLANTED["verdicts"].items()}
    assert len(rows) == len(PLANTED["verdicts"]) and {r["judge_model"] for r in rows.values()} == {PLANTED["judge"]}
    ledger = pq.read_table(loaded.path("ledger")).to_pylist()
    assert [r["reason"] for r in ledger] == ["unscored: SCORER_ERROR"] * len(PLANTED["errors"])


def test_mlflow3_human_feedback_is_the_items_and_calibrates(tmp_path):
    path = _copy(tmp_path, "mlflow3_traces.json")
    items = load_source(str(path), "calibration_items")
    rows = {r["question"]: r for r in pq.read_table(items.path("clean")).to_pylist()}
    humans = PLANTED["humans"]
    full = {q for q in PLANTED["verdicts"] if all(q in h for h in humans.values())}
    assert set(json.loads(q)["question"] for q in rows) == full
    assert items.report["rows_excluded"] == len([q for q in PLANTED["verdicts"] if q not in full
                                                 and any(q in h for h in humans.values())])
    out = tmp_path / "calibration.json"
    cli.main(["calibrate", str(path), "--json", str(out)])
    judge = json.loads(out.read_text())["judges"][PLANTED["judge"]]
    cells = Counter()
    for q in full:
        human = Counter(humans[a][q] for a in humans).most_common(1)[0][0]
        cells[{("yes", "yes"): "tp", ("yes", "no"): "fp", ("no", "yes"): "fn", ("no", "no"): "tn"}[
            PLANTED["verdicts"][q], human]] += 1
    assert {k: judge[k] for k in ("tp", "fp", "fn", "tn")} == {k: cells[k] for k in ("tp", "fp", "fn", "tn")}


def test_mlflow3_traces_as_parquet_read_the_same(tmp_path):
    import pandas as pd

    records = json.loads((FIXTURES / "mlflow3_traces.json").read_text())
    frame = pd.DataFrame([{k: (json.dumps(v) if k in ("assessments", "request") else v)
                           for k, v in r.items() if k in ("trace_id", "request", "response", "assessments")}
                          for r in records])
    path = tmp_path / "traces.parquet"
    frame.to_parquet(path)
    assert importers.detect(path) == "mlflow"
    imp = importers.load(path, "mlflow")
    assert len(imp.rows["calibration_judgements"]) == len(PLANTED["verdicts"])
