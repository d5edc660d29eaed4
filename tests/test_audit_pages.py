"""Translation-audit pages on fixtures built in code and on real GEMBA scores: URL → view."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from judgescope.audit import rows as audit_rows
from judgescope.text import md_literal
from judgescope.wiring import get_catalog
from textutil import plain

APP = "../app.py"
PAGES = ["pages/distributions.py", "pages/languages.py", "pages/review.py",
         "pages/exact_copies.py", "pages/provenance.py", "pages/compare.py"]


def _jsonl(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path.name


def _audit_rows(version: str, shift: float = 0.0, source_prefix: str = "s") -> list[dict]:
    rows = []
    for i, (lang, unit, score, expl, copy) in enumerate([
            ("th", "answer", 10, "Kept the Latin name", True), ("th", "answer", 40, None, True),
            ("th", "answer", 100, "Fine", False), ("th", "paragraph", 95, "Good", False),
            ("ar", "answer", 90, "Correct", False), ("ar", "paragraph", 85, "Minor slip", False),
            ("de", "answer", 97, "Good", False), ("de", "paragraph", 92.5, "Good", False)]):
        rows.append({"judge_record_id": f"{version}-{i}", "instance_id": f"i{i}",
                     "source_id": f"{source_prefix}{i}", "target_language": lang, "unit": unit,
                     "score": max(0, min(100, score + shift)), "judge_explanation": expl,
                     "score_origin": "explicit" if expl else "fallback",
                     "source_text_sha256": f"src{i}", "candidate_text_sha256": f"src{i}" if copy else f"c{i}",
                     "requested_judge_model": "judge-1", "run_group": "main" if unit != "answer" else "answers"})
    return rows


@pytest.fixture
def fixture_manifest(tmp_path, monkeypatch) -> Path:
    """Two collections: `fx` (previous version overlapping fully) and `fx2` (no overlap)."""
    d = tmp_path
    names = {"cur": _jsonl(d / "cur.jsonl", _audit_rows("v2")),
             "prev": _jsonl(d / "prev.jsonl", _audit_rows("v1", shift=-5)),
             "other": _jsonl(d / "other.jsonl", _audit_rows("v0", shift=-5, source_prefix="o")),
             "snap": _jsonl(d / "snap.jsonl", [{"instance_id": f"i{i}", "source_text": "Barack Obama",
                                                "candidate_text": "Barack Obama" if i < 2 else "نص عربي"}
                                               for i in range(8)]),
             "raw": _jsonl(d / "raw.jsonl", [{**r, "run_group": g, "judge_record_id": f"raw{i}"} for i, (r, g)
                                             in enumerate(zip(_audit_rows("r"), ["main"] * 6 + ["bad"] * 2))])}
    (d / "raw.jsonl").write_text((d / "raw.jsonl").read_text() +
                                 '{"judge_record_id": "raw9", "target_language": "th", "unit": "answer", '
                                 '"score": null, "run_group": "bad"}\n')
    text = ['[[collection]]\nname = "fx"\ntitle = "Fixture"\ndatasets = ["cur", "snap", "raw", "prev"]\n'
            'previous = "prev"\n',
            '[[collection]]\nname = "fx2"\ntitle = "Fixture 2"\ndatasets = ["cur", "other"]\n'
            'previous = "other"\n']
    for name, kind in (("cur", "judge_audit"), ("prev", "judge_audit"), ("other", "judge_audit"),
                       ("snap", "source_snapshot"), ("raw", "raw_judge_records")):
        text.append(f'[[dataset]]\nname = "{name}"\nkind = "{kind}"\ntitle = "{name}"\npath = "{names[name]}"\n')
    text.append('[[dataset.exclude]]\ncolumn = "run_group"\nvalue = "bad"\nreason = "bad run"\n')
    manifest = d / "sources.toml"
    manifest.write_text("\n".join(text), encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    return manifest


def open_page(page: str, collection: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = collection
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("page", PAGES)
def test_every_audit_page_runs_on_the_fixture(fixture_manifest, page):
    at = open_page(page, "fx")
    assert at.title


def test_review_link_opens_filtered_view(fixture_manifest):
    at = open_page("pages/review.py", "fx", lang="th", unit="answer")
    assert at.selectbox(key="_w_lang").value == "th" and at.pills(key="unit").value == ["answer"]
    assert any(m.value.startswith("**3** rows match") for m in at.markdown)
    at = open_page("pages/review.py", "fx", lang="th", q="latin")
    assert any(m.value.startswith("**1** rows match") for m in at.markdown)


def test_review_record_detail_shows_texts(fixture_manifest):
    at = open_page("pages/review.py", "fx", record="v2-4")
    assert any(m.value == "**Record** " + md_literal("v2-4", limit=80) for m in at.markdown)
    html = " ".join(str(h.proto) for h in at.get("html"))
    assert 'dir=\\"rtl' in html and "نص عربي" in html  # Arabic candidate, right-to-left


def test_languages_flags_the_weak_cell(fixture_manifest):
    at = open_page("pages/languages.py", "fx")
    assert "Thai (th) × answer" in plain(at.warning[0].value)


def test_exact_copies_counts_and_signal_note(fixture_manifest):
    at = open_page("pages/exact_copies.py", "fx")
    assert "review signal, not automatically an error" in at.info[0].value
    assert any(m.value.startswith("**2** exact copies") for m in at.markdown)


def test_provenance_reads_excluded_raw_records(fixture_manifest):
    at = open_page("pages/provenance.py", "fx")
    assert any("3 excluded raw records: 2 scored" in i.value for i in at.info)
    rows = audit_rows.excluded_raw_rows(get_catalog().dataset("raw"))
    assert sorted(rows.judge_record_id) == ["raw6", "raw7", "raw9"] and set(rows.reason) == {"bad run"}


def test_compare_warns_when_unpaired_and_pairs_when_overlapping(fixture_manifest):
    at = open_page("pages/compare.py", "fx2")
    assert "The samples are unpaired" in at.error[0].value
    at = open_page("pages/compare.py", "fx")
    assert not at.error and any(s.value == "Paired view on the overlapping units" for s in at.header)


@pytest.fixture
def gemba_manifest(realdata, monkeypatch) -> Path:
    manifest = realdata.parent / "gemba.toml"
    manifest.write_text(
        '[[collection]]\nname = "gemba"\ntitle = "GEMBA-DA WMT22"\ndatasets = ["gemba", "gemba_snap"]\n\n'
        '[[dataset]]\nname = "gemba"\nkind = "judge_audit"\ntitle = "GEMBA"\n'
        'path = "realdata/judge_audit_gemba_wmt22.jsonl"\n\n'
        '[[dataset]]\nname = "gemba_snap"\nkind = "source_snapshot"\ntitle = "GEMBA texts"\n'
        'path = "realdata/judge_audit_gemba_wmt22.source_snapshot.jsonl"\n', encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    return manifest


@pytest.mark.parametrize("page", PAGES)
def test_every_audit_page_adapts_to_real_gemba_scores(gemba_manifest, page):
    at = open_page(page, "gemba")
    if page == "pages/compare.py":
        assert "earlier audit version" in at.info[0].value  # says what is missing instead of failing
    if page == "pages/provenance.py":
        assert "paragraph_id" in at.caption[0].value


def test_gemba_review_detail_joins_texts_without_language_columns(gemba_manifest):
    first = get_catalog().store("gemba").execute_raw(
        "SELECT judge_record_id FROM audit ORDER BY score, judge_record_id LIMIT 1")[0][0]
    at = open_page("pages/review.py", "gemba", record=first)
    assert not any("no text for this row" in i.value for i in at.info)
    assert any("verified, as on Integrity" in c.value for c in at.caption)
