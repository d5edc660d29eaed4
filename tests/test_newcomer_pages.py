"""Issue 44, what a new user trips on, without a browser: the Reviews page's bases and number
formats, inferred titles, MQM texts on Human ratings and the small contradictions (AppTest and
unit tests; the visual checks are tests/test_newcomer.py)."""

from __future__ import annotations

import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from judgescope.reviews import store as reviews
from judgescope.reviews import verdict_stats as reviews_stats
from review_session import state  # noqa: F401 — the fixture

APP = "../app.py"


def _plain(text: str) -> str:
    return str(text).replace("\\", "").replace("\u2068", "").replace("\u2069", "")


def _column_formats(element) -> dict:
    """A dataframe's column labels → the number format its column config gives them."""
    config = json.loads(element.proto.columns or "{}")
    return {v.get("label") or k.removeprefix("col:"): (v.get("type_config") or {}).get("format")
            for k, v in config.items()}


def test_reviews_page_states_one_base_per_section_and_formats_shares(state):  # noqa: F811
    """The headline counts every reviewed row with a call; the low-score section only rows scored
    below 60, and says so with its own share; shares and intervals read as percentages."""
    base = {"collection": "xhotpotqa", "dataset": "xhotpotqa_v2_audit", "unit": "answer"}
    # 3 low-score rows (judge right on 1) and 2 high-score rows (judge right on both). Wilson
    # intervals from statsmodels.stats.proportion.proportion_confint(k, n, method="wilson").
    for i, (score, verdict) in enumerate([(10.0, "judge_right"), (20.0, "too_harsh"), (30.0, "too_harsh"),
                                          (90.0, "judge_right"), (95.0, "judge_right")]):
        reviews.record(state, reviewer="ann", verdict=verdict, judge_record_id=f"r{i}", language="th",
                       score=score, **base)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "xhotpotqa"
    at.run()
    at.switch_page("pages/reviews.py").run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Judge right, every score"] == "60.0 %", metrics
    captions = [_plain(c.value) for c in at.caption]
    assert any("Judge right on 3 of 5 (60.0 %) reviewed rows with a reviewer call, at every score; "
               "95 % Wilson score interval [23.1 %, 88.2 %]." in c for c in captions), captions
    assert any("Judge right on 1 of 3 (33.3 %) reviewed rows scored below 60 with a reviewer call; "
               "95 % Wilson score interval [6.1 %, 79.2 %]." in c for c in captions), captions
    (by_lang,) = [d for d in at.dataframe if "Judge right" in d.value.columns]
    formats = _column_formats(by_lang)
    assert [formats.get(c) for c in ("Share", "95% CI low", "95% CI high")] == ["percent"] * 3, formats
    assert by_lang.value["Rows"].tolist() == [3]


def test_review_progress_lists_languages_in_display_order():
    counts = pd.DataFrame({"target_language": ["de", "fi", "ja", "de"], "unit": ["answer", "answer", "answer",
                                                                                   "paragraph"], "n": [5, 5, 5, 5]})
    latest = pd.DataFrame(columns=list(reviews.COLUMNS))
    out = reviews_stats.progress(latest, counts)
    # By name: Finnish, German, Japanese (by code it would be de, fi, ja); units in their order.
    assert list(zip(out.target_language, out.unit)) == [("fi", "answer"), ("de", "paragraph"), ("de", "answer"),
                                                        ("ja", "answer")]
