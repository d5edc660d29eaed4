"""Turn the phases' JSON into ratio tables, a target check, and bench/results.md."""

from __future__ import annotations

import platform
from datetime import datetime, timezone
from pathlib import Path

from bench import commands, demo_report

TARGET_P95_MS = 300
# Issue #28: at demo scale (10,000 rows and fewer) every interaction ≤ 100 ms p95.
TARGET_P95_SMALL_MS, SMALL_ROWS = 100, 10_000
TARGET_APP_RAW = 1.3
TARGET_PANDAS = 20
TARGET_HASH = 0.8
TARGET_RSS_MB = 2048
TARGET_COLD_S = 3.0
TARGET_OPEN_RAW = 1.5
TARGET_OPEN_S = 120
TARGET_FLOAT_REPORT = commands.TARGET_FLOAT_REPORT  # one target: the bench's data and the demo-shaped rows


def machine() -> dict:
    import duckdb
    import numpy
    import pandas
    import pyarrow
    import streamlit

    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor())
    mem = next((line.split()[1] for line in _read("/proc/meminfo").splitlines()
                if line.startswith("MemTotal")), "0")
    import os
    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "cpu": cpu,
            "cores": os.cpu_count(), "memory_gb": round(int(mem) / 1024 ** 2, 1),
            "os": platform.platform(), "python": platform.python_version(), "duckdb": duckdb.__version__,
            "pandas": pandas.__version__, "pyarrow": pyarrow.__version__, "numpy": numpy.__version__,
            "streamlit": streamlit.__version__, "load_average": os.getloadavg()}


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def _ms(x) -> str:
    return "n/a" if x is None else (f"{x:,.0f}" if x >= 100 else f"{x:,.1f}")


def _ratio(a, b) -> float | None:
    return a / b if a is not None and b else None


def _r(x, digits=2) -> str:
    return "n/a" if x is None else f"{x:,.{digits}f}×"


def _ok(flag) -> str:
    return "n/a" if flag is None else ("✅" if flag else "❌")


def p95_target(size: dict) -> int:
    """The p95 an interaction must meet at this size (ms)."""
    return TARGET_P95_SMALL_MS if size["rows"] <= SMALL_ROWS else TARGET_P95_MS


def interactions_table(size: dict) -> list[str]:
    limit = p95_target(size)
    out = [f"| page | interaction | runs | app median ms | app p95 ms | ≤ {limit} ms p95 | queries only ms "
           "| raw DuckDB ms | app ÷ raw | ≤ 1.3× |", "|" + "---|" * 10]
    for r in size["pages"]["interactions"]:
        ratio = _ratio(r["app_queries"]["median_ms"], r["raw"]["median_ms"])
        out.append(f"| {r['page']} | {r['interaction']} | {r['runs']} | {_ms(r['app']['median_ms'])} "
                   f"| {_ms(r['app']['p95_ms'])} | {_ok(r['app']['p95_ms'] <= limit)} "
                   f"| {_ms(r['app_queries']['median_ms'])} | {_ms(r['raw']['median_ms'])} | {_r(ratio)} "
                   f"| {_ok(ratio <= TARGET_APP_RAW if ratio else None)} |")
    return out


def pandas_table(size: dict) -> list[str]:
    p = size["pandas"]
    out = [f"pandas loads the {len(p.get('columns', [])) or 8} needed columns once in {p['load_s']:.1f} s "
           f"({p['frame_mb']:,.0f} MB in memory; not counted below).", "",
           "| aggregation | app median ms | pandas median ms | pandas ÷ app | ≥ 20× |", "|---|---|---|---|---|"]
    for a in p["aggregations"]:
        ratio = _ratio(a["pandas"]["median_ms"], a["app"]["median_ms"])
        out.append(f"| {a['aggregation']} | {_ms(a['app']['median_ms'])} | {_ms(a['pandas']['median_ms'])} "
                   f"| {_r(ratio, 1)} | {_ok(ratio >= TARGET_PANDAS)} |")
    return out


