"""Issue #40 item 6: the artefact, not the checkout. The wheel is built from this repository
(offline: the build backend is pinned in requirements-dev.txt), installed without its checkout
into a fresh venv outside the repository, and every command is run from an empty folder with no
PYTHONPATH and no manifest: the package must carry the frame, the pages, the SQL and the demo.

The fresh venv sees this environment's site-packages for the dependencies (a .pth line, so no
download), never the repository: the repository's own folder is left out, and a .pth file inside
a folder named by a .pth line is not run, so an editable install of the checkout is not seen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from chromium import needs_chromium

ROOT = Path(__file__).resolve().parent.parent
ROWS = 60


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    try:
        import hatchling  # noqa: F401
    except ImportError:
        pytest.fail("hatchling is needed to build the wheel: pip install -r requirements-dev.txt")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                           "--no-build-isolation", "--wheel-dir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    [built] = out.glob("judgescope-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict:
    """A fresh venv holding the wheel (not editable), and an environment to run it in: a home of
    its own (the per-user cache and reviews folders go there), no PYTHONPATH, no manifest."""
    base = tmp_path_factory.mktemp("installed")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    deps = [p for p in sys.path if "site-packages" in p and Path(p).is_dir() and Path(p).resolve() != ROOT]
    (site / "dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                           "--quiet", "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "JUDGESCOPE_SOURCES", "JUDGESCOPE_CACHE", "JUDGESCOPE_STATE",
                        "VIRTUAL_ENV", "PYTHONHOME")}
    env["HOME"] = str(base / "home")
    return {"bin": venv / "bin", "env": env, "home": base / "home", "site": site}


def _audit(folder: Path) -> Path:
    """A small judge audit the reader brings: three languages, scores 0–100."""
    path = folder / "my_audit.jsonl"
    rows = [{"judge_record_id": f"r{i}", "instance_id": f"q{i // 3}", "target_language": "de fr th".split()[i % 3],
             "unit": "answer", "paragraph_id": 0, "score": (i * 37) % 101} for i in range(ROWS)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _run(installed: dict, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(installed["bin"] / "judgescope"), *args], cwd=cwd, env=installed["env"],
                          capture_output=True, text=True, timeout=600)


def test_the_wheel_carries_the_app_and_the_demo(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    app = "judgescope/_app/"
    for needed in ("app.py", "pages/review.py", "queries/audit_build_score_bins.sql",
                   "data/sources.toml", "data/hub.toml", "data/demo/checksums.json", ".streamlit/config.toml"):
        assert app + needed in names, needed
    pages = {n for n in names if n.startswith(app + "pages/") and n.endswith(".py")}
    assert pages == {f"{app}pages/{p.name}" for p in (ROOT / "pages").glob("*.py")}
    queries = {n for n in names if n.startswith(app + "queries/")}
    assert queries == {f"{app}{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "queries").rglob("*.sql")}
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or n.startswith(("tests/", "bench/"))]
    assert wheel.stat().st_size < 10_000_000  # the demo is a few MB


def test_the_installed_command_works_from_an_empty_folder(installed, tmp_path):
    here = tmp_path / "empty"
    here.mkdir()
    helped = _run(installed, here, "--help")
    assert helped.returncode == 0 and "usage: judgescope" in helped.stdout and "demo" in helped.stdout
    audit = _audit(tmp_path)
    validated = _run(installed, here, "validate", str(audit))
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert f"loaded {ROWS} = used {ROWS} + excluded 0" in validated.stdout
    reported = _run(installed, here, "report", str(audit), "--resamples", "30")
    assert reported.returncode == 0, reported.stderr
    assert json.loads(reported.stdout)["summary"]["rows"] == ROWS
    html = here / "report.html"
    made = _run(installed, here, "report-html", str(audit), "--out", str(html))
    assert made.returncode == 0, made.stdout + made.stderr
    written = html.read_text(encoding="utf-8")
    assert "judgescope_report" in written
    # The installed package checks its own report, and an edit of its wording (no number touched).
    checked = _run(installed, here, "check-report", str(html), "--source", str(audit))
    assert checked.returncode == 0 and "reads as its data gives it" in checked.stdout, checked.stdout + checked.stderr
    assert "lies below the overall mean" in written
    edited = tmp_path / "edited.html"
    edited.write_text(written.replace("lies below the overall mean", "lies above the overall mean"), encoding="utf-8")
    checked = _run(installed, here, "check-report", str(edited), "--source", str(audit))
    assert checked.returncode == 1 and "lies above the overall mean" in checked.stdout, checked.stdout + checked.stderr
    demo = _run(installed, here, "validate")  # a name-less command reads the embedded demo
    assert demo.returncode == 0 and "xhotpotqa_v2_audit" in demo.stdout, demo.stdout + demo.stderr
    assert sorted(p.name for p in here.iterdir()) == ["report.html"]  # nothing else written here
    assert (installed["home"] / ".cache" / "judgescope").is_dir()  # the per-user cache
    # And it was the wheel that ran, with its own copy of the app, not the checkout:
    where = subprocess.run([str(installed["bin"] / "python"), "-c",
                            "import json, sys, judgescope, judgescope.resources as r; print(judgescope.__file__);"
                            "print(r.ROOT); print(r.INSTALLED); print(json.dumps(sys.path))"],
                           cwd=here, env=installed["env"], capture_output=True, text=True, timeout=60)
    module, root, flag, path = where.stdout.splitlines()
    assert Path(module).is_relative_to(installed["site"]) and flag == "True"
    assert Path(root) == installed["site"] / "judgescope" / "_app"
    assert str(ROOT) not in json.loads(path)


@contextmanager
def _serving(installed: dict, cwd: Path, log: Path, *args: str):
    """The base URL of `judgescope ARGS --port P`, run from the fresh venv, once healthy."""
    from browser_server import free_port, started

    port = free_port()
    with started([str(installed["bin"] / "judgescope"), *args, "--port", str(port)], port, log, cwd,
                 installed["env"], 90) as base:
        yield base


def _page_text(url: str) -> str:
    """The main block's text of one page, checked for exceptions and page errors."""
    from playwright.sync_api import sync_playwright

    from chromium import launch, main_text, no_exception, settle

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url, wait_until="domcontentloaded")
            settle(page)
            no_exception(page)
            assert not errors, errors
            return main_text(page)
        finally:
            browser.close()


