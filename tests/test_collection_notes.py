"""Issue #16.7: no false reassurance. A collection with an unusable dataset never says every row
is usable; a second dataset of a kind is named as ignored (Overview, Excluded rows, the CLI)."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from judgescope.cli import main

ROW = {"judge_record_id": "r1", "target_language": "de", "unit": "segment", "score": 70}


@pytest.fixture
def manifest(tmp_path, use_manifest):
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    (tmp_path / "broken.jsonl").write_text(json.dumps({"x": 1}) + "\n", encoding="utf-8")
    use_manifest("""
[[collection]]
name = "c"
datasets = ["first", "second", "broken"]
[[dataset]]
name = "first"
path = "a.jsonl"
[[dataset]]
name = "second"
path = "b.jsonl"
[[dataset]]
name = "broken"
kind = "judge_audit"
path = "broken.jsonl"
""", "s.toml")
    return tmp_path


def _shown(page):
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return " ".join(str(e.value) for e in [*at.error, *at.warning, *at.success, *at.info]) \
        .replace("\\", "").replace("\u2060", "")


@pytest.mark.parametrize("page", [None, "pages/excluded.py"])
def test_unusable_and_ignored_datasets_are_named(manifest, page):
    shown = _shown(page)
    assert "Every row of every dataset in this collection is usable" not in shown
    assert "Dataset broken is unusable" in shown and "required columns are missing" in shown
    assert "Dataset second (judge_audit) is ignored: dataset first already fills" in shown


def test_cli_validate_names_the_ignored_dataset(manifest, capsys):
    assert main(["validate"]) == 2  # broken is unusable
    out = capsys.readouterr().out
    assert "UNUSED    collection c: Dataset second (judge_audit) is ignored" in out
    assert "UNUSABLE  broken" in out


def test_clean_collection_still_says_all_usable(tmp_path, monkeypatch):
    (tmp_path / "a.jsonl").write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    (tmp_path / "s.toml").write_text('[[collection]]\nname = "c"\ndatasets = ["first"]\n'
                                     '[[dataset]]\nname = "first"\npath = "a.jsonl"\n', encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "s.toml"))
    assert "Every row of every dataset in this collection is usable" in _shown("pages/excluded.py")


def test_overview_says_a_kind_was_detected(manifest):
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    # Overview shows the kind as escaped, isolated text (text.md_literal): read it as a reader sees it
    plain = captions.replace("\\", "").replace("\u2068", "").replace("\u2069", "")
    assert "kind **judge_audit** (detected from its columns)" in plain