def verify_lines(size: dict) -> list[str]:
    v = size["verify"]
    ratio = _ratio(v["app_mb_s"], v["hashlib_mb_s"])
    return ["| path | median s | MB/s | rows/s | ÷ hashlib |", "|---|---|---|---|---|",
            f"| app: SHA-256 of both texts (`build.SNAPSHOT_DIGESTS`, DuckDB, {v['app_runs']} runs) "
            f"| {v['app']['median_ms'] / 1000:,.2f} | {v['app_mb_s']:,.0f} | {v['app_rows_s']:,.0f} "
            f"| {_r(ratio)} {_ok(ratio >= TARGET_HASH)} |",
            f"| single-core hashlib over the Arrow buffers ({v['hashlib_runs']} runs) "
            f"| {v['hashlib']['median_ms'] / 1000:,.2f} | {v['hashlib_mb_s']:,.0f} | {v['hashlib_rows_s']:,.0f} "
            "| 1.00× |", "",
            f"{v['snapshot_rows']:,} snapshot rows, {v['text_mb']:,.0f} MB of UTF-8 text. The digests are "
            "computed once per snapshot file revision, when it is validated; the join of audit to "
            "snapshot digests (`integrity/verification_tables.verification_views`) took "
            f"{v['join_build_s']:,.1f} s once per "
            "pair of revisions, after which the summary (Integrity, the sidebar badge) reads in "
            f"{_ms(v['summary_read']['median_ms'])} ms. Peak RSS of the app path: "
            f"{v['app_peak_rss_mb']:,.0f} MB (texts never reach Python; they are hashed in DuckDB).", ""]


def bootstrap_lines(size: dict) -> list[str]:
    b = size["bootstrap"]
    drawn = (f"{b['distinct']:,} distinct scores overall, drawn over {b['categories']} categories; "
             f"overall interval: {b['overall_method']}" if "distinct" in b else "")
    return [f"Method: {b['method']} (`stats.bootstrap_mean_ci_from_counts`). A multinomial draw of n "
            "over the distinct scores is exactly a resample of n rows; its cost follows the "
            "categories drawn (at most 128 distinct scores per group, or 64 score bins), not n "
            "nor the distinct floats.", "",
            *([f"- {drawn}"] if drawn else []),
            f"- 10,000 resamples, per unit + overall ({b['groups_unit']} groups, {b['rows']:,} rows): "
            f"median {_ms(b['unit_10k']['median_ms'])} ms",
            f"- 10,000 resamples, every language × unit cell ({b['groups_cells']} groups): median "
            f"{_ms(b['cells_10k']['median_ms'])} ms",
            f"- for comparison, one row resample of all {b['rows']:,} rows takes "
            f"{b['row_resample_one_s'] * 1000:,.0f} ms → 10,000 would take about "
            f"{b['row_resample_10k_estimate_s'] / 60:,.1f} min for the overall mean alone"]


def report_lines(size: dict) -> list[str]:
    r = size["report"]
    return [f"`judgescope report`'s tables (`cli/commands/report.report_tables`: summary, per "
            f"language, {r['groups']} bootstrap groups of {r['resamples']:,} resamples"
            + (", per system" if r["by_system"] else "") + f") on the warm cache: median "
            f"{r['report']['median_ms'] / 1000:,.2f} s over {len(r['report']['runs_ms'])} runs."]


def float_report_ratio(size: dict, sizes) -> tuple[float, dict] | None:
    """A float audit's report time ÷ the integer audit's of the same rows, when both were run."""
    whole = next((s for s in sizes if s["rows"] == size["rows"] and s.get("scores", "int") == "int"
                  and "report" in s), None)
    if size.get("scores") != "float" or "report" not in size or whole is None:
        return None
    return _ratio(size["report"]["report"]["median_ms"], whole["report"]["report"]["median_ms"]), whole


