"""Inspect AI logs written by inspect-ai itself (tests/fixtures/importers/make_inspect.py, with
mockllm models offline) read as calibration judgements and items: every count checked against
what the script planted (planted.json), for the zstd `.eval` and the `.json` log alike."""

import json
import shutil
import sys
import zipfile
from collections import Counter
from hashlib import sha256
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from judgescope import cli
from judgescope.cli import load_source
from judgescope.ingest import importers
from judgescope.sources import infer, infer_groups
from judgescope.ingest.manifest import SourceError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "importers"
PLANTED = json.loads((FIXTURES / "planted.json").read_text())["inspect"]
LOGS = ["inspect_run.eval", "inspect_run.json", "inspect_run_chunked.eval"]
VERDICT = {"C": "match", "I": "no_match"}


def _copy(tmp_path, name: str) -> Path:
    """A copy per test: the cache is keyed by content, the name by the test."""
    target = tmp_path / name
    shutil.copy(FIXTURES / name, target)
    return target


def test_the_eval_fixture_is_zstd_as_inspect_writes_it():
    with zipfile.ZipFile(FIXTURES / "inspect_run.eval") as z:
        methods = {i.compress_type for i in z.infolist()}
    assert methods == {93}  # Zstandard: Python 3.11's zipfile cannot open these members


@pytest.mark.parametrize("log", LOGS)
def test_judge_verdicts_and_unscored_samples(log, tmp_path):
    loaded = load_source(str(_copy(tmp_path, log)), "calibration_judgements")
    rows = pq.read_table(loaded.path("clean")).to_pylist()
    assert {r["question_id"]: r["verdict"] for r in rows} == \
        {k: VERDICT[v] for k, v in PLANTED["verdicts"].items()}
    assert {r["judge_model"] for r in rows} == {PLANTED["judge_model"]}
    ledger = pq.read_table(loaded.path("ledger")).to_pylist()
    assert sorted(r["row"] for r in ledger) == sorted(int(k) for k in PLANTED["unscored"])
    assert {r["reason"] for r in ledger} == {f"unscored: {v}" for v in PLANTED["unscored"].values()}
    rep = loaded.report
    assert rep["rows_used"] == len(PLANTED["verdicts"])  # the unscored are in no denominator
    assert rep["rows_excluded"] == len(PLANTED["unscored"])
    [imported] = rep["imported"]
    assert imported["judges"] == {PLANTED["judge_model"]: len(PLANTED["verdicts"])}
    assert imported["judge_unknown"] == {} and imported["version"].startswith(PLANTED["tool"])


@pytest.mark.parametrize("log", LOGS)
def test_texts_are_hashed_as_written(log, tmp_path):
    loaded = load_source(str(_copy(tmp_path, log)), "calibration_judgements")
    row = next(r for r in pq.read_table(loaded.path("clean")).to_pylist() if r["question_id"] == "3")
    assert row["source_text_sha256"] == sha256(b"Question 3: what is 3 times two?").hexdigest()
    assert row["candidate_text_sha256"] == sha256(b"Answer 3: 6").hexdigest()


@pytest.mark.parametrize("log", LOGS)
def test_human_score_edits_are_the_calibration_items(log, tmp_path):
    loaded = load_source(str(_copy(tmp_path, log)), "calibration_items")
    rows = {r["question_id"]: r for r in pq.read_table(loaded.path("clean")).to_pylist()}
    humans = PLANTED["humans"]
    assert set(rows) == set.intersection(*(set(h) for h in humans.values()))
    for sid, row in rows.items():
        got = [row[f"human_{n}_verdict"] for n in (1, 2, 3)]
        assert got == [VERDICT[humans[a][sid]] for a in sorted(humans)]
        assert row["question"] == f"Question {sid}: what is {sid} times two?"


def test_calibrate_shows_the_judge_against_the_human_majority(tmp_path, capsys):
    log = _copy(tmp_path, "inspect_run.eval")
    out = tmp_path / "calibration.json"
    code = cli.main(["calibrate", str(log), "--json", str(out)])
    assert code == cli.EXIT_PROBLEMS  # unscored samples were kept apart (and the gate fails)
    judge = json.loads(out.read_text())["judges"][PLANTED["judge_model"]]
    cells = Counter()
    for sid, verdict in PLANTED["verdicts"].items():
        votes = [h[sid] for h in PLANTED["humans"].values() if sid in h]
        if len(votes) < 3:
            continue
        human = Counter(votes).most_common(1)[0][0]
        cells[{("C", "C"): "tp", ("C", "I"): "fp", ("I", "C"): "fn", ("I", "I"): "tn"}[verdict, human]] += 1
    assert {k: judge[k] for k in ("tp", "fp", "fn", "tn")} == {k: cells[k] for k in ("tp", "fp", "fn", "tn")}
    n = sum(cells.values())
    po = (cells["tp"] + cells["tn"]) / n
    pe = ((cells["tp"] + cells["fp"]) * (cells["tp"] + cells["fn"]) +
          (cells["fn"] + cells["tn"]) * (cells["fp"] + cells["tn"])) / n ** 2
    assert judge["cohen_kappa"] == pytest.approx((po - pe) / (1 - pe))
    assert judge["ci"][0] <= judge["scotts_pi"] <= judge["ci"][1]
    assert "mockllm/grader" in capsys.readouterr().out


