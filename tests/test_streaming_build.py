"""Issue #28 item 2: validation reads a Parquet dataset where it checks and writes it (a view, no
copy of the rows), yet every excluded row is still counted and listed with file, row and reason,
the first of a repeated key stays, other kinds keep file order, and a file that breaks mid-way
is named."""

import json

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from judgescope.ingest import readers
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.layout import ResolvedFiles
from judgescope.ingest.manifest import load_manifest

ROWS = 70_000  # over two of the build's 30,720-row groups, in several input row groups


def _catalog(tmp_path, datasets: list[tuple[str, str, str]], extra: str = "") -> Catalog:
    body = '[[collection]]\nname = "c"\ndatasets = [%s]\n' % ", ".join(f'"{n}"' for n, _, _ in datasets)
    for name, kind, path in datasets:
        body += f'\n[[dataset]]\nname = "{name}"\nkind = "{kind}"\npath = "{path}"\n'
    (tmp_path / "sources.toml").write_text(body + extra, encoding="utf-8")
    return Catalog(load_manifest(tmp_path / "sources.toml"), providers=TABLES)


def _audit_rows(n: int) -> list[dict]:
    """Mostly good rows; every 1000th breaks one rule, and every 997th repeats an earlier id."""
    rows = []
    for i in range(n):
        row = {"judge_record_id": f"r{i:06d}", "target_language": "de", "unit": "answer",
               "score": float(i % 101), "source_text_sha256": "AB" if i % 5 == 0 else "ab"}
        if i % 1000 == 1:
            row["score"] = 150.0
        elif i % 1000 == 2:
            row["target_language"] = None
        elif i % 997 == 3 and i > 997:
            row["judge_record_id"] = f"r{i - 997:06d}"
        rows.append(row)
    return rows


def _expected(rows: list[dict]) -> dict[int, str]:
    """1-based row → reason, by the rules the rows above break (a repeat of a bad row's id stays)."""
    out, seen = {}, set()
    for n, r in enumerate(rows, start=1):
        if r["score"] > 100:
            out[n] = "score outside 0–100"
        elif r["target_language"] is None:
            out[n] = "missing target_language"
        elif r["judge_record_id"] in seen:
            out[n] = "duplicate judge_record_id"
        else:
            seen.add(r["judge_record_id"])
    return out


def test_a_parquet_audit_lists_every_excluded_row_and_writes_the_rest_sorted(tmp_path):
    rows = _audit_rows(ROWS)
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "a.parquet", row_group_size=9_000)
    cat = _catalog(tmp_path, [("a", "judge_audit", "a.parquet")])
    d = cat.dataset("a")
    assert d.ok, d.error
    expected = _expected(rows)
    assert (d.report["rows_loaded"], d.report["rows_used"]) == (ROWS, ROWS - len(expected))
    ledger = cat.store("c").execute_raw("SELECT file, row, reason FROM ledger ORDER BY row")
    assert ledger == [("a.parquet", n, reason) for n, reason in sorted(expected.items())]
    excluded = pq.read_table(d.path("excluded")).to_pylist()
    assert [(r["_row"], r["reason"]) for r in excluded] == sorted(expected.items())
    assert all(r["judge_record_id"] == rows[r["_row"] - 1]["judge_record_id"] for r in excluded)
    clean = pq.read_table(d.path("clean"), columns=["_row", "score", "judge_record_id"]).to_pylist()
    assert {r["_row"] for r in clean} == set(range(1, ROWS + 1)) - set(expected)
    assert [(r["score"], r["judge_record_id"]) for r in clean] == sorted(
        (r["score"], r["judge_record_id"]) for r in clean)
    # Digests are normalised on the used rows only, and counted as such.
    used_upper = sum(1 for n, r in enumerate(rows, 1) if n not in expected and r["source_text_sha256"] == "AB")
    assert d.report["digests_normalised"] == {"source_text_sha256": used_upper}


def test_a_parquet_dataset_is_read_where_it_is_checked_not_copied(tmp_path):
    pq.write_table(pa.Table.from_pylist(_audit_rows(10)), tmp_path / "a.parquet")
    con = duckdb.connect()
    readers.read_raw(con, ResolvedFiles(tmp_path, [tmp_path / "a.parquet"], "parquet"), "a")
    views = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    assert "raw" in views
    assert con.execute("SELECT count(*) FROM duckdb_tables()").fetchone()[0] == 0
    assert con.execute("SELECT min(_row), max(_row), count(DISTINCT _file) FROM raw").fetchone() == (1, 10, 1)