def remote_lines(size: dict) -> list[str]:
    r = size["remote"]
    out = ["The cache read where it is published (`JUDGESCOPE_PREBUILT`, judgescope/remote/prebuilt.py): "
           "every view's files through an fsspec filesystem (here the local one under a protocol of its "
           "own, standing in for the Hub's), counted by `remote.CountingFileSystem`. Opening the store "
           f"(index, every footer and file's metadata, once per connection) read {r['open_bytes'] / 1e6:,.2f} MB "
           f"in {r['open_round_trips']:,} round trips. Each interaction ran once to settle, then once "
           f"counted. Remote time = round trips × {r['rtt_s'] * 1000:,.0f} ms + bytes ÷ "
           f"{r['bandwidth_bps'] * 8 / 1e9:,.0f} Gbit/s (stated assumptions, not measured).", "",
           "| page | interaction | MB read | round trips | remote time at those figures s |", "|---|---|---|---|---|"]
    for x in r["interactions"]:
        out.append(f"| {x['page']} | {x['interaction']} | {x['bytes'] / 1e6:,.2f} | {x['round_trips']:,} | "
                   f"{x['remote_s']:,.2f} |")
    return out


def rss_lines(size: dict) -> list[str]:
    get = lambda phase, key="peak_rss_mb": size.get(phase, {}).get(key)  # noqa: E731
    rows = [("cold build (validation, once per revision)", size["build"].get("peak_rss_mb")),
            ("app: every page's queries + tables", get("pages")),
            ("app: verification", get("verify", "app_peak_rss_mb")),
            ("app: bootstrap (the pages' intervals, from the binned counts)",
             get("bootstrap", "app_peak_rss_mb")),
            ("bootstrap baseline (every distinct score and the rows, for the row resample)", get("bootstrap")),
            ("pandas baseline (frame + aggregations)", get("pandas"))]
    if size.get("coldstart"):
        rows.append(("streamlit server, first page (bench collection)",
                     size["coldstart"].get("server_peak_rss_mb")))
    out = ["| phase (own process) | peak RSS MB | ≤ 2 GB |", "|---|---|---|"]
    for name, mb in rows:
        baseline = name.startswith(("pandas", "cold build", "bootstrap baseline"))  # not the app's
        flag = None if mb is None or baseline else mb <= TARGET_RSS_MB
        out.append(f"| {name} | {_ms(mb)} | {_ok(flag)} |")
    return out


def first_open(size: dict) -> tuple[float | None, float | None]:
    """(app seconds, app ÷ raw DuckDB) of the first open of a new revision."""
    b = size["build"]
    raw = b.get("raw_open", {}).get("seconds")
    return b.get("seconds"), _ratio(b.get("seconds"), raw)


def open_spread(build: dict) -> str:
    """How far the first open's timed pairs range, beside the median pair's ratio."""
    ratios = [p["app_s"] / p["raw_s"] for p in build.get("pairs", ())]
    if len(ratios) < 2:
        return ""
    return f"; the median of {len(ratios)} pairs, which range {_r(min(ratios))}–{_r(max(ratios))}"


