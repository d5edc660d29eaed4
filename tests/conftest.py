"""Shared fixtures. Tests never touch the network or the user's cache."""

import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the checkout; JUDGESCOPE_SHARED names it when the checkout lives elsewhere.
SHARED = Path(os.environ.get("JUDGESCOPE_SHARED") or ROOT.parent / "shared")
REALDATA = SHARED / "realdata"

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


def pytest_collection_modifyitems(config, items):
    """`make test` runs on two workers (pytest-xdist, --dist loadgroup). Each module's tests stay
    together on one worker, in file order, with their module fixtures built once (as --dist
    loadfile), and the Chromium tests of every module share one worker, so at most one browser and
    one Streamlit server run at a time, as in a serial run; the rest spread over both cores."""
    for item in items:
        group = "browser" if item.get_closest_marker("browser") else item.module.__name__
        item.add_marker(pytest.mark.xdist_group(group))


# `make test` runs the tests without a browser on two workers (pytest-xdist), then the Chromium
# tests alone. On the workers a file's tests stay together, in file order, with their module
# fixtures built once (as --dist loadfile); a file with Chromium tests is one unit of work, so
# wherever they run together only one browser and one Streamlit server run at a time. (xdist's
# own --dist loadgroup cannot be used: it renames test ids through an attribute that pytest 9 no
# longer reads, so its groups are silently ignored.)
BROWSER_FILES = frozenset(p.name for p in Path(__file__).parent.glob("test_*.py")
                          if "mark.browser" in p.read_text(encoding="utf-8"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class FilesWithChromiumInOneUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "chromium" if Path(path).name in BROWSER_FILES else path

    return FilesWithChromiumInOneUnit(config, log)
