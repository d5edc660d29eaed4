"""Manifest, resolution and validation: every bad input gets a clear message; no row is lost."""

import json

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.manifest import SourceError, check_revision, load_manifest

AUDIT_ROWS = [
    {"judge_record_id": "r1", "target_language": "de", "unit": "segment", "score": 90},
    {"judge_record_id": "r2", "target_language": "de", "unit": "segment", "score": 55.5},
    {"judge_record_id": "r3", "target_language": "th", "unit": "answer", "score": 10},
]


def _jsonl(path, rows, extra_lines=()):
    lines = [json.dumps(r) for r in rows] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _manifest(tmp_path, write_manifest, datasets: dict[str, str], kind="judge_audit"):
    body = "[[collection]]\nname = \"c\"\ndatasets = [%s]\n" % ", ".join(f'"{n}"' for n in datasets)
    for name, path in datasets.items():
        body += f'\n[[dataset]]\nname = "{name}"\nkind = "{kind}"\npath = "{path}"\n'
    return Catalog(load_manifest(write_manifest(body)), providers=TABLES)


def test_clean_file_is_fully_used(tmp_path, write_manifest):
    _jsonl(tmp_path / "a.jsonl", AUDIT_ROWS)
    d = _manifest(tmp_path, write_manifest, {"a": "a.jsonl"}).dataset("a")
    assert d.ok, d.error
    assert (d.report["rows_loaded"], d.report["rows_used"], d.report["rows_excluded"]) == (3, 3, 0)


@pytest.mark.parametrize("bad,reason", [
    ({"score": None}, "missing score"),
    ({"score": -1}, "score outside 0–100"),
    ({"score": 101}, "score outside 0–100"),
    ({"score": "high"}, "score is not a number"),
    ({"judge_record_id": "r1"}, "duplicate judge_record_id"),
    ({"target_language": None}, "missing target_language"),
])
def test_bad_rows_go_to_the_ledger_with_file_row_and_reason(tmp_path, write_manifest, bad, reason):
    row = {"judge_record_id": "r9", "target_language": "de", "unit": "segment", "score": 50} | bad
    _jsonl(tmp_path / "a.jsonl", AUDIT_ROWS + [row])
    cat = _manifest(tmp_path, write_manifest, {"a": "a.jsonl"})
    d = cat.dataset("a")
    assert d.report["rows_loaded"] == 4 and d.report["rows_used"] == 3
    assert d.report["reasons"] == {reason: 1}
    ledger = cat.store("c").execute_raw("SELECT dataset, file, row, reason FROM ledger")
    assert ledger == [("a", "a.jsonl", 4, reason)]


def test_nan_score_and_broken_json_line_are_listed(tmp_path, write_manifest):
    path = tmp_path / "a.jsonl"
    _jsonl(path, AUDIT_ROWS, ['{"judge_record_id": "x", "score": NaN, "target_language": "de", "unit": "s"}',
                              '{"judge_record_id": "y", "score": 5'])
    d = _manifest(tmp_path, write_manifest, {"a": "a.jsonl"}).dataset("a")
    assert d.report["reasons"] == {"score is NaN": 1, "invalid JSON line": 1}
    assert d.report["rows_loaded"] == 5


def test_missing_required_column_names_dataset_file_and_column(tmp_path, write_manifest):
    (tmp_path / "a.csv").write_text("judge_record_id,target_language,score\nx,de,5\n")
    d = _manifest(tmp_path, write_manifest, {"a": "a.csv"}).dataset("a")
    assert not d.ok
    assert "dataset a" in d.error and "a.csv" in d.error and "column unit" in d.error


def test_wrong_column_type_excludes_rows_not_the_dataset(tmp_path, write_manifest):
    table = pa.table({"judge_record_id": ["a", "b"], "target_language": ["de", "de"],
                      "unit": ["s", "s"], "score": ["75", "n/a"]})
    pq.write_table(table, tmp_path / "a.parquet")
    d = _manifest(tmp_path, write_manifest, {"a": "a.parquet"}).dataset("a")
    assert d.report["rows_used"] == 1 and d.report["reasons"] == {"score is not a number": 1}


