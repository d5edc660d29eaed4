"""The HTML report of a collection (report-html) and its check (check-report): every number equals
the CLI JSON's, the file is deterministic and small, data text stays text, and check-report tells a
stale report (exit 1, naming the number) from broken pins (exit 2)."""

import csv
import hashlib
import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest

from judgescope import cli
from judgescope.report import html as report_html
from judgescope.report.ledger import same

ROOT = Path(__file__).resolve().parent.parent
DEMO = ["xhotpotqa", "localgate", "transevalnia"]
AT = "2026-12-01T12:00:00+00:00"
MAX_BYTES = 3 * 1024 * 1024


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Each demo collection's report, written once by the CLI: {collection: (path, exit code)}."""
    folder = tmp_path_factory.mktemp("reports")
    out = {}
    for name in DEMO:
        path = folder / f"{name}.html"
        out[name] = (path, cli.main(["report-html", name, "--out", str(path), "--generated-at", AT]))
    return out


def manifest_of(path: Path) -> dict:
    return report_html.read_manifest(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", DEMO)
def test_report_is_small_self_contained_and_names_its_sections(reports, name):
    path, code = reports[name]
    assert code == 0  # xhotpotqa's raw records exclude a run group, as its manifest declares
    text = path.read_text(encoding="utf-8")
    assert path.stat().st_size <= MAX_BYTES
    # No fetch of any kind: no external URL in a src/href, no script but the JSON manifest.
    assert not re.search(r'(src|href)\s*=\s*"(?!#)', text)
    assert re.findall(r"<script[^>]*>", text) == ['<script type="application/json" id="judgescope-manifest">']
    assert "default-src 'none'" in text
    for heading in ("Findings", "Not measured, and why", "Provenance"):
        assert f">{heading}</h2>" in text
    manifest = manifest_of(path)
    assert manifest["collection"] == name and manifest["generated_at"] == AT
    assert manifest["numbers"] and all(n["function"] for n in manifest["numbers"])
    for ds in manifest["datasets"]:
        for f in ds["files"]:
            assert f["sha256"] in text  # each pinned file's full digest is shown
            assert re.fullmatch(r"[0-9a-f]{64}", f["sha256"])


def test_two_runs_write_the_same_bytes(reports, tmp_path):
    path, _ = reports["localgate"]
    again = tmp_path / "again.html"
    cli.main(["report-html", "localgate", "--out", str(again), "--generated-at", AT])
    assert again.read_bytes() == path.read_bytes()


# --- every number equals the CLI JSON ---------------------------------------------------------

def _cli_outputs(tmp: Path) -> dict:
    """The JSON (and CSV) each CLI command writes for the demo collections."""
    out = {}
    cli.main(["report", "xhotpotqa_v2_audit", "--out", str(tmp / "rep")])
    out["report", "SUMMARY.json"] = json.loads((tmp / "rep/SUMMARY.json").read_text())
    out["report", "BOOTSTRAP.json"] = json.loads((tmp / "rep/BOOTSTRAP.json").read_text())
    with open(tmp / "rep/BY_LANGUAGE.csv", newline="") as fh:
        by = {}
        for row in csv.DictReader(fh):
            by.setdefault(row["target_language"], {})[row["unit"]] = {
                k: float(v) for k, v in row.items() if k not in ("target_language", "unit") and v}
        out["report", "BY_LANGUAGE.csv"] = by
    for key, argv in ((("verify", "--json"), ["verify", "xhotpotqa_v2_audit", "xhotpotqa_v2_snapshot"]),
                      (("themes", "--json"), ["themes", "xhotpotqa_v2_audit"]),
                      (("calibrate", "--json"), ["calibrate", "localgate_items"]),
                      (("rank", "--json"), ["rank", "transevalnia_ranking"]),
                      (("drift", "--json"), ["drift", "xhotpotqa_v1_audit", "xhotpotqa_v2_audit"])):
        target = tmp / f"{key[0]}.json"
        cli.main(argv + ["--json", str(target)])
        out[key] = json.loads(target.read_text())
    return out


def _resolve(data, path: list[str]):
    for part in path:
        if part == "len":
            return len(data)
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def test_every_number_with_a_cli_twin_equals_the_cli_json(reports, tmp_path):
    outputs = _cli_outputs(tmp_path)
    compared, total = 0, 0
    for name in DEMO:
        for n in manifest_of(reports[name][0])["numbers"]:
            if isinstance(n["value"], str) and n["value"] not in ("PASS", "FAIL"):
                continue  # a label, badge or method text the report binds: no number
            total += 1
            if "cli" not in n:
                continue
            twin = _resolve(outputs[tuple(n["cli"][:2])], n["cli"][2:])
            assert same(n["value"], twin), (n["id"], n["value"], twin)
            compared += 1
    # Most numbers have a twin (the rest: histogram bins, ledger counts, ranking's pair counts).
    assert compared >= 0.75 * total, (compared, total)


def test_calibration_report_shows_the_gate_with_its_uncertainty(reports, tmp_path):
    text = reports["localgate"][0].read_text(encoding="utf-8")
    assert "FAIL · inconclusive" in text
    cli.main(["calibrate", "localgate_items", "--json", str(tmp_path / "c.json")])
    low, high = json.loads((tmp_path / "c.json").read_text())["panel"]["ci"]
    assert low < 0.8 < high  # the CI straddles the gate
    assert (f"π = 1999/2499 = 0.79992 &lt; 0.8; the 95 % CI [{low:.3f}, {high:.3f}] includes the gate"
            in text)
    numbers = {n["id"]: n for n in manifest_of(reports["localgate"][0])["numbers"]}
    assert numbers["calibration.panel.verdict"]["value"] == "FAIL"
    # LocalGate seed 001: panel TP 44, TN 46, FP 2, FN 8.
    assert [numbers[f"calibration.panel.{c}"]["value"] for c in ("tp", "tn", "fp", "fn")] == [44, 46, 2, 8]


def test_not_measured_says_why(reports):
    cal = manifest_of(reports["localgate"][0])["not_measured"]
    audit = manifest_of(reports["xhotpotqa"][0])["not_measured"]
    assert not any("Integrity" in m for m in audit)  # the collection has a snapshot
    assert any(m.startswith("Reviewers' summary") for m in audit)
    assert not any("Judge calibration" in m for m in cal)


# --- check-report -----------------------------------------------------------------------------

@pytest.fixture
def demo_copy(tmp_path, monkeypatch):
    """A copy of data/ (manifest + demo) in tmp, active as the sources manifest."""
    dest = tmp_path / "data"
    shutil.copytree(ROOT / "data", dest)
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(dest / "sources.toml"))
    return dest


