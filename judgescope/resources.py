"""Where the app's own files are: the frame (app.py), pages/, queries/, the embedded demo (data/)
and Streamlit's settings (.streamlit/config.toml).

The repository keeps them at its top, beside judgescope/ (a Space and `make run` serve from
there); the wheel's build maps the same files into judgescope/_app/ (pyproject.toml,
[tool.hatch.build.targets.wheel.sources]), so an installed package finds them through
importlib.resources, whatever the current folder. A checkout has no judgescope/_app/: its top
folder is used. Nothing here reads the current folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent  # the repository's top, in a checkout


def _root() -> tuple[Path, bool]:
    """(the folder holding app.py, pages/, queries/ and data/; whether it is the installed copy)."""
    packaged = resources.files("judgescope") / "_app"
    if packaged.is_dir():
        # pip unpacks a wheel: a real folder (Streamlit runs app.py from a path, so a zipped
        # package could not serve, and is refused here rather than half-working).
        if not isinstance(packaged, Path):
            raise RuntimeError(f"judgescope is installed as an archive ({packaged}); install it "
                               "unpacked (pip, pipx or uv do)")
        return packaged.resolve(), True
    return _CHECKOUT, False


ROOT, INSTALLED = _root()
APP = ROOT / "app.py"
QUERIES = ROOT / "queries"
DEMO_MANIFEST = ROOT / "data" / "sources.toml"
HUB_MANIFEST = ROOT / "data" / "hub.toml"


def checkout() -> Path | None:
    """The repository the code runs from (for its git commit), None when installed."""
    return None if INSTALLED else _CHECKOUT