def test_a_snapshot_keeps_file_order_when_rows_are_excluded(tmp_path):
    units = ["answer", "question", "paragraph"]
    table = pa.table({"instance_id": [f"i{i}" for i in range(ROWS)],
                      "target_language": ["th"] * ROWS,
                      "unit": [units[i % 3] for i in range(ROWS)],
                      "source_text": [f"s{i}" for i in range(ROWS)],
                      "candidate_text": [f"c{i}" for i in range(ROWS)]})
    pq.write_table(table, tmp_path / "s.parquet", row_group_size=7_000)
    cat = _catalog(tmp_path, [("s", "source_snapshot", "s.parquet")],
                   '[[dataset.exclude]]\ncolumn = "unit"\nvalue = "question"\nreason = "no questions"\n')
    d = cat.dataset("s")
    assert d.ok, d.error
    kept = [n for n in range(1, ROWS + 1) if (n - 1) % 3 != 1]
    clean = pq.read_table(d.path("clean"), columns=["_row", "source_text"]).to_pylist()
    assert [r["_row"] for r in clean] == kept  # in file order, without a sort
    assert all(r["source_text"] == f"s{r['_row'] - 1}" for r in clean)
    assert d.report["reasons"] == {"no questions": ROWS - len(kept)}


def test_repeated_keys_across_parquet_files_keep_the_first_and_file_order(tmp_path):
    """calibration_items: not sorted by score, so after dropping repeats (an anti-join) the used
    rows are put back in file order."""
    def items(start, stop):
        return pa.table({"key": [f"k{i % 50_000}" for i in range(start, stop)],
                         "human_1_verdict": ["match"] * (stop - start),
                         "human_2_verdict": ["match"] * (stop - start),
                         "human_3_verdict": ["no_match"] * (stop - start)})
    (tmp_path / "items").mkdir()
    pq.write_table(items(0, 40_000), tmp_path / "items" / "a.parquet", row_group_size=5_000)
    pq.write_table(items(40_000, 60_000), tmp_path / "items" / "b.parquet", row_group_size=5_000)
    cat = _catalog(tmp_path, [("i", "calibration_items", "items")])
    d = cat.dataset("i")
    assert d.ok, d.error
    clean = pq.read_table(d.path("clean"), columns=["_file", "_row", "key"]).to_pylist()
    assert [(r["_file"], r["_row"]) for r in clean] == \
        [("a.parquet", n) for n in range(1, 40_001)] + [("b.parquet", n) for n in range(1, 10_001)]
    assert d.report["reasons"] == {"duplicate key": 10_000}
    ledger = cat.store("c").execute_raw("SELECT file, min(row), max(row), count(*) FROM ledger GROUP BY 1")
    assert ledger == [("b.parquet", 10_001, 20_000, 10_000)]


def test_a_parquet_file_that_breaks_mid_way_is_named(tmp_path):
    """The footer reads (the view is made), a page further in does not: the pass that reads it
    reports the file, as reading it whole would have."""
    rows = [{"judge_record_id": f"r{i}", "target_language": "de", "unit": "answer",
             "score": float(i % 100), "judge_explanation": f"because {i} " * 20} for i in range(60_000)]
    path = tmp_path / "a.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=20_000, compression="zstd")
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 4000] = bytes((b * 7 + 13) % 256 for b in data[middle:middle + 4000])
    path.write_bytes(bytes(data))
    d = _catalog(tmp_path, [("a", "judge_audit", "a.parquet")]).dataset("a")
    assert not d.ok
    assert d.error.startswith("dataset a, file a.parquet: cannot read parquet: ")


def test_a_nested_snapshot_unit_excluded_by_the_manifest_keeps_its_siblings(tmp_path):
    """A nested instance's units share its lineage (_file, _row): an exclusion of one unit must
    not take the others with it."""
    record = {"id": "h1", "question": "Where?", "answer": "Paris",
              "context": [["A", ["One.", "Two."]], ["B", ["Three."]]],
              "translations": {"th": {"question": "ที่ไหน", "answer": "ปารีส",
                                      "context": [["A", ["หนึ่ง"]], ["B", ["สาม"]]]}}}
    (tmp_path / "n.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    cat = _catalog(tmp_path, [("s", "source_snapshot", "n.jsonl")],
                   'form = "nested"\n[[dataset.exclude]]\ncolumn = "unit"\nvalue = "answer"\n')
    d = cat.dataset("s")
    assert d.ok, d.error
    assert (d.report["rows_loaded"], d.report["rows_used"], d.report["rows_excluded"]) == (4, 3, 1)
    units = pq.read_table(d.path("clean"), columns=["unit"]).column("unit").to_pylist()
    assert units == ["question", "paragraph", "paragraph"]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_human_ratings_without_a_value_or_repeated_are_listed_once(tmp_path, fmt):
    rows = [{"rater": "a", "item_id": "1", "score": 3.0}, {"rater": "a", "item_id": "1", "score": 4.0},
            {"rater": "b", "item_id": "1", "score": None}, {"rater": "b", "item_id": "1", "score": 2.0},
            {"rater": None, "item_id": "2", "score": 1.0}]
    if fmt == "jsonl":
        (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    cat = _catalog(tmp_path, [("r", "human_ratings", f"r.{fmt}")])
    d = cat.dataset("r")
    assert d.ok, d.error
    ledger = cat.store("c").execute_raw("SELECT row, reason FROM ledger ORDER BY row")
    assert ledger == [(2, "duplicate rater + item"), (3, "no rating: score all empty"),
                      (5, "missing rater")]
    assert d.report["rows_used"] == 2
