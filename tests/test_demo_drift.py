"""Issue 43 item 7: the synthetic re-judgement of V2 by a new judge version. Expected values come
from the generator's planted parameters and its own frame (judgescope/demo/rejudge.py), never from
the drift code under test: a judge shift on Thai anchors only, a changed system on a stated
share of each language's paragraphs, the alarm on Thai, the fingerprint difference first."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from judgescope.audit import drift_report
from judgescope.demo import rejudge as demo
from judgescope.demo import rescore
from judgescope.wiring import get_catalog

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"


@pytest.fixture(scope="module")
def result():
    store = get_catalog().store("xhotpotqa_drift")
    return drift_report.measure(store.run, resamples=2000)[0]


@pytest.fixture(scope="module")
def planted():
    return demo.planted(rescore._v2(DEMO))


def test_the_files_are_regenerated_byte_for_byte(tmp_path):
    shutil.copytree(DEMO / "xhotpotqa_judge_v2", tmp_path / "xhotpotqa_judge_v2")
    demo.generate(tmp_path)
    for f in (DEMO / demo.FOLDER).rglob("*"):
        if f.is_file():
            assert (tmp_path / demo.FOLDER / f.relative_to(DEMO / demo.FOLDER)).read_bytes() == f.read_bytes(), f


def test_the_changed_system_is_the_stated_share_of_paragraphs(result, planted):
    v2 = pd.read_parquet(next((DEMO / "xhotpotqa_judge_v2" / "data").glob("*.parquet")))
    per_lang = v2[v2.unit == demo.CHANGED_UNIT].groupby("target_language").size()
    changed = int(sum(round(demo.CHANGED_SHARE * n) for n in per_lang))
    assert int(planted["changed_system"].sum()) == changed
    assert result["counts"]["paired_units"] == len(v2)
    assert result["counts"]["changed"] == changed and result["counts"]["anchors"] == len(v2) - changed


def test_the_fingerprint_difference_comes_first(result):
    sentence = result["fingerprint"]["difference"]["sentence"]
    prompts = ", ".join(sorted(set(demo.NEW_PROMPTS.values())))
    assert sentence.startswith("glm-5.2 / prompts xhqa-judge-pq-v3, xhqa-judge-short-answer-v2 → "
                               f"{demo.NEW_MODEL} (resolved {demo.NEW_REVISION}) / prompts {prompts}")
    assert drift_report.summary_lines(result)[0] == f"judge: {sentence}"


def test_the_judge_moved_only_on_thai(result, planted):
    shifts = {r["target_language"]: r for r in result["judge_shift"]["by_language"]}
    anchors = planted[~planted["changed_system"]]
    for lang, row in shifts.items():
        if lang in demo.JUDGE_SHIFT:
            want = demo.realized_judge_shift(anchors.loc[anchors.target_language == lang, "v2_score"], lang)
            assert 0 < want <= demo.JUDGE_SHIFT[lang]
            assert row["mean_diff"] == pytest.approx(want)
            assert 0 < row["ci"][0] <= want <= row["ci"][1] and row["sign_test"]["p"] < 1e-6
        else:
            assert row["mean_diff"] == 0 and row["ci"] == [0, 0] and row["sign_test"]["p"] is None


def test_the_systems_moved_down_and_thai_raises_the_alarm(result, planted):
    split = {r["target_language"]: r for r in result["judge_vs_system"]["by_language"]}
    for lang, part in planted.groupby("target_language"):
        changed, anchors = part[part.changed_system], part[~part.changed_system]
        judge = demo.realized_judge_shift(anchors["v2_score"], lang)
        want = float((changed.score - changed.v2_score).mean()) - judge
        assert split[lang]["system_shift"] == pytest.approx(want)
        assert split[lang]["system_ci"][1] < 0  # a planted SYSTEM_SHIFT of −6 with noise SD 2
        assert split[lang]["alarm"] == (lang in demo.JUDGE_SHIFT)
    assert any(a.startswith("the judge moved +") and " on th;" in a for a in result["alarms"])
    assert demo.SYSTEM_SHIFT < 0 < demo.JUDGE_SHIFT["th"]


def test_the_anchors_that_moved_most_are_thai(result):
    moved = result["moved_most"]
    assert moved and {m["target_language"] for m in moved} == {"th"}
    assert all(0 < m["diff"] <= demo.JUDGE_SHIFT["th"] for m in moved)
    assert np.allclose([m["new_score"] - m["old_score"] for m in moved], [m["diff"] for m in moved])
