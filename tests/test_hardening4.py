"""Hardening, part 4: hostile inputs of issue 39 (items 3, 15, 16) met with a named message,
never a traceback or a silent pass. Every hostile input is built here."""

import json

import pytest

from judgescope.cli import main

AUDIT_ROW = {"judge_record_id": "r1", "target_language": "th", "unit": "answer", "score": 5}


def _manifest(folder, extra: str = "") -> None:
    (folder / "a.jsonl").write_text(json.dumps(AUDIT_ROW) + "\n")
    (folder / "sources.toml").write_text(
        extra + '[[collection]]\nname = "c"\ntitle = "C"\ndatasets = ["a"]\n\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\npath = "a.jsonl"\n')


@pytest.mark.parametrize("content", ["[1, 2, 3]", "{not json", '{"a.jsonl": "abc"}'])
def test_validate_refuses_a_checksums_file_it_cannot_read(tmp_path, monkeypatch, capsys, content):
    """Item 3: the pin is read before validate prints; an unreadable one is exit 2, named."""
    _manifest(tmp_path, '[integrity]\nchecksums = ["sums.json"]\n\n')
    (tmp_path / "sums.json").write_text(content)
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    assert main(["validate"]) == 2
    out = capsys.readouterr().out
    manifest_lines = [line for line in out.splitlines() if line.startswith("MANIFEST")]
    assert manifest_lines and "sums.json" in manifest_lines[0], out
