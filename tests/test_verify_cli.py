"""`python -m judgescope verify`: exit codes 0/1/2, the JSON shape, and the real GEMBA data."""

import json

import pytest

from judgescope.cli import main
from test_verify import CASES, write_fixture

JSON_KEYS = {"checked", "verified", "source_mismatch", "candidate_mismatch", "both_mismatch",
             "missing", "ambiguous", "normalization_hint", "unreferenced_snapshot_rows",
             "join_key", "join_key_source"}


@pytest.fixture
def fx(tmp_path, monkeypatch):
    manifest = write_fixture(tmp_path / "fx")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    return manifest.parent


def test_problems_exit_1_with_full_json(fx, tmp_path, capsys):
    out = tmp_path / "result.json"
    assert main(["verify", "fx_audit", "fx_snapshot", "--json", str(out)]) == 1
    result = json.loads(out.read_text(encoding="utf-8"))
    assert set(result) == JSON_KEYS
    assert (result["checked"], result["verified"]) == (8, 3)
    assert result["ambiguous"] == ["r_twice"] and result["missing"] == ["r_missing"]
    assert result["normalization_hint"] == {"r_nfd": "nfc", "r_space": "whitespace"}
    printed = capsys.readouterr().out
    assert "3 / 8 verified" in printed and "r_nfd" in printed


def test_all_verified_exit_0_from_files(tmp_path):
    folder = tmp_path / "ok"
    write_fixture(folder, [c for c in CASES if c[8] == "verified"])
    argv = ["verify", str(folder / "audit.jsonl"), str(folder / "snapshot.jsonl")]
    assert main(argv) == 0


@pytest.mark.parametrize("argv", [
    ["verify", "no_such_dataset", "fx_snapshot"],
    ["verify", "fx_audit", "fx_snapshot", "--key", "score"],
    ["verify", "fx_snapshot", "fx_audit"],  # kinds swapped
])
def test_unusable_input_exits_2(fx, argv, capsys):
    assert main(argv) == 2
    assert "error:" in capsys.readouterr().err


def test_audit_without_hash_columns_is_unusable(fx, capsys):
    lines = (fx / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    stripped = [{k: v for k, v in json.loads(line).items() if not k.endswith("_sha256")}
                for line in lines]
    (fx / "bare.jsonl").write_text("".join(json.dumps(r) + "\n" for r in stripped), encoding="utf-8")
    assert main(["verify", str(fx / "bare.jsonl"), "fx_snapshot"]) == 2
    assert "no source_text_sha256" in capsys.readouterr().err


def test_real_gemba_audit_verifies_on_instance_id(realdata, tmp_path, monkeypatch):
    manifest = realdata / "sources.toml"
    manifest.write_text("""
[[collection]]
name = "gemba"
datasets = ["gemba_audit", "gemba_snapshot"]
join_key = ["instance_id"]
[[dataset]]
name = "gemba_audit"
kind = "judge_audit"
path = "judge_audit_gemba_wmt22.jsonl"
[[dataset]]
name = "gemba_snapshot"
kind = "source_snapshot"
path = "judge_audit_gemba_wmt22.source_snapshot.jsonl"
""", encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    out = tmp_path / "gemba.json"
    assert main(["verify", "gemba_audit", "gemba_snapshot", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["checked"] == result["verified"] == 360


def test_real_gemba_one_changed_text_is_caught(realdata, tmp_path):
    snap = realdata / "judge_audit_gemba_wmt22.source_snapshot.jsonl"
    snap.chmod(0o644)
    rows = [json.loads(line) for line in snap.read_text(encoding="utf-8").splitlines()]
    rows[0]["candidate_text"] += " "
    snap.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "changed.json"
    argv = ["verify", str(realdata / "judge_audit_gemba_wmt22.jsonl"), str(snap),
            "--key", "instance_id", "--json", str(out)]
    assert main(argv) == 1
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["verified"] == 359 and len(result["candidate_mismatch"]) == 1
    assert list(result["normalization_hint"].values()) == ["whitespace"]


def test_real_gemba_files_verify_without_key(realdata, tmp_path, capsys):
    """#16.3: instance_id is the only key column both files have; verify infers it and says so."""
    out = tmp_path / "gemba.json"
    argv = ["verify", str(realdata / "judge_audit_gemba_wmt22.jsonl"),
            str(realdata / "judge_audit_gemba_wmt22.source_snapshot.jsonl"), "--json", str(out)]
    assert main(argv) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["checked"] == result["verified"] == 360
    assert result["join_key"] == ["instance_id"]
    assert "join key instance_id: inferred" in capsys.readouterr().out


def test_no_shared_key_column_names_each_side(tmp_path, capsys):
    audit = {"judge_record_id": "r1", "target_language": "de", "unit": "segment", "score": 5,
             "source_text_sha256": "0" * 64, "candidate_text_sha256": "0" * 64}
    snap = {"instance_id": "i1", "source_text": "a", "candidate_text": "b"}
    for name, row in (("a.jsonl", audit), ("s.jsonl", snap)):
        (tmp_path / name).write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["verify", str(tmp_path / "a.jsonl"), str(tmp_path / "s.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: no join-key column is in both datasets (the audit has target_language, unit; "
        "the snapshot has instance_id of instance_id, target_language, unit, paragraph_id); give --key")
