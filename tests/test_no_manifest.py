"""Issue #40 item 2: a command given files never needs a manifest. From an empty folder, with
JUDGESCOPE_SOURCES naming a file that does not exist, every command that takes a file works; a
manifest is read only for a name, and a name not found says which manifest was read and why."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from judgescope.cli import EXIT_UNUSABLE, main
from judgescope.sources import catalog

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
FILES = {"audit.parquet": "xhotpotqa_judge_v2/data/xhotpotqa_glm52_judge_v2-audit.parquet",
         "snapshot.parquet": "xhotpotqa_v2_snapshot/data/xhotpotqa_v2_rc1-train.parquet",
         "rescore.parquet": "xhotpotqa_judge_v2_rescore/data/xhotpotqa_glm52_judge_v2_rescore-audit.parquet",
         "ratings.parquet": "mqm_ratings/data/mqm_ratings-train.parquet",
         "items.parquet": "localgate_calibration/data/calibration_items-train.parquet",
         "judgements.parquet": "localgate_calibration/data/calibration-train.parquet"}


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """An empty current folder and an active manifest that does not exist."""
    data = tmp_path / "data"
    data.mkdir()
    for name, source in FILES.items():
        shutil.copy(DEMO / source, data / name)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(tmp_path / "missing" / "sources.toml"))
    catalog._catalog.cache_clear()
    yield data
    catalog._catalog.cache_clear()


@pytest.mark.parametrize("args", [
    ["validate", "{data}/audit.parquet"],
    ["report", "{data}/audit.parquet", "--resamples", "20"],
    ["verify", "{data}/audit.parquet", "{data}/snapshot.parquet"],
    ["agreement", "{data}/ratings.parquet", "--resamples", "20"],
    ["calibrate", "{data}/items.parquet", "{data}/judgements.parquet"],
    ["report-html", "{data}/audit.parquet", "--out", "{data}/audit.html", "--resamples", "20"],
    ["drift", "{data}/audit.parquet", "{data}/rescore.parquet", "--resamples", "20"],
    ["probe-length", "{data}/audit.parquet", "{data}/snapshot.parquet"],
], ids=lambda a: a[0])
def test_a_command_given_files_reads_no_manifest(elsewhere, args, capsys):
    code = main([a.format(data=elsewhere) for a in args])
    said = capsys.readouterr()
    assert code in (0, 1), said.out[-1500:] + said.err[-1500:]
    assert "manifest" not in said.err


def test_report_html_of_a_file_writes_the_report(elsewhere, capsys):
    out = elsewhere / "r.html"
    assert main(["report-html", str(elsewhere / "audit.parquet"), "--out", str(out), "--resamples", "20"]) in (0, 1)
    assert "judgescope_report" in out.read_text(encoding="utf-8")


def test_a_file_given_by_a_bare_name_in_the_current_folder_is_a_file(elsewhere, monkeypatch, capsys):
    monkeypatch.chdir(elsewhere)
    assert main(["validate", "audit.parquet"]) == 0
    assert "loaded 2,760 = used 2,760" in capsys.readouterr().out


def test_a_name_reads_the_manifest_and_says_which(elsewhere, capsys):
    assert main(["report", "xhotpotqa_v2_audit"]) == EXIT_UNUSABLE
    err = capsys.readouterr().err
    assert f"manifest not found: sources.toml (JUDGESCOPE_SOURCES={elsewhere.parent}/missing/sources.toml" in err


def test_a_name_not_in_the_demo_says_the_demo_was_read(elsewhere, monkeypatch, capsys):
    monkeypatch.delenv("JUDGESCOPE_SOURCES")
    assert main(["report", "no_such_dataset"]) == EXIT_UNUSABLE
    err = capsys.readouterr().err
    assert "'no_such_dataset' is neither a file nor a folder here, nor a dataset of sources.toml" in err
    assert "the embedded demo's, as JUDGESCOPE_SOURCES is not set and this folder has no sources.toml" in err


def test_a_sources_toml_in_the_current_folder_is_the_active_manifest(elsewhere, monkeypatch, capsys):
    monkeypatch.delenv("JUDGESCOPE_SOURCES")
    monkeypatch.chdir(elsewhere)
    assert main(["init", "audit.parquet", "snapshot.parquet"]) == 0  # writes sources.toml here
    catalog._catalog.cache_clear()
    capsys.readouterr()
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "audit: loaded 2,760" in out and "xhotpotqa_v2_audit" not in out
    assert main(["validate", "nope"]) == EXIT_UNUSABLE
    assert "./sources.toml of this folder" in capsys.readouterr().out


@pytest.fixture
def served(monkeypatch):
    """What `open`/`demo` hand to the web server (which is not started): its manifest and argv."""
    from judgescope.web import serve

    seen = {}
    monkeypatch.setattr(serve, "main", lambda: seen.update(
        manifest=os.environ["JUDGESCOPE_SOURCES"], argv=list(sys.argv)))
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    return seen


def test_demo_serves_the_embedded_demo_whatever_the_setting(elsewhere, served, monkeypatch, tmp_path, capsys):
    from judgescope import resources

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("JUDGESCOPE_CACHE", raising=False)
    monkeypatch.delenv("JUDGESCOPE_STATE", raising=False)
    assert main(["demo", "--port", "8765"]) == 0
    assert served["manifest"] == str(resources.DEMO_MANIFEST) and resources.DEMO_MANIFEST.is_file()
    assert served["argv"][-2:] == ["--server.port", "8765"]
    out = capsys.readouterr().out
    assert f"cache: {tmp_path}/home/.cache/judgescope" in out
    assert f"reviews: {tmp_path}/home/.local/share/judgescope/reviews.sqlite" in out


def test_open_says_where_it_keeps_the_cache_and_reviews(elsewhere, served, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("JUDGESCOPE_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("JUDGESCOPE_STATE", str(tmp_path / "s" / "r.sqlite"))
    assert main(["open", str(elsewhere / "audit.parquet")]) == 0
    out = capsys.readouterr().out
    assert f"cache: {tmp_path}/c (JUDGESCOPE_CACHE" in out and f"reviews: {tmp_path}/s/r.sqlite" in out
    assert served["manifest"].endswith("sources.toml") and not Path(served["manifest"]).is_relative_to(Path.cwd())