@pytest.mark.browser
@needs_chromium
def test_the_installed_open_and_demo_serve_pages_in_chromium(installed, tmp_path):
    here = tmp_path / "empty"
    here.mkdir()
    audit = _audit(tmp_path)
    log = tmp_path / "open.log"
    with _serving(installed, here, log, "open", str(audit)) as base:
        text = _page_text(f"{base}/distributions")
    assert "Score distributions" in text and "Traceback" not in text, text[:500]
    said = log.read_text(errors="replace")
    assert "Traceback" not in said, said[-3000:]
    assert f"cache: {installed['home']}/.cache/judgescope" in said
    assert f"reviews: {installed['home']}/.local/share/judgescope/reviews.sqlite" in said
    demo_log = tmp_path / "demo.log"
    with _serving(installed, here, demo_log, "demo") as base:
        text = _page_text(f"{base}/?collection=xhotpotqa")
    assert "XHotpotQA" in text and "Traceback" not in text, text[:500]
    assert "Traceback" not in demo_log.read_text(errors="replace")
    assert list(here.iterdir()) == []  # neither wrote into the folder it was started from

def test_the_dockerfile_serves_the_same_wheel():
    """The Space runs what this file tests: the image builds the wheel from the repository with
    the pinned backend, installs it with requirements.txt as constraints, and copies no checkout
    into the stage that serves."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    _comments, build, serve = text.split("\nFROM ")
    assert "pip wheel" in build and "--no-deps" in build and "--no-build-isolation" in build
    assert 'pip install --no-cache-dir -c /tmp/requirements.txt "$(ls /tmp/dist/judgescope-*.whl)[importers]"' in serve
    assert not [line for line in serve.splitlines() if line.startswith("COPY") and " . " in line + " "]
    backend = ("hatchling", "pathspec", "trove-classifiers", "pluggy", "packaging")
    pinned = (ROOT / "requirements.txt").read_text() + (ROOT / "requirements-dev.txt").read_text()
    assert all(f"\n{name}==" in pinned for name in backend)
    assert all(name in build for name in backend)
