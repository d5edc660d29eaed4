"""Issue #25 item 6: real data reads like the demo — language pairs from the data, empty states
that say the true reason (no explanations; no dataset failed to load)."""

from __future__ import annotations

import json

import pytest

from apptest import open_page
from judgescope.schema import language_name, language_pairs, use_language_pairs
from textutil import plain

ROWS = [("de", "en"), ("de", "en"), ("en", "zh"), ("ru", "en")]


def test_language_pairs_only_when_sources_differ():
    assert language_pairs(ROWS) == {"de": "en", "en": "zh", "ru": "en"}
    assert language_pairs([("de", "en"), ("th", "en")]) == {}  # one source: labels stay short
    assert language_pairs([("en", "zh"), ("en", "de"), ("fr", "en")]) == {"fr": "en"}


def test_language_name_names_the_direction():
    use_language_pairs({"en": "zh"})
    try:
        assert language_name("en") == "Mandarin Chinese → English (zh-en)"
        assert language_name("de") == "German (de)"
    finally:
        use_language_pairs({})
    assert language_name("en") == "English (en)"


def _audit(path, explained: bool):
    rows = [{"judge_record_id": f"r{i}", "source_language": src, "target_language": tgt,
             "unit": "segment", "score": 40 + i, "system": f"sys{i % 2}",
             "judge_explanation": "the translation drops a clause" if explained else None}
            for i, (tgt, src) in enumerate(ROWS * 3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture
def real_like(tmp_path, write_manifest, monkeypatch):
    _audit(tmp_path / "audit.jsonl", explained=False)
    (tmp_path / "broken.jsonl").write_text('{"a": 1}\n', encoding="utf-8")
    text = ('[[collection]]\nname = "a"\ntitle = "A"\ndatasets = ["audit"]\n'
            '[[dataset]]\nname = "audit"\npath = "audit.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_manifest(text)))
    return write_manifest, text


def test_review_labels_languages_with_their_source(real_like):
    at = open_page("pages/review.py", "a")
    options = next(s.options for s in at.selectbox if s.label == "Language")
    assert "Mandarin Chinese → English (zh-en)" in options
    assert "English → German (en-de)" in options


def test_themes_says_the_audit_has_no_explanations(real_like):
    at = open_page("pages/themes.py", "a")
    infos = [plain(i.value) for i in at.info]
    assert any("This audit has no judge explanations" in i for i in infos), infos
    assert not any("matches these filters" in i for i in infos)


def test_a_page_without_its_dataset_blames_no_load_failure_that_did_not_happen(real_like):
    at = open_page("pages/human_ratings.py", "a")
    text = " ".join(plain(i.value) for i in at.info)
    assert "No collection of this manifest has one." in text and "failed to load" not in text


def test_a_real_load_failure_is_named(real_like):
    write_manifest, text = real_like
    write_manifest(text + '[[collection]]\nname = "b"\ndatasets = ["broken"]\n'
                   '[[dataset]]\nname = "broken"\npath = "broken.jsonl"\n')
    at = open_page("pages/human_ratings.py", "a")
    text = " ".join(plain(i.value) for i in at.info)
    assert "1 dataset failed to load (named on Overview)" in text


def test_distributions_splits_by_system_with_intervals(real_like):
    at = open_page("pages/distributions.py", "a", facet="system")
    table = next(d.value for d in at.dataframe if "System" in d.value.columns)
    rows = [(40 + i, f"sys{i % 2}") for i in range(len(ROWS) * 3)]
    for system in ("sys0", "sys1"):
        scores = [s for s, name in rows if name == system]
        row = table[table["System"] == system].iloc[0]
        assert row["n"] == len(scores)
        assert row["Mean"] == pytest.approx(sum(scores) / len(scores))
        assert row["95% CI low"] <= row["Mean"] <= row["95% CI high"] and row["95% CI low"] < row["95% CI high"]


def test_titles_default_to_something_readable(write_manifest):
    from judgescope.ingest.manifest import load_manifest

    m = load_manifest(write_manifest('[[collection]]\nname = "gemba_wmt22"\ndatasets = ["my_audit-v2"]\n'
                                     '[[dataset]]\nname = "my_audit-v2"\npath = "x.jsonl"\n'))
    assert m.collections["gemba_wmt22"].title == "Gemba wmt22"
    assert m.datasets["my_audit-v2"].title == "My audit v2"


def test_review_names_the_system_of_the_opened_record(real_like):
    at = open_page("pages/review.py", "a", record="r1")
    captions = [plain(c.value) for c in at.caption]
    assert "System (whose output was judged): sys1" in captions, captions


def test_a_source_language_heading_is_not_read_as_a_pair():
    # "en" is a target (from zh) and a source (to de): a source heading says English alone
    from judgescope.audit.rows import language_heading

    use_language_pairs({"en": "zh"})
    try:
        assert language_heading("en", "Source") == "English (en)"
        assert language_name("en") == "Mandarin Chinese → English (zh-en)"
    finally:
        use_language_pairs({})
