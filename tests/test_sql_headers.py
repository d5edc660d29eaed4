"""Issue #41 item 3: a query's header comment that names a Python symbol ("written once per audit
file by record_tables.audit_summary_views", "a subset of join_key.JOIN_COLUMNS") names one that
exists. Nine headers named catalog.*_views functions that had moved to the domains or never
existed, and verify.* names of integrity/hashes.py."""

import importlib
import re
from pathlib import Path

import pytest

from judgescope import wiring

ROOT = Path(__file__).resolve().parent.parent
QUERIES = sorted((ROOT / "queries").rglob("*.sql"))
# `a.b` in prose: a module (or a dotted judgescope path) and one of its names, a view and one of
# its columns, or a query file and one of its result columns.
NAMED = re.compile(r"(?<![\w./$])((?:judgescope\.)?[a-z_]+)\.([A-Za-z_]\w*)")
SUFFIXES = {"sql", "py", "parquet", "json", "jsonl", "toml", "csv", "md"}
PROSE = {"e.g", "i.e"}


def header(path: Path) -> str:
    """The file's leading comment lines, joined."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("--"):
            break
        lines.append(line.removeprefix("--"))
    return " ".join(lines)


def _modules() -> dict[str, list[str]]:
    """Each module name under judgescope/ → the dotted paths of the modules of that name."""
    out: dict[str, list[str]] = {}
    for path in (ROOT / "judgescope").rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        dotted = ".".join(rel.parts).removesuffix(".__init__")
        out.setdefault(dotted.rsplit(".", 1)[-1], []).append(dotted)
    return out


MODULES = _modules()
QUERY_NAMES = {p.stem for p in QUERIES}


def unresolved(text: str) -> list[str]:
    """The `a.b` names in `text` that name nothing: `a` is a module of judgescope without `b`, or
    neither a module nor a view or a query (whose columns a header may name)."""
    bad = []
    for owner, name in NAMED.findall(text):
        if name in SUFFIXES or f"{owner}.{name}" in PROSE:
            continue
        if owner not in MODULES and (owner in wiring.VIEWS or owner in QUERY_NAMES):
            continue
        places = [owner] if owner.startswith("judgescope.") else MODULES.get(owner, [])
        if len(places) != 1 or not _has(places[0], name):
            bad.append(f"{owner}.{name}")
    return bad


def _has(module: str, name: str) -> bool:
    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


@pytest.mark.parametrize("path", QUERIES, ids=lambda p: p.relative_to(ROOT / "queries").as_posix())
def test_a_header_names_only_symbols_that_exist(path):
    assert unresolved(header(path)) == []


def test_a_stale_name_is_found():
    assert unresolved("written by catalog.exact_copy_views; see verify.JOIN_COLUMNS") == [
        "catalog.exact_copy_views", "verify.JOIN_COLUMNS"]
    assert unresolved("by record_tables.exact_copy_views from hash_verification.snapshot_position, "
                      "judgescope.bounded.SHOWN_CHARS, e.g. n_major") == []
