"""`python -m bench [--rows 10000,1000000,10000000] [--repeats 5]`: generate, time, report.

For each size: scaled data (bench/data/<rows>/, git-ignored, reused when present), the cold
build (once per generated revision; its figures are kept in build.json beside the data), then
the pages, pandas, verify and bootstrap phases, each in its own process; finally cold starts of
the demo and of the largest collection. Prints the ratio tables and writes bench/results.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from bench import analysis, coldstart, report
from bench.generate import generate, manifest_path

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("pages", "pandas", "verify", "bootstrap")


def run_phase(phase: str, folder: Path, repeats: int, *extra: str) -> dict:
    """Run one phase in a fresh process; its last stdout line is the JSON result."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUDGESCOPE_CACHE=str(folder / "cache"))
    env.pop("JUDGESCOPE_SOURCES", None)
    proc = subprocess.run([sys.executable, "-m", "bench.phases", phase, "--manifest",
                           str(manifest_path(folder)), "--repeats", str(repeats), *extra],
                          cwd=folder, env=env, capture_output=True, text=True)  # DuckDB spills to ./.tmp
    if proc.returncode:
        raise SystemExit(f"bench phase {phase} failed on {folder}:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def prepare(rows: int, data: Path, rebuild: bool, memory_limit: str, log) -> dict:
    """Generated data and its cold build, measured once per generated revision."""
    folder = data / str(rows)
    meta = folder / "build.json"
    if rebuild:
        shutil.rmtree(folder, ignore_errors=True)
    t = time.perf_counter()
    fresh = not manifest_path(folder).exists()
    generate(rows, folder)
    if fresh:
        (folder / "generate.json").write_text(json.dumps({"seconds": time.perf_counter() - t}))
        shutil.rmtree(folder / "cache", ignore_errors=True)
    if not meta.exists() or not (folder / "cache").exists():
        log(f"  cold build of {rows:,} rows …")
        build = run_phase("build", folder, 1, "--build-memory-limit", memory_limit)
        build["measured"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        meta.write_text(json.dumps(build, indent=1))
    gen = folder / "generate.json"
    return {"folder": folder, "build": json.loads(meta.read_text()),
            "generate_s": json.loads(gen.read_text())["seconds"] if gen.exists() else None}


def measure_size(rows: int, args, log) -> dict:
    log(f"{rows:,} rows: data")
    prep = prepare(rows, args.data, args.rebuild, args.build_memory_limit, log)
    size = {"rows": rows, "build": prep["build"], "generate_s": prep["generate_s"]}
    for phase in PHASES:
        saved = prep["folder"] / f"phase-{phase}.json"
        if args.resume and saved.exists():  # kept from an interrupted run of the same data
            size[phase] = json.loads(saved.read_text())
            continue
        log(f"  {phase} …")
        extra = ("--memory-limit", args.memory_limit) if args.memory_limit else ()
        if phase == "pages" and args.pages:
            extra += ("--only", args.pages)
        size[phase] = run_phase(phase, prep["folder"], args.repeats, *extra)
        saved.write_text(json.dumps(size[phase]))
    from judgescope.sources.catalog import STORE_MEMORY
    size["memory_limit"] = args.memory_limit or STORE_MEMORY
    return size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10000,1000000,10000000",
                        help="comma-separated audit sizes (default %(default)s)")
    parser.add_argument("--repeats", type=int, default=5, help="timed warm runs per figure")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results.md")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "out" / "results.json")
    parser.add_argument("--coldstart-repeats", type=int, default=5)
    parser.add_argument("--no-coldstart", action="store_true", help="skip the browser cold starts")
    parser.add_argument("--resume", action="store_true",
                        help="reuse phase results saved beside the data by an interrupted run")
    parser.add_argument("--pages", default="", help="only these pages (comma-separated) in the pages phase")
    parser.add_argument("--render-only", action="store_true",
                        help="only re-render --results from the --json of an earlier run")
    parser.add_argument("--rebuild", action="store_true", help="regenerate data and rebuild caches")
    parser.add_argument("--memory-limit", default="",
                        help="DuckDB memory_limit of the app's Store in the timed phases "
                             "(default: as catalog.store makes it, catalog.STORE_MEMORY)")
    parser.add_argument("--build-memory-limit", default="",
                        help="DuckDB memory_limit for the cold build (default: the app's own, "
                             "catalog.BUILD_MEMORY)")
    parser.add_argument("--notes", type=Path, help="markdown shown under the targets "
                        "(default: bench/analysis.py, written for the committed run)")
    args = parser.parse_args(argv)
    sizes = sorted(int(s.replace("_", "")) for s in args.rows.split(",") if s.strip())

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    if args.render_only:  # re-render results.md from the JSON of an earlier run
        return _write(json.loads(args.json.read_text()), args)
    results = {"machine": report.machine(), "repeats": args.repeats, "sizes": []}
    for rows in sizes:
        results["sizes"].append(measure_size(rows, args, log))
    if not args.no_coldstart and coldstart.available():
        log("cold start: demo …")
        results["coldstart_demo"] = coldstart.measure(None, args.data / "cache-demo", args.coldstart_repeats)
        largest = args.data / str(sizes[-1])
        log(f"cold start: {sizes[-1]:,}-row collection …")
        results["sizes"][-1]["coldstart"] = coldstart.measure(manifest_path(largest), largest / "cache",
                                                              1, warmup=0)["runs"][0]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1, default=str))
    return _write(results, args)


def _write(results: dict, args) -> int:
    notes = args.notes.read_text(encoding="utf-8") if args.notes else analysis.NOTES
    text = report.render(results, notes)
    args.results.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