def first_open_line(size: dict) -> list[str]:
    b = size["build"]
    if "raw_open" not in b:
        return []
    r, app = b["raw_open"], first_open(size)
    split = (f" (validation {b['validate_s']:,.1f} s + derived tables {b['derived_s']:,.1f} s)"
             if "validate_s" in b else "")
    if b.get("lazy"):  # built when a page first reads them, not part of the first open
        split += f"; {', '.join(b['lazy'])} built on first read in {b['lazy_s']:,.1f} s"
    same = ""
    if "app_level_seconds" in r:  # the app writes zstd at level 1; raw above at DuckDB's default
        same = (f" The app writes its cache as zstd at level 1, raw DuckDB above at its default level; "
                f"raw at level 1{' (timed in the first pair)' if len(b.get('pairs', ())) > 1 else ''} "
                f"(sort {r['app_level_sort_s']:,.1f} s, hash {r['app_level_hash_s']:,.1f} s) "
                f"{r['app_level_seconds']:,.1f} s: the app is **{_r(_ratio(b['seconds'], r['app_level_seconds']))}** "
                f"of that.")
    pairs = ""
    if len(b.get("pairs", ())) > 1:  # timed several times, alternating with raw DuckDB
        pairs = (f" Timed {len(b['pairs'])} times, each right after raw DuckDB's same work; shown: the "
                 f"pair of median ratio. Every pair (app ÷ raw): " + "; ".join(
                     f"{p['app_s']:,.1f} s ÷ {p['raw_s']:,.1f} s = {_r(_ratio(p['app_s'], p['raw_s']))}"
                     for p in b["pairs"]) + ".")
    return [f"First open of this revision: app {b['seconds']:,.1f} s{split}; raw DuckDB doing the "
            f"irreducible work (sort the audit by score into zstd Parquet {r['sort_s']:,.1f} s, "
            f"SHA-256 of the snapshot texts into Parquet {r['hash_s']:,.1f} s) {r['seconds']:,.1f} s: "
            f"**{_r(app[1])}** (target ≤ {TARGET_OPEN_RAW}×).{same}{pairs}", ""]


def size_title(size: dict) -> str:
    return f"{size['rows']:,} audit rows ({size.get('scores', 'int')} scores)"


def size_section(size: dict, sizes=()) -> list[str]:
    """One size's section (`sizes`: the run's others, for the float report's integer counterpart)."""
    b = size["build"]
    out = [f"## {size_title(size)}", "",
           f"Data: generated in {size.get('generate_s') or 0:,.0f} s; audit {b['bench_audit']['input_mb']:,.0f} MB, "
           f"snapshot {b['bench_snapshot']['input_mb']:,.0f} MB of Parquet. Cold build (validate both into "
           f"the cache, once per dataset revision): **{b['seconds']:,.1f} s**, cache "
           f"{b['bench_audit']['cache_mb'] + b['bench_snapshot']['cache_mb']:,.0f} MB"
           + (f", DuckDB memory_limit {b['memory_limit']} spilling to disk" if b.get("memory_limit") else "")
           + (f"; measured {b['measured']}" if b.get("measured") else "") + ".", "",
           *first_open_line(size),
           "### Page interactions (warm, uncached result)", "",
           "App = `db.Store.run` of the page's named queries + the judgescope function that builds its "
           "table; queries only = the same without that function; raw = the same SQL text and "
           "parameters on a plain DuckDB connection over the same files."
           + (f" The Store runs with DuckDB memory_limit {size['memory_limit']}, as in the app."
              if size.get("memory_limit") else ""), ""]
    out += interactions_table(size) if "pages" in size else ["Not measured in this run (pages phase)."]
    for title, phase, lines in (("Aggregations: app vs pandas", "pandas", pandas_table),
                                ("Hash verification", "verify", verify_lines),
                                ("Bootstrap", "bootstrap", bootstrap_lines),
                                ("Remote reads: a prebuilt cache over fsspec", "remote", remote_lines),
                                ("Report", "report", report_lines),
                                ("Commands as processes", "commands", commands.lines),
                                ("Peak RSS", None, rss_lines)):
        out += ["", f"### {title}", ""]
        out += lines(size) if phase is None or phase in size else [f"Not measured in this run ({phase} phase)."]
        as_process = commands.report_ratio(size, sizes) if phase == "commands" else None
        if as_process:
            out += ["", "`report` on these float scores ÷ on the integer scores of the same rows, as "
                    f"processes: {commands.ratio_text(as_process)} (target ≤ {TARGET_FLOAT_REPORT}× each)."]
    if size.get("coldstart"):
        c = size["coldstart"]
        out += ["", f"Cold start on this collection (one start, caches built): first page rendered in "
                f"{c['rendered_s']:,.1f} s (server healthy after {c['healthy_s']:,.1f} s)"
                + (f"; {c['note']}" if c.get("note") else "") + "."]
    return out


