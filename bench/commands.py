"""The README's commands as a user runs them (issue 45 item 4): each a subprocess on the bench's
generated data, cold (a new, empty JUDGESCOPE_CACHE: its first open included) and warm (the
cache the build phase wrote), beside the in-process figures of the other phases.

`calibrate`, `rank` and `drift` read data of their own kinds, which bench/kinds.py writes beside
the collection as files (an earlier run of the audit, calibration answers and judgements,
ranking decisions; the collection a first open builds is not changed): they run cold in a cache of
their own and warm in that cache once the cold run has filled it. Calibration and ranking hold no
audit scores, so they run at the integer size of each row count only. Each command's peak
memory (the process's maximum RSS) is recorded beside its time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

from bench import kinds
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


# Commands whose data bench/kinds.py writes (not the collection's): cold in a cache of their own,
# then warm in it.
OWN_DATA = ("calibrate", "rank", "drift")
NO_SCORES = ("calibrate", "rank")  # their data hold no audit scores: one run per row count
# `rank` holds every pair's decisions in memory and parses each text in Python (ranking/decisions.py):
# measured up to a million pairs, its time and memory there stated in that size's table.
RANK_MAX_ROWS = 1_000_000
TIMEOUT_S = 1800  # a command still running after this is stopped and recorded as not finished
CRASH = "Traceback (most recent call last)"


def commands(out: Path, rows: int = 0, scores: str = "int") -> dict[str, list[str] | str]:
    """Command name → its arguments (as the README writes them; files relative to the data
    folder), or why it is not run at this size."""
    listed: dict[str, list[str] | str] = {
        "--help": ["--help"],
        "validate": ["validate", AUDIT],
        "report": ["report", AUDIT, "--out", str(out / "tables")],
        "report-html": ["report-html", COLLECTION, "--out", str(out / "report.html"), "--force"],
        "verify": ["verify", AUDIT, SNAPSHOT, "--json", str(out / "verify.json")],
        "calibrate": ["calibrate", kinds.ITEMS, kinds.JUDGEMENTS, "--json", str(out / "calibration.json")],
        "rank": ["rank", kinds.RANKING, "--json", str(out / "ranking.json")],
        "drift": ["drift", kinds.EARLIER, AUDIT, "--json", str(out / "drift.json")],
    }
    if scores != "int":
        for name in NO_SCORES:
            listed[name] = "its data hold no audit scores: run at the integer size of the same rows"
    elif rows > RANK_MAX_ROWS:
        listed["rank"] = (f"above {RANK_MAX_ROWS:,} pairs: rank holds every decision in memory and parses "
                          f"each text in Python (its time and peak memory at {RANK_MAX_ROWS:,} pairs are "
                          f"in that size's table)")
    return listed


class Ran(NamedTuple):
    """One command run as a process."""
    seconds: float  # wall
    cpu: float  # user + system of the process
    code: int  # exit code (1: rows excluded or a gate failed, still a full run)
    stderr: str
    peak_mb: float  # the process's maximum resident set after exec (VmHWM, sampled: see process)


# How often a running command's VmHWM is read: the kernel's own high-water mark of the process's
# memory since it exec'd, so a read misses only a peak reached in the last interval before exit.
# (getrusage's maxrss is no use here: Linux carries it across exec, so a child forked from a
# phase holding 1 GB reports 1 GB for `--help`.)
PEAK_POLL_S = 0.05
PEAK_METHOD = "VmHWM"  # recorded beside each peak: a run without it measured what getrusage gives


def _peak_mb(pid: int, done: threading.Event, found: list[float]) -> None:
    """Keep reading /proc/PID/status's VmHWM (kB) into found[0] until `done`."""
    status = Path(f"/proc/{pid}/status")
    while not done.is_set():
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    found[0] = max(found[0], int(line.split()[1]) / 1024)
        except (OSError, ValueError):
            pass
        done.wait(PEAK_POLL_S)


def process(argv: list[str], cwd: Path, env: dict[str, str], python: tuple[str, ...] = (),
            timeout: float | None = None) -> Ran:
    """`python [PYTHON] -m judgescope ARGV` as a process in `cwd` with `env`: its wall seconds,
    CPU seconds, exit code, stderr and peak RSS (VmHWM, read every PEAK_POLL_S while it runs).
    Exit 1 (rows excluded) is still a full run; 2, a crash or `timeout` seconds passing stops
    the bench (SystemExit with stderr's end)."""
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        child = subprocess.Popen([sys.executable, *python, "-m", "judgescope", *argv], cwd=cwd, env=env,
                                 stdout=subprocess.DEVNULL, stderr=err)
        stopped, ended, peak = threading.Event(), threading.Event(), [0.0]
        watch = threading.Thread(target=_peak_mb, args=(child.pid, ended, peak), daemon=True)
        watch.start()
        timer = threading.Timer(timeout, lambda: stopped.set() or child.kill()) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - t
        ended.set()
        watch.join()
        if timer:
            timer.cancel()
        child.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if stopped.is_set():
        raise SystemExit(f"judgescope {' '.join(argv)} did not finish within {timeout:g} s")
    if code not in (0, 1) or CRASH in stderr:  # an uncaught exception exits 1 too
        raise SystemExit(f"judgescope {' '.join(argv)} exited {code}:\n{stderr[-3000:]}")
    return Ran(seconds, usage.ru_utime + usage.ru_stime, code, stderr, peak[0])


