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


def _two_audits(folder):
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.jsonl").write_text(json.dumps(AUDIT_ROW) + "\n")
    return folder


def _open_and_load(folder, tmp_path, capsys):
    """`judgescope open` on the folder (saving its manifest), then every dataset loaded."""
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    saved = tmp_path / "s.toml"
    assert main(["open", str(folder), "--dry-run", "--save", str(saved)]) == 1  # 1: one is unusable
    out = capsys.readouterr().out
    catalog = Catalog(load_manifest(saved), providers=TABLES)
    return out, {name: catalog.dataset(name) for name in catalog.manifest.datasets}


def test_open_names_a_file_without_read_permission(tmp_path, monkeypatch, capsys):
    """Item 16: a PermissionError (root reads any file, and a link to an unreadable one such as
    /proc/self/mem is resolved to a name without a data suffix, so the refusal is made here)."""
    from pathlib import Path

    folder = _two_audits(tmp_path / "data")
    refused, real_open = str(folder / "b.jsonl"), Path.open

    def open_(self, *args, **kwargs):
        if str(self) == refused:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    out, loaded = _open_and_load(folder, tmp_path, capsys)
    assert "file b.jsonl: cannot be read: Permission denied" in out, out
    assert loaded["a"].ok and "Permission denied" in loaded["b"].error


@pytest.mark.parametrize("stored", ["not json {", '{"a": 1}', '["untranslated", "no such tag"]', '["other", 3]'])
def test_a_draft_whose_tags_are_not_a_list_of_tags_keeps_review_working(tmp_path, monkeypatch, stored):
    """Item 16: a drafts row written by hand (or an older build) with tags that are not a JSON
    list of known tags is read as a verdict's tags are; the Review page opens with its note."""
    import sqlite3
    from contextlib import closing

    from apptest import open_page
    from judgescope.reviews import verdict_log as reviews
    from judgescope.web import verdicts

    state = tmp_path / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(state))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    at = open_page("pages/review.py", "xhotpotqa", lang="th")
    at.selectbox(key="open_record").select_index(1).run()
    record = at.query_params["record"]
    record = record[0] if isinstance(record, list) else record
    reviews.save_draft("Ann", "xhotpotqa_v2_audit", record, ["other"], "typed", path=state)
    with closing(sqlite3.connect(state)) as con, con:
        con.execute("UPDATE drafts SET tags = ?", (stored,))
    kept = reviews.draft("Ann", "xhotpotqa_v2_audit", record, state)
    assert kept == (["untranslated"] if "untranslated" in stored else [], "typed")
    at.text_input(key="reviewer_name_input").input("Ann").run()
    assert not at.exception, [e.value for e in at.exception]
    _, note = verdicts.widget_keys("review", "Ann", record)
    assert at.text_area(key=note).value == "typed"


@pytest.mark.parametrize("typed", ["\uff41\uff4e\uff4e  \uff4c\uff45\uff45",  # full-width
                                   "\U0001d41a\U0001d427\U0001d427 \U0001d425\U0001d41e\U0001d41e",  # bold
                                   "ann  lee", " ann   lee "])
def test_look_alike_spellings_of_a_reviewer_are_one_reviewer(tmp_path, typed):
    """Item 16: NFKC and runs of spaces folded when a verdict is stored (typed or imported)."""
    from judgescope.reviews import verdict_log as reviews

    db = tmp_path / "r.sqlite"
    for who, rid in (("ann lee", "r1"), (typed, "r2")):
        reviews.record(db, reviewer=who, collection="c", dataset="d", judge_record_id=rid,
                       verdict="judge_right")
    assert reviews.reviewers(db) == ["ann lee"]


@pytest.mark.parametrize("typed, odd", [("\u0430nn", "U+0430 CYRILLIC SMALL LETTER A"),
                                        ("\u0391nn", "U+0391 GREEK CAPITAL LETTER ALPHA"),
                                        ("Ann", "U+0041 LATIN CAPITAL LETTER A")])
