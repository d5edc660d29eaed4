"""Every number, badge and verdict a report shows is bound to its manifest entry (`data-n`), and
check-report compares what a reader sees with the manifest before it recomputes the manifest:
real reports written by the CLI, edited by hand as a reader's copy could be, exit 1 naming the
element; the unedited ones exit 0."""

import re
from html import unescape
from pathlib import Path

import pytest

from judgescope import cli
from judgescope.report import html as report_html
from judgescope.report import visible

AT = "2026-12-01T12:00:00+00:00"
ARGS = {"localgate": [], "xhotpotqa": ["--resamples", "200"], "transevalnia": []}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Each demo collection's report as the CLI writes it: {collection: text}."""
    folder = tmp_path_factory.mktemp("bound")
    out = {}
    for name, extra in ARGS.items():
        path = folder / f"{name}.html"
        cli.main(["report-html", name, "--out", str(path), "--generated-at", AT] + extra)
        out[name] = path.read_text(encoding="utf-8")
    return out


def _check(tmp_path: Path, text: str, capsys) -> tuple[int, str]:
    path = tmp_path / "edited.html"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    code = cli.main(["check-report", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _replace_once(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize("name", list(ARGS))
def test_an_unedited_report_passes_and_binds_its_numbers(written, tmp_path, capsys, name):
    text = written[name]
    code, said = _check(tmp_path, text, capsys)
    assert code == 0, said
    manifest = report_html.read_manifest(text)
    shown = [e for e in manifest["numbers"] if e["elements"]]
    assert len(shown) >= 0.8 * len(manifest["numbers"])
    # Each bound element's text is its entry's shown value, read from the HTML independently.
    entries = {e["id"]: e["shown"] for e in manifest["numbers"]}
    for key, inner in re.findall(r'<(?:span|tspan) data-n="([^"]+)">([^<]*)</', text):
        assert entries[unescape(key)] == unescape(inner)


EDITS = [
    # (collection, old, new, what the output must name)
    ("localgate", '<span data-n="calibration.panel.badge">FAIL · inconclusive</span>',
     '<span data-n="calibration.panel.badge">PASS</span>', "calibration.panel.badge"),
    ("localgate", "1999/2499 = 0.79992 &lt; 0.8", "2000/2499 = 0.80032 ≥ 0.8", "calibration.panel.sentence"),
    ("localgate", '<span class="badge orange"><span data-n="calibration.panel.badge">FAIL · inconclusive</span></span>',
     '<span class="badge green">PASS</span>', "a badge bound to no manifest entry"),
    ("localgate", '<tspan data-n="calibration.panel.tp">44</tspan>', '<tspan data-n="calibration.panel.tp">54</tspan>',
     "calibration.panel.tp"),  # a number drawn in an SVG chart (the confusion matrix)
    ("localgate", '<span data-n="calibration.panel.ci_high">0.901</span>', "0.951", "bound to no manifest entry"),
    ("xhotpotqa", '<span data-n="audit.cell.th.answer.mean">65.30</span>',
     '<span data-n="audit.cell.th.answer.mean">75.30</span>', "audit.cell.th.answer.mean"),
    ("xhotpotqa", '<tspan data-n="audit.cell.th.answer.mean">65.30</tspan>',
     '<tspan data-n="audit.cell.th.answer.mean">75.30</tspan>', "audit.cell.th.answer.mean"),
    ("xhotpotqa", '<span data-n="audit.weak.badge">WEAK CELLS</span>',
     '<span data-n="audit.weak.badge">NO WEAK CELL</span>',
     "audit.weak.badge"),
    ("xhotpotqa", "</h2>", "</h2><p>Mean judge score 97.10 over every row.</p>", "“Mean judge score 97.10"),
    ("transevalnia", '<span data-n="ranking.results.0.n">18</span>', '<span data-n="ranking.results.0.n">19</span>',
     "ranking.results.0.n"),  # a number in a table
    ("transevalnia", '<span data-n="ranking.best.badge">ABOVE COIN</span>', "ABOVE COIN", "ABOVE COIN"),
    # A label moved to another row: the weakest cell said to be Greek's.
    ("xhotpotqa", '<span data-n="audit.cell.th.answer.language.label">Thai (th)</span>',
     '<span data-n="audit.cell.th.answer.language.label">Greek (el)</span>', "audit.cell.th.answer.language.label"),
    ("localgate", '<span data-n="calibration.panel.label">panel (strict majority of 3 judges)</span>',
     '<span data-n="calibration.panel.label">qwen</span>', "calibration.panel.label"),
]


@pytest.mark.parametrize("name,old,new,named", EDITS, ids=[f"{e[0]}-{i}" for i, e in enumerate(EDITS)])
def test_a_hand_edit_of_what_a_reader_sees_exits_1_naming_it(written, tmp_path, capsys, name, old, new, named):
    code, said = _check(tmp_path, _replace_once(written[name], old, new), capsys)
    assert code == 1, said
    assert named in said
    assert "do not show what its manifest records" in said


# Edits that change no number and no verdict word, and so no bound element: what a reader takes
# from the report still changes. (collection, old, new, what the output must quote)
REWORDED = [
    # The weak cells' rule turned round.
    ("xhotpotqa", "lies below the overall mean", "lies above the overall mean", "lies above the overall mean"),
    # A verdict badge's colour: an orange FAIL shown green.
    ("localgate", '<span class="badge orange"><span data-n="calibration.panel.badge">',
     '<span class="badge green"><span data-n="calibration.panel.badge">', 'class="badge green"'),
    # A script that rewrites the page in the reader's browser, after check-report read the file.
    ("localgate", "</body>", "<script>document.body.innerHTML = document.body.innerHTML"
     ".replaceAll('FAIL', 'PASS')</script></body>", "replaceAll"),
    # A sentence of the method taken out.
    ("transevalnia", "always choosing Translation 1 would score", "choosing at random would score",
     "choosing at random would score"),
]


@pytest.mark.parametrize("name,old,new,quoted", REWORDED, ids=[f"{e[0]}-{i}" for i, e in enumerate(REWORDED)])
def test_an_edit_of_the_wording_exits_1_quoting_both_readings(written, tmp_path, capsys, name, old, new, quoted):
    """Every number still equals its entry and its recomputed value, so only the whole document
    rendered again from the data (report/wording.py) tells: before, check-report said all equal."""
    code, said = _check(tmp_path, _replace_once(written[name], old, new), capsys)
    assert code == 1, said
    assert "does not read as its data gives it" in said and quoted in said
    assert "do not show what its manifest records" not in said  # no bound element was touched
    assert "whole report reads as its data gives it" not in said


def test_two_rows_swapped_are_named_in_a_readers_words(written, tmp_path, capsys):
    """Every element still shows its entry, once: only the order says which row is which."""
    text = written["xhotpotqa"]
    first, second = list(re.finditer(r'<tr><th scope="row">.*?</tr>', text))[:2]
    swapped = (text[:first.start()] + second.group(0) + text[first.end():second.start()] + first.group(0)
               + text[second.end():])
    code, said = _check(tmp_path, swapped, capsys)
    assert code == 1, said
    # One of the two rows is named as moved (left out where the data has it, shown where it has
    # not), in its words as a reader sees them.
    words = [" ".join(re.sub(r"<[^>]+>", " ", row.group(0)).split()) for row in (first, second)]
    assert any(f"leaves out “{w}" in said and f"shows “{w}" in said for w in words), said


def test_the_wording_check_names_what_the_data_gives_and_ignores_indentation(written, tmp_path, capsys):
    text = written["xhotpotqa"]
    code, said = _check(tmp_path, _replace_once(text, "lies below the overall mean", "lies above the overall mean"),
                        capsys)
    assert "where its data gives “Cells whose whole 95 % CI lies below the overall mean" in said
    # Re-indented by an editor: the same tags and words, so the same report.
    page, manifest = text.split('<script type="application/json"', 1)
    code, said = _check(tmp_path, page.replace("<p>", "\n  <p>").replace("<li>", "\n    <li>")
                        + '<script type="application/json"' + manifest, capsys)
    assert code == 0, said
    assert "the whole report reads as its data gives it" in said


def test_edits_all_over_a_report_are_named_from_the_first_without_aligning_them(written, monkeypatch):
    """Past ALIGNED tokens between the first and last difference, the first is named with the
    span's size (aligning them all costs the square of the span: a hostile file must not hang
    check-report); below it, each place is named."""
    from judgescope.report import wording
    text = written["xhotpotqa"]
    edited = text.replace("lies below the overall mean", "lies above the overall mean", 1).replace(
        '<script type="application/json"', '<p>added</p><script type="application/json"', 1)
    assert edited.count("<p>added</p>") == 1
    places = wording.differences(edited, text)
    assert len(places) == 2 and "lies above" in places[0] and "shows “added”, which its data does not give" in places[1]
    monkeypatch.setattr(wording, "ALIGNED", 10)
    [place] = wording.differences(edited, text)
    assert "lies above the overall mean" in place and "reads otherwise from there over" in place
    assert wording.differences(text, text) == []


def test_a_report_checked_by_other_code_is_listed_with_a_note_not_passed(written, tmp_path, capsys, monkeypatch):
    """Checked by another version than the one that wrote it (its manifest's `app`): a wording
    that differs is still exit 1, with the note that this version may write it differently."""
    from judgescope.report import assemble
    monkeypatch.setattr(assemble, "app_version", lambda: {"version": "9.9.9", "commit": None})
    text = _replace_once(written["xhotpotqa"], "lies below the overall mean", "lies above the overall mean")
    code, said = _check(tmp_path, text, capsys)
    assert code == 1, said
    assert "lies above the overall mean" in said and "is checked by 9.9.9" in said


def test_an_edit_of_text_and_manifest_together_is_caught_by_the_recompute(written, tmp_path, capsys):
    """Editing the manifest's shown text along with the element: the element matches, the
    recomputed entry does not."""
    text = written["localgate"].replace('data-n="calibration.panel.badge">FAIL · inconclusive<',
                                        'data-n="calibration.panel.badge">PASS<')
    text = text.replace('"shown": "FAIL \\u00b7 inconclusive"', '"shown": "PASS"')
    assert '"shown": "PASS"' in text
    code, said = _check(tmp_path, text, capsys)
    assert code == 1
    assert "calibration.panel.badge: shown PASS, now FAIL · inconclusive" in said
    assert "do not show what its manifest records" not in said


def test_a_removed_bound_element_is_named(written, tmp_path, capsys):
    text = re.sub(r"<tr><th scope=\"row\"><bdi><span data-n=\"audit.cell.th.answer.language.label\">.*?</tr>", "",
                  written["xhotpotqa"], count=1)
    assert text != written["xhotpotqa"]
    code, said = _check(tmp_path, text, capsys)
    assert code == 1
    assert "audit.cell.th.answer.mean: shown by" in said


def test_a_forest_tick_relabelled_or_moved_is_named(written, tmp_path, capsys):
    text = written["localgate"]
    assert '>0.25</text>' in text and '>0.75</text>' in text
    code, said = _check(tmp_path, text.replace('>0.75</text>', '>0.8</text>', 1), capsys)
    assert code == 1 and "the axis label “0.8” stands where the axis reads 0.75" in said


def test_every_tick_label_reads_its_position(written):
    """Issue 44.1: each SVG tick and reference label, read back from the HTML, states the value at
    its position on the chart's axis (its scale read from the chart, independently of the code
    that drew it), and no two ticks of one chart read alike."""
    for name, text in written.items():
        charts = re.findall(r'<(?:svg|g)[^>]*data-axis="(x|y)" data-lo="([^"]+)" data-hi="([^"]+)" '
                            r'data-p0="([^"]+)" data-p1="([^"]+)">(.*?)(?=<(?:svg|g)[^>]*data-axis|</svg>)', text, re.S)
        assert charts, name
        for axis, lo, hi, p0, p1, body in charts:
            lo, hi, p0, p1 = map(float, (lo, hi, p0, p1))
            labels = re.findall(r'<text class="(?:tick|reflabel)" x="([^"]+)" y="([^"]+)"[^>]*>(.*?)</text>', body)
            ticks = []
            for x, y, label in labels:
                plain = re.sub(r"<[^>]+>", "", label)
                number = re.search(r"-?\d[\d,.]*", plain)
                if not number:
                    continue
                value = float(number.group(0).replace(",", "")) / (100 if "%" in plain else 1)
                pos = float(y if axis == "y" else x)
                assert abs(lo + (pos - p0) / (p1 - p0) * (hi - lo) - value) < 1e-6, (name, plain, pos)
                ticks.append(plain)
            assert len(ticks) == len(set(ticks)) or axis == "x", (name, ticks)
    assert visible.axis_problems(visible.read(written["localgate"])) == []


def test_histogram_labels_stay_readable(written):
    """Issue 44.7: the histograms are drawn narrow enough that their 13 px labels stay >= 10 px
    in the smallest column the layout gives them (300 px)."""
    css = re.search(r"<style>(.*?)</style>", written["xhotpotqa"], re.S).group(1)
    size = float(re.search(r"svg\.hist text\.tick \{[^}]*font-size: (\d+)px", css).group(1))
    width = float(re.search(r'<svg class="chart hist"[^>]*viewBox="0 0 (\d+)', written["xhotpotqa"]).group(1))
    column = float(re.search(r"\.multiples \{[^}]*minmax\((\d+)px", css).group(1))
    assert size * column / width >= 10


# --- untrusted manifests, arguments and --out (issue 39 items 4, 5 and 12) ---------------------

def _with_manifest(text: str, manifest_json: str) -> str:
    head, rest = text.split('<script type="application/json" id="judgescope-manifest">', 1)
    return f'{head}<script type="application/json" id="judgescope-manifest">{manifest_json}</script>' + \
        rest.split("</script>", 1)[1]


def _manifest_edits(text: str) -> dict:
    import json

    m = report_html.read_manifest(text)
    out = {"resamples 10**12": {**m, "resamples": 10**12}, "resamples 5e7": {**m, "resamples": 50_000_000},
           "seed -1": {**m, "seed": -1}, "no seed": {k: v for k, v in m.items() if k != "seed"},
           "entry without id": {**m, "numbers": [{"value": 1, "shown": "1"}]},
           "numbers as text": {**m, "numbers": "all"},
           "files as a number": {**m, "datasets": [{"name": "x", "files": 3}]}}
    out = {k: json.dumps(v) for k, v in out.items()}
    out["a list"], out["a string"] = "[1, 2]", '"report"'
    out["100,000 deep"] = "[" * 100_000 + "]" * 100_000
    return out


@pytest.mark.parametrize("case", ["resamples 10**12", "resamples 5e7", "seed -1", "no seed", "entry without id",
                                  "numbers as text", "files as a number", "a list", "a string", "100,000 deep"])
def test_a_hostile_manifest_is_refused_before_any_work(written, tmp_path, capsys, case):
    text = _with_manifest(written["localgate"], _manifest_edits(written["localgate"])[case])
    code, said = _check(tmp_path, text, capsys)
    assert code == 2, said
    assert "Traceback" not in said and said.startswith("error: edited.html:"), said
    assert len(said.strip().splitlines()) == 1


@pytest.mark.parametrize("argv,said", [
    (["--resamples", "1000000000000"], "resamples are a whole number"),
    (["--seed", "-1"], "a seed is a whole number"),
])
def test_report_html_refuses_unusable_numbers(tmp_path, capsys, argv, said):
    with pytest.raises(SystemExit) as stop:
        cli.main(["report-html", "localgate", "--out", str(tmp_path / "r.html")] + argv)
    assert stop.value.code == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_report_html_checks_out_before_any_work(tmp_path, capsys, monkeypatch):
    from judgescope.report import assemble

    def no_work(*a, **k):
        raise AssertionError("the report was assembled before --out was checked")
    monkeypatch.setattr(assemble, "collect", no_work)
    assert cli.main(["report-html", "localgate", "--out", str(tmp_path / "missing/folder/x.html")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    existing = tmp_path / "x.html"
    existing.write_text("keep me")
    assert cli.main(["report-html", "localgate", "--out", str(existing)]) == 2
    assert "--force" in capsys.readouterr().err and existing.read_text() == "keep me"


def test_force_replaces_and_sign_pins_the_bytes(tmp_path, capsys):
    out = tmp_path / "x.html"
    out.write_text("old")
    assert cli.main(["report-html", "localgate", "--out", str(out), "--force", "--sign", "--generated-at", AT]) == 0
    sig = tmp_path / "x.html.sha256"
    assert sig.read_text().endswith("  x.html\n")
    assert cli.main(["check-report", str(out), "--sig", str(sig)]) == 0
    # A change no element check sees (a colour) still breaks the signature.
    out.write_text(out.read_text(encoding="utf-8").replace("--ok: #1a7f37", "--ok: #1a7f38"), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["check-report", str(out), "--sig", str(sig)]) == 1
    assert "was changed after it was written" in capsys.readouterr().out


def test_declared_exclusions_exit_0_as_validate_does(tmp_path, capsys):
    """xhotpotqa's raw records exclude 240 rows by the manifest's own rule: validate exits 0 for
    them, and so does report-html (one rule, cli.unexpected_excluded)."""
    assert cli.main(["validate", "xhotpotqa_v2_raw"]) == 0
    out = tmp_path / "x.html"
    assert cli.main(["report-html", "xhotpotqa", "--out", str(out), "--resamples", "50"]) == 0
    assert "240 as the manifest declares" in capsys.readouterr().out


HUMAN_ONLY = [{"src_text": f"Source {i}.", "src_lang": "en", "tgt_lang": "de", "seg_id": i,
               "translations": [f"Quelle {i}.", f"Die Quelle {i}."], "translators": ["sysA", "sysB"],
               "human_scores": {"sysA": -float(i % 3), "sysB": -1.0}, "human_best": "tie"} for i in range(6)]


@pytest.fixture
def human_only_pairs(tmp_path, monkeypatch):
    import json

    folder = tmp_path / "pairs"
    folder.mkdir()
    (folder / "pairs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in HUMAN_ONLY))
    (folder / "sources.toml").write_text('[[collection]]\nname = "pairs"\ndatasets = ["pairs"]\n\n[[dataset]]\n'
                                         'name = "pairs"\nkind = "pairwise_ranking"\npath = "pairs.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(folder / "sources.toml"))
    return folder


def test_pairs_without_model_decisions_give_a_report(human_only_pairs, tmp_path, capsys):
    out = tmp_path / "pairs.html"
    assert cli.main(["report-html", "pairs", "--out", str(out), "--generated-at", AT]) == 0
    text = out.read_text(encoding="utf-8")
    assert "PAIRS ONLY" in text and "No model decisions" in text
    assert cli.main(["check-report", str(out)]) == 0


def test_download_report_builds_those_pairs_or_says_why(human_only_pairs, monkeypatch):
    from judgescope.web import export

    data = export.build_report("pairs")
    assert b"PAIRS ONLY" in data and export.FAILED.get("pairs") is None
    monkeypatch.setattr(export, "report_html", lambda name: 1 / 0)
    data = export.build_report("pairs")
    assert b"could not be built" in data and "ZeroDivisionError" in export.FAILED["pairs"]


def test_overview_says_why_the_last_report_failed(monkeypatch):
    """The download runs on its own thread: a failure is said on the page at its next run."""
    from apptest import open_page
    from judgescope.web import export

    monkeypatch.setitem(export.FAILED, "localgate", "ZeroDivisionError: division by zero")
    at = open_page("pages/overview.py", "localgate")
    assert any("could not be built" in e.value and "ZeroDivisionError" in e.value for e in at.error)


def test_report_out_is_one_contract_with_report_html(tmp_path, capsys, monkeypatch):
    """Issue 41 item 5 (the report commands): `report --out` is a folder whose parent exists,
    checked before the audit is read (a missing parent or a file: exit 2, one sentence)."""
    from judgescope import cli as cli_module

    def no_work(*a, **k):
        raise AssertionError("the audit was read before --out was checked")
    monkeypatch.setattr("judgescope.cli.commands.report.load_source", no_work)
    assert cli_module.main(["report", "xhotpotqa_v2_audit", "--out", str(tmp_path / "missing/tables")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "a-file").write_text("x")
    assert cli_module.main(["report", "xhotpotqa_v2_audit", "--out", str(tmp_path / "a-file")]) == 2
    assert "that is a file, not a folder" in capsys.readouterr().err


def test_a_report_made_from_a_file_is_checked_with_source(tmp_path, capsys):
    import json

    data = tmp_path / "audit.jsonl"
    data.write_text("".join(json.dumps({"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment",
                                        "score": float(60 + i % 30)}) + "\n" for i in range(30)))
    out = tmp_path / "r.html"
    assert cli.main(["report-html", str(data), "--out", str(out), "--resamples", "50"]) == 0
    assert cli.main(["check-report", str(out)]) == 2
    assert "--source" in capsys.readouterr().err
    assert cli.main(["check-report", str(out), "--source", str(data)]) == 0
    data.write_text(data.read_text().replace('"score": 60.0', '"score": 10.0'))
    capsys.readouterr()
    assert cli.main(["check-report", str(out), "--source", str(data)]) == 1
    assert "audit.overall.mean: shown" in capsys.readouterr().out


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    from judgescope.cli.commands import check_report

    monkeypatch.setattr(check_report, "MAX_BYTES", 1000)
    path = tmp_path / "big.html"
    path.write_text("x" * 1001)
    assert cli.main(["check-report", str(path)]) == 2
    assert "more than any report's" in capsys.readouterr().err


def test_an_edited_not_measured_line_is_named_twice(written, tmp_path, capsys):
    """A 'Not measured, and why' line edited in both the page and the manifest: the page matches
    its manifest, and the recompute names the line."""
    import json

    text = written["xhotpotqa"]
    line = report_html.read_manifest(text)["not_measured"][0]
    fake = "Nothing was left unmeasured."
    edited = text.replace(markupsafe_escape(line), fake, 1).replace(json.dumps(line), json.dumps(fake), 1)
    assert edited.count(fake) == 2
    code, said = _check(tmp_path, edited, capsys)
    assert code == 1 and "not measured: “Nothing was left unmeasured.” (in the report, no longer true)" in said


def markupsafe_escape(text: str) -> str:
    import markupsafe

    return str(markupsafe.escape(text))


def _collections() -> list[str]:
    from judgescope.ingest.manifest import load_manifest

    return list(load_manifest().collections)


@pytest.mark.parametrize("name", _collections())
def test_every_demo_collection_shows_only_bound_numbers(tmp_path, name):
    """A guard for new report sections: in every collection of the demo manifest, each number,
    badge and verdict shown is bound and shows its entry (a section that formats a number into
    plain text would make check-report fail an unedited report)."""
    path = tmp_path / f"{name}.html"
    cli.main(["report-html", name, "--out", str(path), "--generated-at", AT, "--resamples", "100"])
    text = path.read_text(encoding="utf-8")
    assert visible.problems(text, report_html.read_manifest(text)) == []


def test_a_data_text_changed_with_every_number_is_told_as_the_data_s_change(tmp_path, capsys):
    """Every number holds, but a word the report shows from the data (an explanation theme's
    term, bound by its place, not its word) reads otherwise because the data file changed: the
    place is named (exit 1), said to be possibly the data's change, not an edit."""
    import json

    from judgescope import defaults

    low = defaults.THEME_THRESHOLD - 30
    rows = [{"judge_record_id": f"r{i}", "target_language": "de", "unit": "segment",
             "score": float(low if i % 2 else 95),
             "judge_explanation": "stilted wording throughout" if i % 2 else "natural and accurate"}
            for i in range(4 * defaults.THEME_MIN_COUNT + 20)]
    data = tmp_path / "audit.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "r.html"
    assert cli.main(["report-html", str(data), "--out", str(out), "--resamples", "50"]) == 0
    assert "stilted" in out.read_text(encoding="utf-8")  # a theme the report shows
    capsys.readouterr()
    data.write_text(data.read_text(encoding="utf-8").replace("stilted", "wooden"), encoding="utf-8")
    assert cli.main(["check-report", str(out), "--source", str(data)]) == 1
    said = capsys.readouterr().out
    assert "changed since the report" in said and "wooden" in said and "stilted" in said
    assert "may be that change, not an edit" in said and "edited after it was written" not in said
    # Each replaced place reads two ways: a long text that parts late (the manifest's JSON, whose
    # pinned sha256 changed) is quoted from where the two part, not as two equal beginnings.
    pairs = re.findall(r"shows “(.*?)” where its data gives “(.*?)”", said)
    assert pairs and all(shown != gives for shown, gives in pairs)