def targets(size: dict, demo: dict | None, sizes=()) -> list[tuple[str, str, bool | None]]:
    """(target, measured, met) at one size (`sizes`: the run's others, for the float report's
    integer counterpart)."""
    inter = size["pages"]["interactions"]
    worst = max(inter, key=lambda r: r["app"]["p95_ms"])
    limit = p95_target(size)
    slow = [r for r in inter if r["app"]["p95_ms"] > limit]
    ratios = [(_ratio(r["app_queries"]["median_ms"], r["raw"]["median_ms"]), r) for r in inter]
    worst_ratio = max(ratios, key=lambda x: x[0] or 0)
    pandas = [(_ratio(a["pandas"]["median_ms"], a["app"]["median_ms"]), a["aggregation"])
              for a in size.get("pandas", {}).get("aggregations", [])]
    low_pandas = min(pandas) if pandas else (None, "not measured")
    v = size.get("verify", {"app_mb_s": None, "hashlib_mb_s": None, "app_peak_rss_mb": 0})
    hash_ratio = _ratio(v["app_mb_s"], v["hashlib_mb_s"])
    boot = size.get("bootstrap", {})
    rss = max(size["pages"]["peak_rss_mb"], v["app_peak_rss_mb"],
              boot.get("app_peak_rss_mb", boot.get("peak_rss_mb", 0)))  # runs saved before the split
    out = [
        (f"every interaction ≤ {limit} ms p95", f"{len(inter) - len(slow)}/{len(inter)} meet it; worst "
         f"{worst['page']} · {worst['interaction']} {_ms(worst['app']['p95_ms'])} ms", not slow),
        ("app ≤ 1.3× raw DuckDB", f"worst {_r(worst_ratio[0])} ({worst_ratio[1]['page']} · "
         f"{worst_ratio[1]['interaction']})", worst_ratio[0] <= TARGET_APP_RAW),
        ("≥ 20× faster than pandas", f"lowest {_r(low_pandas[0], 1)} ({low_pandas[1]})",
         None if low_pandas[0] is None else low_pandas[0] >= TARGET_PANDAS),
        ("verification ≥ 80% of hashlib", "not measured" if hash_ratio is None else
         f"{_r(hash_ratio)} ({v['app_mb_s']:,.0f} vs {v['hashlib_mb_s']:,.0f} MB/s)",
         None if hash_ratio is None else hash_ratio >= TARGET_HASH),
        ("peak RSS ≤ 2 GB (app phases)", f"{rss:,.0f} MB", rss <= TARGET_RSS_MB),
    ]
    seconds, ratio = first_open(size)
    if ratio is not None:
        # Two targets of two issues, judged apart: #45's ratio to raw DuckDB's irreducible work
        # of the same files, and #28's seconds (which a slower disk or CPU moves, the ratio less).
        # Issue 45 sets the ratio at 10M rows; below, fixed costs dominate and it is shown, not judged.
        out.append((f"first open ≤ {TARGET_OPEN_RAW}× raw DuckDB (issue 45, at 10M rows)", f"{_r(ratio)} raw "
                    f"({seconds:,.0f} s{open_spread(size['build'])})",
                    ratio <= TARGET_OPEN_RAW if size["rows"] >= 10_000_000 else None))
        out.append((f"first open ≤ {TARGET_OPEN_S} s (issue 28)", f"{seconds:,.0f} s", seconds <= TARGET_OPEN_S))
    compared = float_report_ratio(size, sizes)
    if compared:
        ratio, whole = compared
        out.append((f"float report ≤ {TARGET_FLOAT_REPORT}× the integer one",
                    f"{_r(ratio)} ({size['report']['report']['median_ms'] / 1000:,.2f} s vs "
                    f"{whole['report']['report']['median_ms'] / 1000:,.2f} s)", ratio <= TARGET_FLOAT_REPORT))
    as_process = commands.report_ratio(size, sizes)
    if as_process:
        ratios = [as_process[k]["ratio"] for k in ("cold", "warm")]
        out.append((f"float `report` as a process ≤ {TARGET_FLOAT_REPORT}× the integer one, cold and warm",
                    commands.ratio_text(as_process),
                    None if None in ratios else all(r <= TARGET_FLOAT_REPORT for r in ratios)))
    if demo:
        out.append(("cold start ≤ 3 s (demo)", f"median {demo['median_s']:.2f} s, slowest "
                    f"{demo['max_s']:.2f} s over {len(demo['runs'])} starts", demo["median_s"] <= TARGET_COLD_S))
    return out


