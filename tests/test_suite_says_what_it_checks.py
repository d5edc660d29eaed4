"""The tests say what they check (issue 41 item 4), read from their source: every test checks
something (an assert, pytest.raises / fail / skip, or a call of a helper of tests/ that does, or of
a known checker), none only prints; a test that says it runs last in its file is the file's last."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Checkers from libraries: they raise when what they compare differs.
CHECKERS = {"assert_frame_equal", "assert_series_equal", "assert_allclose", "run_state_machine_as_test"}
# Calls that check by raising: a named query that does not parse or bind raises (tests/test_queries.py).
RAISING = {"execute_raw"}


def _modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(TESTS.glob("*.py"))}


def _called(node) -> set[str]:
    return {(n.func.id if isinstance(n.func, ast.Name) else n.func.attr) for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))}


def _checks_directly(node) -> bool:
    return any(isinstance(n, (ast.Assert, ast.Raise)) for n in ast.walk(node)) or bool(
        _called(node) & ({"raises", "fail", "skip", "warns"} | CHECKERS | RAISING))


def _checking_helpers(modules) -> set[str]:
    """Names of the functions in tests/ that check something, directly or through another."""
    functions = [n for tree in modules.values() for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    checking = {f.name for f in functions if _checks_directly(f)}
    while True:
        more = {f.name for f in functions if f.name not in checking and _called(f) & checking}
        if not more:
            return checking
        checking |= more


def test_every_test_checks_something():
    modules = _modules()
    checking = _checking_helpers(modules)
    idle = [f"{path.name}:{node.lineno} {node.name}" for path, tree in modules.items() for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
            and not (_checks_directly(node) or _called(node) & checking)]
    assert not idle, f"tests that check nothing (print is no check): {idle}"


def test_the_check_finds_a_test_that_only_prints():
    tree = ast.parse("def test_x():\n    print(len([1]))\n\ndef test_y():\n    helper()\n\n"
                     "def helper():\n    assert True\n")
    checking = _checking_helpers({Path("x.py"): tree})
    x, y = (n for n in tree.body if n.name.startswith("test_"))
    assert not (_checks_directly(x) or _called(x) & checking)
    assert _called(y) & checking


def test_a_test_that_says_it_runs_last_is_last_in_its_file():
    for path, tree in _modules().items():
        tests = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
        for node in tests:
            said = (ast.get_docstring(node) or "").lower()
            if "runs last" in said or "run last" in said:
                assert node is tests[-1], f"{path.name}: {node.name} says it runs last; {tests[-1].name} is after it"
