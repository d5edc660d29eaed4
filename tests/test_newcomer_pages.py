"""Issue 44, what a new user trips on, without a browser: the Reviews page's bases and number
formats, inferred titles, MQM texts on Human ratings and the small contradictions (AppTest and
unit tests; the visual checks are tests/test_newcomer.py)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from judgescope.reviews import verdict_log as reviews
from judgescope.reviews import verdict_stats as reviews_stats
from review_session import state  # noqa: F401 — the fixture

APP = "../app.py"


def _plain(text: str) -> str:
    return str(text).replace("\\", "").replace("\u2068", "").replace("\u2069", "").replace("\u2060", "")


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


# ---- item 10: inferred titles read as the README writes them ----

def test_open_on_the_realdata_folder_titles_and_describes_from_its_readme(realdata):
    """The realdata README describes each file in a table and spells GEMBA, WMT22, MQM, TED,
    en→de and TransEvalnia so: the inferred titles keep those spellings, each collection carries
    its file's description (Overview's caption)."""
    from judgescope.sources import infer_manifest
    from judgescope.ingest.manifest import load_manifest

    found, groups = infer_manifest.write([str(realdata)], realdata / "sources.toml", pin=False)
    titles = {g.name: g.title for g in groups}
    assert titles == {"judge_audit_gemba_wmt22": "Judge audit GEMBA WMT22",
                      "multirater_sxs_mqm_wmt23_ende": "Multirater sxs MQM WMT23 en→de",
                      "pairwise_ted_mqm_ende_human_only": "Pairwise TED MQM en→de human only",
                      "transevalnia_sample_with_wmt21_systems": "TransEvalnia sample with WMT21 systems"}
    manifest = load_manifest(realdata / "sources.toml")
    mqm = manifest.collections["multirater_sxs_mqm_wmt23_ende"]
    assert mqm.title == "Multirater sxs MQM WMT23 en→de"
    assert mqm.description.startswith("Google side-by-side MQM ratings of WMT23 en→de: 1,040 (segment, system)")
    snapshot = manifest.datasets["judge_audit_gemba_wmt22.source_snapshot"]
    assert snapshot.title == "Judge audit GEMBA WMT22 · source snapshot"


@pytest.mark.parametrize("readme_text,name,title,description", [
    # A table with a title column: its title wins; the description column is read too.
    ("| File | Title | Description |\n|---|---|---|\n| `a_run.jsonl` | Run A (WMT24) | First run. |\n",
     "a_run.jsonl", "Run A (WMT24)", "First run."),
    # No README word for it: the file name's own spelling (acronyms, numbers) is kept.
    ("# Notes\nNothing about files.\n", "GEMBA_wmt23-v2.jsonl", "GEMBA wmt23 v2", ""),
    # A word capitalised only at a sentence start is not taken as the spelling.
    ("Audit of runs. | file | what it is |\n", "audit_run.jsonl", "Audit run", ""),
    # A Hub card: pretty_name is not a per-file title; the capitals in its text are.
    ("---\npretty_name: X\n---\n| file | what it is |\n| --- | --- |\n| m.csv | **MQM** scores |\n",
     "m.csv", "M", "MQM scores"),
])
def test_inferred_titles_and_descriptions(tmp_path, readme_text, name, title, description):
    from judgescope.sources import infer

    (tmp_path / "README.md").write_text(readme_text, encoding="utf-8")
    (tmp_path / name).write_text('{"a": 1}\n', encoding="utf-8")
    (found,) = infer.discover([str(tmp_path)])
    assert (found.spec.title, found.description) == (title, description)


# ---- item 8: real MQM segments can be read on Human ratings ----

def test_human_ratings_shows_an_items_texts_and_says_the_file_counts_errors(realdata, write_manifest, monkeypatch):
    """The real side-by-side MQM file has source and target texts and error counts, no spans:
    the page shows the first item's texts and each rater's counts, and says why no span is drawn
    (before, only aggregates, and the span section vanished without a word)."""
    rows = [json.loads(line) for line in
            (realdata / "multirater_sxs_mqm_wmt23_ende.jsonl").read_text(encoding="utf-8").splitlines()]
    first = rows[0]
    mine = [r for r in rows if (r["doc"], r["doc_seg_id"], r["system"]) == (first["doc"], first["doc_seg_id"],
                                                                           first["system"])]
    path = write_manifest('[[collection]]\nname = "mqm"\ndatasets = ["mqm"]\n[[dataset]]\nname = "mqm"\n'
                          'kind = "human_ratings"\npath = "realdata/multirater_sxs_mqm_wmt23_ende.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(path))
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params["collection"] = "mqm"
    at.run()
    at.switch_page("pages/human_ratings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    html = " ".join(h.proto.body for h in at.get("html"))
    assert first["source_text"] in html and first["target_text"] in html
    captions = [_plain(c.value) for c in at.caption]
    assert any("This file records error counts per rating (n_major, n_minor, n_minor_punct, n_nontranslation, "
               "n_source_issue), not error spans" in c for c in captions), captions
    for r in mine:  # each rating's verdict, MQM and the counts above zero, as in the file
        counted = [f"{k[2:].replace('_', ' ')} {v}" for k, v in r.items() if k.startswith("n_") and v]
        line = f"{r['rater']} — {r['verdict']} · MQM {r['mqm']:g} · " + (
            "errors: " + ", ".join(counted) if counted else "no errors counted")
        assert line in captions, (line, [c for c in captions if "rater" in c])


# ---- item 11: dead ends and quiet contradictions ----

def test_compare_on_unpaired_samples_links_the_paired_collection():
    """XHotpotQA's V1 and V2 scored different units: the box says so and links the collections
    that pair another run with V2 (the re-score); the header names the versions by title."""
    from apptest import open_page

    at = open_page("pages/compare.py", "xhotpotqa")
    assert any("The samples are unpaired" in _plain(e.value) for e in at.error)
    links = {(_plain(p.proto.label), p.proto.page) for p in at.get("page_link")}
    assert any("A paired comparison with this audit: XHotpotQA V2 re-score, paired with V2" == label
               for label, _ in links), links
    captions = [_plain(c.value) for c in at.caption]
    assert any(c.startswith("Previous: XHotpotQA V1") and "current: XHotpotQA V2 RC1 · GLM-5.2 judge audit" in c
               for c in captions), captions


def test_every_page_has_its_own_icon():
    from judgescope import navigation

    icons = [p.icon for p in navigation.PAGES]
    assert len(set(icons)) == len(icons), sorted(i for i in icons if icons.count(i) > 1)


@pytest.mark.parametrize("text", [":smile:", ":material/warning:", "x :+1: y", "mailto:a", "HTTPS://x.y"])
def test_md_literal_still_breaks_shortcodes_and_schemes(text):
    """The word joiner stays where a shortcode or a scheme would start (a ':' followed by a word)."""
    import re

    from judgescope.text import md_literal

    unescaped = re.sub(r"\\(.)", r"\1", md_literal(text)).strip("\u2068\u2069")
    assert not re.search(r":[\w+/-]", unescaped), repr(unescaped)
    assert unescaped.replace("\u2060", "") == text


def test_a_sentence_in_md_literal_carries_no_word_joiner():
    from judgescope.text import md_literal

    shown = md_literal("Judge gptoss: π = 0.86 (n = 100). It disagrees on 7 items.", isolate=False)
    assert "\u2060" not in shown


def test_disagreements_counts_are_the_chosen_judges():
    """With judge=gptoss the counts above the list are gptoss's (7 disagreements, as Overview's
    finding says), not the panel's 10, and match the list beneath."""
    from apptest import open_page

    at = open_page("pages/disagreements.py", "localgate", judge="gptoss")
    assert not at.warning, [w.value for w in at.warning]  # the judge's name is read, not refused
    metrics = {_plain(m.label): m.value for m in at.metric}
    assert metrics["gptoss: disagreements with the human majority"] == "7", metrics
    listed = next(d.value for d in at.dataframe if "Key" in d.value.columns[:2])
    assert len(listed) == 7
    assert any("gptoss · All disagreements (FP + FN): 7 items" in _plain(h.value) for h in at.header)