def starts_section(sizes, demo: dict | None) -> list[str]:
    """Issue 45 item 3's targets in one table, whatever the phases run: `judgescope --help` ≤ 0.5 s,
    every command's start ≤ 1.5 s (the smallest size's commands phase: a start does not grow
    with the data), the demo's cold start ≤ 3 s; each with the load average it ran under."""
    ran = sorted((s for s in sizes if s.get("commands")), key=lambda s: s["rows"])
    rows = []
    if ran:
        phase = ran[0]["commands"]
        load = ", ".join(f"{x:.1f}" for x in phase["load_before"])
        for name, seconds, target in commands.start_targets(phase):
            what = "whole process, warm" if name == "--help" else "imports of a warm run"
            rows.append((f"`judgescope {name}` start ≤ {target} s", f"{seconds:.2f} s ({what}; load {load})",
                         seconds <= target))
    if demo:
        load = f"; load {', '.join(f'{x:.1f}' for x in demo['load'])}" if demo.get("load") else ""
        rows.append((f"cold start ≤ {TARGET_COLD_S:g} s (demo)", f"median {demo['median_s']:.2f} s, slowest "
                     f"{demo['max_s']:.2f} s over {len(demo['runs'])} starts{load}", demo["median_s"] <= TARGET_COLD_S))
    if not rows:
        return []
    return ["## Starts (targets on an idle machine)", "", "| target | measured | met |", "|---|---|---|",
            *(f"| {t} | {v} | {_ok(ok)} |" for t, v, ok in rows), ""]


def render(results: dict, notes: str = "") -> str:
    m = results["machine"]
    sizes = results["sizes"]
    lines = ["# JudgeScope benchmark", "",
             f"Run {m['date']} with `python -m bench --rows "
             f"{','.join(dict.fromkeys(str(s['rows']) for s in sizes))} --scores "
             f"{','.join(dict.fromkeys(s.get('scores', 'int') for s in sizes))} "
             f"--repeats {results['repeats']}`.", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB RAM, {m['os']}. Load average at "
             f"start {', '.join(f'{x:.1f}' for x in m['load_average'])} (other work shared the cores). "
             f"Python {m['python']}, DuckDB {m['duckdb']}, pandas {m['pandas']}, pyarrow {m['pyarrow']}, "
             f"numpy {m['numpy']}, streamlit {m['streamlit']}.", ""]
    demo = results.get("coldstart_demo")
    lines += starts_section(sizes, demo)
    if results.get("demo_report"):
        lines += demo_report.section(results["demo_report"])
    for size in (s for s in sorted(sizes, key=lambda s: -s["rows"]) if "pages" in s):
        lines += [f"## Targets at {size_title(size)}", "", "| target | measured | met |", "|---|---|---|"]
        lines += [f"| {t} | {v} | {_ok(ok)} |" for t, v, ok in targets(size, demo, sizes)]
        lines.append("")
    if demo:
        starts = ", ".join(f"{r['rendered_s']:.2f}" for r in demo["runs"])
        lines += [f"Cold start on the demo (`python -m judgescope.web.serve` → first page rendered in headless "
                  f"Chromium, caches built): runs {starts} s; "
                  f"server peak RSS {demo['server_peak_rss_mb']:,.0f} MB.", ""]
    if notes:
        lines += [notes.strip(), ""]
    for size in sizes:
        lines += size_section(size, sizes) + [""]
    return "\n".join(lines)
