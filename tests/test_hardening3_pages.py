"""Hardening, part 3, in the pages: URL parameters parsed with bounds before use (a bad value
resets to the default with a notice), data shown as text on Review, truncated exports say so."""

import pytest

from apptest import open_page
from judgescope.web import pager

DIGITS = "9" * 5000


def test_pager_reads_a_huge_position_as_the_first_page():
    sig = pager.signature("c", {}, False)
    params = {"after": "1.0~x", "at": DIGITS, "sig": sig}
    assert pager.read(params, sig) == pager.Position(None, 1)
    assert "could not be used" in pager.problem(params, sig)
    assert pager.problem({"after": "1.0~x", "at": "51", "sig": sig}, sig) is None  # usable
    assert pager.problem({**params, "sig": "other"}, sig) is None  # another list's: no notice
    assert pager.read({"after": "1.0~x", "at": "\u0663\u0663", "sig": sig}, sig).after is None


def _review_sig(collection: str) -> str:
    filters = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
               "max_score": 100.0, "q": ""}
    return pager.signature(collection, filters, False)


def test_review_with_a_5000_digit_position_opens_the_first_page_with_a_notice():
    at = open_page("pages/review.py", "xhotpotqa", after="1.0~x", at=DIGITS,
                   sig=_review_sig("xhotpotqa"))
    assert any("could not be used" in w.value for w in at.warning)
    assert "at" not in at.query_params


def test_review_with_a_huge_record_id_says_so():
    at = open_page("pages/review.py", "xhotpotqa", record="r" * 100_000)
    assert any("`record` was longer" in w.value for w in at.warning)


@pytest.mark.parametrize("row", [DIGITS, "-1", "1e3", "\u0663"])
def test_pairs_with_an_unusable_row_number_resets_with_a_notice(row):
    at = open_page("pages/pairs.py", "transevalnia", file="data/with_human_ranking-train.parquet",
                   row=row)
    assert any("`row`" in w.value and "whole number" in w.value for w in at.warning)


@pytest.fixture
def many_excluded(tmp_path, monkeypatch):
    """A collection whose audit has 5,600 rows excluded by a manifest rule and 4 usable ones."""
    import json

    rows = [{"judge_record_id": f"r{i}", "target_language": "th", "unit": "answer",
             "score": 50, "judge_explanation": "x", "run_group": "bad" if i >= 4 else "main"}
            for i in range(5_604)]
    (tmp_path / "audit.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "sources.toml").write_text(
        '[[collection]]\nname = "many"\ntitle = "Many"\ndatasets = ["a"]\n\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\npath = "audit.jsonl"\n'
        '[[dataset.exclude]]\ncolumn = "run_group"\nvalue = "bad"\nreason = "bad run"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))


def test_excluded_rows_export_past_the_list_limit_says_truncated_with_the_count(many_excluded):
    at = open_page("pages/excluded.py", "many")
    warned = [w.value for w in at.warning if "This export holds the first" in w.value]
    assert warned and "5,000 rows of 5,600" in warned[0]


EVIL = "http://127.0.0.1:9/"


@pytest.fixture
def hostile_units(tmp_path, monkeypatch):
    """An audit whose unit and language values are Markdown images and links."""
    import json

    units = [f"![u]({EVIL}u.png)", f"[unit]({EVIL}x)", "answer"]
    rows = [{"judge_record_id": f"r{i}", "target_language": f"[lang]({EVIL}l) th" if i % 2 else "th",
             "unit": units[i % 3], "score": float(i), "judge_explanation": "x"} for i in range(9)]
    (tmp_path / "audit.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "sources.toml").write_text(
        '[[collection]]\nname = "hx"\ntitle = "Hostile units"\ndatasets = ["a"]\n\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\npath = "audit.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))


@pytest.mark.parametrize("record", [None, "r1", "r3"])
def test_review_pills_and_record_fields_show_data_as_text(hostile_units, record):
    from test_hostile_text import markdown_leaks

    at = open_page("pages/review.py", "hx", **({"record": record} if record else {}))
    assert not markdown_leaks(at), markdown_leaks(at)
    if record:
        assert any(m.label == "Unit" for m in at.metric)


def test_review_with_a_huge_search_text_is_cut_with_a_notice():
    at = open_page("pages/review.py", "xhotpotqa", q="x" * 100_000)
    assert any("`q` was longer" in w.value for w in at.warning)
    assert len(at.text_input(key="q").value) <= 500