def _run(argv: list[str], manifest: str, cache: Path, python: tuple[str, ...] = ()) -> Ran:
    """`python [PYTHON] -m judgescope ARGV` on the bench's manifest, in its data folder."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUDGESCOPE_SOURCES=manifest, JUDGESCOPE_CACHE=str(cache))
    return process(argv, Path(manifest).parent, env, python, TIMEOUT_S)


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
    return import_seconds(_run(argv, manifest, cache, ("-X", "importtime")).stderr)


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


def score_kind(manifest: str) -> str:
    """The score kind of a bench data folder: its name's suffix, none for integer scores."""
    name = Path(manifest).parent.name
    return name.split("-", 1)[1] if "-" in name else "int"


def _timed(argv: list[str], manifest: str, cold_cache: Path | None, warm_cache: Path, repeats: int) -> dict:
    """One cold run (in `cold_cache`, emptied first; None: not run), then `repeats` warm runs."""
    cold = None
    if cold_cache is not None:
        shutil.rmtree(cold_cache, ignore_errors=True)
        cold = _run(argv, manifest, cold_cache)
    warm = [_run(argv, manifest, warm_cache) for _ in range(repeats)]
    return {"exit": (cold or warm[0]).code, "cold_s": cold.seconds if cold else None,
            "warm": summary([w.seconds for w in warm]),
            "peak_mb": max(r.peak_mb for r in ([cold] if cold else []) + warm), "peak_method": PEAK_METHOD,
            "start_s": start_seconds(argv, manifest, warm_cache)}


def _failure(message: str) -> str:
    """A failed run in one line: how it ended and the last line of its stderr (the error)."""
    lines = [x.strip() for x in message.splitlines() if x.strip()]
    last = next((x for x in reversed(lines[1:]) if not x.startswith(("See also", "*", "Possible solutions"))), "")
    return lines[0].rstrip(":") + (f": {last}" if last else "")


def command_timings(args) -> dict:
    """Per command: one cold run in a cache of its own (not for WHOLE_OPEN above
    WHOLE_OPEN_COLD_MAX_ROWS), then `repeats` (at most 3) warm runs: on the built cache, or for
    OWN_DATA on the cache their cold run filled; the load average before and after, since the
    cores may be shared. The data of OWN_DATA are written first when missing (bench/kinds.py)."""
    warm_cache = Path(os.environ["JUDGESCOPE_CACHE"])
    rows, scores = audit_rows(args.manifest), score_kind(args.manifest)
    big = rows > WHOLE_OPEN_COLD_MAX_ROWS
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        listed = commands(Path(tmp), rows, scores)
        wanted = [n for n in OWN_DATA if not isinstance(listed[n], str)]
        out: dict = {"generated_s": kinds.ensure(Path(args.manifest).parent, rows, wanted),
                     "load_before": os.getloadavg(), "commands": {}}
        for name, argv in listed.items():
            if isinstance(argv, str):
                out["commands"][name] = {"not_run": argv}
                continue
            repeats = min(args.repeats, 3)
            if name in OWN_DATA:  # a failure on data of its kind at this size is a finding, recorded
                own = Path(tmp) / f"{name}-cache"
                try:
                    found = _timed(argv, args.manifest, own, own, repeats)
                except SystemExit as failed:
                    found = {"failed": _failure(str(failed))}
                shutil.rmtree(own, ignore_errors=True)
            else:
                cold = None if big and name in WHOLE_OPEN else Path(tmp) / "cold-cache"
                found = _timed(argv, args.manifest, cold, warm_cache, repeats)
                if cold:
                    shutil.rmtree(cold, ignore_errors=True)
            out["commands"][name] = {"argv": [a.replace(tmp, "TMP") for a in argv]} | found
    out["load_after"] = os.getloadavg()
    return out


def lines(size: dict) -> list[str]:
    """The phase's table for results.md."""
    c = size["commands"]
    load = ", ".join(f"{x:.1f}" for x in c["load_before"])
    runs = max((len(v['warm']['runs_ms']) for v in c['commands'].values() if 'warm' in v), default=0)
    written = "; ".join(f"`{name}` {s:.1f} s" for name, s in c.get("generated_s", {}).items())
    out = [f"Each command as a process (`python -m judgescope …`, imports included): cold = a new, "
           f"empty cache (its first open included), warm = the built cache (for "
           f"{', '.join(f'`{n}`' for n in OWN_DATA)}, which read files bench/kinds.py writes beside "
           f"the collection: the cache their cold run filled), median of {runs} runs; peak RSS = the "
           f"largest maximum resident set of the command's runs. Load average at the phase's start "
           f"{load}." + (f" Their data written in this phase: {written}." if written else ""), "",
           "| command | cold | warm | peak RSS | exit |", "|---|---|---|---|---|"]
    for name, v in c["commands"].items():
        if "not_run" in v:
            out.append(f"| `{name}` | not run: {v['not_run']} | | | |")
        elif "failed" in v:
            out.append(f"| `{' '.join(v['argv'])}` | ❌ failed: {v['failed'][:400]} | | | |")
        else:
            cold = (f"{v['cold_s']:.2f} s" if v["cold_s"] is not None else
                    f"not run: above {WHOLE_OPEN_COLD_MAX_ROWS:,} rows its cold run is the collection's "
                    f"first open, measured above")
            peak = (f"{v['peak_mb']:,.0f} MB" if v.get("peak_mb") and v.get("peak_method") == PEAK_METHOD
                    else "not recorded")
            out.append(f"| `{' '.join(v['argv'])}` | {cold} | {v['warm']['median_ms'] / 1000:.2f} s | {peak} "
                       f"| {v['exit']} |")
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
