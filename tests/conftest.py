"""Shared fixtures. Tests never touch the network or the user's cache."""

import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the checkout; JUDGESCOPE_SHARED names it when the checkout lives elsewhere.
SHARED = Path(os.environ.get("JUDGESCOPE_SHARED") or ROOT.parent / "shared")
REALDATA = SHARED / "realdata"
# Collections of ../shared/realdata's files for a manifest beside a copy of it named realdata/.
REAL_MANIFEST = """
[[collection]]
name = "real_audit"
title = "GEMBA on WMT22 (real data)"
datasets = ["gemba", "gemba_snapshot"]
join_key = ["instance_id"]
[[collection]]
name = "real_pairs"
title = "TED MQM pairs (real data)"
datasets = ["ted"]
[[collection]]
name = "real_sample"
title = "TransEvalnia sample (real data)"
datasets = ["sample"]
[[dataset]]
name = "gemba"
kind = "judge_audit"
path = "realdata/judge_audit_gemba_wmt22.jsonl"
[[dataset]]
name = "gemba_snapshot"
kind = "source_snapshot"
path = "realdata/judge_audit_gemba_wmt22.source_snapshot.jsonl"
[[dataset]]
name = "ted"
kind = "pairwise_ranking"
path = "realdata/pairwise_ted_mqm_ende_human_only.jsonl"
[[dataset]]
name = "sample"
kind = "pairwise_ranking"
path = "realdata/transevalnia_sample_with_wmt21_systems.jsonl"
"""

# Before judgescope is imported anywhere: a private cache, no Hub traffic, the demo manifest.
os.environ["JUDGESCOPE_CACHE"] = tempfile.mkdtemp(prefix="judgescope-test-cache-")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.pop("JUDGESCOPE_SOURCES", None)
os.environ["JUDGESCOPE_STATE"] = os.path.join(tempfile.mkdtemp(prefix="judgescope-test-state-"),
                                              "reviews.sqlite")  # never the user's reviews
os.environ.pop("JUDGESCOPE_REVIEWS_REPO", None)


def _pages_run_through_the_frame() -> None:
    """AppTest runs a page as a user gets it: through app.py (sidebar, navigation, disclosure).

    AppTest resets PagesManager.uses_pages_directory before every run, and a `pages/` folder
    beside app.py then sends switch_page() down Streamlit's legacy multipage path, which runs
    the page file alone. A server leaves that path once app.py calls st.navigation; here it is
    left as soon as the run's PagesManager exists (tests/test_frame.py checks the frame ran).
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init


_pages_run_through_the_frame()


def _component_scan_once_per_process() -> None:
    """Every AppTest.from_file scans the metadata of each installed distribution for Streamlit
    components (`manifest_scanner.scan_component_manifests`, ~0.12 s on an idle core here; the
    injection tests alone make over 440 AppTests). The installed packages do not change while
    the tests run, so the scan runs once per worker, as a server runs it once at start-up. Its
    result is a list of (manifest, package root); this project installs no component, so it is
    empty (tests/test_frame.py checks that the memo is in place and returns what a fresh scan
    does).
    """
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)


_component_scan_once_per_process()


def folder_bytes(root: Path) -> dict[str, bytes]:
    """Every file under root, by its path relative to root: two folders compare byte for byte."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def realdata(tmp_path) -> Path:
    """A copy of ../shared/realdata in tmp (manifest paths may not leave their folder)."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not beside this checkout")
    import shutil

    dest = tmp_path / "realdata"
    shutil.copytree(REALDATA, dest)
    return dest


@pytest.fixture
def write_manifest(tmp_path):
    """Write a manifest TOML into tmp_path and return its path."""
    def write(text: str, name: str = "sources.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write


@pytest.fixture
def use_manifest(write_manifest, monkeypatch):
    """Write a manifest TOML into tmp_path, point JUDGESCOPE_SOURCES at it (the app and the CLI
    read it from there) and return its path."""
    def use(text: str, name: str = "sources.toml") -> Path:
        path = write_manifest(text, name)
        monkeypatch.setenv("JUDGESCOPE_SOURCES", str(path))
        return path
    return use


EMPTY_MANIFEST = '[[collection]]\nname = "c"\ndatasets = []\n'


@pytest.fixture
def catalog(write_manifest):
    """A catalog of one empty collection, `c`: Hub openings and uploads add their own."""
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    return Catalog(load_manifest(write_manifest(EMPTY_MANIFEST)), providers=TABLES)


# `make test` runs the tests without a browser on two workers (pytest-xdist), then the Chromium
# tests on two workers. A file's tests stay together on one worker, in file order, with their
# module fixtures built once (as --dist loadfile), so a worker runs at most one browser and one
# Streamlit server at a time. The Chromium tests mostly wait (a page's script run, its charts
# drawing): two at once keep both cores busier than one, while a Chromium test beside the
# CPU-bound tests would wait on a busy core, so the two kinds run in separate phases. (xdist's
# own --dist loadgroup cannot be used: it renames test ids through an attribute that pytest 9 no
# longer reads, so its groups are silently ignored.)
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class EachFileInOneUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid.split("::", 1)[0]

    config.option.loadscopereorder = False  # files go out in collection order (below)
    return EachFileInOneUnit(config, log)


# The files that take longest (measured by `make test`'s --durations): handed out first, so
# neither worker is left running one of them alone at the end of a phase.
LONG_FILES = ("test_accessibility.py", "test_page_matrix.py", "test_journeys.py", "test_reviews.py", "test_bench.py",
              "test_review_binned.py", "test_open_browser.py", "test_demo_xhotpotqa.py")


def pytest_collection_modifyitems(items):
    """The long files first, then the rest by number of tests (most first); within a file, file
    order. Both workers collect, and sort, alike."""
    per_file: dict[str, int] = {}
    for item in items:
        per_file[item.path.name] = per_file.get(item.path.name, 0) + 1

    def rank(item):
        name = item.path.name
        return (LONG_FILES.index(name) if name in LONG_FILES else len(LONG_FILES), -per_file[name], name)

    items.sort(key=rank)