@pytest.mark.parametrize("content", [b"", b"PAR1 this is not parquet", None])
def test_corrupt_or_empty_parquet_is_named(tmp_path, write_manifest, content):
    good = tmp_path / "good.jsonl"
    _jsonl(good, AUDIT_ROWS)
    bad = tmp_path / "bad.parquet"
    if content is None:  # a truncated real file
        pq.write_table(pa.table({"x": list(range(1000))}), bad)
        bad.write_bytes(bad.read_bytes()[:300])
    else:
        bad.write_bytes(content)
    cat = _manifest(tmp_path, write_manifest, {"bad": "bad.parquet", "good": "good.jsonl"})
    assert not cat.dataset("bad").ok and "bad.parquet" in cat.dataset("bad").error
    assert cat.dataset("good").ok  # the rest keeps working
    assert cat.store("c").execute_raw("SELECT count(*) FROM audit") == [(3,)]


@pytest.mark.parametrize("entry,message", [
    ('kind = "judge_thing"\npath = "a.jsonl"', "unknown kind"),
    ('kind = "judge_audit"\npath = "../outside.jsonl"', "escapes the manifest folder"),
    ('kind = "judge_audit"\npath = "/etc/passwd"', "escapes the manifest folder"),
    ('kind = "judge_audit"\nhub = "owner/name"\nrevision = "main"', "not pinned"),
    ('kind = "judge_audit"\nhub = "owner/name"\nrevision = "0f9cd56"', "not pinned"),
    ('kind = "judge_audit"\nhub = "../../etc"\nrevision = "' + "a" * 40 + '"', "owner/name"),
    ('kind = "judge_audit"\nhub = "owner/name/../x"\nrevision = "' + "a" * 40 + '"', "owner/name"),
])
def test_bad_manifest_entries_are_refused_one_by_one(tmp_path, write_manifest, entry, message):
    _jsonl(tmp_path / "a.jsonl", AUDIT_ROWS)
    body = ('[[collection]]\nname = "c"\ndatasets = ["bad", "good"]\n'
            f'[[dataset]]\nname = "bad"\n{entry}\n'
            '[[dataset]]\nname = "good"\nkind = "judge_audit"\npath = "a.jsonl"\n')
    cat = Catalog(load_manifest(write_manifest(body)), providers=TABLES)
    assert message in cat.dataset("bad").error and "bad" in cat.dataset("bad").error
    assert cat.dataset("good").ok


def test_revision_must_be_40_hex():
    assert check_revision("0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840")
    with pytest.raises(SourceError, match="huggingface_hub"):
        check_revision("v1.0")


def test_hub_layout_folder_with_configs_and_broken_yaml(tmp_path, write_manifest):
    folder = tmp_path / "repo"
    (folder / "data").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(AUDIT_ROWS), folder / "data" / "audit.parquet")
    (folder / "README.md").write_text("---\nconfigs:\n- config_name: main\n  data_files:\n"
                                      "  - split: audit\n    path: data/audit.parquet\n---\n# x\n")
    body = ('[[collection]]\nname = "c"\ndatasets = ["a"]\n'
            '[[dataset]]\nname = "a"\nkind = "judge_audit"\npath = "repo"\nsplit = "audit"\n')
    cat = Catalog(load_manifest(write_manifest(body)), providers=TABLES)
    assert cat.dataset("a").report["rows_used"] == 3
    (folder / "README.md").write_text("---\nconfigs: [unclosed\n---\n")
    cat = Catalog(load_manifest(write_manifest(body, "other.toml")), providers=TABLES)
    assert "YAML" in cat.dataset("a").error and "README.md" in cat.dataset("a").error


