"""The Ranking pages driven through their URL parameters and widgets (AppTest, demo manifest),
and on real pair files that have no model decisions."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from apptest import open_page


def _open(page: str, collection: str = "transevalnia", **params) -> AppTest:
    return open_page(page, collection, **params)


def _plain(text: str) -> str:
    """Markdown text as read: md_literal's escapes and isolates removed."""
    return re.sub(r"\\(.)", r"\1", str(text)).replace("\u2068", "").replace("\u2069", "")


def _text(at) -> str:
    parts = [m.value for kind in ("markdown", "caption", "header", "info", "warning")
             for m in getattr(at, kind)]
    return "\n".join(_plain(p) for p in parts)


def _cell_table(at):
    """The cell's pair list (the significance section follows it on the page)."""
    return next(d.value for d in at.dataframe if "Outcome" in d.value.columns)


def test_accuracy_cell_from_url_lists_its_pairs():
    at = _open("pages/ranking.py", dataset="wmt 2023 en-de", decision="two_step_ranking/qwen")
    assert at.selectbox(key="dataset").value == "wmt 2023 en-de"
    assert "two_step_ranking/qwen on wmt 2023 en-de" in [_plain(s.value) for s in at.header]
    assert "Wilson score" in _text(at) and "always Translation 1" in _text(at)
    rows = _cell_table(at)
    assert len(rows) == 40 and set(rows["Dataset"]) == {"wmt 2023 en-de"}


def test_outcome_filter_shows_unparsed_texts():
    at = _open("pages/ranking.py", dataset="All datasets", decision="one_step_ranking/qwen")
    at.multiselect(key="outcome").set_value(["unparsed"]).run()
    rows = _cell_table(at)
    assert len(rows) > 0 and set(rows["Outcome"]) == {"unparsed"}
    assert rows["Decision text"].str.len().min() > 0


def test_unknown_url_value_is_reported():
    at = _open("pages/ranking.py", decision="nine_step_ranking/nobody")
    assert any("`decision`" in w.value and "nobody" in w.value for w in at.warning)


def test_position_bias_per_dataset():
    at = _open("pages/position_bias.py", dataset="hard en-ja")
    table = at.dataframe[0].value
    assert len(table) == 8 and table["Model picks 1"].str.contains(r"\[").all()


def test_pair_detail_shows_every_decision():
    at = _open("pages/pairs.py", file="data/with_human_ranking-train.parquet", row="5")
    assert any("row 5" in s.value for s in at.header)
    # 4 methods x 2 models, and row 5 is among the demo's pairs also judged in the swapped order
    # (one-step, both models: the first 10 pairs of each data source).
    assert sum("→" in m.value and "(swapped)" not in m.value for m in at.markdown) == 8
    assert sum("(swapped) →" in m.value for m in at.markdown) == 2


def test_pair_detail_for_missing_row_warns():
    at = _open("pages/pairs.py", file="nope.parquet", row="3")
    assert any("No pair" in w.value for w in at.warning)


def test_verification_filters_by_subset():
    at = _open("pages/verification.py")
    everything = len(at.dataframe[1].value)
    at.multiselect(key="subset").set_value(["haiku_qwen-vendor2"]).run()
    shown = at.dataframe[1].value
    assert 0 < len(shown) < everything and set(shown["Subset"]) == {"haiku_qwen-vendor2"}
    keys = set(at.dataframe[-1].value["Key"])
    assert "overall" in keys and any(k.startswith("ratings.") for k in keys)


@pytest.fixture
def real_pairs(realdata, monkeypatch):
    (realdata / "sources.toml").write_text(
        '[[collection]]\nname = "ted"\ndatasets = ["ted"]\n\n'
        '[[dataset]]\nname = "ted"\nkind = "pairwise_ranking"\n'
        'path = "pairwise_ted_mqm_ende_human_only.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(realdata / "sources.toml"))


@pytest.mark.parametrize("page", ["pages/ranking.py", "pages/position_bias.py"])
def test_pages_say_what_real_pairs_lack(real_pairs, page):
    at = _open(page, collection="ted")
    assert any("no model decision columns" in i.value for i in at.info)
    summary = at.dataframe[0].value
    assert int(summary["Human ties"].iloc[0]) == 93


def test_pairs_page_reads_a_real_pair(real_pairs):
    at = _open("pages/pairs.py", collection="ted", file="pairwise_ted_mqm_ende_human_only.jsonl", row="1")
    assert any("ted · row 1" in _plain(s.value) for s in at.header)
    assert "humans prefer: tie" in _text(at)
