"""File integrity end to end (recorded checksums, Hub LFS blobs) and the nested snapshot form."""

import hashlib
import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.ingest import snapshot
from judgescope.integrity import hashes as verify
from judgescope.sources.catalog import Catalog, load_dataset
from judgescope.wiring import TABLES
from judgescope.demo.common import write_checksums, write_hub_dataset
from judgescope.ingest.manifest import SourceError, load_manifest

REV = "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840"
SNAPSHOT_ROWS = {"instance_id": ["i1"], "target_language": ["th"], "unit": ["answer"],
                 "paragraph_id": [None], "source_text": ["Paris"], "candidate_text": ["ปารีส"]}


def _demo_like(tmp_path: Path) -> Path:
    """A Hub-layout snapshot written and recorded the way `python -m judgescope.demo` does it."""
    demo = tmp_path / "demo"
    write_hub_dataset(demo / "snap", "Snapshot", "Fixture.",
                      {"default": {"train": pa.table(SNAPSHOT_ROWS)}})
    write_checksums(demo)
    manifest = tmp_path / "sources.toml"
    manifest.write_text('[integrity]\nchecksums = ["demo/checksums.json"]\n[[dataset]]\n'
                        'name = "snap"\nkind = "source_snapshot"\npath = "demo/snap"\n',
                        encoding="utf-8")
    return manifest


def test_recorded_demo_file_loads_and_is_marked_recorded(tmp_path):
    loaded = Catalog(load_manifest(_demo_like(tmp_path)), providers=TABLES).dataset("snap")
    assert loaded.ok, loaded.error
    files = loaded.report["files"]
    assert files[0]["recorded"] and files[0]["file"] == "data/default-train.parquet"


def test_one_byte_change_is_caught_and_named(tmp_path):
    manifest = _demo_like(tmp_path)
    data = tmp_path / "demo" / "snap" / "data" / "default-train.parquet"
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    data.write_bytes(bytes(raw))
    loaded = Catalog(load_manifest(manifest), providers=TABLES).dataset("snap")
    assert not loaded.ok
    assert "file changed since it was recorded" in loaded.error
    assert "data/default-train.parquet" in loaded.error and str(tmp_path) not in loaded.error  # #13.14


def _hf_cache(root: Path, content: bytes, blob_sha: str) -> None:
    """datasets--owner--name laid out as huggingface_hub stores it: snapshot links into blobs/."""
    repo = root / "datasets--owner--snap"
    (repo / "blobs").mkdir(parents=True)
    (repo / "blobs" / blob_sha).write_bytes(content)
    target = repo / "snapshots" / REV / "data" / "train.parquet"
    target.parent.mkdir(parents=True)
    os.symlink(os.path.relpath(repo / "blobs" / blob_sha, target.parent), target)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(REV)


@pytest.mark.parametrize("tamper", [False, True])
def test_hub_cache_lfs_sha256_is_checked(tmp_path, monkeypatch, tamper):
    import huggingface_hub.constants

    path = tmp_path / "x.parquet"
    pq.write_table(pa.table(SNAPSHOT_ROWS), path)
    content = path.read_bytes()
    blob = hashlib.sha256(content).hexdigest()
    _hf_cache(tmp_path / "hub", content + (b"!" if tamper else b""), blob)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    manifest = tmp_path / "sources.toml"
    manifest.write_text(f'[[dataset]]\nname = "snap"\nkind = "source_snapshot"\n'
                        f'hub = "owner/snap"\nrevision = "{REV}"\n', encoding="utf-8")
    loaded = Catalog(load_manifest(manifest), providers=TABLES).dataset("snap")
    if tamper:
        assert not loaded.ok and "does not match the Hub's LFS sha256" in loaded.error
        assert "train.parquet" in loaded.error
    else:
        assert loaded.ok, loaded.error
        assert loaded.report["files"][0]["lfs_sha256"] == blob


CONTEXT_PAIRS = [["Paris", ["Paris is a city.", "It is in France."]], ["Seine", ["A river."]]]
TH_CONTEXT = [["ปารีส", ["ปารีสเป็นเมือง", "อยู่ในฝรั่งเศส"]], ["แซน", ["แม่น้ำ"]]]
NESTED = [
    {"id": "h1", "question": "Where is Paris?", "answer": "France", "context": CONTEXT_PAIRS,
     "translations": {"th": {"question": "ปารีสอยู่ที่ไหน", "answer": "ฝรั่งเศส", "context": TH_CONTEXT}}},
    {"_id": "h2", "question": "Which river?", "answer": "Seine", "target_language": "de",
     "context": {"title": ["Seine"], "sentences": [["A river.", "In Paris."]]},
     "translation": {"question": "Welcher Fluss?", "answer": "Seine",
                     "context": {"title": ["Seine"], "sentences": [["Ein Fluss.", "In Paris."]]}}},
]


