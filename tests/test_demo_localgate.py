"""The LocalGate calibration demo reproduces the card and is byte-for-byte stable."""

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from judgescope.demo import localgate


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


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
    assert _files(tmp_path) == _files(root)


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
