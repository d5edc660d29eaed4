"""The README's commands as a user runs them (issue 45 item 4): each a subprocess on the bench's
generated data, cold (a new, empty JUDGESCOPE_CACHE: its first open included) and warm (the
cache the build phase wrote), beside the in-process figures of the other phases.

The bench's collection holds a judge audit and its source snapshot only: `calibrate` (calibration
items), `rank` (ranking decisions) and `drift` (an earlier audit) have no data of their kind in
it and are listed as not run, with the reason, never timed on other data.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.generate import COLLECTION
from bench.timing import summary

ROOT = Path(__file__).resolve().parent.parent
AUDIT, SNAPSHOT = "bench_audit", "bench_snapshot"
# Issue 45 item 3 (on an idle machine): `judgescope --help` within 0.5 s as a whole process, and
# any command's start within 1.5 s. A command's start is what it imports (the package, DuckDB,
# pandas, …: python -X importtime's top-level imports, summed, on a warm cache), the part of a
# run that does not grow with the data; --help is timed whole (it is all start).
TARGET_HELP_S, TARGET_START_S = 0.5, 1.5
TARGET_FLOAT_REPORT = 1.2  # issue 45: a float audit's `report` within 1.2× an integer one of the same rows


def commands(out: Path) -> dict[str, list[str] | str]:
    """Command name → its arguments (as the README writes them), or why it is not run."""
    return {
        "--help": ["--help"],
        "validate": ["validate", AUDIT],
        "report": ["report", AUDIT, "--out", str(out / "tables")],
        "report-html": ["report-html", COLLECTION, "--out", str(out / "report.html"), "--force"],
        "verify": ["verify", AUDIT, SNAPSHOT, "--json", str(out / "verify.json")],
        "calibrate": "the bench's collection has no calibration items",
        "rank": "the bench's collection has no ranking decisions",
        "drift": "the bench's collection has no earlier audit",
    }


def process(argv: list[str], cwd: Path, env: dict[str, str], python: tuple[str, ...] = ()
            ) -> tuple[float, float, int, str]:
    """`python [PYTHON] -m judgescope ARGV` as a process in `cwd` with `env`: its wall seconds,
    CPU seconds (user + system), exit code and stderr. Exit 1 (rows excluded) is still a full
    run; 2 or a crash stops the bench."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, *python, "-m", "judgescope", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"judgescope {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, done.returncode, done.stderr


def _run(argv: list[str], manifest: str, cache: Path, python: tuple[str, ...] = ()) -> tuple[float, int, str]:
    """Seconds of `python [PYTHON] -m judgescope ARGV` on the bench's manifest, its exit code and stderr."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUDGESCOPE_SOURCES=manifest, JUDGESCOPE_CACHE=str(cache))
    seconds, _, code, err = process(argv, Path(manifest).parent, env, python)
    return seconds, code, err


def import_seconds(log: str) -> float:
    """Seconds a process spent importing: the cumulative times of `python -X importtime`'s
    top-level imports (those its log does not indent), summed."""
    total = 0
    for line in log.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|", 2)
            if cumulative.strip().isdigit() and not name.startswith("  "):
                total += int(cumulative)
    return total / 1e6


def start_seconds(argv: list[str], manifest: str, cache: Path) -> float:
    """A command's start (TARGET_START_S): what one warm run of it spends importing."""
    return import_seconds(_run(argv, manifest, cache, ("-X", "importtime"))[2])


# Commands whose cold run is the collection's whole first open (validation of the audit and the
# snapshot, then every derived table): above WHOLE_OPEN_COLD_MAX_ROWS audit rows they run warm
# only, since their cold run would be the build phase's first open again (about 2.5 min each at
# 10M rows) and the build phase measures it beside raw DuckDB. `validate` and `report` (the
# float/integer ratio) run cold at every size.
WHOLE_OPEN = ("report-html", "verify")
WHOLE_OPEN_COLD_MAX_ROWS = 1_000_000


def audit_rows(manifest: str) -> int:
    """The audit's rows of a bench data folder (named <rows>[-<kind>] by bench/__main__.py)."""
    return int(Path(manifest).parent.name.split("-")[0])


def command_timings(args) -> dict:
    """Per command: one cold run in a cache of its own (not for WHOLE_OPEN above
    WHOLE_OPEN_COLD_MAX_ROWS), then `repeats` (at most 3) warm runs on the built cache; the load
    average before and after, since the cores may be shared."""
    warm_cache = Path(os.environ["JUDGESCOPE_CACHE"])
    big = audit_rows(args.manifest) > WHOLE_OPEN_COLD_MAX_ROWS
    out: dict = {"load_before": os.getloadavg(), "commands": {}}
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        for name, argv in commands(Path(tmp)).items():
            if isinstance(argv, str):
                out["commands"][name] = {"not_run": argv}
                continue
            cold, code = None, None
            if not (big and name in WHOLE_OPEN):
                cold_cache = Path(tmp) / "cold-cache"
                cold, code, _ = _run(argv, args.manifest, cold_cache)
                shutil.rmtree(cold_cache, ignore_errors=True)
            warm_runs = [_run(argv, args.manifest, warm_cache) for _ in range(min(args.repeats, 3))]
            warm = [w[0] for w in warm_runs]
            code = warm_runs[0][1] if code is None else code
            out["commands"][name] = {"argv": [a.replace(tmp, "TMP") for a in argv],
                                     "exit": code, "cold_s": cold, "warm": summary(warm),
                                     "start_s": start_seconds(argv, args.manifest, warm_cache)}
    out["load_after"] = os.getloadavg()
    return out


def lines(size: dict) -> list[str]:
    """The phase's table for results.md."""
    c = size["commands"]
    load = ", ".join(f"{x:.1f}" for x in c["load_before"])
    out = [f"Each command as a process (`python -m judgescope …`, imports included): cold = a new, "
           f"empty cache (its first open included), warm = the built cache, median of "
           f"{max(len(v['warm']['runs_ms']) for v in c['commands'].values() if 'warm' in v)} runs. "
           f"Load average at the phase's start {load}.", "",
           "| command | cold | warm | exit |", "|---|---|---|---|"]
    for name, v in c["commands"].items():
        if "not_run" in v:
            out.append(f"| `{name}` | not run: {v['not_run']} | | |")
        else:
            cold = (f"{v['cold_s']:.2f} s" if v["cold_s"] is not None else
                    f"not run: above {WHOLE_OPEN_COLD_MAX_ROWS:,} rows its cold run is the collection's "
                    f"first open, measured above")
            out.append(f"| `{' '.join(v['argv'])}` | {cold} | {v['warm']['median_ms'] / 1000:.2f} s | {v['exit']} |")
    starts = start_targets(c)
    if starts:
        out += ["", "Starts (issue 45 item 3, targets on an idle machine; load average above): `--help` "
                "as a whole warm process, each other command's imports in one warm run (`python -X "
                "importtime`, top-level imports summed).", "",
                "| command | start | target | met |", "|---|---|---|---|"]
        out += [f"| `{name}` | {seconds:.2f} s | ≤ {target} s | {'✅' if seconds <= target else '❌'} |"
                for name, seconds, target in starts]
    return out


def start_targets(phase: dict) -> list[tuple[str, float, float]]:
    """(command, its start in seconds, its target) of a commands phase: --help timed whole
    (warm median), the others by what they import; a run recorded without starts gives none."""
    out = []
    for name, v in phase["commands"].items():
        if name == "--help" and "warm" in v:
            out.append((name, v["warm"]["median_ms"] / 1000, TARGET_HELP_S))
        elif "start_s" in v:
            out.append((name, v["start_s"], TARGET_START_S))
    return out


def report_ratio(size: dict, sizes) -> dict | None:
    """A float audit's `report` as a process ÷ the integer audit's of the same rows, cold and
    warm (issue 45: ≤ 1.2× each), with both runs' load averages; None unless `size` is a float
    size whose integer counterpart in `sizes` ran the commands phase too."""
    whole = next((s for s in sizes if s["rows"] == size["rows"] and s.get("scores", "int") == "int"
                  and "report" in s.get("commands", {}).get("commands", {})), None)
    mine = size.get("commands", {}).get("commands", {}).get("report")
    if size.get("scores") != "float" or whole is None or not mine or "not_run" in mine:
        return None
    other = whole["commands"]["commands"]["report"]
    pair = {"cold": (mine["cold_s"], other["cold_s"]),
            "warm": (mine["warm"]["median_ms"] / 1000, other["warm"]["median_ms"] / 1000)}
    return {k: {"float_s": f, "int_s": i, "ratio": f / i if i else None} for k, (f, i) in pair.items()} | {
        "load": {"float": size["commands"]["load_before"], "int": whole["commands"]["load_before"]}}


def ratio_text(found: dict) -> str:
    """report_ratio in one cell: each ratio with its seconds, then the load averages."""
    parts = [f"{k} {found[k]['ratio']:.2f}× ({found[k]['float_s']:.2f} s vs {found[k]['int_s']:.2f} s)"
             for k in ("cold", "warm")]
    load = "; ".join(f"{k} run {', '.join(f'{x:.1f}' for x in found['load'][k])}" for k in ("float", "int"))
    return ", ".join(parts) + f"; load average at the phase's start: {load}"
