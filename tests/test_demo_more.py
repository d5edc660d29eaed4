"""Issue #25 item 7: a demo for every page — a paired re-score of V2 (Compare versions shows its
paired permutation and Wilcoxon tests) and multi-rater MQM ratings with error spans (Human
ratings); both deterministic, and the published figures untouched (test_demo_*.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from apptest import open_page
from judgescope.calibration.human_ratings import span_pieces
from judgescope.demo import ratings, rescore
from textutil import plain

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
KEY = ["source_id", "target_language", "unit", "paragraph_id"]


def _parquet(folder: str) -> pd.DataFrame:
    return pd.read_parquet(next((DEMO / folder / "data").glob("*.parquet")))


def test_the_rescore_is_a_stated_share_of_v2_and_pairs_with_it():
    v2, again = _parquet("xhotpotqa_judge_v2"), _parquet("xhotpotqa_judge_v2_rescore")
    for unit, n in v2.groupby("unit").size().items():
        assert (again.unit == unit).sum() == round(rescore.RESCORED_SHARE * n)
    joined = again.merge(v2, on=KEY, how="left", suffixes=("", "_v2"), indicator=True)
    assert (joined["_merge"] == "both").all() and len(joined) == len(again)
    assert not set(again.judge_record_id) & set(v2.judge_record_id)
    answers = joined[joined.unit == "answer"]
    assert (answers.score - answers.score_v2).mean() < -1  # the stated downward drift


def test_the_new_demo_files_are_regenerated_byte_for_byte(tmp_path):
    shutil.copytree(DEMO / "xhotpotqa_judge_v2", tmp_path / "xhotpotqa_judge_v2")
    rescore.generate(tmp_path)
    ratings.generate(tmp_path)
    for folder in ("xhotpotqa_judge_v2_rescore", "mqm_ratings"):
        for f in (DEMO / folder).rglob("*"):
            if f.is_file():
                assert (tmp_path / folder / f.relative_to(DEMO / folder)).read_bytes() == f.read_bytes(), f


def test_the_ratings_are_mqm_like():
    frame = _parquet("mqm_ratings")
    per_item = frame.groupby(["doc", "doc_seg_id", "system"])["rater"].nunique()
    assert len(per_item) == 120 and (per_item == 3).all()
    for r in frame.itertuples():
        spans = json.loads(r.error_spans)
        majors = sum(s["severity"] == "major" for s in spans)
        assert r.mqm == 5 * majors + (len(spans) - majors)
        assert r.verdict == ("major" if majors else "minor" if spans else "no_error")
        assert all(0 <= s["start"] < s["end"] <= len(r.target_text) for s in spans)


def test_compare_shows_the_paired_tests_on_the_demo():
    at = open_page("pages/compare.py", "xhotpotqa_rescore")
    assert not any("samples are unpaired" in plain(e.value) for e in at.error)
    tests = next(d.value for d in at.dataframe if "Wilcoxon p" in d.value.columns)
    assert "Permutation p" in tests.columns
    assert set(tests["Unit"]) == {"paragraph", "question", "answer"}
    assert (tests["Pairs"] > 100).all()


def test_human_ratings_opens_on_the_demo_with_spans():
    at = open_page("pages/human_ratings.py", "mqm_ratings")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Items"] == "120" and metrics["Raters"] == "6"
    blocks = [h.proto.body for h in at.get("html")]
    assert any("<mark" in b and "· minor]" in b or "· major]" in b for b in blocks)


def test_span_pieces_cut_the_text_and_name_what_cannot_be_drawn():
    text = "Die neue Brücke schloss"
    spans = json.dumps([{"start": 4, "end": 8, "category": "Fluency", "severity": "minor"},
                        {"start": 6, "end": 10, "category": "Overlap", "severity": "major"},
                        {"start": 20, "end": 99, "category": "Out", "severity": "major"},
                        {"start": True, "end": 3}])
    pieces, problems = span_pieces(text, spans)
    assert "".join(p for p, _, _ in pieces) == text
    assert pieces[1] == ("neue", "Fluency · minor", "minor")
    assert len(problems) == 3
    assert span_pieces(text, "{not json")[1] == ["error_spans is not valid JSON"]
    assert span_pieces(text, None) == ([(text, None, None)], [])


def test_hostile_spans_and_texts_are_shown_as_text(tmp_path, use_manifest):
    rows = [{"rater": r, "item_id": "x1", "mqm": 1.0, "verdict": "minor",
             "target_text": "<script>alert(1)</script> ok",
             "error_spans": json.dumps([{"start": 0, "end": 8, "category": "<b>bold</b>",
                                         "severity": "minor"}])} for r in ("a", "b")]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    use_manifest(
        '[[collection]]\nname = "r"\ndatasets = ["r"]\n[[dataset]]\nname = "r"\npath = "r.jsonl"\n')
    at = open_page("pages/human_ratings.py", "r")
    body = " ".join(h.proto.body for h in at.get("html"))
    assert "&lt;script&gt;" in body and "<script>" not in body
    assert "&lt;b&gt;bold&lt;/b&gt; · minor" in body and "<b>" not in body


@pytest.mark.parametrize("collection", ["xhotpotqa_rescore", "mqm_ratings"])
def test_every_page_the_new_collections_fill_opens(collection):
    from judgescope.wiring import get_catalog
    from judgescope import navigation

    for spec in navigation.available(get_catalog().roles(collection)):
        if spec.url_path != "hub_open":
            assert open_page(spec.path, collection).title, spec.path


def test_human_ratings_shows_scores_by_system_with_intervals():
    frame = _parquet("mqm_ratings")
    want = frame.groupby(["system", "doc", "doc_seg_id"])["mqm"].mean().groupby("system").mean()
    at = open_page("pages/human_ratings.py", "mqm_ratings")
    table = next(d.value for d in at.dataframe if "System" in d.value.columns)
    assert list(table["System"]) == sorted(want.index)
    for row in table.itertuples(index=False):
        assert row.Mean == pytest.approx(want[row.System])
        assert row._4 < row.Mean < row._5  # 95% CI low < mean < 95% CI high
        assert row.Items == 40
