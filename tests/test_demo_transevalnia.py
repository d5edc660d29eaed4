"""The scaled-down TransEvalnia demo keeps the card's layout and is byte-for-byte stable."""


import pytest

from conftest import folder_bytes
from judgescope.demo import transevalnia


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    return root, transevalnia.generate(root)


def test_generate_and_check(generated):
    root, summary = generated
    assert summary["rows"] == {"with_human_ranking": 260, "human_verification": 60}
    transevalnia.check(root)
    df, hv = transevalnia.load(root)
    assert df["dataset"].nunique() == 7
    assert {"one_step_ranking/qwen", "three_step_ranking/claude",
            "interleaved_dim_evals/qwen", "two_step_scoring/claude"} <= set(df.columns)


def test_rerun_is_byte_identical(generated, tmp_path):
    root, _ = generated
    transevalnia.generate(tmp_path)
    assert folder_bytes(tmp_path) == folder_bytes(root)


@pytest.mark.parametrize("text, expected", [
    ("Translation 1 is better.", 1),
    ("Overall, Translation 2 is the best translation.", 2),
    ("Both translations are of equal quality.", 0),
    ("Translation 2 is better in fluency. However, considering accuracy, "
     "Translation 1 is the best translation.", 1),
    ("Both translations have strengths and weaknesses in accuracy and style.", None),
])
def test_parse_decision(text, expected):
    assert transevalnia.parse_decision(text) == expected


def _swap_model_choices(df):
    # Mirror every ranking: picks of Translation 1 become picks of Translation 2.
    for col in [c for c in df.columns if c.split("/")[0].endswith("_ranking")]:
        df[col] = (df[col].str.replace("Translation 1", "Translation X", regex=False)
                   .str.replace("Translation 2", "Translation 1", regex=False)
                   .str.replace("Translation X", "Translation 2", regex=False))


def _break_ties(df):
    df["human_scores"] = df["human_scores"].map(lambda s: [s[0], s[1] - 0.5])


def _drop_a_dataset(df):
    df["dataset"] = df["dataset"].replace({"hard en-ja": "wmt 2021 en-ja"})


@pytest.mark.parametrize("mutate, message", [
    (_swap_model_choices, "position bias"),
    (_break_ties, "no human ties"),
    (_drop_a_dataset, "seven data sources"),
])
def test_perturbation_makes_check_raise(tmp_path, mutate, message):
    transevalnia.generate(tmp_path)
    path = tmp_path / "transevalnia" / "data" / "with_human_ranking-train.parquet"
    df = transevalnia.pd.read_parquet(path)
    mutate(df)
    df.to_parquet(path, index=False)
    with pytest.raises(AssertionError, match=message):
        transevalnia.check(tmp_path)
