"""Issue #15 item 1: the package layout's boundaries, checked with ast on every module.

(a) Only judgescope/web/ and pages/ (and app.py, the frame) import streamlit.
(b) No import runs upward: judgescope/sources/ imports no domain package, web/ or cli/; the
    domain packages (audit, integrity, calibration, ranking, significance, reviews, report) import
    nothing from web/ or cli/.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "judgescope"
DOMAINS = ("audit", "integrity", "calibration", "ranking", "significance", "reviews", "report")
FORBIDDEN = {"sources": (*DOMAINS, "web", "cli"), **{d: ("web", "cli") for d in DOMAINS}}
# (importing module, imported package) pairs allowed for now, each with its reason.
KNOWN_UPWARD: set[tuple[str, str]] = set()  # none: the join-key rules and the export writers
# live in sources/ (join_key.py, exports.py), which integrity, web and reviews read.


def _modules(tree: ast.AST) -> set[str]:
    """Every absolute module an import statement names, `from a import b` also as `a.b`."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _python_files() -> list[Path]:
    return sorted([*PACKAGE.rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_only_web_and_pages_import_streamlit():
    allowed = ("judgescope/web/", "pages/", "app.py")
    offenders = [_rel(p) for p in _python_files() if not _rel(p).startswith(allowed)
                 and any(m.split(".")[0] == "streamlit"
                         for m in _modules(ast.parse(p.read_text(encoding="utf-8"))))]
    assert offenders == []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_runs_upward(layer):
    upward = set()
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for module in _modules(ast.parse(path.read_text(encoding="utf-8"))):
            parts = module.split(".")
            if parts[0] == "judgescope" and len(parts) > 1 and parts[1] in FORBIDDEN[layer]:
                upward.add((_rel(path), f"judgescope.{parts[1]}"))
    assert upward - KNOWN_UPWARD == set()


def test_sources_builds_no_domain_table():
    """Issue #27 item 3: the domains own their derived tables (integrity/tables.py,
    audit/tables.py) and register them; sources/ only loads, validates, caches and serves, so no
    build query of a derived view is named in sources/ outside the view registry."""
    from judgescope.sources import derived, views

    builds = {v.source for v in views.VIEWS if v.origin == "derived"}
    named = {f"{_rel(p)}: {q}" for p in (PACKAGE / "sources").glob("*.py") if p.name != "views.py"
             for q in builds if f'"{q}"' in p.read_text(encoding="utf-8")}
    assert named == set()
    owners = {t.what: t.build.__module__ for t in derived.providers(
        {"audit", "snapshot", "audit_previous"})}
    assert owners == {"hash verification": "judgescope.integrity.tables",
                      "record index and provenance": "judgescope.audit.tables",
                      "exact copies": "judgescope.audit.tables",
                      "version comparison": "judgescope.audit.tables"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def test_no_import_circle_between_modules():
    """Issue #27: readers.py and readers_csv.py imported each other (as did db.py and the console's
    worker); no two modules may now, directly or through others (every import counts, also one
    inside a function)."""
    files = sorted(PACKAGE.rglob("*.py"))
    names = {_module_name(p) for p in files}
    graph = {}
    for path in files:
        found = set()
        for m in _modules(ast.parse(path.read_text(encoding="utf-8"))):
            while m and m not in names:  # `from a.b import c`: c may be a name, not a module
                m = m.rpartition(".")[0]
            if m and m != _module_name(path):
                found.add(m)
        graph[_module_name(path)] = found - {"judgescope"}
    circles, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert circles == []


def test_text_escaping_lives_outside_web():
    """Issue #27 item 4: the escaper is pure text (judgescope/text.py, no streamlit), defined
    once: no module of web/ or pages/ defines its own."""
    names = {"md_literal", "md_label", "visible_text"}
    defined = [f"{path.relative_to(PACKAGE.parent)}:{node.name}"
               for path in [*(PACKAGE / "web").glob("*.py"), *(PACKAGE.parent / "pages").glob("*.py")]
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef) and node.name in names]
    assert defined == []
    assert "streamlit" not in {m.split(".")[0] for m in _modules(ast.parse(
        (PACKAGE / "text.py").read_text(encoding="utf-8")))}
