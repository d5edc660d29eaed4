"""Every page on data nobody here wrote (../shared/realdata) and on a manifest the test builds:
pages adapt to the columns present and say what is missing instead of failing."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from conftest import REAL_MANIFEST
from pages_index import registered_pages

SECTION = {"Collection": ("real_audit", "real_pairs", "tiny_calib"), "Translation audit": ("real_audit",),
           "Calibration": ("tiny_calib",), "Ranking": ("real_pairs", "real_sample")}
VERDICTS = ["match", "no_match", "no_answer"]


def _tiny_calibration(folder):
    items, judgements = [], []
    for i in range(12):
        hv = [VERDICTS[(i + k) % 3] if i % 4 == 0 else VERDICTS[i % 2] for k in range(3)]
        items.append({"key": f"q{i}:0", "question_id": f"q{i}", "rep": 0, "question": f"Q{i}?",
                      "reference_answer": "42", "model_response": "<b>42</b>",
                      "human_1_verdict": hv[0], "human_2_verdict": hv[1], "human_3_verdict": hv[2]})
        for j in ("alpha", "beta", "gamma"):
            v = VERDICTS[(i + len(j)) % 2]
            judgements.append({"key": f"q{i}:0", "question_id": f"q{i}", "rep": 0, "judge_model": j,
                               "verdict": v, "verdict_binary": int(v == "match"), "reason": "r"})
    for name, rows in (("items.jsonl", items), ("judgements.jsonl", judgements)):
        (folder / name).write_text("\n".join(json.dumps(r) for r in rows) + "\n")


@pytest.fixture
def manifest(realdata, use_manifest):
    """The real data's collections (conftest.REAL_MANIFEST) and a tiny calibration beside them."""
    _tiny_calibration(realdata)
    use_manifest(REAL_MANIFEST + """
[[collection]]
name = "tiny_calib"
datasets = ["items", "judgements"]
[[dataset]]
name = "items"
kind = "calibration_items"
path = "realdata/items.jsonl"
[[dataset]]
name = "judgements"
kind = "calibration_judgements"
path = "realdata/judgements.jsonl"
""")
    return realdata


CASES = [(page, coll) for section, page in registered_pages() for coll in SECTION.get(section, ())]


@pytest.mark.parametrize("page,collection", CASES)
def test_page_runs_on_other_data(manifest, page, collection):
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = collection
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title
