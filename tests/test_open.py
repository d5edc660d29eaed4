"""Issue #25 item 1: `judgescope open FILE…` / `init FILE…` infer a manifest (kinds detected,
collections by role, titles from file names) that serves every page the data can fill, and a
saved manifest reproduces the same collections."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from apptest import open_page
from conftest import REALDATA
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, main
from judgescope.sources import infer, infer_groups
from judgescope.wiring import get_catalog
from judgescope.ingest.manifest import DatasetSpec, load_manifest
from judgescope import navigation
from test_hub import hub_cache  # noqa: F401 — the fixture lays out an offline Hub cache

ROOT = Path(__file__).resolve().parent.parent
REAL_FILES = sorted(p.name for p in REALDATA.glob("*.jsonl")) if REALDATA.is_dir() else []


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def mixed(tmp_path) -> Path:
    """An audit and its snapshot, calibration items and judgements, and ratings, in one folder."""
    d = tmp_path / "mixed"
    d.mkdir()
    _jsonl(d / "run_b.snapshot.jsonl", [{"instance_id": f"i{k}", "source_text": "a",
                                         "candidate_text": "b"} for k in range(3)])
    _jsonl(d / "run_b.jsonl", [{"judge_record_id": f"r{k}", "instance_id": f"i{k}",
                                "target_language": "de", "unit": "segment", "score": 50 + k}
                               for k in range(3)])
    _jsonl(d / "gate_items.jsonl", [{"key": f"k{k}", "human_1_verdict": "match",
                                     "human_2_verdict": "match", "human_3_verdict": "no_match"}
                                    for k in range(3)])
    _jsonl(d / "gate_judgements.jsonl", [{"key": f"k{k}", "judge_model": "m", "verdict": "match"}
                                         for k in range(3)])
    _jsonl(d / "mqm-ratings.jsonl", [{"rater": r, "item_id": f"x{k}", "score": k}
                                     for r in ("a", "b") for k in range(3)])
    return d


def test_readable_titles_and_safe_names():
    assert infer.readable("judge_audit_gemba_wmt22.source_snapshot") == \
        "Judge audit gemba wmt22 · source snapshot"
    assert infer.readable("mqm-ratings") == "Mqm ratings"
    assert infer.slug("my data (v2)") == "my_data_v2"
    assert infer.slug("..") == "dataset"


def test_grouping_by_role(mixed, tmp_path):
    found = infer.discover([str(mixed)])
    kinds = {f.spec.name: f.kind for f in found}
    assert kinds == {"gate_items": "calibration_items", "gate_judgements": "calibration_judgements",
                     "mqm-ratings": "human_ratings", "run_b": "judge_audit",
                     "run_b.snapshot": "source_snapshot"}
    groups = {g.name: ([m.spec.name for m in g.members], g.join_key) for g in infer_groups.group(found)}
    # the snapshot is listed first (sorted file names) and still joins its audit's collection
    assert groups == {"gate_items": (["gate_items", "gate_judgements"], None),
                      "mqm-ratings": (["mqm-ratings"], None),
                      "run_b": (["run_b", "run_b.snapshot"], ["instance_id"])}


@pytest.mark.parametrize("order", ["other audit first", "namesake first"])
def test_a_snapshot_joins_its_namesake_audit_wherever_each_is_listed(tmp_path, order):
    """Two audits that both key on instance_id and one snapshot: the snapshot goes to the audit
    whose file name it shares, even when the other audit is listed first (pairing in file order
    gave it to the first audit: 0 of 20,000 rows verified, and its own audit left without)."""
    d = tmp_path / "runs"
    d.mkdir()
    audit = [{"judge_record_id": f"r{k}", "instance_id": f"i{k}", "target_language": "de",
              "unit": "segment", "score": 50 + k} for k in range(3)]
    other = _jsonl(d / "another-audit.jsonl", audit)
    mine = _jsonl(d / "gemba.jsonl", audit)
    snap = _jsonl(d / "gemba.source_snapshot.jsonl", [
        {"instance_id": f"i{k}", "source_text": "a", "candidate_text": "b"} for k in range(3)])
    paths = [other, snap, mine] if order == "other audit first" else [mine, other, snap]
    found = infer.discover([str(p) for p in paths])
    groups = [([m.spec.name for m in g.members], g.join_key) for g in infer_groups.group(found)]
    expected = {"another-audit": (["another-audit"], None),
                "gemba": (["gemba", "gemba.source_snapshot"], ["instance_id"])}
    assert sorted(groups) == sorted(expected.values())
    # each collection stands where its first dataset was listed
    leads = ["another-audit", "gemba"] if order == "other audit first" else ["gemba", "another-audit"]
    assert [members[0] for members, _ in groups] == leads


def test_a_path_under_the_filesystem_root_reads_whole():
    """Files from two top-level folders share only "/" as root: their origin (the sidebar's
    "verified against …") reads /work/x.jsonl, not work/x.jsonl as if relative to here."""
    spec = DatasetSpec(name="x", kind="source_snapshot", title="x", base=Path("/"), path="work/x.jsonl")
    assert spec.origin == "local: /work/x.jsonl"
    spec.base = Path("/work/runs")
    assert spec.origin == "local: work/x.jsonl"


def test_init_writes_a_manifest_that_reproduces_the_collections(mixed, tmp_path, monkeypatch, capsys):
    out = tmp_path / "saved" / "sources.toml"
    out.parent.mkdir()
    assert main(["init", str(mixed), "--save", str(out)]) == EXIT_OK
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# JudgeScope sources manifest") and "# detected from its columns" in text
    doc = tomllib.loads(text)
    assert doc["root"] == str(mixed)  # the files live outside the manifest's folder
    manifest = load_manifest(out)
    assert manifest.problems == []
    assert {c: m.datasets for c, m in manifest.collections.items()} == {
        "run_b": ["run_b", "run_b.snapshot"], "gate_items": ["gate_items", "gate_judgements"],
        "mqm-ratings": ["mqm-ratings"]}
    checksums = json.loads(out.with_name("sources.checksums.json").read_text(encoding="utf-8"))
    assert set(checksums) == {str(p) for p in mixed.glob("*.jsonl")}
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(out))
    assert main(["validate"]) == EXIT_OK
    assert main(["init", str(mixed), "--save", str(out)]) == EXIT_UNUSABLE  # never overwritten
    assert "exists" in capsys.readouterr().err


def test_a_changed_file_is_named_not_read(mixed, tmp_path, monkeypatch, capsys):
    out = tmp_path / "sources.toml"
    assert main(["init", str(mixed / "run_b.jsonl"), "--save", str(out)]) == EXIT_OK
    with (mixed / "run_b.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"judge_record_id": "r9", "target_language": "de", "unit": "segment",
                             "score": 1}) + "\n")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(out))
    assert main(["validate"]) == EXIT_UNUSABLE
    assert "file changed since it was recorded" in capsys.readouterr().out


def test_an_unusable_file_is_kept_with_its_problem(tmp_path, capsys):
    src = _jsonl(tmp_path / "odd.jsonl", [{"a": 1}])
    good = _jsonl(tmp_path / "ratings.jsonl", [{"rater": "a", "item_id": "x", "score": 1}])
    out = tmp_path / "m" / "sources.toml"
    assert main(["init", str(src), str(good), "--save", str(out)]) == EXIT_PROBLEMS
    printed = capsys.readouterr().out
    assert "odd: UNUSABLE" in printed and "fits no kind" in printed
    assert "# could not be used as found" in out.read_text(encoding="utf-8")
    assert main(["init", str(src), "--save", str(tmp_path / "n.toml")]) == EXIT_UNUSABLE


def test_open_refuses_what_is_not_a_source(tmp_path, capsys):
    assert main(["open", str(tmp_path / "missing.jsonl"), "--dry-run"]) == EXIT_UNUSABLE
    assert "neither an existing file" in capsys.readouterr().err
    assert main(["open", "owner/name", "--dry-run"]) == EXIT_UNUSABLE
    assert "pinned" in capsys.readouterr().err


def test_open_without_save_writes_nothing_here(mixed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    assert main(["open", str(mixed), "--dry-run"]) == EXIT_OK
    assert sorted(tmp_path.iterdir()) == before and sorted(mixed.iterdir()) == sorted(
        mixed.iterdir())


def test_hub_layout_folders_give_one_dataset_per_config(tmp_path):
    found = infer.discover([str(ROOT / "data/demo/localgate_calibration"),
                            str(ROOT / "data/demo/transevalnia")])
    groups = [[m.kind for m in g.members] for g in infer_groups.group(found)]
    assert groups == [["calibration_items", "calibration_judgements"],
                      ["pairwise_ranking", "human_verification"]]


# --- the real data (../shared/realdata): every page the inferred collections can fill ---------

def _pages_for(collection: str) -> list:
    roles = get_catalog().roles(collection)
    return [p for p in navigation.PAGES if p.fits(roles) and p.url_path != "hub_open"]


def _opened(args: list[str], out: Path, monkeypatch) -> dict:
    assert main(["init", *args, "--save", str(out)]) == EXIT_OK
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(out))
    return load_manifest(out).collections


@pytest.mark.skipif(not REAL_FILES, reason="../shared/realdata is not beside this checkout")
@pytest.mark.parametrize("name", REAL_FILES)
def test_each_real_file_opens_every_page_it_can_fill(name, tmp_path, monkeypatch):
    collections = _opened([str(REALDATA / name)], tmp_path / "sources.toml", monkeypatch)
    assert len(collections) == 1
    (coll,) = collections
    pages = _pages_for(coll)
    # Overview, Excluded rows, SQL console, and the kind's own pages (a lone snapshot has none)
    assert len(pages) > (3 if "snapshot" not in name else 2)
    for spec in pages:
        at = open_page(spec.path, coll)
        assert at.title, spec.path


@pytest.mark.skipif(not REAL_FILES, reason="../shared/realdata is not beside this checkout")
def test_all_real_files_at_once_group_and_verify(tmp_path, monkeypatch):
    collections = _opened([str(REALDATA)], tmp_path / "sources.toml", monkeypatch)
    assert {c: m.datasets for c, m in collections.items()} == {
        "judge_audit_gemba_wmt22": ["judge_audit_gemba_wmt22",
                                    "judge_audit_gemba_wmt22.source_snapshot"],
        "multirater_sxs_mqm_wmt23_ende": ["multirater_sxs_mqm_wmt23_ende"],
        "pairwise_ted_mqm_ende_human_only": ["pairwise_ted_mqm_ende_human_only"],
        "transevalnia_sample_with_wmt21_systems": ["transevalnia_sample_with_wmt21_systems"]}
    assert collections["judge_audit_gemba_wmt22"].join_key == ("instance_id",)
    assert main(["verify", "judge_audit_gemba_wmt22", "judge_audit_gemba_wmt22.source_snapshot",
                 "--key", "instance_id"]) == EXIT_OK
    audit = get_catalog().roles("judge_audit_gemba_wmt22")
    assert set(audit) == {"audit", "snapshot"}
    assert get_catalog().verify_problems("judge_audit_gemba_wmt22") == []
    for spec in _pages_for("judge_audit_gemba_wmt22"):
        open_page(spec.path, "judge_audit_gemba_wmt22")


def test_a_pinned_hub_id_opens_like_a_folder(hub_cache, tmp_path, monkeypatch):
    from test_hub import COMMIT, REPO

    out = tmp_path / "sources.toml"
    assert main(["init", f"{REPO}@{COMMIT}", "--save", str(out)]) == EXIT_OK
    manifest = load_manifest(out)
    assert manifest.problems == []
    (spec,) = manifest.datasets.values()
    assert (spec.hub, spec.revision, spec.kind) == (REPO, COMMIT, "judge_audit")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(out))
    assert main(["validate"]) == EXIT_OK
    assert main(["init", f"{REPO}@main", "--save", str(tmp_path / "b.toml")]) == EXIT_UNUSABLE
