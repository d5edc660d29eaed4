"""Swap consistency and self-preference of ranking judges: a file built here with every count
stated, the demo's planted effects recounted independently, scipy/statsmodels for the tests and
intervals."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint

from judgescope.cli import main
from judgescope.demo import transevalnia
from judgescope.ranking import probes

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo"
T1, T2, TIE, NONE = "Translation 1 is better.", "Translation 2 is better.", \
    "Both are of equal quality.", "Hmm."
# (original one-step decision, decision on the swapped presentation, families of the two
# translations). By hand, for qwen:
#   row 0: 1 / swapped 2 → back 1, consistent      row 1: 1 / swapped 1 → back 2, inconsistent
#   row 2: 2 / swapped 1 → back 2, consistent      row 3: tie / tie, consistent
#   row 4: tie / swapped 1 → back 2, inconsistent   row 5: 2 / unparsed: left out
#   row 6: not judged swapped                      → 5 parsed pairs, 3 consistent
QWEN = [(T1, T2), (T1, T1), (T2, T1), (TIE, TIE), (TIE, T1), (T2, NONE), (T1, None)]
FAMILIES = [["qwen", "deepl"], ["deepl", "qwen"], ["qwen", "nllb"], ["claude", "qwen"],
            ["deepl", "nllb"], ["google", "qwen"], ["qwen", "google"], ["qwen"]]
CLAUDE = [T2, T1, T2, T1, T2, T1, T2, T1]
QWEN.append((T1, None))  # row 7: one family only, so left out of self-preference (and counted)


def _rows():
    rows = []
    for i, ((orig, swapped), fams, claude) in enumerate(zip(QWEN, FAMILIES, CLAUDE)):
        rows.append({"dataset": "d", "src_text": f"s{i}", "tgt_texts": ["a", "b"],
                     "human_scores": [1, 2], "one_step_ranking/qwen": orig,
                     "one_step_ranking_swapped/qwen": swapped, "one_step_ranking/claude": claude,
                     "tgt_families": fams})
    return rows


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("probes") / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    out = path.with_suffix(".json")
    assert main(["rank", str(path), "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_swap_consistency_by_hand(report):
    rows = report["swap_consistency"]["rows"]
    assert [(r["model"], r["judged_both"], r["unparsed"], r["n"], r["consistent"]) for r in rows] \
        == [("qwen", 6, 1, 5, 3)]
    low, high = proportion_confint(3, 5, alpha=0.05, method="wilson")
    assert rows[0]["share"] == pytest.approx(0.6) and rows[0]["ci"] == pytest.approx([low, high])
    bad = report["swap_consistency"]["inconsistent"]
    # The record link is the file's line, numbered from 1 (rows 1 and 4 above are lines 2 and 5).
    assert [(b["row"], b["original"], b["swapped"], b["kind"]) for b in bad] == [
        (2, 1, 1, "picked the translation shown first both times"),
        (5, 0, 1, "a tie in one order only")]
    assert "Wilson" in report["swap_consistency"]["method"]


def test_self_preference_by_hand(report):
    # Qwen's family is qwen. Pairs with exactly one qwen translation: rows 0, 1, 2, 3, 5, 6 (row 4
    # has none); qwen's own slot: 1, 2, 1, 2, 2, 1. Qwen's decisions: 1, 1, 2, tie, 2, 1 → row 3
    # (tie) is left out. Claude's: 2, 1, 2, –, 1, 2.
    #   row 0: qwen picks own (1), claude not → only_judge   row 1: neither picks slot 2
    #   row 2: qwen no, claude no → neither                  row 5: qwen yes (2), claude no
    #   row 6: qwen yes (1), claude no → only_judge
    # n = 5, both 0, only_judge 3, only_other 0, neither 2.
    by = {(r["method"], r["judge"]): r for r in report["self_preference"]["rows"]}
    q = by[("one_step_ranking", "qwen")]
    assert (q["n"], q["both"], q["only_judge"], q["only_other"], q["neither"]) == (5, 0, 3, 0, 2)
    assert q["judge_rate"] == pytest.approx(0.6) and q["other_rate"] == 0.0
    assert q["p"] == pytest.approx(binomtest(3, 3, 0.5).pvalue)
    # Claude: one claude translation only in row 3 (slot 1), qwen's decision there a tie → none.
    assert ("one_step_ranking", "claude") not in by
    assert report["self_preference"]["pairs_without_families"] == 1


def _independent_counts(df: pd.DataFrame, model: str) -> tuple[int, int]:
    """Swap consistency recounted with the demo generator's own reader (not the app's parser)."""
    n = ok = 0
    for orig, swapped in zip(df[f"one_step_ranking/{model}"], df[f"one_step_ranking_swapped/{model}"]):
        if swapped is None or pd.isna(swapped):
            continue
        d, s = transevalnia.parse_decision(orig), transevalnia.parse_decision(swapped)
        if d is None or s is None:
            continue
        n += 1
        ok += d == {1: 2, 2: 1, 0: 0}[s]
    return n, ok


def _independent_self(df: pd.DataFrame, judge: str, other: str) -> tuple[int, int]:
    """Discordant counts (judge picks own family only, other judge picks it only)."""
    only_j = only_o = 0
    for fams, dj, do in zip(df["tgt_families"], df[f"one_step_ranking/{judge}"],
                            df[f"one_step_ranking/{other}"]):
        fams = list(fams)
        if fams.count(judge) != 1:
            continue
        slot = fams.index(judge) + 1
        a, b = transevalnia.parse_decision(dj), transevalnia.parse_decision(do)
        if a not in (1, 2) or b not in (1, 2):
            continue
        only_j += (a == slot) and (b != slot)
        only_o += (b == slot) and (a != slot)
    return only_j, only_o


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    # The committed demo (tests/test_demo.py checks it is what the generator makes).
    df, _ = transevalnia.load(DEMO)
    folder = DEMO / "transevalnia"
    out = tmp_path_factory.mktemp("te") / "rank.json"
    assert main(["rank", str(folder), "--config", "with_human_ranking", "--split", "train",
                 "--json", str(out)]) == 0
    return df, json.loads(out.read_text())


def test_demo_swap_consistency_equals_an_independent_count(demo):
    df, rep = demo
    rows = {r["model"]: r for r in rep["swap_consistency"]["rows"]}
    for model in ("qwen", "claude"):
        n, ok = _independent_counts(df, model)
        assert (rows[model]["n"], rows[model]["consistent"]) == (n, ok)
        assert rows[model]["judged_both"] == 70  # 10 pairs per data source, stated in the demo
        low, high = proportion_confint(ok, n, alpha=0.05, method="wilson")
        assert rows[model]["ci"] == pytest.approx([low, high])
        listed = [b for b in rep["swap_consistency"]["inconsistent"] if b["model"] == model]
        assert len(listed) == n - ok
    # The planted position preference makes both orders disagree on a fifth or more of pairs.
    assert all(r["ci"][1] < 0.9 for r in rows.values())


def test_demo_self_preference_recovers_the_planted_effect(demo):
    df, rep = demo
    by = {(r["method"], r["judge"]): r for r in rep["self_preference"]["rows"]}
    for judge, other in (("qwen", "claude"), ("claude", "qwen")):
        r = by[("one_step_ranking", judge)]
        only_j, only_o = _independent_self(df, judge, other)
        assert (r["only_judge"], r["only_other"]) == (only_j, only_o)
        assert r["p"] == pytest.approx(binomtest(only_j, only_j + only_o, 0.5).pvalue)
        # Planted: 85% of the discordant pairs favour the judge's own family.
        share = only_j / (only_j + only_o)
        low, high = proportion_confint(only_j, only_j + only_o, method="wilson")
        assert low < 0.85 < high and share > 0.5
        assert r["ci"][0] > 0 and r["p"] < 0.05


def test_self_preference_recovers_a_large_planted_difference():
    # 4,000 pairs, one qwen translation each: qwen picks it with probability 0.7, claude 0.5,
    # independently: the difference is 0.2 and the interval should hold it.
    rng = np.random.default_rng(11)
    n = 4_000
    slot = rng.integers(1, 3, n)
    fam = [["qwen", "deepl"] if s == 1 else ["deepl", "qwen"] for s in slot]
    q = np.where(rng.random(n) < 0.7, slot, 3 - slot)
    c = np.where(rng.random(n) < 0.5, slot, 3 - slot)
    dec = pd.DataFrame({"file": "f", "row": np.tile(np.arange(n), 2), "method": "one_step_ranking",
                        "model": ["qwen"] * n + ["claude"] * n,
                        "decision": pd.Series(np.concatenate([q, c]), dtype=object)})
    families = pd.DataFrame({"file": "f", "row": np.arange(n), "family_1": [f[0] for f in fam],
                             "family_2": [f[1] for f in fam]})
    r = next(x for x in probes.self_preference(dec, families)["rows"] if x["judge"] == "qwen")
    assert r["ci"][0] < 0.2 < r["ci"][1] and r["difference"] == pytest.approx(0.2, abs=0.03)


def test_position_bias_page_shows_both_probes_and_pairs_open():
    from apptest import open_page

    at = open_page("pages/position_bias.py", "transevalnia")
    assert not at.exception
    headers = [h.value for h in at.header]
    assert "Both orders: swap consistency" in headers and "Self-preference" in headers
    tables = [d.value for d in at.dataframe]
    swap = next(t for t in tables if "Share consistent [95% Wilson CI]" in t.columns)
    assert set(swap["Judged in both orders"]) == {70}
    listed = next(t for t in tables if "What happened" in t.columns)
    assert listed["Open"].str.contains(r"pairs\?collection=transevalnia&file=.+&row=\d+").all()
    selfp = next(t for t in tables if "Exact McNemar p" in t.columns)
    assert {"qwen (qwen)", "claude (claude)"} <= set(selfp["Judge (family)"])
    file, row = listed["Open"].iloc[0].split("file=")[1].split("&row=")
    from urllib.parse import unquote
    pair = open_page("pages/pairs.py", "transevalnia", file=unquote(file), row=row)
    assert not pair.exception
    assert "Judged in the other order" in [h.value for h in pair.header]
