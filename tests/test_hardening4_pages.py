"""Hardening, part 4, on the pages (issue 39 item 15): manifest text shown as text, a manifest
that does not parse named with its line and column, a pager past the end, a read-only reviews
database still read, a huge explanation bounded. Every hostile input is built here."""

import json

import pytest

from apptest import open_page

ROW = {"judge_record_id": "r1", "target_language": "th", "unit": "answer", "score": 5}
LINK, IMAGE = "[click me](http://evil.example/x)", "![pixel](http://evil.example/p.png)"


def _markdown_of(at) -> str:
    """Every Markdown text the run sent (titles, captions, markdown, labels of buttons)."""
    texts = [str(e.value) for kind in ("title", "caption", "markdown", "header", "subheader")
             for e in getattr(at, kind)]
    return "\n".join(texts + [str(b.label) for b in at.button])


def test_manifest_text_on_overview_is_shown_as_text(tmp_path, monkeypatch):
    (tmp_path / "a`x.jsonl").write_text(json.dumps(ROW) + "\n")  # its path shown in the sidebar too
    bad_name = "x` **bold** `y"
    (tmp_path / "sources.toml").write_text(
        f'[[collection]]\nname = "c"\ntitle = "Audit {LINK}"\ndescription = "See {IMAGE} and www.evil.example"\n'
        f'datasets = ["a", {json.dumps(bad_name)}]\n\n'
        '[[collection]]\nname = "d"\ntitle = "Other [link](http://evil.example/o)"\ndatasets = ["a"]\n\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\npath = "a`x.jsonl"\n\n'
        f'[[dataset]]\nname = {json.dumps(bad_name)}\nkind = "judge_audit"\npath = "a`x.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    at = open_page("pages/overview.py", "c")
    shown = _markdown_of(at)
    assert "click me" in shown and "pixel" in shown and "evil" in shown  # the words are there
    for live in ("](http", "![", "www.evil"):  # but no link, image or autolink can form
        assert live not in shown, shown
    assert "`" + bad_name not in shown and "x\\`" in shown, shown  # its code span cannot close
    assert "`a`x.jsonl" not in shown and "a\\`x" in shown, shown  # nor can a path's


@pytest.mark.parametrize("page", ["pages/overview.py", "pages/review.py", "pages/sql_console.py"])
def test_a_manifest_with_a_toml_syntax_error_is_named_on_every_page(tmp_path, monkeypatch, capsys, page):
    from streamlit.testing.v1 import AppTest

    from apptest import APP
    from judgescope.cli import main

    (tmp_path / "sources.toml").write_text('[[collection]]\nname = "c"\ntitle = "C\ndatasets = []\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["collection"] = "c"
    at.run()
    if page != "pages/overview.py":
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(str(e.value) for e in at.error).replace("\\", "").replace("\u2060", "")
    assert main(["validate"]) == 2  # the CLI's words, with the same line and column
    where = capsys.readouterr().err.rsplit("(at ", 1)[1].strip()
    assert "sources.toml is not valid TOML" in said and f"(at {where}" in said and "line 3" in where, said


def _review_sig(collection: str) -> str:
    from judgescope.web import pager

    filters = {"languages": [], "units": [], "origins": [], "run_groups": [], "systems": [], "min_score": 0.0,
               "max_score": 100.0, "q": ""}
    return pager.signature(collection, filters, False)


def _showing(at) -> tuple[int, int, int]:
    import re

    (line,) = [str(m.value) for m in at.markdown if "rows match; showing" in str(m.value)]
    total, first, last = re.search(r"\*\*([\d,]+)\*\* rows match; showing ([\d,]+)–([\d,]+)", line).groups()
    return tuple(int(x.replace(",", "")) for x in (total, first, last))


def test_a_pager_position_past_the_end_shows_the_last_page_and_says_so():
    at = open_page("pages/review.py", "xhotpotqa", after="1000.0~zzz", at="99998", sig=_review_sig("xhotpotqa"))
    total, first, last = _showing(at)
    assert (first, last) == (total - 49, total) and total > 50
    assert any("past the end" in w.value for w in at.warning)
    listed = [f.value for f in at.dataframe if "Judge record id" in f.value.columns]
    assert len(listed[0]) == 50
    assert at.query_params["at"] in (str(first), [str(first)])  # the URL follows


def test_a_hand_edited_row_number_is_counted_again():
    """A cursor inside the list with `at` far past it: the row numbers are counted from the cursor."""
    at = open_page("pages/review.py", "xhotpotqa")
    frame = [f.value for f in at.dataframe if "Judge record id" in f.value.columns][0]
    cursor = f"{float(frame['Score'].iloc[9])!r}~{frame['Judge record id'].iloc[9]}"
    at = open_page("pages/review.py", "xhotpotqa", after=cursor, at="99998", sig=_review_sig("xhotpotqa"))
    total, first, last = _showing(at)
    assert (first, last) == (11, 60)


@pytest.fixture
def read_only_state(tmp_path, monkeypatch):
    """A reviews database holding one verdict on the first Thai row, then made immutable (file
    and folder: root writes through plain permissions, not through chattr +i)."""
    import shutil
    import subprocess

    from judgescope.reviews import verdict_log as reviews

    if not shutil.which("chattr"):
        pytest.skip("chattr is not available")
    folder = tmp_path / "state"
    folder.mkdir()
    path = folder / "reviews.sqlite"
    monkeypatch.setenv("JUDGESCOPE_STATE", str(tmp_path / "scratch.sqlite"))  # the pages cache a
    monkeypatch.delenv("JUDGESCOPE_REVIEWS", raising=False)  # database's state for 30 s, by path
    at = open_page("pages/review.py", "xhotpotqa", lang="th")
    at.selectbox(key="open_record").select_index(1).run()
    record = at.query_params["record"]
    record = record[0] if isinstance(record, list) else record
    monkeypatch.setenv("JUDGESCOPE_STATE", str(path))
    reviews.record(path, reviewer="ann", collection="xhotpotqa", dataset="xhotpotqa_v2_audit",
                   judge_record_id=record, verdict="too_harsh", note="kept")
    for extra in folder.glob("reviews.sqlite-*"):
        extra.unlink()
    if subprocess.run(["chattr", "+i", str(path), str(folder)], capture_output=True).returncode:
        pytest.skip("this file system cannot mark a file immutable")
    yield path, record
    subprocess.run(["chattr", "-i", str(path), str(folder)])


def test_a_read_only_reviews_database_is_read(read_only_state):
    """Item 15: the verdicts of a database that cannot be written are shown; saving is off, said once."""
    from judgescope.reviews import database, verdict_log as reviews

    path, record = read_only_state
    assert reviews.latest(path).judge_record_id.tolist() == [record]
    assert database.unavailable(path) and "Saving verdicts is off" in database.read_only(path)
    at = open_page("pages/review.py", "xhotpotqa", lang="th", record=record)
    said = [w.value for w in at.warning if "Saving verdicts is off" in w.value]
    assert len(said) == 1 and "Reviewing is unavailable" not in " ".join(w.value for w in at.warning)
    assert any("Too harsh" in str(m.value) and "ann" in str(m.value) for m in at.markdown)
    listed = [f.value for f in at.dataframe if "Review" in f.value.columns][0]
    assert "too harsh" in listed["Review"].tolist()
    assert not [b for b in at.button if str(b.key).startswith("review_verdict")]  # nothing to save with
    page = open_page("pages/reviews.py", "xhotpotqa")
    assert [w.value for w in page.warning if "Saving verdicts is off" in w.value]
    assert [m.value for m in page.metric if m.label == "Reviewed rows"] == ["1"]


def test_a_huge_explanation_is_read_and_shown_bounded(tmp_path, monkeypatch):
    """Item 15: a 300,000-character explanation (a 50 MB one took 10-12 s and +500 MB): the
    record reads its first 20,000 characters and its size, the list cell 2,000, and the whole
    text is read only when the reader asks for its download."""
    from judgescope import bounded
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    whole = "".join(f"word{i} " for i in range(40_000))[:300_000] + "END"
    rows = [dict(ROW, judge_record_id=f"r{i}", score=5 + i, judge_explanation="short") for i in range(3)]
    rows[1]["judge_explanation"] = rows[2]["judge_explanation"] = whole
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "sources.toml").write_text('[[collection]]\nname = "c"\ntitle = "C"\ndatasets = ["a"]\n\n'
                                           '[[dataset]]\nname = "a"\nkind = "judge_audit"\npath = "a.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    store = Catalog(load_manifest(tmp_path / "sources.toml"), providers=TABLES).store("c")
    record = store.run("audit_record", record_id="r1").iloc[0]
    assert record.judge_explanation == whole[:bounded.SHOWN_CHARS] and record.judge_explanation_chars == len(whole)
    assert store.run("audit_record_explanation", record_id="r1").judge_explanation.iloc[0] == whole
    at = open_page("pages/review.py", "c", record="r1")
    listed = [f.value for f in at.dataframe if "Explanation" in f.value.columns][0]
    assert listed["Explanation"].str.len().max() == 2_000
    assert any(f"Showing the first 20,000 of {len(whole):,} characters" in str(c.value) for c in at.caption)
    assert not at.get("download_button")  # the whole text is not read until asked
    (ask,) = [t for t in at.toggle if str(t.key).startswith("whole_explanation_")]
    ask.set_value(True).run()
    assert not at.exception and len(at.get("download_button")) == 1
    at.query_params["record"] = "r2"  # another long record: its whole text is read only when asked
    at.run()
    assert not at.exception and not at.get("download_button")
