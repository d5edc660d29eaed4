"""Bad input, through the app and the CLI: each unusable source gets a message naming dataset,
file and column; unusable rows land in the ledger with file, row and reason; the rest of the
app keeps working; the CLI exits 2 for an unusable source (test_sources covers the catalog)."""

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from streamlit.testing.v1 import AppTest

from chromium import needs_chromium
from textutil import plain
from judgescope import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = [{"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment", "score": 40 + i,
         "judge_explanation": f"fine {i}"} for i in range(6)]
BAD_ROWS = [  # (row as written, reason it must be listed with)
    ({"judge_record_id": "n1", "target_language": "de", "unit": "segment", "score": None}, "missing score"),
    ({"judge_record_id": "n2", "target_language": "de", "unit": "segment", "score": -1}, "score outside 0–100"),
    ({"judge_record_id": "n3", "target_language": "de", "unit": "segment", "score": 101}, "score outside 0–100"),
    ({"judge_record_id": "n4", "target_language": "de", "unit": "segment", "score": "high"}, "score is not a number"),
    ({"judge_record_id": "r0", "target_language": "de", "unit": "segment", "score": 50}, "duplicate judge_record_id"),
]
REV = "0123456789abcdef0123456789abcdef01234567"
# dataset → (manifest lines after name, words its message must hold)
UNUSABLE = {
    "missing_column": ('kind = "judge_audit"\npath = "missing.csv"', ["missing.csv", "column unit"]),
    "empty_file": ('kind = "judge_audit"\npath = "empty.jsonl"', ["empty.jsonl", "empty"]),
    "truncated_parquet": ('kind = "judge_audit"\npath = "truncated.parquet"', ["truncated.parquet"]),
    "corrupt_parquet": ('kind = "judge_audit"\npath = "corrupt.parquet"', ["corrupt.parquet"]),
    "broken_yaml": ('kind = "judge_audit"\npath = "repo"', ["README.md", "YAML"]),
    "unknown_kind": ('kind = "judge_thing"\npath = "scores.jsonl"', ["unknown kind"]),
    "escaping_path": ('kind = "judge_audit"\npath = "../../etc/passwd"', ["escapes the manifest folder"]),
    "unpinned": ('kind = "judge_audit"\nhub = "owner/name"\nrevision = "main"', ["not pinned"]),
    "malformed_revision": ('kind = "judge_audit"\nhub = "owner/name"\nrevision = "' + "z" * 40 + '"',
                           ["not pinned"]),
    "repo_tricks": (f'kind = "judge_audit"\nhub = "owner/../../etc"\nrevision = "{REV}"', ["owner/name"]),
    "repo_dots": (f'kind = "judge_audit"\nhub = "../name"\nrevision = "{REV}"', ["owner/name"]),
}


def _write(folder: Path) -> Path:
    lines = [json.dumps(r) for r in GOOD + [row for row, _ in BAD_ROWS]]
    lines.insert(3, '{"judge_record_id": "broken", "score": 5')  # line 4 is broken JSON
    lines.append('{"judge_record_id": "nan", "target_language": "de", "unit": "segment", "score": NaN}')
    (folder / "scores.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    pq.write_table(pa.table({"judge_record_id": ["a", "b"], "target_language": ["de", "de"],
                             "unit": ["s", "s"], "score": ["75", "n/a"]}), folder / "typed.parquet")
    (folder / "missing.csv").write_text("judge_record_id,target_language,score\nx,de,5\n")
    (folder / "empty.jsonl").write_bytes(b"")
    pq.write_table(pa.table({"x": list(range(1000))}), folder / "truncated.parquet")
    (folder / "truncated.parquet").write_bytes((folder / "truncated.parquet").read_bytes()[:300])
    (folder / "corrupt.parquet").write_bytes(b"PAR1 this is not parquet PAR1")
    (folder / "repo" / "data").mkdir(parents=True)
    (folder / "repo" / "data" / "a.jsonl").write_text(json.dumps(GOOD[0]) + "\n")
    (folder / "repo" / "README.md").write_text("---\nconfigs: [unclosed\n---\n")
    names = ["scores", "typed", *UNUSABLE]
    body = '[[collection]]\nname = "bad"\ndatasets = [%s]\n' % ", ".join(f'"{n}"' for n in names)
    body += '\n[[dataset]]\nname = "scores"\nkind = "judge_audit"\npath = "scores.jsonl"\n'
    body += '\n[[dataset]]\nname = "typed"\nkind = "judge_audit"\npath = "typed.parquet"\n'
    for name, (lines_, _) in UNUSABLE.items():
        body += f'\n[[dataset]]\nname = "{name}"\n{lines_}\n'
    (folder / "sources.toml").write_text(body, encoding="utf-8")
    return folder / "sources.toml"


@pytest.fixture
def bad_manifest(tmp_path, monkeypatch):
    folder = tmp_path / "m"
    folder.mkdir()
    path = _write(folder)
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(path))
    return path


def _page(page: str) -> AppTest:
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "bad"
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_overview_names_every_unusable_dataset(bad_manifest):
    # Messages are shown literally (markdown punctuation escaped): compare them unescaped.
    errors = [plain(e.value) for e in _page("pages/overview.py").error]
    for name, (_, words) in UNUSABLE.items():
        message = next((e for e in errors if f"dataset {name}" in e), None)
        assert message, f"no error names dataset {name}: {errors}"
        for word in words:
            assert word in message, (name, word, message)
    assert len(errors) == len(UNUSABLE)  # the usable datasets show no error