def test_validate_names_format_version_and_what_the_file_gives(tmp_path, capsys):
    code = cli.main(["validate", str(_copy(tmp_path, "inspect_run.eval"))])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS
    assert f"format: Inspect AI .eval log; {PLANTED['tool']}, log format 2" in out
    assert f"judge: {PLANTED['judge_model']} ({len(PLANTED['verdicts'])} rows)" in out
    assert "[calibration_judgements]" in out and "[calibration_items]" in out
    assert out.count("unscored: grader_failed") >= 1


def test_a_newer_log_with_unknown_fields_opens_and_names_them(tmp_path, capsys):
    log = json.loads((FIXTURES / "inspect_run.json").read_text())
    log["provenance_v9"] = {"x": 1}
    log["samples"][0]["reviewer_notes"] = "new"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(log))
    assert importers.detect(path) == "inspect"
    code = cli.main(["validate", str(path), "--kind", "calibration_judgements"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_PROBLEMS and "ignored (not read): provenance_v9; sample.reviewer_notes" in out


def test_without_zstandard_the_eval_log_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "zstandard", None)
    importers._load.cache_clear()
    with pytest.raises(SourceError, match="needs the `zstandard` package"):
        importers.load(_copy(tmp_path, "inspect_run.eval"), "inspect")


def test_open_infers_one_collection_of_items_and_judgements(tmp_path):
    found = infer.discover([str(_copy(tmp_path, "inspect_run.eval"))])
    assert sorted((f.spec.name, f.kind) for f in found) == [
        ("inspect_run_items", "calibration_items"), ("inspect_run_judgements", "calibration_judgements")]
    [group] = infer_groups.group(found)
    assert [m.kind for m in group.members] == ["calibration_items", "calibration_judgements"]


def test_a_plain_json_file_is_still_read_as_json(tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(json.dumps([{"version": 2, "status": "x"}]))
    assert importers.detect(path) is None


@pytest.mark.parametrize("log", LOGS)
def test_sample_metadata_gives_the_language(log, tmp_path):
    """A chunked sample keeps its metadata in samples/{id}_epoch_{n}/metadata.json."""
    loaded = load_source(str(_copy(tmp_path, log)), "calibration_judgements")
    rows = pq.read_table(loaded.path("clean")).to_pylist()
    assert {r["question_id"]: r["target_language"] for r in rows} == \
        {k: "en" if int(k) % 2 else "de" for k in PLANTED["verdicts"]}


def test_each_row_names_the_tool_version_and_an_upload_opens(tmp_path, write_manifest):
    from judgescope.remote import upload
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    catalog = Catalog(load_manifest(write_manifest('[[collection]]\nname = "c"\ndatasets = []\n')), providers=TABLES)
    name = upload.add_upload(catalog, "run.json", (FIXTURES / "inspect_run.json").read_bytes())
    loaded = catalog.dataset(name)
    assert loaded.ok, loaded.error
    assert loaded.spec.kind == "calibration_judgements" and loaded.report["rows_used"] == len(PLANTED["verdicts"])
    rows = pq.read_table(loaded.path("clean")).to_pylist()
    assert {r["tool_version"] for r in rows} == {f"{PLANTED['tool']}, log format 2"}


@pytest.mark.parametrize("damage, said", [
    (lambda p: p.write_bytes((FIXTURES / "inspect_run.eval").read_bytes()[:3000]), "not a readable .eval zip"),
    (lambda p: p.write_bytes(b"not a zip"), "not a readable .eval zip"),
])
def test_a_damaged_eval_log_is_unusable_with_one_sentence(tmp_path, capsys, damage, said):
    path = tmp_path / "damaged.eval"
    damage(path)
    assert cli.main(["validate", str(path)]) == cli.EXIT_UNUSABLE
    out = capsys.readouterr().out
    assert "UNUSABLE" in out and "file damaged.eval" in out and said in out and "Traceback" not in out


def test_a_log_of_an_unexpected_shape_is_unusable_with_one_sentence(tmp_path, capsys):
    log = json.loads((FIXTURES / "inspect_run.json").read_text())
    log["samples"][0]["scores"] = ["not", "a", "mapping"]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(log))
    assert cli.main(["validate", str(path)]) == cli.EXIT_UNUSABLE
    assert "file odd.json: Inspect AI log: unexpected structure" in capsys.readouterr().out
