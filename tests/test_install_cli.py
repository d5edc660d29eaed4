"""Issue #25 items 3 and 4 and issue #40 item 4: the package's declaration (console script,
dependency ranges that hold the pins) and the CLI's manners (report never writes into the
current folder unasked, declared exclusions exit 0, progress as a bar on a terminal and plain
lines when piped, `explain` lists queries). The installed artefact itself: tests/test_wheel.py."""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq

from judgescope.cli import EXIT_OK, main
from judgescope.cli.commands.report import Progress

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_declares_an_installable_package_with_a_console_script():
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = doc["project"]
    assert project["name"] == "judgescope"
    assert project["requires-python"] == ">=3.11"
    assert project["dynamic"] == ["version"]
    assert doc["tool"]["hatch"]["version"]["path"] == "judgescope/__init__.py"
    module, func = project["scripts"]["judgescope"].split(":")
    import importlib

    assert importlib.import_module(module).__dict__[func] is main
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet --no-deps -e ." in makefile


def _pins(path: Path) -> dict[str, str]:
    from packaging.utils import canonicalize_name

    lines = [x.split("#")[0].strip() for x in path.read_text(encoding="utf-8").splitlines()]
    return {canonicalize_name(x.split("==")[0]): x.split("==")[1] for x in lines if "==" in x}


def test_dependencies_are_ranges_that_hold_the_pinned_versions():
    """Issue #40 item 4: the package declares compatible ranges (pip installs it beside another
    pandas or streamlit), and each range holds the exact pin of requirements.txt (or, for [dev],
    requirements-dev.txt) that the suite runs with; the importers' optional package is an extra."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = _pins(ROOT / "requirements.txt")
    dev_pins = pins | _pins(ROOT / "requirements-dev.txt")
    extras = project["optional-dependencies"]
    assert {"dev", "importers"} <= set(extras)
    for declared, pinned in ((project["dependencies"], pins), *((x, dev_pins) for x in extras.values())):
        for text in declared:
            req = Requirement(text)
            assert not any(s.operator in ("==", "===") for s in req.specifier), text
            assert req.specifier, f"{text}: no lower bound"
            name = canonicalize_name(req.name)
            assert name in pinned, f"{text}: not pinned in requirements"
            assert req.specifier.contains(pinned[name]), f"{text} excludes the pinned {pinned[name]}"
    imported = {"streamlit", "pandas", "duckdb", "pyarrow", "numpy", "scipy", "plotly", "datasets",
                "huggingface-hub", "pyyaml", "jinja2", "markupsafe", "fsspec", "tqdm"}
    assert imported <= {canonicalize_name(Requirement(x).name) for x in project["dependencies"]}


def test_report_without_out_prints_json_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["report", "xhotpotqa_v2_audit", "--resamples", "30"]) == EXIT_OK
    out = capsys.readouterr()
    doc = json.loads(out.out)
    rows = pq.read_table(ROOT / "data/demo/xhotpotqa_judge_v2/data").num_rows \
        if (ROOT / "data/demo/xhotpotqa_judge_v2/data").is_dir() else None
    if rows is not None:
        assert doc["summary"]["rows"] == rows
    assert doc["bootstrap"]["resamples"] == 30
    assert "xhotpotqa_v2_audit: loaded" in out.err  # the ledger on stderr, stdout stays JSON
    assert list(tmp_path.iterdir()) == []


def test_report_with_out_names_the_folder(tmp_path, capsys):
    out_dir = tmp_path / "tables"
    assert main(["report", "xhotpotqa_v2_audit", "--resamples", "30", "--out", str(out_dir)]) == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["BOOTSTRAP.json", "BY_LANGUAGE.csv",
                                                        "SUMMARY.json"]
    assert str(out_dir.resolve()) in capsys.readouterr().out


def test_declared_exclusions_are_expected_and_counted(capsys):
    assert main(["validate"]) == EXIT_OK
    out = capsys.readouterr().out
    raw = pq.read_table(next((ROOT / "data/demo/xhotpotqa_judge_v2_raw").rglob("*.parquet")))
    declared = pc.sum(pc.equal(raw["run_group"], "partial_answer_run")).as_py()
    assert declared > 0
    assert f"excluded {declared:,}, {declared:,} as the manifest declares" in out
    assert "EXCLUDED" not in out


def test_undeclared_exclusions_still_exit_1(tmp_path, capsys):
    src = tmp_path / "a.jsonl"
    rows = [{"judge_record_id": "r1", "target_language": "de", "unit": "segment", "score": 50},
            {"judge_record_id": "r2", "target_language": "de", "unit": "segment", "score": 500}]
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert main(["validate", str(src)]) == 1
    assert "EXCLUDED" in capsys.readouterr().out


class _Pipe(io.StringIO):
    def isatty(self):
        return False


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_piped_is_plain_lines():
    out = _Pipe()
    p = Progress(25, 3, 50, file=out)
    for _ in range(25):
        p.step()
    p.close()
    text = out.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert 2 <= len(lines) <= Progress.LINES + 1
    assert lines[-1] == "bootstrap (3 distinct scores, 50 resamples): 25/25 groups"


def test_progress_on_a_terminal_is_a_bar():
    out = _Tty()
    p = Progress(4, 3, 50, file=out)
    for _ in range(4):
        p.step()
    p.close()
    text = out.getvalue()
    assert "\r" in text and "4/4" in text and "bootstrap (3 distinct scores, 50 resamples)" in text


def test_explain_without_a_query_lists_every_query(capsys):
    assert main(["explain"]) == EXIT_OK
    out = capsys.readouterr().out
    listed = {line.split()[0] for line in out.splitlines() if line and not line.startswith("`")}
    assert listed == {p.stem for p in (ROOT / "queries").glob("*.sql")}