def test_excluded_rows_lists_each_bad_row_with_file_row_column_reason(bad_manifest):
    at = _page("pages/excluded.py")
    rows = max((d.value for d in at.dataframe), key=len)
    assert {"Dataset", "File", "Row", "Column", "Reason", "Value"} <= set(rows.columns)
    listed = {(r.Dataset, r.File, r.Reason) for r in rows.itertuples()}
    for _, reason in BAD_ROWS:
        assert ("scores", "scores.jsonl", reason) in listed, reason
    assert ("scores", "scores.jsonl", "invalid JSON line") in listed
    assert ("scores", "scores.jsonl", "score is NaN") in listed
    assert ("typed", "typed.parquet", "score is not a number") in listed
    broken = rows[rows.Reason == "invalid JSON line"].iloc[0]
    assert broken.Row == 4 and "broken" in broken.Value
    out_of_range = rows[rows.Reason == "score outside 0–100"]
    assert set(out_of_range.Column) == {"score"} and len(out_of_range) == 2


@pytest.mark.parametrize("page", ["pages/distributions.py", "pages/review.py", "pages/languages.py",
                                  "pages/integrity.py", "pages/ranking.py"])
def test_the_rest_of_the_app_keeps_working(bad_manifest, page):
    at = _page(page)
    assert at.title


def test_cli_exits_2_naming_each_unusable_source(bad_manifest, capsys):
    for name, (_, words) in UNUSABLE.items():
        assert cli.main(["validate", name]) == cli.EXIT_UNUSABLE, name
        out = capsys.readouterr()
        text = out.out + out.err
        assert name in text and all(w in text for w in words), (name, text)


def test_cli_lists_excluded_rows_and_exits_1(bad_manifest, capsys):
    assert cli.main(["validate", "scores"]) == cli.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "scores.jsonl:4  -  invalid JSON line" in out
    for _, reason in BAD_ROWS:
        assert reason in out
    assert "loaded 13 = used 6 + excluded 7" in out


@pytest.mark.parametrize("name,kind", [("empty.jsonl", "judge_audit"), ("corrupt.parquet", "judge_audit"),
                                       ("missing.csv", "judge_audit"), ("repo", "judge_audit"),
                                       ("no-such-file.jsonl", "judge_audit")])
def test_cli_on_a_file_exits_2(bad_manifest, capsys, name, kind):
    args = ["validate", str(bad_manifest.parent / name)] + (["--kind", kind] if kind else [])
    assert cli.main(args) == cli.EXIT_UNUSABLE
    assert name in capsys.readouterr().out


def test_cli_process_exit_status_is_2(bad_manifest):
    """The real process, not only main(): the shell sees 2 for an unusable source."""
    import os

    proc = subprocess.run([sys.executable, "-m", "judgescope", "validate", "corrupt_parquet"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "corrupt.parquet" in proc.stdout + proc.stderr


def test_lone_surrogate_costs_one_row_not_the_dataset(tmp_path, write_manifest):
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    rows = [json.dumps(r) for r in GOOD] + [
        '{"judge_record_id": "s1", "target_language": "de", "unit": "segment", "score": 5, '
        '"judge_explanation": "bad \\ud800 text"}']
    (tmp_path / "a.jsonl").write_text("\n".join(rows) + "\n")
    cat = Catalog(load_manifest(write_manifest(
        '[[collection]]\nname = "c"\ndatasets = ["a"]\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\npath = "a.jsonl"\n')), providers=TABLES)
    d = cat.dataset("a")
    assert d.ok, d.error
    assert d.report["rows_used"] == len(GOOD) and d.report["rows_excluded"] == 1


@pytest.mark.browser
@needs_chromium
def test_deep_link_to_a_fresh_server_runs_inside_the_frame():
    """The first request of a fresh server, a deep link, still runs app.py (judgescope.web.serve)."""
    from playwright.sync_api import sync_playwright

    from chromium import POLL_MS, launch
    from bench.soak import start_server

    proc, base = start_server()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page()
            page.goto(f"{base}/excluded?collection=localgate", wait_until="domcontentloaded")
            page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=90_000)
            page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')""",
                                   timeout=90_000, polling=POLL_MS)
            try:  # the frame draws the picker; give a loaded machine time to show it
                page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSelectbox"]',
                                       timeout=30_000)
                framed = 1
            except Exception:
                framed = 0
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert framed == 1, "the page ran without app.py's frame (no collection picker)"


@pytest.mark.parametrize("error, says", [
    (RuntimeError("boom"), "failed (RuntimeError: boom): this is a defect of JudgeScope, not a problem in the data"),
    (KeyError(), "failed (KeyError): this is a defect of JudgeScope"),
    (duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block\n\nPossible solutions: …"),
     "failed (OutOfMemoryException: Out of Memory Error: could not allocate block): DuckDB needed more memory")])
def test_a_failure_of_judgescope_itself_exits_3_with_its_traceback_never_1(monkeypatch, capsys, error, says):
    """An uncaught exception would exit 1, which the CLI gives "problems found in the data": a
    failure of JudgeScope exits 3 instead, with its traceback and one line saying what failed."""
    from judgescope.cli.commands import validate

    def run(args):
        raise error
    monkeypatch.setattr(validate, "run", run)
    assert cli.main(["validate", "anything"]) == cli.EXIT_FAILED == 3
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and f"error: judgescope validate {says}" in err