def test_ranking_says_why_two_methods_are_equal_in_every_cell():
    """On the TransEvalnia demo two_step_scoring decides as two_step_ranking on every pair, for
    both models: the page says so, and why (the demo writes the scores from that decision)."""
    from apptest import open_page

    at = open_page("pages/ranking.py", "transevalnia")
    said = " ".join(_plain(i.value) for i in at.info)
    assert ("Equal rows: two_step_ranking and two_step_scoring for claude (260 pairs); two_step_ranking and "
            "two_step_scoring for qwen (260 pairs) pick the same translation on every pair") in said, said
    assert "This synthetic demo writes each two-step score to agree with the two-step ranking" in said


def test_identical_methods_needs_every_pair_alike():
    import pandas as pd

    from judgescope.ranking import decisions as ranking

    def frame(second):
        rows = [("f", i, m, "x", d) for i, d in enumerate([1, 2, None]) for m in ("one_step_ranking",)]
        rows += [("f", i, "two_step_ranking", "x", d) for i, d in enumerate(second)]
        return pd.DataFrame(rows, columns=["file", "row", "method", "model", "decision"])
    assert ranking.identical_methods(frame([1, 2, None])) == [
        {"model": "x", "methods": ("one_step_ranking", "two_step_ranking"), "pairs": 3}]
    assert len(ranking.identical_methods(frame([1, 2, 0]))) == 1  # a tie picks none, as unparsed
    assert ranking.identical_methods(frame([1, 1, None])) == []
    assert ranking.identical_methods(frame([1, 2, 1])) == []


