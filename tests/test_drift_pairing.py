"""What drift pairs, and that nothing leaves it unseen: a unit is keyed by its source_id, else by
its instance_id (WMT-style audits such as the GEMBA scores in ../shared/realdata carry no
source_id); each run's rows are counted as paired, in a unit the other run did not score, or
without a unit key, the three adding up to the run's rows, and the first of each are listed with
their record ids (and file and row for the keyless) in the JSON, on the Drift page and in the report."""

import json
from pathlib import Path

import pandas as pd
import pytest

from judgescope import cli
from judgescope.audit import drift_read

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "judge_audit_gemba_wmt22.jsonl"


def row(rid, score=70, source=None, instance=None, language="de", unit="segment", cand="c"):
    return {"judge_record_id": rid, "source_id": source, "instance_id": instance, "target_language": language,
            "unit": unit, "score": score, "source_text_sha256": "a" * 64, "candidate_text_sha256": cand * 64}


def write(folder: Path, name: str, rows: list[dict]) -> str:
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def drift(tmp_path, old, new, *extra) -> tuple[int, dict]:
    out = tmp_path / "d.json"
    code = cli.main(["drift", write(tmp_path, "old", old), write(tmp_path, "new", new), "--resamples", "200",
                     "--json", str(out), *extra])
    return code, json.loads(out.read_text())


def test_units_without_a_source_id_pair_on_their_instance_id(tmp_path):
    """Before: rows without a source_id left the pairing uncounted ("0 of 0 paired units")."""
    old = [row(f"o{i}", 80, instance=f"wmt22:en-de:{i}:sysA") for i in range(6)]
    new = [row(f"n{i}", 80 - i, instance=f"wmt22:en-de:{i}:sysA") for i in range(6)]
    code, result = drift(tmp_path, old, new)
    assert code == 0
    assert (result["counts"]["paired_units"], result["counts"]["anchors"]) == (6, 6)
    assert result["judge_shift"]["overall"]["mean_diff"] == pytest.approx(-2.5)  # (0 − 1 − … − 5) / 6
    top = result["moved_most"][0]
    assert (top["paired_on"], top["unit_id"], top["new_record_id"], top["old_record_id"]) == (
        "instance_id", "wmt22:en-de:5:sysA", "n5", "o5")
    assert "instance_id" in result["counts"]["pairing"]


def test_a_source_id_key_never_pairs_with_an_instance_id_key(tmp_path):
    """s1 is a source_id in the old run and an instance_id in the new: two different keys, each
    counted as a unit the other run did not score."""
    old = [row("o0", source="s0", instance="i0"), row("o1", source="s1")]
    new = [row("n0", source="s0", instance="other"), row("n1", instance="s1")]
    code, result = drift(tmp_path, old, new)
    assert code == 0 and result["counts"]["paired_units"] == 1
    by_run = result["counts"]["by_run"]
    assert [(r["paired_on"], r["unit_id"], r["record_id"]) for r in by_run["old"]["unpaired_listed"]] == [
        ("source_id", "s1", "o1")]
    assert [(r["paired_on"], r["unit_id"], r["record_id"]) for r in by_run["new"]["unpaired_listed"]] == [
        ("instance_id", "s1", "n1")]


def test_every_row_is_paired_unpaired_or_keyless_and_each_is_listed(tmp_path, capsys):
    old = [row("o0", source="s0"), row("o1", source="s0"), row("o2", source="s1"), row("o3", source="s2"),
           row("o4"), row("o5")]
    new = [row("n0", 60, source="s0"), row("n1", 50, source="s1"), row("n2", source="s4"), row("n3")]
    code, result = drift(tmp_path, old, new)
    assert code == 0
    old_c, new_c = result["counts"]["by_run"]["old"], result["counts"]["by_run"]["new"]
    # old: s0 twice and s1 paired (3 rows), s2 alone, two rows with neither a source_id nor an instance_id
    assert {k: old_c[k] for k in ("rows", "paired_rows", "unpaired_rows", "unpaired_units", "unkeyed_rows")} == {
        "rows": 6, "paired_rows": 3, "unpaired_rows": 1, "unpaired_units": 1, "unkeyed_rows": 2}
    assert {k: new_c[k] for k in ("rows", "paired_rows", "unpaired_rows", "unpaired_units", "unkeyed_rows")} == {
        "rows": 4, "paired_rows": 2, "unpaired_rows": 1, "unpaired_units": 1, "unkeyed_rows": 1}
    assert [r["record_id"] for r in old_c["unpaired_listed"]] == ["o3"]
    assert [(r["record_id"], r["row"]) for r in old_c["unkeyed_listed"]] == [("o4", 5), ("o5", 6)]
    assert all(r["file"].endswith("old.jsonl") for r in old_c["unkeyed_listed"])
    assert [r["record_id"] for r in new_c["unpaired_listed"]] == ["n2"]
    assert [r["record_id"] for r in new_c["unkeyed_listed"]] == ["n3"]
    printed = capsys.readouterr().out
    assert ("not paired, earlier run: 3 of 6 rows — 1 in 1 units the other run did not score; "
            "2 without a unit key") in printed
    assert "not paired, later run: 2 of 4 rows" in printed


