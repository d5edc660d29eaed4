"""The Drift page (issue 43 items 2-4, 7): registered for collections with two audits that record
text hashes, opened on the demo's re-judgement (fingerprint first, the Thai alarm, the anchors
that moved most linking to Review), and saying plainly when there are no anchors."""

from types import SimpleNamespace

from apptest import open_page
from judgescope.demo import rejudge as demo
from judgescope.schema import language_name
from judgescope.wiring import get_catalog
from judgescope import navigation
from textutil import plain


def _loaded(missing=()):
    return SimpleNamespace(report={"columns_missing": list(missing)})


def test_drift_needs_two_audits_that_record_text_hashes():
    spec = navigation.page("drift")
    assert spec.fits({"audit": _loaded(), "audit_previous": _loaded()})
    assert not spec.fits({"audit": _loaded()})
    no_hash = {"audit": _loaded(), "audit_previous": _loaded(["candidate_text_sha256"])}
    assert not spec.fits(no_hash)
    assert navigation.missing_roles(spec, no_hash) == [
        "earlier audit version (previous) recording candidate_text_sha256"]
    cat = get_catalog()
    assert navigation.collections_for(spec, {n: cat.roles(n) for n in ("xhotpotqa_drift", "localgate")}) \
        == ["xhotpotqa_drift"]


def test_drift_page_on_the_demo_rejudgement():
    at = open_page("pages/drift.py", "xhotpotqa_drift", resamples="1000")
    texts = [plain(m.value).replace("**", "") for m in at.markdown]
    assert texts[0].startswith("Judge: glm-5.2 / prompts xhqa-judge-pq-v3, xhqa-judge-short-answer-v2 → "
                               f"{demo.NEW_MODEL}")
    assert any(" on th; the systems moved −" in plain(e.value) for e in at.error)
    assert not at.warning  # 2,300 anchors: enough to decide
    moved = next(d.value for d in at.dataframe if "Open" in d.value.columns)
    assert len(moved) and set(moved["Language"]) == {language_name("th")}  # the planted judge shift is Thai's only
    assert (moved["New score"] - moved["Old score"] == moved["Diff"]).all()
    assert all(link.startswith("review?collection=xhotpotqa_drift") for link in moved["Open"])
    assert any("No verdicts" in i.value for i in at.info)


def test_drift_page_verdicts_with_a_threshold():
    at = open_page("pages/drift.py", "xhotpotqa_drift", resamples="500", threshold="60")
    assert any(plain(m.value).startswith("verdicts (fail = score < 60") for m in at.markdown)


def test_drift_page_without_anchors_says_too_few():
    at = open_page("pages/drift.py", "xhotpotqa", resamples="500")  # V1 and V2 share no text
    assert any("Too few anchors to decide" in w.value for w in at.warning)
    assert any(plain(m.value).replace("**", "").startswith("0 anchors") for m in at.markdown)


def test_drift_page_names_and_lists_the_rows_it_did_not_compare():
    """V1 and V2 share one unit: each run's other 2,759 rows are named and the first listed."""
    at = open_page("pages/drift.py", "xhotpotqa", resamples="500")
    warned = [plain(w.value) for w in at.warning if "Not paired" in w.value]
    assert [w.split(" — ")[0] for w in warned] == ["Not paired, earlier run: 2,759 of 2,760 rows",
                                                  "Not paired, later run: 2,759 of 2,760 rows"]
    assert all("2,759 in 2,759 units the other run did not score" in w for w in warned)
    listed = [d.value for d in at.dataframe if "Why" in d.value.columns]
    assert len(listed) == 2 and all(len(x) == 25 for x in listed)
    assert set(listed[0]["Why"]) == {"the other run did not score this unit"}


def test_a_moved_anchor_opens_on_review_with_both_runs():
    from judgescope.audit import drift_report
    store = get_catalog().store("xhotpotqa_drift")
    moved = drift_report.moved_most(store.run("drift_pairs", buckets=1, bucket=0).query("anchor & stable"))[0]
    at = open_page("pages/review.py", "xhotpotqa_drift", record=moved["new_record_id"])
    shown = [plain(m.value).replace("**", "") for m in at.markdown]
    assert any(s.startswith(f"Earlier run · score {moved['old_score']:g} · glm-5.2 / prompt") for s in shown)
    assert any(s.startswith(f"This run · score {moved['new_score']:g} · {demo.NEW_MODEL} / prompt") for s in shown)
    captions = [plain(c.value) for c in at.caption]
    assert any(c.startswith("Anchor: source and candidate texts byte-identical") and
               f"New − old: {moved['diff']:+g}." in c for c in captions)
    assert any(moved["old_record_id"] in c for c in captions)


def test_compare_versions_says_the_judge_changed_first():
    at = open_page("pages/compare.py", "xhotpotqa_drift")
    first = plain(at.markdown[0].value).replace("**", "")
    assert first.startswith("Judge: glm-5.2 / prompts") and f"→ {demo.NEW_MODEL}" in first
    assert any("Drift separates them" in c.value for c in at.caption)