# ---- item 12: cosmetic ----

def test_every_command_help_is_a_whole_sentence():
    """`judgescope --help` gives each command one whole sentence: before, the docstring's first
    line, cut mid-sentence ("… (the pages' numbers),")."""
    from pathlib import Path

    from judgescope import cli

    names = [p.stem.replace("_", "-") for p in (Path(cli.__file__).parent / "commands").glob("*.py")
             if p.stem != "__init__"]
    assert len(names) > 10
    for name in names:
        said = cli._summary(name)
        assert said and said[-1] in ".?!", (name, said)


def test_integrity_row_titles_say_nothing_of_a_missing_paragraph():
    from judgescope.integrity.hashes import row_title

    row = {"judge_record_id": "r1", "target_language": "de", "unit": "segment", "paragraph_id": None,
           "snapshot_rows": 1, "hint": None}
    assert row_title(row) == "r1 · de · segment · snapshot rows 1"
    assert "paragraph_id 3 ·" in row_title(dict(row, paragraph_id=3))


def test_raters_are_listed_as_a_person_counts():
    from judgescope.calibration import human_ratings as hr

    frame = pd.DataFrame({"item": ["a", "a", "b", "b", "c"], "score": [1.0, 2.0, 3.0, 4.0, 5.0],
                          "rater": ["rater10", "rater2", "rater1", "rater10", "rater2"]})
    assert hr.per_rater(frame, "score", None)["rater"].tolist() == ["rater1", "rater2", "rater10"]
    cover = hr.coverage(frame)
    assert cover["rater"].tolist() == ["rater1", "rater2", "rater10"] == list(cover.columns[1:])


# ---- item 9: an upload a reload forgot is said on the page ----

def test_a_link_to_an_upload_this_session_lacks_says_it_is_gone_and_offers_the_upload_box(monkeypatch):
    """F5 on an uploaded collection starts a new session without the upload: the page says so (not
    only a passing toast) and links to Overview with the upload box open."""
    monkeypatch.setenv("JUDGESCOPE_ALLOW_UPLOAD", "1")
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = "upload-scores-0123abcd-89abcdef"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(_plain(w.value) for w in at.warning)
    assert "uploaded in an earlier session of the page" in said and "reloaded or closed" in said, said
    (link,) = [p for p in at.get("page_link") if "Upload it again" in p.proto.label]
    assert link.proto.query_string == "collection=xhotpotqa&upload=again"
    at.query_params["upload"] = "again"
    at.switch_page("pages/overview.py").run()
    upload_box = [e for e in at.expander if e.label.startswith("Open a file of your own")]
    assert upload_box and upload_box[0].proto.expanded


def test_exact_copies_matrix_names_its_languages():
    from apptest import open_page

    at = open_page("pages/exact_copies.py", "xhotpotqa")
    matrix = next(d.value for d in at.dataframe if "Language" in d.value.columns and "Total" in d.value.columns)
    assert "Thai (th)" in matrix["Language"].tolist() and "th" not in matrix["Language"].tolist()


def test_the_sidebar_says_collection_once():
    from apptest import open_page

    at = open_page("pages/overview.py", "xhotpotqa")
    said = [_plain(c.value) for c in at.sidebar.caption] + [s.label for s in at.sidebar.selectbox]
    assert said.count("Collection") == 1, said