def _repin(data: Path, rel: str) -> None:
    """Record a demo file's new sha256 and size in checksums.json (a re-pinned release)."""
    path = data / "demo" / rel
    sums = json.loads((data / "demo/checksums.json").read_text())
    sums[rel] = {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "size": path.stat().st_size}
    (data / "demo/checksums.json").write_text(json.dumps(sums, indent=1))


AUDIT = "xhotpotqa_judge_v2/data/xhotpotqa_glm52_judge_v2-audit.parquet"


def test_check_report_passes_on_unchanged_data(demo_copy, tmp_path, capsys):
    out = tmp_path / "r.html"
    cli.main(["report-html", "localgate", "--out", str(out), "--generated-at", AT])
    assert cli.main(["check-report", str(out)]) == 0
    assert "equal their recomputed values" in capsys.readouterr().out


def test_check_report_names_the_number_after_one_audit_row_changes(demo_copy, tmp_path, capsys):
    out = tmp_path / "r.html"
    cli.main(["report-html", "xhotpotqa", "--out", str(out), "--generated-at", AT, "--resamples", "200"])
    path = demo_copy / "demo" / AUDIT
    # One row: the first Thai answer's score becomes 0 (a re-released file, re-pinned).
    duckdb.sql(f"""COPY (SELECT * REPLACE (CASE WHEN judge_record_id = (
                   SELECT min(judge_record_id) FROM read_parquet('{path}')
                   WHERE target_language = 'th' AND unit = 'answer' AND score > 0)
                   THEN 0 ELSE score END AS score) FROM read_parquet('{path}'))
                   TO '{tmp_path / "new.parquet"}' (FORMAT parquet)""")
    shutil.move(tmp_path / "new.parquet", path)
    _repin(demo_copy, AUDIT)
    capsys.readouterr()
    assert cli.main(["check-report", str(out)]) == 1
    said = capsys.readouterr().out
    assert "audit.overall.mean: shown 94.68, now" in said
    assert "audit.cell.th.answer.mean: shown 65.30, now" in said
    assert "audit.cell.de.answer.mean" not in said  # unchanged cells are not named
    assert "changed since the report" in said  # the file's new digest is noted