def test_a_confusable_reviewer_name_is_flagged_on_review(tmp_path, monkeypatch, typed, odd):
    """Item 16: a name NFKC leaves apart but a reader takes for an existing one is flagged,
    naming the odd character; the existing name itself is not."""
    from apptest import open_page
    from judgescope.reviews import checks
    from judgescope.reviews import verdict_log as reviews

    state = tmp_path / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(state))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    reviews.record(state, reviewer="ann", collection="c", dataset="d", judge_record_id="r1",
                   verdict="judge_right")
    assert checks.look_alike("ann", ["ann"]) is None and checks.look_alike("bob", ["ann"]) is None
    at = open_page("pages/review.py", "xhotpotqa", lang="th")
    at.selectbox(key="open_record").select_index(1).run()
    at.text_input(key="reviewer_name_input").input(typed).run()
    assert not at.exception, [e.value for e in at.exception]
    said = [w.value for w in at.warning if "looks like the existing reviewer" in w.value]
    assert len(said) == 1 and odd.replace(" ", "") in said[0].replace("\\", "").replace(" ", "")


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_an_empty_file_is_called_empty(write_manifest, tmp_path, capsys, suffix):
    """Item 16: a 0-byte upload (or file) is 'empty', not a table that 'fits no kind'."""
    from judgescope.remote import upload
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import SourceError, load_manifest

    catalog = Catalog(load_manifest(write_manifest('[[collection]]\nname = "c"\ndatasets = []\n')), providers=TABLES)
    with pytest.raises(SourceError, match=r"empty \(0 bytes\)") as refused:
        upload.add_upload(catalog, f"nothing{suffix}", b"")
    assert "fits no kind" not in str(refused.value) and "nothing" in str(refused.value)
    (tmp_path / f"nothing{suffix}").write_bytes(b"")
    assert main(["validate", str(tmp_path / f"nothing{suffix}")]) == 2
    out = capsys.readouterr().out
    assert "empty (0 bytes)" in out and "fits no kind" not in out, out


def test_compare_methods_reads_decision_columns_of_text_and_lists(tmp_path, capsys):
    """Item 15: a Parquet ranking whose decision columns hold text in one and lists in another
    (BinderException: Cannot unpivot columns of types VARCHAR and VARCHAR[]) is read as the same
    rows written as JSONL are: every decision column as text."""
    import pandas as pd

    rows = [{"src_text": f"s{i}", "tgt_texts": [f"a{i}", f"b{i}"], "human_scores": [1 + i % 3, 2],
             "one_step_ranking/m1": f"Translation {1 + i % 2} is better",
             "two_step_ranking/m2": [f"Translation {1 + i % 2}", f"Translation {2 - i % 2}"],
             "three_step_ranking/m3": 1 + i % 2} for i in range(8)]
    pd.DataFrame(rows).to_parquet(tmp_path / "r.parquet")
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    reports = []
    for name in ("r.parquet", "r.jsonl"):
        assert main(["compare-methods", str(tmp_path / name), "--json", str(tmp_path / f"{name}.json"),
                     "--resamples", "200"]) == 0, capsys.readouterr()
        reports.append(json.loads((tmp_path / f"{name}.json").read_text())["datasets"]["r"])
    assert reports[0] == reports[1] and len(reports[0]["pairs"]) == 3


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_nested_snapshot_whose_translations_are_null_throughout_names_the_column(tmp_path, capsys, fmt):
    """Item 15: every instance unusable left an empty, untyped table (`Unimplemented type for
    cast (INTEGER -> "NULL")`, no column named); now each instance is listed with its column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = [{"id": f"i{i}", "question": "q", "answer": "a", "translations": None,
                "context": {"title": ["T"], "sentences": [["s1", "s2"]]}} for i in range(3)]
    path = tmp_path / f"n.{fmt}"
    if fmt == "parquet":
        pq.write_table(pa.Table.from_pylist(records), path)
        assert str(pq.read_schema(path).field("translations").type) == "null"
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["validate", str(path), "--kind", "source_snapshot", "--form", "nested"]) == 1
    out = capsys.readouterr().out
    assert "Unimplemented" not in out and "used 0 + excluded 3" in out, out
    assert out.count(f"n.{fmt}:") == 3 and "translations  instance i0: no translations" in out, out


def test_look_alike_reviewer_names_from_a_log_are_said(tmp_path, monkeypatch, capsys):
    """Item 16: names that read alike arriving in an imported log are named by `reviews import`
    and on the Reviews page (they stay two reviewers: folding them would merge two people)."""
    import pandas as pd

    from apptest import open_page
    from judgescope.reviews import verdict_log as reviews

    state, log = tmp_path / "r.sqlite", tmp_path / "shared.parquet"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(state))
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)
    reviews.record(state, reviewer="ann", collection="xhotpotqa", dataset="xhotpotqa_v2_audit",
                   judge_record_id="r1", verdict="judge_right")
    pd.DataFrame([reviews.new_review(reviewer="\u0430nn", collection="xhotpotqa", dataset="xhotpotqa_v2_audit",
                                     judge_record_id="r2", verdict="too_harsh")]).to_parquet(log)
    assert main(["reviews", "--state", str(state), "import", str(log)]) == 0
    out = capsys.readouterr().out
    assert "NOTE  The reviewer names 'ann', '\u0430nn' look alike" in out, out
    at = open_page("pages/reviews.py", "xhotpotqa")
    said = [w.value for w in at.warning if "look alike" in w.value]
    assert len(said) == 1 and "\u0430nn" in said[0]


def test_open_names_a_folder_it_cannot_list(tmp_path, monkeypatch, capsys):
    """Item 16's neighbour: a folder the system will not list is exit 2, named, no traceback."""
    from pathlib import Path

    folder = _two_audits(tmp_path / "data")
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self == folder.resolve():
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert main(["open", str(folder), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "data: cannot be read: Permission denied" in err and "Traceback" not in err, err