def test_every_row_paired_prints_no_unpaired_line(tmp_path, capsys):
    rows = [row(f"r{i}", source=f"s{i}") for i in range(3)]
    code, result = drift(tmp_path, rows, rows)
    assert code == 0 and "not paired" not in capsys.readouterr().out
    assert all(c["paired_rows"] == c["rows"] == 3 for c in result["counts"]["by_run"].values())


def test_two_runs_without_a_common_unit_exit_2_and_say_why(tmp_path, capsys):
    old = [row("o1", source="s0"), row("o2", source="s1")]
    new = [row("n1", source="s2")]
    code, result = drift(tmp_path, old, new)
    assert code == 2
    assert result["counts"]["paired_units"] == 0 and result["moved_most"] == []
    assert [c["unpaired_rows"] for c in result["counts"]["by_run"].values()] == [2, 1]
    assert "nothing to compare: no unit of old was scored in new" in capsys.readouterr().err


def test_the_listing_is_the_first_by_key_in_any_number_of_buckets(tmp_path, monkeypatch):
    """Each bucket keeps its first listed unpaired units; merged, they are the first over every key."""
    old = [row(f"o{i}", source=f"s{i:02d}") for i in range(40)]
    new = [row(f"n{i}", source=f"s{i:02d}") for i in range(0, 40, 4)]
    monkeypatch.setattr(drift_read, "UNPAIRED_LISTED", 5)
    _, one = drift(tmp_path, old, new)
    monkeypatch.setattr(drift_read, "ROWS_PER_BUCKET", 6)  # 50 rows: 9 buckets
    _, many = drift(tmp_path, old, new)
    assert drift_read.bucket_count(50) == 9
    listed = [r["unit_id"] for r in one["counts"]["by_run"]["old"]["unpaired_listed"]]
    assert listed == [f"s{i:02d}" for i in (1, 2, 3, 5, 6)]
    assert many["counts"] == one["counts"]
    assert one["counts"]["by_run"]["old"]["unpaired_units"] == 30


def test_counts_that_do_not_add_up_are_an_error_not_a_number():
    with pytest.raises(RuntimeError, match="10 rows in a run, but 6 paired"):
        drift_read.unpaired_counts(10, 8, {"rows": 2, "units": 2, "listed": []}, {"rows": 1, "listed": []})


def test_the_drift_page_names_and_lists_what_was_not_paired(tmp_path):
    from judgescope.web import drift_view

    old = [row("o0", source="s0"), row("o1", source="s1"), row("o2")]
    new = [row("n0", source="s0")]
    _, result = drift(tmp_path, old, new)
    shown = drift_view.not_paired(result)
    assert [(run, line.split(":")[0]) for run, line, _ in shown] == [("old", "not paired, earlier run")]
    listed = shown[0][2]
    assert listed["why"].tolist() == ["the other run did not score this unit", "no unit key"]
    assert listed["record_id"].tolist() == ["o1", "o2"]


def test_the_report_binds_the_unpaired_counts_to_the_cli_json(tmp_path):
    from judgescope.report import drift_section
    from judgescope.report.ledger import Ledger
    from judgescope.wiring import open_store

    old = [row("o0", source="s0"), row("o1", source="s1"), row("o2")]
    new = [row("n0", source="s0")]
    _, result = drift(tmp_path, old, new)
    store = open_store({"audit": cli.load_source(str(tmp_path / "new.jsonl"), "judge_audit"),
                        "audit_previous": cli.load_source(str(tmp_path / "old.jsonl"), "judge_audit")})
    ledger = Ledger()
    section, _ = drift_section.build(store.run, ledger, 0, 200)
    assert [x["run"] for x in section["not_paired"]] == ["the earlier run"]
    entries = {k: v for k, v in ledger.numbers.items() if k.startswith("drift.old.")}
    assert {k: v["value"] for k, v in entries.items()} == {
        "drift.old.rows": 3, "drift.old.unpaired_rows": 1, "drift.old.unkeyed_rows": 1}
    for entry in entries.values():
        value = result
        for part in entry["cli"][2:]:
            value = value[part]
        assert value == entry["value"]


@pytest.mark.skipif(not REALDATA.exists(), reason="../shared/realdata is not beside the checkout")
def test_the_real_gemba_audit_pairs_every_unit_with_itself(tmp_path, capsys):
    """The realdata's GEMBA-DA scores on WMT22 (keyed by instance_id, no source_id): against itself
    every unit pairs and is an anchor, and nothing moved; with its first 40 rows dropped from the
    later run, those are counted and listed as units the later run did not score."""
    rows = [json.loads(line) for line in REALDATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    code, result = drift(tmp_path, rows, rows)
    assert code == 0
    c = result["counts"]
    assert c["paired_units"] == c["anchors"] == len(rows) and result["moved_most"] == []
    code, result = drift(tmp_path, rows, rows[40:])
    old = result["counts"]["by_run"]["old"]
    assert (old["unpaired_rows"], old["paired_rows"]) == (40, len(rows) - 40)
    first = sorted(r["instance_id"] for r in rows[:40])[:drift_read.UNPAIRED_LISTED]
    assert [r["unit_id"] for r in old["unpaired_listed"]] == first
    assert pd.isna(old["unpaired_listed"][0]["paragraph_id"])