def test_manifest_exclusion_puts_declared_rows_in_ledger_with_reason(tmp_path, write_manifest):
    rows = [r | {"run_group": "good"} for r in AUDIT_ROWS] + [
        {"judge_record_id": "p1", "target_language": "th", "unit": "answer", "score": 3, "run_group": "partial"},
        {"judge_record_id": "p2", "target_language": "th", "unit": "answer", "score": None, "run_group": "partial"}]
    _jsonl(tmp_path / "raw.jsonl", rows)
    body = ('[[collection]]\nname = "c"\ndatasets = ["raw"]\n'
            '[[dataset]]\nname = "raw"\nkind = "raw_judge_records"\npath = "raw.jsonl"\n'
            '[[dataset.exclude]]\ncolumn = "run_group"\nvalue = "partial"\nreason = "partial run"\n')
    d = Catalog(load_manifest(write_manifest(body)), providers=TABLES).dataset("raw")
    assert d.report["reasons"] == {"partial run": 2} and d.report["rows_used"] == 3


def test_changed_file_is_named(tmp_path, write_manifest):
    _jsonl(tmp_path / "a.jsonl", AUDIT_ROWS)
    import hashlib
    data = (tmp_path / "a.jsonl").read_bytes()
    (tmp_path / "checksums.json").write_text(json.dumps(
        {"a.jsonl": {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}}))
    body = ('[integrity]\nchecksums = ["checksums.json"]\n[[collection]]\nname = "c"\ndatasets = ["a"]\n'
            '[[dataset]]\nname = "a"\nkind = "judge_audit"\npath = "a.jsonl"\n')
    assert Catalog(load_manifest(write_manifest(body)), providers=TABLES).dataset("a").ok
    (tmp_path / "a.jsonl").write_bytes(data.replace(b"90", b"91", 1))  # one byte
    d = Catalog(load_manifest(write_manifest(body, "m2.toml")), providers=TABLES).dataset("a")
    assert not d.ok and "a.jsonl" in d.error and "changed" in d.error


def test_locked_store_refuses_file_access(tmp_path, write_manifest):
    _jsonl(tmp_path / "a.jsonl", AUDIT_ROWS)
    store = _manifest(tmp_path, write_manifest, {"a": "a.jsonl"}).store("c")
    from judgescope.duck.db import UnknownQuery
    with pytest.raises(UnknownQuery):
        store.run("read_csv('/etc/passwd')")
    for sql, error in [("SELECT * FROM read_csv('/etc/passwd')", duckdb.PermissionException),
                       ("SET enable_external_access = true", duckdb.InvalidInputException),
                       ("COPY audit TO '/tmp/leak.csv'", duckdb.PermissionException),
                       ("INSTALL httpfs", duckdb.PermissionException)]:
        with pytest.raises(error, match="(?i)permission|configuration|cannot"):
            store.execute_raw(sql)


def test_realdata_pairwise_shapes_normalise(realdata, write_manifest):
    body = ('[[collection]]\nname = "c"\ndatasets = ["ted", "sample"]\n'
            '[[dataset]]\nname = "ted"\nkind = "pairwise_ranking"\n'
            'path = "realdata/pairwise_ted_mqm_ende_human_only.jsonl"\n'
            '[[dataset]]\nname = "sample"\nkind = "pairwise_ranking"\n'
            'path = "realdata/transevalnia_sample_with_wmt21_systems.jsonl"\n')
    cat = Catalog(load_manifest(write_manifest(body)), providers=TABLES)
    assert cat.dataset("ted").report["rows_used"] == 200
    assert cat.dataset("sample").report["rows_used"] == 10
    from judgescope.duck import db
    store = db.Store({"ranking": [cat.dataset("sample").path("clean")]})
    (scores,) = store.execute_raw("SELECT human_scores FROM ranking LIMIT 1")[0]
    assert len(scores) == 2  # dict keyed by translator → list in the translators' order
