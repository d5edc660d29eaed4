"""Hardening, part 2 (issue #13): each test builds the hostile input the red-team run used."""

import subprocess
import sys
from pathlib import Path

import pytest
from textutil import plain

ROOT = Path(__file__).resolve().parent.parent
ADVERSARIAL_DECISIONS = [
    "translation 1 is " + "a bit " * 1700 + "zzz",
    "Translation 1 is " + "a " * 5000 + "zzz",
    "translation 2 is " + "slightly a bit far " * 530 + "zzz",
    "scores: " + "1" * 10_000,
    "translation 1: " + "9" * 10_000 + " translation",
]


@pytest.mark.parametrize("text", ADVERSARIAL_DECISIONS, ids=range(len(ADVERSARIAL_DECISIONS)))
def test_ranking_parser_is_linear_on_adversarial_text(text):
    """Catastrophic backtracking held the GIL for minutes; a subprocess turns such a hang into a
    failure (the 120 s bound is a hang guard, not a speed target: speed is make bench's)."""
    from judgescope.ranking import decisions as ranking

    assert len(text) >= 10_000
    code = ("import sys; from judgescope.ranking import decisions as ranking; t = sys.stdin.read(); "
            "print(repr((ranking.parse_ranking(t), ranking.parse_scores(t))))")
    done = subprocess.run([sys.executable, "-c", code], input=text, text=True, cwd=ROOT,
                          timeout=120, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    # The answer is the parser's answer on the same text cut short (no backtracking-dependent result).
    short = text[:40] + text[-40:]
    assert done.stdout.strip() == repr((ranking.parse_ranking(short), ranking.parse_scores(short)))


def test_ranking_parser_still_reads_a_bit_better():
    from judgescope.ranking import decisions as ranking

    assert ranking.parse_ranking("Translation 2 is a bit better than translation 1.") == 2
    assert ranking.parse_ranking("x " * 30_000 + "I prefer translation 1") == 1


# ---------------------------------------------------------------- helpers for dataset tests
import json  # noqa: E402
import os  # noqa: E402

from judgescope.sources.catalog import Catalog  # noqa: E402
from judgescope.wiring import TABLES  # noqa: E402
from judgescope.ingest.manifest import load_manifest  # noqa: E402

AUDIT = [{"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment", "score": 40 + i}
         for i in range(6)]
SECRET = '{"aws_secret_access_key": "AKIA-NOT-A-REAL-KEY"}'


def jsonl(path: Path, rows, extra=()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([json.dumps(r) for r in rows] + list(extra)) + "\n", encoding="utf-8")
    return path


def load(folder: Path, path: str, kind: str = "judge_audit", extra: str = ""):
    body = (f'[[collection]]\nname = "c"\ndatasets = ["d"]\n[[dataset]]\nname = "d"\n'
            f'kind = "{kind}"\npath = "{path}"\n{extra}')
    manifest = folder / "sources.toml"
    manifest.write_text(body, encoding="utf-8")
    return Catalog(load_manifest(manifest), providers=TABLES).dataset("d")


def _outside_secret(tmp_path) -> Path:
    secret = tmp_path / "outside" / "secret.jsonl"
    secret.parent.mkdir()
    secret.write_text(SECRET + "\nnot json\n", encoding="utf-8")
    return secret


def _card(folder: Path, pattern: str) -> None:
    jsonl(folder / "data" / "a.jsonl", AUDIT)
    (folder / "README.md").write_text(
        f"---\nconfigs:\n- config_name: c\n  data_files:\n  - split: s\n    path: {json.dumps(pattern)}\n---\n")


@pytest.mark.parametrize("pattern", ["../../outside/secret.jsonl", "data/../../../outside/*.jsonl",
                                     "ABSOLUTE"])
def test_card_patterns_may_not_leave_the_folder(tmp_path, pattern):
    secret = _outside_secret(tmp_path)
    home = tmp_path / "m"
    _card(home / "repo", str(secret) if pattern == "ABSOLUTE" else pattern)
    d = load(home, "repo")
    assert not d.ok
    assert "leaves the dataset folder" in d.error and "README.md" in d.error
    assert "AKIA" not in d.error  # nothing of the file was read


def test_symlink_to_a_file_outside_is_refused(tmp_path):
    secret = _outside_secret(tmp_path)
    home = tmp_path / "m"
    jsonl(home / "repo" / "data" / "a.jsonl", AUDIT)
    os.symlink(secret, home / "repo" / "data" / "b.jsonl")
    d = load(home, "repo")
    assert not d.ok and "outside the dataset folder" in d.error and "data/b.jsonl" in d.error


def test_hub_cache_snapshot_may_read_its_blobs_only(tmp_path, monkeypatch):
    from test_hub import COMMIT, REPO, lay_out_cache

    cache = lay_out_cache(tmp_path / "hf")
    snap = cache / ("datasets--" + REPO.replace("/", "--")) / "snapshots" / COMMIT
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    body = ('[[collection]]\nname = "c"\ndatasets = ["hub"]\n[[dataset]]\nname = "hub"\n'
            f'kind = "judge_audit"\nhub = "{REPO}"\nrevision = "{COMMIT}"\nconfig = "judge"\nsplit = "audit"\n')
    (tmp_path / "s.toml").write_text(body)
    assert Catalog(load_manifest(tmp_path / "s.toml"), providers=TABLES).dataset("hub").ok
    secret = _outside_secret(tmp_path)
    (snap / "data" / "audit.parquet").unlink()
    os.symlink(secret, snap / "data" / "audit.parquet")
    (tmp_path / "t.toml").write_text(body)
    d = Catalog(load_manifest(tmp_path / "t.toml"), providers=TABLES).dataset("hub")
    assert not d.ok and "outside the dataset folder" in d.error


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("name", ["_reason", "_column", "_row", "_file", "file_row_number"])
def test_data_columns_may_not_take_over_validation(tmp_path, name, fmt):
    """A data `_reason` made a score of 500 usable and excluded valid rows with its own text."""
    import pandas as pd

    rows = [dict(r, **{name: "chosen by the data"}) for r in AUDIT]
    rows[0]["score"] = 500
    frame = pd.DataFrame(rows)
    path = tmp_path / f"a.{fmt}"
    {"jsonl": lambda: jsonl(path, rows), "csv": lambda: frame.to_csv(path, index=False),
     "parquet": lambda: frame.to_parquet(path, index=False)}[fmt]()
    d = load(tmp_path, path.name)
    assert not d.ok
    assert "reserved" in d.error and f"column {name}" in d.error and "dataset d" in d.error


def _ledger(d) -> list[tuple]:
    import pandas as pd

    frame = pd.read_parquet(d.path("ledger"))
    return sorted((int(r.row), r.reason, r.column) for r in frame.itertuples())


def _clean(d):
    import pandas as pd

    return pd.read_parquet(d.path("clean"))


def test_one_integer_among_string_ids_keeps_the_strings(tmp_path):
    """#13.3: one integer paragraph_id made every paragraph_id JSON-quoted ("p1" with quotes)."""
    rows = [dict(r, paragraph_id=f"p{i}") for i, r in enumerate(AUDIT)]
    rows[2]["paragraph_id"] = 7
    d = load(tmp_path, jsonl(tmp_path / "a.jsonl", rows).name)
    assert d.ok, d.error
    assert sorted(_clean(d).paragraph_id) == ["p0", "p1", "p3", "p4", "p5"]
    assert _ledger(d) == [(3, "paragraph_id is a JSON number among texts", "paragraph_id")]
    assert d.report["rows_loaded"] == 6


def test_extra_column_of_mixed_types_keeps_texts_unquoted(tmp_path):
    rows = [dict(r, note=f"n{i}") for i, r in enumerate(AUDIT)]
    rows[0]["note"] = {"k": 1}
    d = load(tmp_path, jsonl(tmp_path / "a.jsonl", rows).name)
    notes = dict(zip(_clean(d).judge_record_id, _clean(d).note))
    assert notes["r1"] == "n1" and notes["r0"] == '{"k": 1}'


JSONL_LINES = {  # hostile line → the reason its line is listed with; the other lines are used
    "huge_int": ('{"judge_record_id": "h", "target_language": "de", "unit": "s", "score": '
                 + "9" * 30 + "}", "score is an integer beyond 64 bits"),
    "deep": ('{"judge_record_id": "h", "x": ' + "[" * 50_000 + "]" * 50_000 + "}",
             "nested deeper than 64 levels"),
    "deep_parsable": ('{"judge_record_id": "h", "x": ' + "[" * 200 + "]" * 200 + "}",
                      "nested deeper than 64 levels"),
    "not_object": ("[1, 2, 3]", "line is not a JSON object"),
}


@pytest.mark.parametrize("case", JSONL_LINES)
def test_one_bad_jsonl_line_costs_that_line_only(tmp_path, case):
    line, reason = JSONL_LINES[case]
    path = jsonl(tmp_path / "a.jsonl", AUDIT[:3], [line] + [json.dumps(r) for r in AUDIT[3:]])
    d = load(tmp_path, path.name)
    assert d.ok, d.error
    assert d.report["rows_used"] == 6 and d.report["rows_loaded"] == 7
    assert [(r, why) for r, why, _ in _ledger(d)] == [(4, reason)]


def test_latin1_bytes_are_listed_not_replaced(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", AUDIT)
    bad = json.dumps(dict(AUDIT[0], judge_record_id="caf\u00e9"), ensure_ascii=False)
    path.write_bytes(path.read_bytes() + bad.encode("latin-1") + b"\n")
    d = load(tmp_path, path.name)
    assert d.ok and "\ufffd" not in "".join(_clean(d).judge_record_id)
    assert [(r, why) for r, why, _ in _ledger(d)] == [(7, "line is not valid UTF-8")]


def test_bom_costs_no_row(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", AUDIT)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    d = load(tmp_path, path.name)
    assert (d.report["rows_used"], d.report["rows_excluded"]) == (6, 0)


def test_bare_cr_in_jsonl_splits_no_record(tmp_path):
    """A raw CR inside a JSON string: one record, listed once (a raw control is not JSON)."""
    path = jsonl(tmp_path / "a.jsonl", AUDIT)
    line = json.dumps(dict(AUDIT[0], judge_record_id="x", judge_explanation="a\rb")).replace("\\r", "\r")
    path.write_bytes(path.read_bytes() + line.encode() + b"\n")
    d = load(tmp_path, path.name)
    assert (d.report["rows_loaded"], d.report["rows_used"]) == (7, 6)
    assert [(r, why) for r, why, _ in _ledger(d)] == [(7, "invalid JSON line")]


CSV_HEADER = b"judge_record_id,target_language,unit,score\n"
CSV_ROWS = {  # hostile row → its reason; the other rows are used
    "latin1": (b"x,d\xe9,s,5\n", "row is not valid UTF-8"),
    "ragged_long": (b"x,de,s,5,9\n", "row has 5 fields, the header 4"),
    "ragged_short": (b"x,de\n", "row has 2 fields, the header 4"),
    "bare_cr": (b"x,d\re,s,5\n", "malformed CSV row (column 'target_language'): new-line character "
                "seen in unquoted field"),
}


@pytest.mark.parametrize("case", CSV_ROWS)
def test_one_bad_csv_row_costs_that_row_only(tmp_path, case):
    row, reason = CSV_ROWS[case]
    good = [f"r{i},de,s,{40 + i}\n".encode() for i in range(4)]
    (tmp_path / "a.csv").write_bytes(b"\xef\xbb\xbf" + CSV_HEADER + b"".join(good[:2]) + row
                                     + b"".join(good[2:]))
    d = load(tmp_path, "a.csv")
    assert d.ok, d.error
    assert (d.report["rows_loaded"], d.report["rows_used"]) == (5, 4)
    assert [(r, why) for r, why, _ in _ledger(d)] == [(4, reason)]
    assert sorted(_clean(d).judge_record_id) == ["r0", "r1", "r2", "r3"]
    assert list(_clean(d)._row) == [2, 3, 5, 6] or sorted(_clean(d)._row) == [2, 3, 5, 6]


def test_quoted_multiline_csv_field_and_crlf_file(tmp_path):
    (tmp_path / "a.csv").write_bytes(CSV_HEADER.replace(b"\n", b"\r\n") +
                                     b'r0,de,s,5\r\nr1,de,"two\r\nlines",6\r\nr2,de,s,7\r\n')
    d = load(tmp_path, "a.csv")
    assert d.report["rows_used"] == 3 and sorted(_clean(d).unit) == ["s", "s", "two\nlines"]


# ---------------------------------------------------------------- exports (#13.5, #13.6, #13.10)
FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx",
            "\rleading", "mid\rdle", "two\nlines", "plain", "a,b", 'q"uote', "", None, "=1",
            "emoji 😀", "\r\n"]


def test_csv_export_neutralises_formulas_and_quotes_cr(tmp_path):
    import csv
    import io

    import pandas as pd

    from judgescope.web import export

    frame = pd.DataFrame({"id": range(len(FORMULAS)), "text": FORMULAS})
    data = export.csv_bytes(frame)
    back = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert len(back) == len(FORMULAS) + 1  # 16 rows read back as 16, not 28
    texts = [r[1] for r in back[1:]]
    for cell in texts:
        assert not cell.startswith(export.FORMULA_START), cell
    assert texts[0] == "'=HYPERLINK(\"http://x\",\"y\")" and texts[6] == "mid\rdle"
    assert texts[8] == "plain" and texts[7] == "two\nlines"


def test_export_is_capped_and_says_so_in_its_provenance(monkeypatch):
    import pandas as pd

    from judgescope.web import export

    monkeypatch.setenv("JUDGESCOPE_EXPORT_MAX_ROWS", "100")
    shown, note = export.capped(pd.DataFrame({"x": range(250)}))
    assert len(shown) == 100 and note["truncated"] and note["limit"] == 100
    prov = json.loads(export.provenance_json({"rows": 250}, note))
    assert prov["rows"] == 100 and prov["export_limit"]["truncated"] is True
    assert "apostrophe" in prov["csv_formula_guard"]
    _, note = export.capped(pd.DataFrame({"x": range(500)}).head(50), limit=50, available=900)
    assert note == {"rows": 50, "rows_available": 900, "limit": 50, "truncated": True}


def test_export_streams_a_named_query_in_batches(tmp_path, monkeypatch):
    """The export is written batch by batch from DuckDB and capped in SQL, never a whole frame."""
    import pandas as pd
    import pyarrow.parquet as pq

    from judgescope.duck import db
    from judgescope.web import export

    monkeypatch.setenv("JUDGESCOPE_EXPORT_MAX_ROWS", "120000")
    from judgescope.schema import SCHEMAS

    n = 300_000
    cols = {c.name: [None] * n for c in SCHEMAS["judge_audit"].columns}
    cols.update(judge_record_id=[f"r{i}" for i in range(n)], target_language=["de"] * n,
                unit=["s"] * n, score=[float(i % 100) for i in range(n)], judge_explanation=["=1+1"] * n,
                score_origin=["x"] * n, run_group=["g"] * n)
    pq.write_table(pd.DataFrame(cols).pipe(__import__("pyarrow").Table.from_pandas), tmp_path / "audit.parquet")
    store = db.Store({"audit": [tmp_path / "audit.parquet"]})
    filters = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
               "max_score": 100.0, "q": ""}
    frame = export.capped_frame(store, "audit_review_export", filters)
    assert len(frame) == 120_001  # one more than the cap says "there is more"
    sql = export.capped_sql(db.query_text("audit_review_export"))
    data, n = export.stream_query(store.con.cursor, sql, {**filters, "export_limit": 120_000}, "csv")
    assert n == 120_000 and data.count(b"\r\n") == 120_001 and b",'=1+1," in data
    data, n = export.stream_query(store.con.cursor, sql, {**filters, "export_limit": 120_000}, "parquet")
    back = pd.read_parquet(__import__("io").BytesIO(data))
    assert n == len(back) == 120_000 and back.judge_explanation.iloc[0] == "=1+1"
    assert not list(Path(__import__("tempfile").gettempdir()).glob("tmp*.csv"))


def test_review_export_is_capped_and_named_on_the_page(tmp_path, monkeypatch):
    """Review's export reads at most the cap (+1) rows and says the export is truncated."""
    from test_audit_pages import fixture_manifest, open_page  # noqa: F401

    fixture_manifest.__wrapped__(tmp_path, monkeypatch)
    monkeypatch.setenv("JUDGESCOPE_EXPORT_MAX_ROWS", "3")
    at = open_page("pages/review.py", "fx")
    at.toggle(key="prepare_export").set_value(True).run()
    assert not at.exception
    assert any("first 3 rows" in w.value and "JUDGESCOPE_EXPORT_MAX_ROWS" in w.value for w in at.warning)


# ---------------------------------------------------------------- wrong or silent values (#13.9)
def test_booleans_separators_and_blanks_are_listed(tmp_path):
    rows = [dict(r) for r in AUDIT]
    (tmp_path / "a.csv").write_text(
        "judge_record_id,target_language,unit,score\n" + "".join(
            f"{r['judge_record_id']},{r['target_language']},{r['unit']},{r['score']}\n" for r in rows)
        + "u1,de,s,1_5\n u2 ,de,s,1__0\n   ,de,s,5\nu3,  ,s,5\nu4,de,\t,5\nu5,de,s,0x10\n", encoding="utf-8")
    d = load(tmp_path, "a.csv")
    got = [(r, why) for r, why, _ in _ledger(d)]
    assert got == [(8, "score is not a number"), (9, "score is not a number"),
                   (10, "judge_record_id is blank"), (11, "target_language is blank"),
                   (12, "unit is blank"), (13, "score is not a number")]
    assert d.report["rows_used"] == 6


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_boolean_scores_are_not_one_and_zero(tmp_path, fmt):
    import pandas as pd

    rows = [dict(r, score=i % 2 == 0) for i, r in enumerate(AUDIT)]
    path = tmp_path / f"a.{fmt}"
    jsonl(path, rows) if fmt == "jsonl" else pd.DataFrame(rows).to_parquet(path)
    d = load(tmp_path, path.name)
    assert d.report["rows_used"] == 0
    assert d.report["reasons"] == {"score is not a number": 6}


def test_unparsable_ranking_lists_and_nonfinite_human_scores_are_listed(tmp_path):
    good = {"src_text": "s", "tgt_texts": ["a", "b"], "human_scores": [1, 2]}
    rows = [good, dict(good, tgt_texts="not a list"), dict(good, tgt_texts={"a": 1}),
            dict(good, human_scores="[1, oops]"), dict(good, human_scores=7), good]
    path = jsonl(tmp_path / "p.jsonl", rows, [json.dumps(good).replace("[1, 2]", "[NaN, 2]"),
                                               json.dumps(good).replace("[1, 2]", "[1, Infinity]")])
    d = load(tmp_path, path.name, kind="pairwise_ranking")
    assert d.ok, d.error
    got = [(r, why) for r, why, _ in _ledger(d)]
    assert got == [(2, "tgt_texts is not a list of 2 texts"), (3, "tgt_texts is not a list of 2 texts"),
                   (4, "human_scores is not a list of 2 numbers"), (5, "human_scores is not a list of 2 numbers"),
                   (7, "human_scores has a value that is not a finite number"),
                   (8, "human_scores has a value that is not a finite number")]


def test_nonfinite_human_scores_in_parquet_lists_are_listed(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    scores = pa.array([[1.0, 2.0], [float("nan"), 2.0]], type=pa.list_(pa.float64()), from_pandas=False)
    pq.write_table(pa.table({"src_text": ["s", "s"], "tgt_texts": [["a", "b"], ["a", "b"]],
                             "human_scores": scores}), tmp_path / "p.parquet")
    d = load(tmp_path, "p.parquet", kind="pairwise_ranking")
    assert [why for _, why, _ in _ledger(d)] == ["human_scores has a value that is not a finite number"]


# ---------------------------------------------------------------- #14.4, #14.10, #14.11
def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


def test_stored_digests_are_normalised_once_and_compared_alike_everywhere(tmp_path):
    from judgescope.audit import rows as audit_rows
    from judgescope.integrity import hashes as verify

    snap = [{"instance_id": f"i{i}", "source_text": f"src {i}", "candidate_text": "same" if i == 0 else f"c {i}"}
            for i in range(3)]
    audit = [dict(AUDIT[i], instance_id=f"i{i}",
                  source_text_sha256=f"  {_digest(s['source_text']).upper()}\n",
                  candidate_text_sha256=_digest(s["candidate_text"]).upper() if i else _digest("same"))
             for i, s in enumerate(snap)]
    audit[0]["source_text_sha256"] = _digest("same").upper()  # an exact copy, written in two cases
    jsonl(tmp_path / "a.jsonl", audit)
    jsonl(tmp_path / "s.jsonl", snap)
    (tmp_path / "m.toml").write_text(
        '[[collection]]\nname = "c"\ndatasets = ["a", "s"]\njoin_key = ["instance_id"]\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\npath = "a.jsonl"\n'
        '[[dataset]]\nname = "s"\nkind = "source_snapshot"\npath = "s.jsonl"\n')
    cat = Catalog(load_manifest(tmp_path / "m.toml"), providers=TABLES)
    a = cat.dataset("a")
    assert a.report["digests_normalised"] == {"source_text_sha256": 3, "candidate_text_sha256": 2}
    assert set(_clean(a).source_text_sha256) <= {_digest(s["source_text"]) for s in snap} | {_digest("same")}
    store = cat.store("c")
    summary = verify.summarise(store.run)
    assert summary.counts["verified"] == 2  # rows 1, 2 (row 0's source digest is of "same")
    record = store.run("audit_record", record_id="r1").iloc[0]
    texts = audit_rows.snapshot_texts(store.run, [record["judge_record_id"]])
    assert texts["class"].tolist() == ["verified"]  # Review reads Integrity's classification
    copies = store.run("audit_exact_copy_counts")
    assert int(copies.exact_copies.sum()) == 1


def test_dataset_cache_key_hashes_the_code_that_builds_it(tmp_path, monkeypatch):
    from judgescope.sources import catalog

    hashed = {p.relative_to(catalog._PACKAGE_ROOT).as_posix() for p in catalog.build_modules()}
    assert {"judgescope/ingest/validate.py", "judgescope/ingest/readers.py", "judgescope/ingest/snapshot.py",
            "judgescope/ingest/importers/inspect_log.py", "judgescope/duck/cache.py"} <= hashed
    jsonl(tmp_path / "a.jsonl", AUDIT)
    first = load(tmp_path, "a.jsonl").folder
    monkeypatch.setattr(catalog, "build_code_sha256", lambda: "changed validate.py")
    assert load(tmp_path, "a.jsonl").folder != first


def test_exclusion_column_with_a_quote_is_bound_and_its_value_listed(tmp_path):
    rows = [dict(r, **{"it's": "bad" if i == 1 else "ok", "o'k": f"v{i}"}) for i, r in enumerate(AUDIT)]
    rows[2]["score"] = "high"
    jsonl(tmp_path / "a.jsonl", rows)
    d = load(tmp_path, "a.jsonl", extra="[[dataset.exclude]]\ncolumn = \"it's\"\nvalue = \"bad\"\n"
                                         "reason = \"it's a bad run\"\n")
    import pandas as pd

    ledger = pd.read_parquet(d.path("ledger")).sort_values("row")
    assert list(ledger.reason) == ["it's a bad run", "score is not a number"]
    assert list(ledger.column) == ["it's", "score"] and list(ledger.value) == ["bad", "high"]


def test_unreadable_hub_cache_is_named_not_downloaded_over(monkeypatch):
    """#14.9: any OSError (a permission error in the cache) fell back to a network download."""
    import huggingface_hub

    from judgescope.remote import hub
    from judgescope.ingest.manifest import SourceError

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", "/root/.cache/huggingface/secret")

    def download(*args, **kwargs):
        raise AssertionError("no download may start")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", denied)
    monkeypatch.setattr(hub, "_download", download)
    with pytest.raises(SourceError, match="cannot read the local Hugging Face cache") as err:
        hub.fetch("owner/name", "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840", dataset="d")
    assert "/root" not in str(err.value)


# ---------------------------------------------------------------- manifest mistakes (#13.13, #13.15, #13.16)
def _cli(tmp_path, manifest: str, *args) -> subprocess.CompletedProcess:
    (tmp_path / "s.toml").write_text(manifest, encoding="utf-8")
    env = dict(os.environ, JUDGESCOPE_SOURCES=str(tmp_path / "s.toml"),
               JUDGESCOPE_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "judgescope", "validate", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


COLL = '[[collection]]\nname = "c"\ndatasets = ["d"]\n'
MANIFEST_MISTAKES = {  # manifest → words the named problem holds
    "no_revision": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\nhub = "o/n"\n', "not pinned"),
    "revision_newline": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\nhub = "o/n"\n'
                         'revision = "0f9cd568fabd7f7ad3b3d9a72e31ae8aeb936840\\n"\n', "not pinned"),
    "int_revision": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\nhub = "o/n"\nrevision = 7\n',
                     "must be a string"),
    "int_path": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = 5\n', "must be a string"),
    "no_collections": ('[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n', "no [[collection]]"),
    "dataset_not_table": ("dataset = 5\n" + COLL, "must be [[dataset]] tables"),
    "bad_checksums": ('[integrity]\nchecksums = "x.json"\n' + COLL +
                      '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n', "integrity.checksums"),
    "bad_exclude": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n'
                    '[[dataset.exclude]]\nvalue = 3\n', "needs column"),
    "unsafe_name": ('[[collection]]\nname = "c"\ndatasets = ["/../../x"]\n[[dataset]]\nname = "/../../x"\n'
                    'kind = "judge_audit"\npath = "a.jsonl"\n', "not a safe name"),
    "duplicate_dataset": (COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n' * 2,
                          "defined twice"),
    "duplicate_collection": (COLL * 2 + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n',
                             "defined twice"),
    "collection_without_name": ('[[collection]]\ndatasets = ["d"]\n' + COLL +
                                '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n', "safe name"),
    "bad_toml": ("x = [\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", MANIFEST_MISTAKES)
def test_manifest_mistakes_are_named_problems_and_exit_2(tmp_path, case):
    manifest, words = MANIFEST_MISTAKES[case]
    jsonl(tmp_path / "a.jsonl", AUDIT)
    done = _cli(tmp_path, manifest)
    assert done.returncode == 2, done.stdout + done.stderr
    assert words in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert str(tmp_path) not in done.stdout + done.stderr
    if case != "bad_toml":  # the manifest still loads; the pages read its problems and specs
        m = load_manifest(tmp_path / "s.toml")
        named = m.problems + [s.problem or "" for s in m.datasets.values()]
        assert any(words in p for p in named)
        assert all(isinstance(s.revision, (str, type(None))) for s in m.datasets.values())
        assert all(s.revision is not None for s in m.datasets.values() if s.hub)
    assert not (tmp_path.parent / "x").exists()


def test_header_only_file_is_unusable_and_the_cli_says_so(tmp_path):
    (tmp_path / "a.csv").write_text("judge_record_id,target_language,unit,score\n")
    done = _cli(tmp_path, COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.csv"\n')
    assert done.returncode == 2 and "no rows" in done.stdout


def test_cli_escapes_terminal_controls_from_data(tmp_path):
    rows = [dict(r) for r in AUDIT]
    rows[0]["score"] = "\x1b[2J\x1b]0;pwned\x07\x9b31m"
    jsonl(tmp_path / "a.jsonl", rows)
    done = _cli(tmp_path, COLL + '[[dataset]]\nname = "d"\nkind = "judge_audit"\npath = "a.jsonl"\n'
                '[[dataset.exclude]]\ncolumn = "judge_record_id"\nvalue = "r1"\nreason = "bad \\u001b[31m run"\n')
    assert done.returncode == 1
    assert not any(c in done.stdout for c in "\x1b\x07\x9b"), repr(done.stdout)
    assert "\\u001b" in done.stdout


def test_json_file_holding_an_array_is_read(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(AUDIT + [[1], {"judge_record_id": "x"}], indent=2))
    d = load(tmp_path, "a.json")
    assert d.ok, d.error
    assert d.report["rows_used"] == 6
    assert [(r, why) for r, why, _ in _ledger(d)] == [(7, "line is not a JSON object"),
                                                      (8, "missing target_language")]


# ---------------------------------------------------------------- crashes (#13.11)
def test_audit_with_no_usable_row_gives_a_note_not_a_crash(tmp_path):
    from judgescope.audit import summary as audit
    from judgescope.audit import score_charts

    jsonl(tmp_path / "a.jsonl", [dict(r, score=500) for r in AUDIT])
    d = load(tmp_path, "a.jsonl")
    assert d.ok and d.report["rows_used"] == 0
    run = Catalog(load_manifest(tmp_path / "sources.toml"), providers=TABLES).store("c").run
    for facet in ["none", *audit.available_facets(set())]:
        counts = audit.score_counts(run, facet)
        assert audit.no_rows(counts) == audit.NO_ROWS
        table = audit.distribution_table(counts, (50, 70, 90), facet != "none", 200, 1)
        assert audit.headline(table, (50, 70, 90)) == audit.NO_ROWS
        audit.spread_note(audit.tails_table(counts, 60))
        score_charts.mean_heatmap(audit.mean_matrix(counts), 50)
        score_charts.ecdf(audit.with_facet_labels(counts))


@pytest.mark.parametrize("depth", [5_000, 200_000])
def test_deeply_nested_annotations_do_not_recurse(depth):
    from judgescope.ranking import decisions as ranking
    from judgescope.ranking import tables as ranking_tables

    text = '{"a": ' + "[" * depth + "1" + "]" * depth + "}"
    pairs = ranking.flatten_annotations(text)
    assert [tuple(p) for p in pairs] == [("annotation", text)]  # kept whole, not recursed into
    value = {"a": 1}
    for _ in range(min(depth, 50_000)):
        value = {"k": value}
    assert ranking.flatten_annotations(value)[0][1].startswith("(nested deeper than")
    counts = ranking_tables.annotation_counts(__import__("pandas").Series([text, json.dumps({"x": [1]})]))
    # The too-deep text is kept whole under one key, the shallow one flattened; one row each.
    assert sorted(zip(counts.key, counts.rows)) == [("annotation", 1), ("x[1]", 1)]


def test_pairs_page_refuses_a_superscript_row():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "transevalnia"
    at.query_params["file"] = "data/with_human_ranking-train.parquet"
    at.query_params["row"] = "²"
    at.run()
    at.switch_page("pages/pairs.py").run()
    assert not at.exception, [e.value for e in at.exception]


# ---------------------------------------------------------------- data text stays text (#13.7)
LINKS = ["http://evil.example/login", "https://x.y/?a=b", "www.evil.example", "mail me at a@b.co",
         "HTTP://UPPER.EXAMPLE", "ftp://files.example", "![x](http://img.example/p.png)",
         "<http://angle.example>", "[t](javascript:alert(1))"]
# GFM autolink literals (after markdown unescaping): a scheme, www., or an e-mail address.
AUTOLINK = __import__("re").compile(r"(?i)(https?|ftp|mailto|javascript):|www\.|[\w.+-]@[\w-]")


@pytest.mark.parametrize("text", LINKS)
def test_md_literal_breaks_autolinks(text):
    import re

    from judgescope.text import md_literal

    shown = md_literal(text)
    unescaped = re.sub(r"\\(.)", r"\1", shown)  # what markdown's text holds after escapes
    assert not AUTOLINK.search(unescaped), unescaped
    assert unescaped.replace("\u2060", "").strip("\u2068\u2069") == text  # reads the same


def test_chart_text_is_escaped():
    import pandas as pd

    from judgescope.audit import score_charts

    evil = "<a href='http://x'>click</a><img src=x>%{meta:EVIL}"
    counts = pd.DataFrame({"unit": [evil, "s"], "target_language": [evil, "de"], "score": [10.0, 20.0],
                           "n": [1, 2]})
    figs = [score_charts.histogram(counts), score_charts.ecdf(counts),
            score_charts.mean_heatmap(pd.DataFrame({evil: [50.0]}, index=[evil]), 50),
            score_charts.diff_chart(pd.DataFrame({"unit": [evil], "diff": [1.0], "low": [0.0], "high": [2.0]}))]
    for fig in figs:
        text = json.loads(fig.to_json())  # plotly's JSON writes "<" as \u003c: decode first
        for trace in text["data"]:
            trace.pop("customdata", None)  # click payload: raw by design, never rendered
        flat = json.dumps(text, ensure_ascii=False)
        assert "<a " not in flat and "<img" not in flat and "%{meta:EVIL}" not in flat
        assert "&lt;a href" in flat


# ---------------------------------------------------------------- damaged caches (#13.12), paths (#13.14)
DAMAGE = {
    "truncated_clean": lambda f: (f / "clean.parquet").write_bytes((f / "clean.parquet").read_bytes()[:100]),
    "deleted_clean": lambda f: (f / "clean.parquet").unlink(),
    "broken_report": lambda f: (f / "report.json").write_text("{", encoding="utf-8"),
    "edited_report": lambda f: (f / "report.json").write_text(
        (f / "report.json").read_text().replace('"rows_used": 6', '"rows_used": 9')),
    "random_ledger": lambda f: (f / "ledger.parquet").write_bytes(os.urandom((f / "ledger.parquet").stat().st_size)),
    "no_seal": lambda f: (f / "entry.json").unlink(),
}


@pytest.mark.parametrize("case", DAMAGE)
def test_damaged_cache_entries_are_rebuilt_and_named(tmp_path, case):
    jsonl(tmp_path / "a.jsonl", AUDIT)
    d = load(tmp_path, "a.jsonl")
    assert d.ok and d.note is None
    DAMAGE[case](d.folder)
    cat = Catalog(load_manifest(tmp_path / "sources.toml"), providers=TABLES)
    again = cat.dataset("d")
    assert again.ok and again.report["rows_used"] == 6 and again.folder == d.folder
    assert any("damaged" in p and "rebuilt" in p for p in cat.manifest.problems), cat.manifest.problems
    assert str(tmp_path) not in " ".join(cat.manifest.problems)
    assert len(cat.store("c").run("ledger_count", datasets=[], reasons=[])) == 1


def test_damaged_derived_table_is_rebuilt(tmp_path, monkeypatch):
    from judgescope.audit.record_tables import audit_summary_views
    from judgescope.sources import catalog

    jsonl(tmp_path / "a.jsonl", AUDIT)
    d = load(tmp_path, "a.jsonl")
    notes: list[str] = []  # the asking catalog's own list (Catalog.rebuilt)
    views = audit_summary_views(d.path("clean"), notes)
    (path,) = views["audit_record_index"]
    path.write_bytes(path.read_bytes()[:50])
    assert notes == []
    views = audit_summary_views(d.path("clean"), notes)
    assert catalog.damage(path.parent) is None
    assert any("audit_record_index.parquet" in n and "rebuilt" in n for n in notes)


def test_start_sweeps_what_a_killed_process_left(tmp_path, monkeypatch):
    from judgescope.duck import cache

    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        left = [tmp_path / f".tmp-{dead}-audit-x1", tmp_path / f".spill-.tmp-{dead}-audit-x1",
                tmp_path / ".spill" / dead]
        kept = [tmp_path / f".tmp-{live.pid}-audit-x2", tmp_path / ".spill" / str(live.pid),
                tmp_path / "audit-0123"]
        for folder in left + kept:
            folder.mkdir(parents=True)
            (folder / "big.tmp").write_bytes(b"x" * 1000)
        assert sorted(cache.sweep()) == sorted(p.name for p in left)
        assert not any(p.exists() for p in left) and all(p.exists() for p in kept)
    finally:
        live.kill()
        live.wait()


def test_public_messages_hold_no_absolute_server_path(tmp_path):
    (tmp_path / "a.parquet").write_bytes(b"PAR1 this is not parquet PAR1")
    d = load(tmp_path, "a.parquet")
    assert not d.ok and "a.parquet" in d.error
    assert str(tmp_path) not in d.error and "/tmp" not in d.error, d.error


def test_a_50_mb_cell_has_a_bounded_prefix_with_its_size():
    from judgescope import bounded

    text = "é" * (25 * 2**20)  # 25 Mi characters, 50 MB as UTF-8
    p = bounded.prefix(text)
    assert len(p.shown) == bounded.SHOWN_CHARS and p.truncated
    assert p.utf8_bytes == 50 * 2**20 and "50.0 MB" in p.note() and "26,214,400" in p.note()
    short = bounded.prefix("short")
    assert short.shown == "short" and not short.truncated and short.note() == ""


def test_one_bad_nested_snapshot_instance_costs_that_instance_only(tmp_path):
    good = {"id": "a", "question": "Q?", "answer": "A", "context": [["T", ["One.", "Two."]]],
            "translations": {"th": {"question": "q", "answer": "a", "context": [["T", ["x"]]]}}}
    rows = [good, dict(good, id=None, _id=None), dict(good, id="b", context="[" * 5000 + "]" * 5000),
            dict(good, id="c")]
    jsonl(tmp_path / "s.jsonl", rows)
    d = load(tmp_path, "s.jsonl", kind="source_snapshot", extra='form = "nested"\n')
    assert d.ok, d.error
    assert d.report["rows_used"] == 6  # a and c: question, answer, one paragraph each
    reasons = [(r, why) for r, why, _ in _ledger(d)]
    assert [r for r, _ in reasons] == [2, 3] and "no id" in reasons[0][1]


@pytest.mark.parametrize("case", ["no_revision", "int_revision", "int_path", "bad_exclude", "unsafe_name",
                                  "duplicate_dataset", "bad_checksums"])
def test_app_names_manifest_mistakes_on_overview(tmp_path, monkeypatch, case):
    from streamlit.testing.v1 import AppTest

    manifest, words = MANIFEST_MISTAKES[case]
    jsonl(tmp_path / "a.jsonl", AUDIT)
    (tmp_path / "s.toml").write_text(manifest, encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "s.toml"))
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(plain(str(e.value)) for e in [*at.error, *at.warning, *at.markdown, *at.caption, *at.info])
    assert words in shown, shown[:2000]
