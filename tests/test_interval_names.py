"""One rule per statistic for an interval and its name (issue 44 item 2): the same statistic's
interval and name are equal on Overview's findings, its page, the report and `calibrate` /
`agreement --json`."""

import html
import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from judgescope import headlines
from judgescope.cli import main
from judgescope.wiring import get_catalog

VERDICTS = ("no_error", "minor", "major")


def _plain(text: str) -> str:
    return re.sub(r"[\\`\u2060]", "", text)


@pytest.fixture
def multirater(tmp_path, monkeypatch):
    """12 documents × 4 segments × 3 raters, verdicts that mostly agree (seeded): every item has
    three ratings, and the documents are enough (>= 10) for the document interval to headline."""
    rng = np.random.default_rng(11)
    rows = []
    for d in range(12):
        for s in range(4):
            truth = rng.integers(0, 3)
            for r in range(3):
                v = truth if rng.random() < 0.7 else rng.integers(0, 3)
                rows.append({"doc": f"doc{d}", "doc_seg_id": s, "global_seg_id": 4 * d + s,
                             "system": "sys", "rater": f"rater{r}", "source_text": "s",
                             "target_text": "t", "verdict": VERDICTS[v]})
    folder = tmp_path / "mr"
    folder.mkdir()
    (folder / "ratings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (folder / "sources.toml").write_text('[[collection]]\nname = "mr"\ndatasets = ["mr"]\n'
                                         '[[dataset]]\nname = "mr"\nkind = "human_ratings"\n'
                                         'path = "ratings.jsonl"\n', encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(folder / "sources.toml"))
    return folder


def test_fleiss_kappa_interval_is_one_thing_everywhere(multirater, tmp_path):
    out = tmp_path / "a.json"
    main(["agreement", "mr", "--json", str(out)])
    stat = json.loads(out.read_text())["verdicts"]["fleiss_kappa"]
    # The rule: 12 documents, so the interval resamples whole documents (before, Overview and the
    # report showed the item-level one while Human ratings headlined the documents').
    assert stat["ci_name"] == "bootstrap over whole docs (12 clusters)"
    assert stat["ci"] != stat["ci_item"]
    ci = "[{:.3f}, {:.3f}]".format(*stat["ci"])
    found, _ = headlines.collect(get_catalog(), "mr")
    text = next(f.text for f in found if "Fleiss" in f.text)
    assert f"Fleiss' κ {stat['value']:.3f} (95 % CI {ci} by {stat['ci_name']})" in text
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "mr"
    at.run()
    at.switch_page("pages/human_ratings.py").run()
    assert not at.exception
    captions = [_plain(c.value) for c in at.caption]
    assert any(c.startswith(f"95% CI {ci} by {stat['ci_name']}") for c in captions), captions
    report = tmp_path / "mr.html"
    main(["report-html", "mr", "--out", str(report), "--generated-at", "2026-01-01T00:00:00Z"])
    page = report.read_text(encoding="utf-8")
    assert f"95 % CI by {stat['ci_name']}" in page
    numbers = json.loads(re.search(r'id="judgescope-manifest">(.*?)</script>', page, re.S).group(1))["numbers"]
    low = next(n for n in numbers if n["id"] == "ratings.fleiss_kappa.ci_low")
    assert low["value"] == pytest.approx(stat["ci"][0])


def test_panel_interval_is_one_thing_everywhere(tmp_path):
    """LocalGate: the panel's π interval resamples whole question_ids; Overview's "How" named the
    item bootstrap beside it."""
    out = tmp_path / "c.json"
    main(["calibrate", "localgate_items", "--json", str(out)])
    panel = json.loads(out.read_text())["panel"]
    assert panel["ci_name"] == "bootstrap over whole question_ids (90 clusters)"
    ci = "[{:.3f}, {:.3f}]".format(*panel["ci"])
    found, _ = headlines.collect(get_catalog(), "localgate")
    finding = next(f for f in found if f.text.startswith("Panel"))
    assert f"95 % CI {ci} includes the gate" in finding.text
    assert f"95 % CI by {panel['ci_name']}" in finding.text
    assert panel["ci_method"] in finding.how and "over items (10,000" not in finding.how
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.query_params["collection"] = "localgate"
    at.run()
    at.switch_page("pages/calibration.py").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["π 95% CI"] == ci
    assert f"by {panel['ci_name']}" in [_plain(c.value) for c in at.caption]
    report = tmp_path / "lg.html"
    main(["report-html", "localgate", "--out", str(report), "--generated-at", "2026-01-01T00:00:00Z"])
    text = html.unescape(re.sub(r"<[^>]+>", "", report.read_text(encoding="utf-8")))
    assert f"{ci} includes the gate" in text and f"95 % CI by {panel['ci_name']}" in text
    assert panel["ci_method"] in text  # the method the report states for the π intervals
