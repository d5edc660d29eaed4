"""The LocalGate calibration demo reproduces the card and is byte-for-byte stable."""

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from conftest import folder_bytes
from judgescope.demo import localgate


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    summary = localgate.generate(root)
    return root, summary


def test_generate_writes_both_configs_and_check_passes(generated):
    root, summary = generated
    assert summary["rows"] == {"calibration_items": 100, "calibration": 300}
    localgate.check(root)
    readme = (root / "localgate_calibration" / "README.md").read_text()
    assert "config_name: calibration_items" in readme and "config_name: calibration" in readme


def test_rerun_is_byte_identical(generated, tmp_path):
    root, _ = generated
    localgate.generate(tmp_path)
    assert folder_bytes(tmp_path) == folder_bytes(root)


def test_published_panel_figures(generated):
    root, _ = generated
    items, judg = localgate.load(root)
    wide = judg.pivot(index="key", columns="judge_model", values="verdict_binary").loc[items["key"]]
    panel = (wide.sum(axis=1) >= 2).astype(int).tolist()
    human = items["human_correct"].tolist()
    assert localgate.confusion(panel, human) == {"TP": 44, "TN": 46, "FP": 2, "FN": 8}
    assert localgate.scotts_pi(panel, human) == localgate.Fraction(1999, 2499)


def _rewrite(root: Path, name: str, mutate) -> None:
    path = root / "localgate_calibration" / "data" / name
    df = pq.read_table(path).to_pandas()
    mutate(df)
    df.to_parquet(path, index=False)


def _flip_one_gptoss_verdict(df):
    row = df.index[df["judge_model"] == "gptoss"][0]
    flipped = 1 - df.at[row, "verdict_binary"]
    df.at[row, "verdict_binary"] = flipped
    df.at[row, "verdict"] = "match" if flipped else "no_match"


def _move_validation_to_train(df):
    df["split"] = df["split"].replace({"validation": "train"})


def _round_the_606_case(df):
    df["model_response"] = df["model_response"].str.replace("$605.92", "$606", regex=False)


@pytest.mark.parametrize("name, mutate, message", [
    ("calibration-train.parquet", _flip_one_gptoss_verdict, "gptoss pi|panel"),
    ("calibration_items-train.parquet", _move_validation_to_train, "split counts"),
    ("calibration_items-train.parquet", _round_the_606_case, r"\$605\.92"),
])
def test_perturbation_makes_check_raise(tmp_path, name, mutate, message):
    localgate.generate(tmp_path)
    _rewrite(tmp_path, name, mutate)
    with pytest.raises(AssertionError, match=message):
        localgate.check(tmp_path)


def test_bulk_demo_plants_a_rate_the_corrections_recover(generated):
    """The bulk run beside the calibration demo (localgate_bulk): the calibration's 300 rows
    unchanged, 600 unlabelled answers whose planted correct rate is TRUE_RATE; each judge's raw
    rate misses it, Rogan–Gladen and PPI intervals cover it."""
    from judgescope.calibration import corrected
    from judgescope.demo import localgate_bulk
    root, _ = generated
    localgate_bulk.generate(root)
    bulk = pd.read_parquet(root / "localgate_bulk" / "data" / "calibration-train.parquet")
    items, judg = localgate.load(root)
    assert len(bulk) == 300 + 3 * localgate_bulk.BULK_QUESTIONS * localgate_bulk.ATTEMPTS
    same = bulk[bulk["key"].isin(items["key"])].reset_index(drop=True)
    assert same[judg.columns].equals(judg[judg.columns].reset_index(drop=True))
    truth = items.set_index("key")["human_correct"]
    for judge, g in bulk.groupby("judge_model"):
        lab = g[g["key"].isin(items["key"])]
        t, v = truth.reindex(lab["key"]).to_numpy(), lab["verdict_binary"].to_numpy()
        tp, fp = int(((t == 1) & (v == 1)).sum()), int(((t == 0) & (v == 1)).sum())
        fn, tn = int(((t == 1) & (v == 0)).sum()), int(((t == 0) & (v == 0)).sum())
        unl = g[~g["key"].isin(items["key"])]
        rates = corrected.corrected_rates(tp, fp, fn, tn, int(unl["verdict_binary"].sum()), len(unl))
        for name in ("rogan_gladen", "ppi"):
            low, high = rates[name]["ci"]
            assert low <= localgate_bulk.TRUE_RATE <= high, (judge, name)
        assert rates["raw_judge_rate"] < localgate_bulk.TRUE_RATE - 0.03
