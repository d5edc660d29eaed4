"""`python -m judgescope calibrate` on the LocalGate demo reproduces seed 001's table."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

import reference_stats as R
from calib_fixtures import localgate_manifest  # noqa: F401 (fixture)
from judgescope import cli


@pytest.fixture
def manifest(localgate_manifest, monkeypatch):
    """The folder of the LocalGate demo's manifest, which JUDGESCOPE_SOURCES names."""
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(localgate_manifest))
    return localgate_manifest.parent


def test_demo_reproduces_seed_001(manifest, tmp_path, capsys):
    out = tmp_path / "calibration.json"
    code = cli.main(["calibrate", "localgate_items", "--json", str(out)])
    assert code == cli.EXIT_PROBLEMS  # the panel fails its gate
    rep = json.loads(out.read_text())
    assert rep["n_items"] == 100
    pis = {k: round(v["scotts_pi"], 4) for k, v in rep["judges"].items()}
    assert pis == {"ministral": 0.7999, "gptoss": 0.8599, "qwen": 0.7999}
    assert all(v["verdict"] == "PASS" and v["gate"] == 0.6 for v in rep["judges"].values())
    panel = rep["panel"]
    assert (panel["tp"], panel["fp"], panel["fn"], panel["tn"]) == (44, 2, 8, 46)
    assert panel["agreement"] == 0.9 and panel["scotts_pi_fraction"] == "1999/2499"
    assert panel["verdict"] == "FAIL" and panel["gate"] == 0.8
    assert panel["ci"][0] < 0.8 < panel["ci"][1] and panel["inconclusive"]
    for key in ("tp", "fp", "fn", "tn", "agreement", "scotts_pi", "scotts_pi_fraction",
                "cohen_kappa", "ci", "gate", "verdict"):
        assert key in panel and all(key in j for j in rep["judges"].values())
    assert len(rep["humans"]["three_way_ties"]) == 1
    # The demo's humans, recomputed row by row by the oracles of reference_stats.py.
    fleiss, alpha = _human_agreement_by_oracle()
    assert rep["humans"]["fleiss_kappa"] == pytest.approx(fleiss, abs=1e-12)
    assert rep["humans"]["krippendorff_alpha"] == pytest.approx(alpha, abs=1e-12)
    assert (round(fleiss, 4), round(alpha, 4)) == (0.7229, 0.7238)
    assert len(rep["disagreements"]) == 10
    assert rep["disagreement_summary"]["with_human_support"] == 8
    assert "1999/2499 = 0.79992" in capsys.readouterr().out


def _human_agreement_by_oracle() -> tuple[float, float]:
    items = pq.read_table(cli.load_source("localgate_items", "calibration_items")
                          .path("clean")).to_pandas()
    humans = items[["human_1_verdict", "human_2_verdict", "human_3_verdict"]].to_numpy()
    counts = np.stack([(humans == v).sum(1) for v in ("match", "no_match", "no_answer")], 1)
    return R.fleiss_kappa(counts), R.krippendorff_alpha_nominal(humans.T)


def test_gates_are_settable_and_splits_filter(manifest, tmp_path):
    out = tmp_path / "c.json"
    code = cli.main(["calibrate", "localgate_items", "localgate_judgements", "--panel-gate",
                     "0.7999", "--json", str(out)])
    assert code == cli.EXIT_OK and json.loads(out.read_text())["panel"]["verdict"] == "PASS"
    cli.main(["calibrate", "localgate_items", "--splits", "test", "--json", str(out)])
    assert json.loads(out.read_text())["n_items"] == 18


def test_folder_paths(manifest, tmp_path):
    folder = str(manifest / "demo" / "localgate_calibration")
    out = tmp_path / "c.json"
    code = cli.main(["calibrate", folder, folder, "--config", "calibration_items",
                     "--judgements-config", "calibration", "--json", str(out)])
    assert code == cli.EXIT_PROBLEMS
    assert json.loads(out.read_text())["panel"]["scotts_pi_fraction"] == "1999/2499"


@pytest.mark.parametrize("argv", [
    ["calibrate", "no_such_dataset"],
    ["calibrate", "localgate_judgements"],                  # wrong kind
    ["calibrate", "localgate_items", "localgate_items"],     # judgements of the wrong kind
    ["calibrate", "localgate_items", "--splits", "nowhere"],  # nothing left
])
def test_unusable_input_exits_2(manifest, argv, capsys):
    assert cli.main(argv) == cli.EXIT_UNUSABLE
    assert "error:" in capsys.readouterr().err


def test_folder_without_judgements_exits_2(manifest):
    folder = str(manifest / "demo" / "localgate_calibration")
    assert cli.main(["calibrate", folder, "--config", "calibration_items"]) == cli.EXIT_UNUSABLE


def test_panel_rule_and_ties_are_stated(manifest, tmp_path, capsys):
    """Issue #14 item 7: the panel's rule and n in the JSON; three-way ties can be excluded."""
    out = tmp_path / "c.json"
    cli.main(["calibrate", "localgate_items", "--json", str(out)])
    panel = json.loads(out.read_text())["panel"]
    assert (panel["rule"], panel["n_items"], panel["items_without_all_judges"]) == (
        "strict majority (2 of 3) of the judges' binary verdicts, on items every judge rated",
        100, 0)
    assert "1 three-way human tie counted as not match" in capsys.readouterr().out
    cli.main(["calibrate", "localgate_items", "--exclude-three-way-ties", "--json", str(out)])
    rep = json.loads(out.read_text())
    assert rep["panel"]["n"] == 99 and rep["definitions"]["three_way_ties"] == {
        "n": 1, "handling": "excluded"}
    assert "1 three-way human tie excluded" in capsys.readouterr().out


def test_ledger_line_per_input(manifest, capsys):
    """Issue #14 item 8: loaded = used + excluded for both inputs."""
    cli.main(["calibrate", "localgate_items"])
    out = capsys.readouterr().out
    assert "localgate_items: loaded 100 = used 100 + excluded 0" in out
    assert "localgate_judgements: loaded 300 = used 300 + excluded 0" in out
