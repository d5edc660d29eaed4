"""The URL parameters code reads and writes, found with ast (issue 41 item 2): a page file and
every judgescope function it reaches (calls followed through modules, transitively). Shared by
tests/test_url_contract.py, which checks each name against the page's declaration."""

from __future__ import annotations

import ast
import importlib.util
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARSERS = {"bound", "check", "read", "declared"}  # web/urls.py: name first
WIDGETS = {"url_number", "url_select", "url_multiselect", "url_choice"}  # web/urls.py: key=
QUERY_READS = {"get", "get_all", "pop"}


def _const(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _on_query_params(node) -> bool:
    """`st.query_params` (or any `….query_params`)."""
    return isinstance(node, ast.Attribute) and node.attr == "query_params"


def url_keys(tree: ast.AST, in_urls: bool = False) -> set[str]:
    """Every string literal used as a URL parameter name in `tree`: widgets bound to the URL,
    web/urls.py's parsers and widgets, st.query_params reads, writes and updates."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _on_query_params(node.value) and _const(node.slice):
            out.add(_const(node.slice))
        if not isinstance(node, ast.Call):
            continue
        func, kw = node.func, {k.arg: k.value for k in node.keywords}
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        via_urls = (isinstance(func, ast.Attribute) and getattr(func.value, "id", None) == "urls") or \
            (in_urls and isinstance(func, ast.Name))
        if name in PARSERS and via_urls and node.args and _const(node.args[0]):
            out.add(_const(node.args[0]))
        if name in WIDGETS and _const(kw.get("key")):
            out.add(_const(kw["key"]))
        if _const(kw.get("bind")) == "query-params" and _const(kw.get("key")):
            out.add(_const(kw["key"]))
        if isinstance(func, ast.Attribute) and _on_query_params(func.value):
            if name in QUERY_READS and node.args and _const(node.args[0]):
                out.add(_const(node.args[0]))
            if name == "update" and node.args and isinstance(node.args[0], ast.Dict):
                out |= {_const(k) for k in node.args[0].keys if _const(k)}
    return out


@lru_cache(maxsize=None)
def _module(path: Path) -> tuple[ast.Module, dict, dict]:
    """(tree, aliases: local name → judgescope module, functions: local name → (module, name))."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases, functions = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "judgescope":
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if importlib.util.find_spec(node.module) and _is_module(full):
                    aliases[a.asname or a.name] = full
                else:
                    functions[a.asname or a.name] = (node.module, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "judgescope" and a.asname:
                    aliases[a.asname] = a.name
    return tree, aliases, functions


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _file(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    return Path(spec.origin) if spec and spec.origin and spec.origin.endswith(".py") else None


def _function(path: Path, name: str):
    tree = _module(path)[0]
    return next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == name), None)


def _calls(path: Path, node: ast.AST) -> set[tuple[Path, str]]:
    """(module file, function) of the judgescope functions `node` calls."""
    _, aliases, functions = _module(path)
    out = set()
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in aliases:
            target = _file(aliases[func.value.id])
            if target:
                out.add((target, func.attr))
        elif isinstance(func, ast.Name):
            if func.id in functions:
                target = _file(functions[func.id][0])
                if target:
                    out.add((target, functions[func.id][1]))
            elif _function(path, func.id) is not None:
                out.add((path, func.id))
    return out


def reachable(path: Path, tree: ast.AST | None = None) -> list[tuple[Path, ast.AST]]:
    """The file's code (its whole tree, or `tree`) and every judgescope function it reaches."""
    start = tree if tree is not None else _module(path)[0]
    seen, out, todo = set(), [(path, start)], list(_calls(path, start))
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        node = _function(*key)
        if node is not None:
            out.append((key[0], node))
            todo += list(_calls(key[0], node))
    return out


def read_by(path: Path) -> dict[str, list[str]]:
    """URL parameter → where (file:function) the page file at `path`, or code it reaches, names it."""
    out: dict[str, list[str]] = {}
    for file, node in reachable(path):
        for key in url_keys(node, in_urls=file.name == "urls.py"):
            where = f"{file.relative_to(ROOT) if file.is_relative_to(ROOT) else file.name}:" \
                    f"{getattr(node, 'name', '<module>')}"
            out.setdefault(key, []).append(where)
    return out


def strings(path: Path) -> set[str]:
    """Every string constant in the page file and the code it reaches."""
    return {n.value for _, node in reachable(path) for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}
