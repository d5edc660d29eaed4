"""A served app is never in Streamlit's development mode, wherever Streamlit is installed.

Streamlit switches that mode on by itself when its own files are not under a site-packages or
dist-packages folder (`pip install --target DIR` reached through PYTHONPATH, Nix, Bazel, a PEX
unpacked by hand). In that mode it refuses --server.port, so `judgescope demo` and `judgescope open`
stopped with a traceback before serving anything (found with the built wheel in a fresh venv whose
dependencies were reached that way)."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import streamlit

from browser_server import free_port, started
from judgescope.web.serve import served_options

ROOT = Path(__file__).resolve().parent.parent


def test_served_options_turn_development_mode_off_unless_given():
    assert "--global.developmentMode=false" in served_options([])
    given = served_options(["--global.developmentMode=true"])
    assert "--global.developmentMode=false" not in given and "--global.developmentMode=true" in given
    # the upload options are still added
    assert any(o.startswith("--server.maxUploadSize=") for o in served_options([]))


def test_demo_serves_with_streamlit_outside_site_packages(tmp_path):
    """Streamlit imported from a folder named neither site-packages nor dist-packages (a link to
    the installed package, as PYTHONPATH would reach a `pip install --target` folder): the demo
    answers on the port asked for, and its page is Streamlit's built front end."""
    libs = tmp_path / "libs"
    libs.mkdir()
    (libs / "streamlit").symlink_to(Path(streamlit.__file__).parent, target_is_directory=True)
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(libs), str(ROOT)]), HOME=str(home),
               JUDGESCOPE_CACHE=str(tmp_path / "cache"))
    env.pop("JUDGESCOPE_SOURCES", None)
    probe = [sys.executable, "-c", "import streamlit; print(streamlit.__file__)"]
    where = subprocess.run(probe, env=env, cwd=home, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(libs)) and "site-packages" not in where  # the case is really made
    port = free_port()
    log = tmp_path / "serve.log"
    argv = [sys.executable, "-m", "judgescope", "demo", "--port", str(port)]
    with started(argv, port, log, home, env) as base:
        page = urllib.request.urlopen(base + "/", timeout=10).read().decode("utf-8", "replace")
    assert '<div id="root">' in page and "static/js/" in page
    assert "developmentMode" not in log.read_text()
