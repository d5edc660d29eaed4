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
    (tmp_path / "a.jsonl").write_text(json.dumps(ROW) + "\n")
    bad_name = "x` **bold** `y"
    (tmp_path / "sources.toml").write_text(
        f'[[collection]]\nname = "c"\ntitle = "Audit {LINK}"\ndescription = "See {IMAGE} and www.evil.example"\n'
        f'datasets = ["a", {json.dumps(bad_name)}]\n\n'
        '[[collection]]\nname = "d"\ntitle = "Other [link](http://evil.example/o)"\ndatasets = ["a"]\n\n'
        '[[dataset]]\nname = "a"\nkind = "judge_audit"\ntitle = "a"\npath = "a.jsonl"\n\n'
        f'[[dataset]]\nname = {json.dumps(bad_name)}\nkind = "judge_audit"\npath = "a.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "sources.toml"))
    at = open_page("pages/overview.py", "c")
    shown = _markdown_of(at)
    assert "click me" in shown and "pixel" in shown and "evil" in shown  # the words are there
    for live in ("](http", "![", "www.evil"):  # but no link, image or autolink can form
        assert live not in shown, shown
    assert "`" + bad_name not in shown and "x\\`" in shown, shown  # its code span cannot close


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
