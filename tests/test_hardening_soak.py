"""Concurrency: a short run of bench/soak.py (4 browser sessions × 10 s) inside `make test`, and
bounded caches (every Streamlit and functools cache declares its size)."""

import ast
from pathlib import Path

import pytest

from chromium import needs_chromium

ROOT = Path(__file__).resolve().parent.parent


def _cache_decorators():
    for path in sorted([*ROOT.glob("judgescope/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for dec in node.decorator_list:
                    name = ast.unparse(dec.func if isinstance(dec, ast.Call) else dec)
                    if name.split(".")[-1] in {"cache_data", "cache_resource", "lru_cache", "cache"}:
                        yield f"{path.relative_to(ROOT)}:{node.name}", name, dec


def test_every_cache_is_bounded():
    found = list(_cache_decorators())
    assert found, "no cache found: the scan is broken"
    for where, name, dec in found:
        kwargs = {k.arg: k.value for k in dec.keywords} if isinstance(dec, ast.Call) else {}
        bound = kwargs.get("max_entries") or kwargs.get("maxsize")
        assert bound is not None and not (isinstance(bound, ast.Constant) and bound.value is None), \
            f"{where}: @{name} has no size bound (max_entries / maxsize)"


@pytest.mark.browser
@needs_chromium
def test_short_soak_has_no_errors_and_sessions_see_their_own_filters():
    from bench import soak

    fig = soak.soak(sessions=4, seconds=10)
    print(soak.report(fig))
    assert not fig["errors"], fig["errors"]
    assert fig["updates"] >= 4 + 4  # every session loaded its view and changed its filter at least once
    # Generous: the caches are bounded by entries, so ten seconds must not grow the server much.
    assert fig["rss_after_mb"] - fig["rss_before_mb"] < 500, soak.report(fig)
