"""data/importers.toml, one collection per evaluation tool's format on the files the tools wrote
(tests/fixtures/importers/): every dataset opens, and every page of the collection's section (and
each Collection page) runs on it without an exception, through the frame."""

import tomllib
from pathlib import Path

import pytest

from apptest import open_page
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.manifest import load_manifest
from judgescope import navigation

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "data" / "importers.toml"
DOC = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
KINDS = {d["name"]: d["kind"] for d in DOC["dataset"]}
SECTION = {"judge_audit": "Translation audit", "calibration_items": "Calibration"}


def _section(collection: dict) -> str:
    return next(SECTION[KINDS[d]] for d in collection["datasets"] if KINDS[d] in SECTION)


CASES = [(c["name"], p.path) for c in DOC["collection"] for p in navigation.PAGES
         if p.section in ("Collection", _section(c))]


def test_every_dataset_opens_with_its_kind_and_no_problem():
    manifest = load_manifest(MANIFEST)
    assert manifest.problems == []
    catalog = Catalog(manifest, providers=TABLES)
    for name, kind in KINDS.items():
        loaded = catalog.dataset(name)
        assert loaded.ok, loaded.error
        assert loaded.spec.kind == kind and loaded.report["rows_used"] > 0
        assert loaded.report["imported"], name  # read by an importer, which said what it read


@pytest.mark.parametrize("collection, page", CASES)
def test_the_collection_pages_run(collection, page, monkeypatch):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(MANIFEST))
    open_page(page, collection)


def test_the_calibration_page_shows_the_inspect_judge_against_the_humans(monkeypatch):
    import json
    from collections import Counter

    planted = json.loads((ROOT / "tests" / "fixtures" / "importers" / "planted.json").read_text())["inspect"]
    cells = Counter()
    for sid, verdict in planted["verdicts"].items():
        votes = [h[sid] for h in planted["humans"].values() if sid in h]
        if len(votes) == 3:
            cells[verdict + Counter(votes).most_common(1)[0][0]] += 1
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(MANIFEST))
    at = open_page("pages/calibration.py", "inspect_calibration")
    table = next(d.value for d in at.dataframe if "Rater" in d.value.columns and "TP" in d.value.columns)
    row = table[table["Rater"] == planted["judge_model"]].iloc[0]
    assert [int(row[c]) for c in ("TP", "FP", "FN", "TN")] == [cells[k] for k in ("CC", "CI", "IC", "II")]
    assert "Cohen's κ" in table.columns and "π 95% CI" in table.columns


def test_review_shows_the_texts_and_integrity_verifies_the_digests(monkeypatch):
    """An imported audit's texts come with it as a source snapshot: Review shows them and
    Integrity checks the audit's SHA-256 digests against them."""
    import json

    planted = json.loads((ROOT / "tests" / "fixtures" / "importers" / "planted.json").read_text())["promptfoo"]
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(MANIFEST))
    at = open_page("pages/review.py", "promptfoo_audit")
    shown = " ".join(str(m.value) for m in [*at.markdown, *at.text, *at.code]) + \
        " ".join(d.value.to_string() for d in at.dataframe)
    assert any(answer in shown for answer in planted["scores"])
    at = open_page("pages/integrity.py", "promptfoo_audit")
    verified = " ".join(str(m.value) for m in at.markdown)
    assert f"{len(planted['scores'])} / {len(planted['scores'])} verified" in verified


def test_open_on_a_folder_pairs_each_tool_file_only_with_itself(tmp_path):
    """A Langfuse audit has no texts: it must not take the snapshot of the MLflow table beside it
    (the same join-key columns), nor Inspect items another log's judgements."""
    import shutil

    from judgescope.sources import infer, infer_groups

    fixtures = ROOT / "tests" / "fixtures" / "importers"
    for name in ("langfuse_scores.jsonl", "mlflow_eval_results_table.json", "promptfoo_results.json",
                 "mlflow3_traces.json", "deepeval_test_run.json"):
        shutil.copy(fixtures / name, tmp_path / name)
    found = infer.discover([str(tmp_path)])
    groups = infer_groups.group(found)
    for g in groups:
        assert len({m.where for m in g.members}) == 1, [(m.spec.name, m.where.name) for m in g.members]
    kinds = {g.name: sorted(m.kind for m in g.members) for g in groups}
    assert kinds["langfuse_scores_audit"] == ["judge_audit"]
    assert kinds["mlflow_eval_results_table_audit"] == ["judge_audit", "source_snapshot"]
    assert kinds["mlflow3_traces_items"] == ["calibration_items", "calibration_judgements"]