def test_check_report_says_when_the_code_that_made_the_report_is_not_the_one_checking(
        demo_copy, tmp_path, capsys, monkeypatch):
    """A number that differs is listed either way; when the report's app (version, commit) is not
    the running one, a note says the difference may be the code's (issue 45: a bootstrap's random
    stream changed), and none is added when nothing differs."""
    from judgescope.report import assemble
    out = tmp_path / "r.html"
    cli.main(["report-html", "xhotpotqa", "--out", str(out), "--generated-at", AT, "--resamples", "200"])
    made = assemble.app_version()
    monkeypatch.setattr(assemble, "app_version", lambda: {"version": made["version"], "commit": "f" * 40})
    capsys.readouterr()
    assert cli.main(["check-report", str(out)]) == 0  # nothing differs: no note
    assert "note: the report was made by" not in capsys.readouterr().out
    path = demo_copy / "demo" / AUDIT
    duckdb.sql(f"""COPY (SELECT * REPLACE (CASE WHEN judge_record_id = (
                   SELECT min(judge_record_id) FROM read_parquet('{path}') WHERE score > 0)
                   THEN 0 ELSE score END AS score) FROM read_parquet('{path}'))
                   TO '{tmp_path / "new.parquet"}' (FORMAT parquet)""")
    shutil.move(tmp_path / "new.parquet", path)
    _repin(demo_copy, AUDIT)
    assert cli.main(["check-report", str(out)]) == 1
    said = capsys.readouterr().out
    assert f"note: the report was made by judgescope {made['version']} (commit " in said
    assert f"is checked by {made['version']} (commit {'f' * 40})" in said and "changed since the report" in said


def test_check_report_exits_2_when_a_pinned_file_changes_or_goes(demo_copy, tmp_path, capsys):
    out = tmp_path / "r.html"
    cli.main(["report-html", "localgate", "--out", str(out), "--generated-at", AT])
    path = demo_copy / "demo/localgate_calibration/data/calibration-train.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    assert cli.main(["check-report", str(out)]) == 2
    assert "file changed since it was recorded" in capsys.readouterr().err
    path.unlink()
    assert cli.main(["check-report", str(out)]) == 2


def test_check_report_refuses_a_file_that_is_no_report(tmp_path, capsys):
    page = tmp_path / "x.html"
    page.write_text("<html><body>hello</body></html>")
    assert cli.main(["check-report", str(page)]) == 2
    assert "cannot read a report manifest" in capsys.readouterr().err


# --- data text stays text ---------------------------------------------------------------------

