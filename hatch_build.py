"""The wheel's one file outside a folder: app.py, the frame, goes to judgescope/_app/app.py.

pyproject.toml maps the folders (pages/, queries/, data/, .streamlit/) with `sources`, which
rewrites folder prefixes only; a file needs force-include, which hatchling would also apply to an
editable install (a stale copy of app.py in site-packages), so it is added here, for the wheel
proper only. An editable install serves the checkout's own app.py (judgescope/resources.py)."""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class AppFrame(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name == "wheel" and version == "standard":
            build_data["force_include"]["app.py"] = "judgescope/_app/app.py"
