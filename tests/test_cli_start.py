"""Fast starts (issue 45 item 3), checked structurally, never timed: `judgescope --help`, every
command's --help and an argument error import none of pandas, DuckDB, numpy, pyarrow, scipy,
plotly or streamlit; each command imports what it uses when it runs."""

import os
import subprocess
import sys
from pathlib import Path

from judgescope.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "duckdb", "numpy", "pyarrow", "scipy", "plotly", "streamlit")


def _python(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_help_imports_no_heavy_module():
    """`python -X importtime -m judgescope --help`: the import log names no heavy package."""
    done = _python("-X", "importtime", "-m", "judgescope", "--help")
    assert done.returncode == 0, done.stderr
    assert "usage: judgescope" in done.stdout
    imported = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "judgescope" in imported  # the log is read: the package itself is in it
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


# Every command's --help and an unknown option (argparse's exit 2), in one process, then the
# heavy packages sys.modules holds; a command's run() importing pandas is expected and not run.
_SCRIPT = """
import sys
from judgescope.cli import COMMANDS, main
for command in COMMANDS:
    for argv in ([command, "--help"], [command, "--no-such-option"]):
        try:
            main(argv)
        except SystemExit as stop:
            assert stop.code == (0 if argv[1] == "--help" else 2), (argv, stop.code)
        else:
            raise AssertionError(f"{argv} did not stop at the parser")
print(sorted(name for name in sys.modules if name.split(".")[0] in HEAVY))
"""


def test_every_command_parses_without_heavy_modules():
    done = _python("-c", f"HEAVY = {HEAVY!r}\n{_SCRIPT}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-500:]
    # each command's parser refused its bad call (a missing argument or the unknown option)
    errors = [line for line in done.stderr.splitlines() if line.startswith("judgescope") and ": error: " in line]
    assert len(errors) == len(COMMANDS), errors


def test_a_command_run_still_imports_what_it_uses(tmp_path):
    """The deferred imports are reached: validate on a missing file exits 2 with one sentence
    (no traceback), and report on the demo's audit loads it (pandas and DuckDB then imported)."""
    done = _python("-m", "judgescope", "validate", str(tmp_path / "missing.csv"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    audit = ROOT / "data" / "demo" / "xhotpotqa_judge_v2"  # the demo's V2 audit, 2,760 rows
    script = ("import sys\nfrom judgescope.cli import main\n"
              f"code = main(['report', {str(audit)!r}, '--resamples', '20'])\n"
              "print(code, sorted(n for n in ('pandas', 'duckdb') if n in sys.modules))")
    env = {**os.environ, "JUDGESCOPE_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] in ("0 ['duckdb', 'pandas']", "1 ['duckdb', 'pandas']")


# What a command's run imports, beyond what it uses: the app's faces and the other domains'
# statistics. `validate` reads and checks files with DuckDB and pyarrow (pandas only for a
# format read in Python: CSV, JSON lines, another tool's file, a nested snapshot; not a Parquet
# file, not on the line below); `report` adds the audit statistics and pandas; neither needs the
# pages, the HTML report, plotly, scipy or the other domains.
NOT_USED = {
    "validate": ("pandas", "judgescope.audit.summary", "judgescope.audit.binned", "plotly", "scipy",
                 "streamlit", "jinja2", "tqdm", "judgescope.web", "judgescope.report",
                 "judgescope.ranking", "judgescope.calibration", "judgescope.significance",
                 "judgescope.reviews", "judgescope.console", "judgescope.demo", "judgescope.audit.systems",
                 "judgescope.navigation"),
    "report": ("plotly", "scipy", "streamlit", "jinja2", "judgescope.web", "judgescope.report",
               "judgescope.ranking", "judgescope.calibration", "judgescope.significance",
               "judgescope.console", "judgescope.demo", "judgescope.navigation"),
}


def _imported(argv: list[str], cache) -> tuple[int, set[str]]:
    """Exit code and every module `judgescope ARGV` imported (python -X importtime's log)."""
    env = {**os.environ, "JUDGESCOPE_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "judgescope", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)
    names = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    return done.returncode, names


def test_validate_and_report_import_only_what_they_use(tmp_path):
    """`validate FILE` and `report FILE` on the demo's V2 audit file (a file: a Hub-layout folder
    is resolved by the `datasets` library, which this does not check): the import log holds
    what each uses (the package's reading and DuckDB; report's audit statistics and pandas) and
    none of NOT_USED, by package or module: validate imports no pandas, cold (the first run
    builds the cache entry) or warm (the second reads it)."""
    audit = str(next((ROOT / "data" / "demo" / "xhotpotqa_judge_v2" / "data").glob("*.parquet")))
    found = {}
    for argv in (["validate", audit], ["validate", audit],
                 ["report", audit, "--resamples", "20", "--out", str(tmp_path / "out")]):
        code, names = _imported(argv, tmp_path / "cache")
        assert code in (0, 1), (argv, code)
        found[argv[0]] = found.get(argv[0], set()) | names
    assert {"duckdb", "pyarrow", "judgescope.ingest.validate"} <= found["validate"]
    # (the command's own module is imported by importlib.import_module, which the log omits)
    assert {"pandas", "judgescope.audit.summary", "judgescope.audit.systems"} <= found["report"]
    for command, names in found.items():
        unused = sorted(n for n in names for m in NOT_USED[command] if n == m or n.startswith(m + "."))
        assert not unused, (command, unused)


# The server's first page (app.py's default page, the demo) in one process: the modules it
# imports, read after its run.
_FIRST_PAGE = """
import sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=300)
at.run()
assert not at.exception, [e.value for e in at.exception]
print(sorted({n.split(".")[0] for n in sys.modules} & {"scipy", "datasets", "sklearn", "statsmodels"}))
"""


def test_the_first_page_imports_neither_scipy_nor_datasets():
    """The server's cold start (issue 45 item 3): no page module imports scipy at import time
    (it is imported where a test needs it), and the demo's folders, resolved by `datasets` once,
    are read from their memo on the next start."""
    runs = [_python("-c", _FIRST_PAGE, str(ROOT / "app.py")) for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr[-2000:]
    assert runs[0].stdout.strip().splitlines()[-1] in ("[]", "['datasets']")  # the first resolves
    assert runs[1].stdout.strip().splitlines()[-1] == "[]"