def test_flatten_record_both_context_forms():
    rows = snapshot.flatten_record(NESTED[0]) + snapshot.flatten_record(NESTED[1])
    by = {(r["instance_id"], r["target_language"], r["unit"], r["paragraph_id"]): r for r in rows}
    assert len(rows) == 4 + 3
    assert by[("h1", "th", "paragraph", "0")]["source_text"] == "Paris is a city. It is in France."
    assert by[("h1", "th", "paragraph", "0")]["candidate_text"] == "ปารีสเป็นเมือง อยู่ในฝรั่งเศส"
    assert by[("h1", "th", "question", None)]["candidate_text"] == "ปารีสอยู่ที่ไหน"
    assert by[("h2", "de", "paragraph", "0")]["candidate_text"] == "Ein Fluss. In Paris."
    assert by[("h2", "de", "answer", None)]["source_text"] == "Seine"


def test_flatten_refuses_unequal_paragraph_counts():
    bad = dict(NESTED[0], translations={"th": {"question": "q", "answer": "a",
                                               "context": TH_CONTEXT[:1]}})
    with pytest.raises(SourceError, match="2 English paragraphs but 1 translated"):
        snapshot.flatten_record(bad)


def _nested_manifest(tmp_path: Path, fmt: str) -> Path:
    if fmt == "jsonl":
        (tmp_path / "nested.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in NESTED), encoding="utf-8")
    else:
        pq.write_table(pa.Table.from_pylist([dict(NESTED[1], id="h2")]), tmp_path / "nested.parquet")
    rows = [r for rec in NESTED for r in snapshot.flatten_record(rec)]
    audit = [{"judge_record_id": f"a{i}", "score": 90, **{k: r[k] for k in verify.JOIN_COLUMNS},
              "source_text_sha256": hashlib.sha256(r["source_text"].encode()).hexdigest(),
              "candidate_text_sha256": hashlib.sha256(r["candidate_text"].encode()).hexdigest()}
             for i, r in enumerate(rows)]
    (tmp_path / "audit.jsonl").write_text("".join(json.dumps(r) + "\n" for r in audit), encoding="utf-8")
    manifest = tmp_path / "sources.toml"
    manifest.write_text(f'[[collection]]\nname = "n"\ndatasets = ["a", "s"]\n[[dataset]]\nname = "a"\n'
                        f'kind = "judge_audit"\npath = "audit.jsonl"\n[[dataset]]\nname = "s"\n'
                        f'kind = "source_snapshot"\npath = "nested.{fmt}"\nform = "nested"\n',
                        encoding="utf-8")
    return manifest


def test_nested_jsonl_snapshot_is_flattened_and_verifies(tmp_path):
    cat = Catalog(load_manifest(_nested_manifest(tmp_path, "jsonl")), providers=TABLES)
    assert cat.dataset("s").ok, cat.dataset("s").error
    assert cat.dataset("s").report["rows_used"] == 7
    s = verify.summarise(cat.store("n").run)
    assert (s.verified, s.checked, s.unreferenced) == (7, 7, 0)
    # The flat rows of one instance share its _file/_row lineage: the list must still show each
    # audit row once, with its own snapshot texts (joined by position in the clean file).
    rows = verify.class_rows(cat.store("n").run, "verified", 100)
    assert len(rows) == 7 and rows.judge_record_id.is_unique
    # Each row's shown texts, hashed here with hashlib, give the digests the audit row stored
    # and the ones the app reports (class_rows fills both from one digest, so they are not
    # compared with each other).
    for side in ("source", "candidate"):
        shown = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in rows[f"{side}_text"]]
        assert rows[f"stored_{side}_sha256"].tolist() == shown
        assert rows[f"{side}_sha256"].tolist() == shown
    by_id = dict(zip(rows.judge_record_id, rows.source_text))
    assert by_id["a0"] == "Where is Paris?"  # the first flat row of h1, by position


def test_nested_parquet_snapshot_is_flattened(tmp_path):
    cat = Catalog(load_manifest(_nested_manifest(tmp_path, "parquet")), providers=TABLES)
    assert cat.dataset("s").ok, cat.dataset("s").error
    assert cat.dataset("s").report["rows_used"] == 3


def test_unknown_form_is_named(tmp_path):
    manifest = _nested_manifest(tmp_path, "jsonl")
    manifest.write_text(manifest.read_text().replace('form = "nested"', 'form = "tree"'))
    loaded = load_dataset(load_manifest(manifest).datasets["s"])
    assert not loaded.ok and "form 'tree' is unknown" in loaded.error