def test_hostile_text_is_escaped(tmp_path, monkeypatch):
    from test_hostile_text import HOSTILE, LABEL, SCRIPT, build

    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(build(tmp_path / "hostile")))
    out = tmp_path / "hostile.html"
    cli.main(["report-html", "hostile", "--out", str(out), "--generated-at", AT, "--resamples", "200"])
    text = out.read_text(encoding="utf-8")
    assert SCRIPT not in text and "<img src=x" not in text and "<svg/onload" not in text
    assert "<iframe" not in text
    assert "lbl &lt;b&gt;x&lt;/b&gt;" in text  # the judge and dataset names, as text
    assert re.findall(r"<script[^>]*>", text) == ['<script type="application/json" id="judgescope-manifest">']
    assert out.stat().st_size <= MAX_BYTES  # a 1 MB string is cut, never carried whole
    manifest = report_html.read_manifest(text)  # the manifest survives the hostile labels
    assert any(LABEL in n["id"] for n in manifest["numbers"])
    # Hostile labels are bound and escaped like any data text: check-report reads the file back whole.
    assert cli.main(["check-report", str(out)]) == 0
    assert HOSTILE  # (the fixtures the test file defines)


def test_a_recorded_deviation_is_shown_beside_its_badge(tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    toml = (data / "sources.toml").read_text()
    toml = toml.replace('datasets = ["localgate_items", "localgate_judgements"]',
                        'datasets = ["localgate_items", "localgate_judgements"]\n'
                        'deviations = { panel = "Bulk judging proceeded under the recorded deviation <b>D-1</b>." }')
    (data / "sources.toml").write_text(toml)
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(data / "sources.toml"))
    out = tmp_path / "r.html"
    cli.main(["report-html", "localgate", "--out", str(out), "--generated-at", AT])
    text = out.read_text(encoding="utf-8")
    assert re.search(r"FAIL · inconclusive</span></span> <strong><bdi><span data-n=\"calibration.panel.label\">"
                     r"panel[^<]*</span></bdi></strong>: "
                     r"<span data-n=\"calibration.panel.sentence\">π = [^<]*</span> <span class=\"deviation\">"
                     r"Recorded deviation: <bdi>Bulk judging proceeded under "
                     r"the recorded deviation &lt;b&gt;D-1&lt;/b&gt;.</bdi>", text)
    assert manifest_of(out)["deviations"] == {
        "panel": "Bulk judging proceeded under the recorded deviation <b>D-1</b>."}


def test_human_ratings_report_on_real_mqm_equals_agreement_json(realdata, monkeypatch, tmp_path):
    (realdata / "sources.toml").write_text('[[collection]]\nname = "mqm"\ndatasets = ["mqm"]\n'
                                           '[[dataset]]\nname = "mqm"\nkind = "human_ratings"\n'
                                           'path = "multirater_sxs_mqm_wmt23_ende.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(realdata / "sources.toml"))
    out = tmp_path / "mqm.html"
    cli.main(["report-html", "mqm", "--out", str(out), "--generated-at", AT])
    cli.main(["agreement", "mqm", "--json", str(tmp_path / "a.json")])
    twin = json.loads((tmp_path / "a.json").read_text())
    numbers = [n for n in manifest_of(out)["numbers"] if n.get("cli", [""])[0] == "agreement"]
    assert len(numbers) >= 8
    for n in numbers:
        assert same(n["value"], _resolve(twin, n["cli"][2:])), n
    # every α carries its interval, bound to the CLI's alpha_ci (a point estimate only, before)
    bound = {n["id"] for n in numbers}
    assert {f"ratings.alpha.{i}.ci_{end}" for i in range(3) for end in ("low", "high")} <= bound
    text = out.read_text(encoding="utf-8")
    assert "Krippendorff&#39;s α (verdict, nominal)" in text and "id=\"ratings\"" in text
    assert "built-in method" not in text  # the items count, not the dict's method
    assert cli.main(["check-report", str(out)]) == 0  # nothing shown outside its manifest entry


def test_overview_download_gives_the_cli_bytes(reports, monkeypatch):
    from judgescope.report import assemble
    from judgescope.web import export

    monkeypatch.setattr(assemble, "now", lambda: AT)  # the button's generation time
    assert export.report_html("localgate") == reports["localgate"][0].read_bytes()
