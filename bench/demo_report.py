"""The float `report` on the data issue 45 found it slow on (its item 1, "at 20k"): 20,000 rows
drawn from the demo's V2 audit (its 23 languages × 3 units, its explanations and hashes), once
with their integer scores and once with the same rows' scores as uniform 4-decimal floats, each
`python -m judgescope report FILE --out DIR` as a process: cold (a new, empty cache: its first
open included) and warm (the cache the cold run wrote).

The bench's generated audits have about 70 distinct integer scores per group, so their integer
draws cost about as much as a float audit's; the demo-shaped integer groups have 12.5 distinct
scores on average (so 12.5 binomials per resample), and this is the comparison where the float
report's cost shows. Both runs' wall seconds (the target) and their processes' CPU seconds (a
shared machine moves the first more than the second) are kept.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from bench import commands

ROOT = Path(__file__).resolve().parent.parent
DEMO_AUDIT = ROOT / "data/demo/xhotpotqa_judge_v2/data/xhotpotqa_glm52_judge_v2-audit.parquet"
ROWS, SEED = 20_000, 45


def audits(folder: Path, rows: int = ROWS, seed: int = SEED, source: Path = DEMO_AUDIT) -> dict[str, Path]:
    """kind ("int", "float") → an audit file of `rows` rows drawn with replacement from the demo's
    V2 audit (seeded), each with a unique judge_record_id (<demo id>~<draw>); the float file holds
    the same rows with scores drawn uniformly on [0, 100] and rounded to 4 decimals."""
    demo = pq.read_table(source)
    rng = np.random.default_rng(seed)
    drawn = demo.take(pa.array(rng.integers(0, demo.num_rows, rows)))
    ids = pc.binary_join_element_wise(drawn["judge_record_id"],
                                      pa.array([str(k) for k in range(rows)]), "~")
    drawn = drawn.set_column(drawn.schema.get_field_index("judge_record_id"), "judge_record_id", ids)
    floats = np.round(rng.uniform(0, 100, rows), 4)
    at = drawn.schema.get_field_index("score")
    out = {}
    for kind, table in (("int", drawn), ("float", drawn.set_column(at, "score", pa.array(floats)))):
        path = folder / kind / "demo_shaped-audit.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path)
        out[kind] = path
    return out


def _run(audit: Path, out: Path, cache: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `judgescope report` as a process, on the file alone
    (no manifest)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), JUDGESCOPE_CACHE=str(cache))
    env.pop("JUDGESCOPE_SOURCES", None)
    ran = commands.process(["report", str(audit), "--out", str(out)], audit.parent, env)
    return ran.seconds, ran.cpu


def measure(repeats: int = 3, rows: int = ROWS) -> dict:
    """Per kind: `repeats` cold runs (each in a new cache) and `repeats` warm runs (on the last
    cold run's cache), alternating the kinds so both meet the same load; medians of each."""
    runs: dict = {k: {"cold": [], "warm": []} for k in ("int", "float")}
    with tempfile.TemporaryDirectory(prefix="bench-demo-report-") as tmp:
        files = audits(Path(tmp), rows)
        load_before = os.getloadavg()
        for _ in range(repeats):
            for kind, audit in files.items():
                cache = Path(tmp) / kind / "cache"
                shutil.rmtree(cache, ignore_errors=True)
                runs[kind]["cold"].append(_run(audit, Path(tmp) / kind / "out", cache))
        for _ in range(repeats):
            for kind, audit in files.items():
                runs[kind]["warm"].append(_run(audit, Path(tmp) / kind / "out", Path(tmp) / kind / "cache"))
    out = {"rows": rows, "seed": SEED, "repeats": repeats, "load_before": load_before,
           "load_after": os.getloadavg(), "runs": runs}
    for kind in runs:
        for phase in ("cold", "warm"):
            wall, cpu = zip(*runs[kind][phase])
            out.setdefault(kind, {})[phase] = {"wall_s": float(np.median(wall)), "cpu_s": float(np.median(cpu))}
    return out


def ratios(result: dict) -> dict[str, dict[str, float]]:
    """phase → {"wall": float ÷ int, "cpu": float ÷ int} of the medians."""
    return {p: {m: result["float"][p][f"{m}_s"] / result["int"][p][f"{m}_s"] for m in ("wall", "cpu")}
            for p in ("cold", "warm")}


def target(result: dict) -> tuple[str, str, bool]:
    """The target row of results.md: both wall ratios within the float report's target."""
    r = ratios(result)
    text = ", ".join(f"{p} {r[p]['wall']:.2f}× ({result['float'][p]['wall_s']:.2f} s vs "
                     f"{result['int'][p]['wall_s']:.2f} s; CPU {r[p]['cpu']:.2f}×)" for p in ("cold", "warm"))
    target = commands.TARGET_FLOAT_REPORT
    return (f"float `report` as a process ≤ {target}× the integer one on {result['rows']:,} demo-shaped "
            f"rows, cold and warm", text, all(r[p]["wall"] <= target for p in ("cold", "warm")))


def section(result: dict) -> list[str]:
    """results.md's section: what was run, the target, and every run."""
    t, measured, met = target(result)
    load = ", ".join(f"{x:.1f}" for x in result["load_before"])
    rows = [f"| {kind} | {phase} | " + ", ".join(f"{w:.2f}" for w, _ in result["runs"][kind][phase])
            + " | " + ", ".join(f"{c:.2f}" for _, c in result["runs"][kind][phase]) + " |"
            for kind in ("int", "float") for phase in ("cold", "warm")]
    return [f"## Float report on demo-shaped data (issue 45, item 1: {result['rows']:,} rows)", "",
            f"{result['rows']:,} rows drawn (seed {result['seed']}) from the demo's V2 audit, once with its "
            "integer scores and once with uniform 4-decimal float scores, `python -m judgescope report FILE "
            f"--out DIR` as a process, cold (a new cache) and warm, {result['repeats']} runs each, the kinds "
            f"alternating. Load average at the start {load}.", "",
            "| target | measured | met |", "|---|---|---|", f"| {t} | {measured} | {'✅' if met else '❌'} |", "",
            "| scores | cache | wall seconds | CPU seconds |", "|---|---|---|---|", *rows, ""]
