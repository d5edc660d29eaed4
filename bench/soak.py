"""Soak: N concurrent headless-browser sessions against one `streamlit run`, each changing its own
filters on Review for S seconds. Prints errors, p50/p95 time to the updated view, server RSS.

    python -m bench.soak --sessions 20 --seconds 60 [--url http://127.0.0.1:8501]

Each session opens Review on its own language and then sets "Score from" to a sequence of its
own values; after each change the page must show exactly the row count DuckDB gives for that
session's filters, and its URL must carry that session's language and minimum (a session
seeing another's filters, an exception or a console error counts as an error). Exit 1 when
there was any error. Times are browser-measured (fill → updated count shown), so they include
rendering in headless Chromium on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from bench.browser import LAUNCH, free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent
COLLECTION = "xhotpotqa"


def expected_counts(languages: list[str], minimums: list[int]) -> dict[tuple[str, int], int]:
    """Ground truth from the query layer itself, outside the server."""
    from judgescope.wiring import get_catalog

    store = get_catalog().store(COLLECTION)
    out = {}
    for lang in languages:
        for low in minimums:
            frame = store.run("audit_review_count", languages=[lang], units=[], origins=[],
                              run_groups=[], systems=[], min_score=float(low), max_score=100.0, q="")
            out[(lang, low)] = int(frame["rows"].iloc[0])
    return out


def languages() -> list[str]:
    from judgescope.wiring import get_catalog

    frame = get_catalog().store(COLLECTION).run("audit_filter_values")
    return sorted(frame["target_language"].dropna().unique())


def rss_mb(pid: int) -> float:
    """Resident memory of the server process (Linux /proc), MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int | None) -> float:
    """CPU seconds (user + system) the server process has used so far."""
    if not pid:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "judgescope.web.serve", "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port)],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    if wait_healthy(base, proc, 60):
        return proc, base
    proc.kill()
    raise RuntimeError("streamlit did not become healthy")


async def _shown(page, text: str, timeout_ms: int = 120_000) -> None:
    await page.wait_for_function(
        """t => { const m = document.querySelector('[data-testid="stMainBlockContainer"]');
                  return m && m.innerText.includes(t)
                         && !document.querySelector('[data-testid="stStatusWidget"]'); }""",
        arg=text, timeout=timeout_ms)


async def session(browser, base: str, i: int, lang: str, minimums: list[int], truth: dict,
                  until: float, out: dict) -> None:
    """One user: Review on its own language, then its own sequence of minimum scores."""
    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    page.set_default_timeout(120_000)  # many renderers on few cores: slow is not wrong
    console: list[str] = []
    page.on("pageerror", lambda e: console.append(str(e)))
    page.on("console", lambda m: console.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    try:
        t0 = time.monotonic()
        await page.goto(f"{base}/review?collection={COLLECTION}&lang={lang}",
                        wait_until="domcontentloaded")
        await _shown(page, f"{truth[(lang, 0)]:,} rows match", 120_000)
        out["times"].append(time.monotonic() - t0)
        k = i
        while k == i or time.monotonic() < until:  # at least one change per session
            low = minimums[k % len(minimums)]
            k += 1
            box = page.get_by_label("Score from")
            t0 = time.monotonic()
            await box.fill(str(low))
            await box.press("Enter")
            want = f"{truth[(lang, low)]:,} rows match"
            try:
                await _shown(page, want)
            except Exception:
                shown = await page.locator('[data-testid="stMainBlockContainer"]').inner_text()
                out["errors"].append(f"session {i} ({lang}, min {low}): wanted {want!r}; page: "
                                     + next((ln for ln in shown.splitlines() if "rows match" in ln), "?"))
                continue
            out["times"].append(time.monotonic() - t0)
            seen = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
            if seen.get("lang") != [lang] or float(seen.get("min", ["nan"])[0]) != low:
                out["errors"].append(f"session {i} ({lang}, min {low}): URL shows {seen}")
            if await page.locator('[data-testid="stException"]').count():
                out["errors"].append(f"session {i}: exception on the page")
    except Exception as err:  # a session that cannot even start is an error, not a crash
        out["errors"].append(f"session {i}: {type(err).__name__}: {str(err).splitlines()[0][:200]}")
    finally:
        out["errors"].extend(f"session {i}: console: {c[:200]}" for c in console)
        await context.close()


async def _run(base: str, sessions: int, seconds: float, truth: dict, langs: list[str],
               minimums: list[int], pid: int | None) -> dict:
    from playwright.async_api import async_playwright

    out = {"times": [], "errors": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(**LAUNCH)
        # Warm-up: one session loads the data and fills the caches; then memory is measured.
        await session(browser, base, 0, langs[0], minimums, truth, 0, {"times": [], "errors": out["errors"]})
        out["rss_before_mb"] = rss_mb(pid) if pid else float("nan")
        out["cpu_before_s"] = cpu_s(pid)
        until = time.monotonic() + seconds
        await asyncio.gather(*(session(browser, base, i, langs[i % len(langs)], minimums, truth,
                                       until, out) for i in range(sessions)))
        await browser.close()
    return out


def soak(sessions: int = 20, seconds: float = 60, url: str | None = None) -> dict:
    """Run the soak; return the figures (errors, loads, p50/p95 seconds, server RSS in MB)."""
    langs = languages()
    minimums = list(range(60, 100, 3))  # where counts differ between languages
    truth = expected_counts(langs, [0] + minimums)
    proc, base = (None, url) if url else start_server()
    try:
        pid = proc.pid if proc else None
        out = asyncio.run(_run(base, sessions, seconds, truth, langs, minimums, pid))
        after = rss_mb(pid) if pid else float("nan")
        cpu = cpu_s(pid) - out["cpu_before_s"]
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=10)
    times = sorted(out["times"])
    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))] if times else float("nan")

    return {"sessions": sessions, "seconds": seconds, "updates": len(times),
            "errors": out["errors"], "p50_s": pct(0.50), "p95_s": pct(0.95),
            "mean_s": statistics.fmean(times) if times else float("nan"),
            "rss_before_mb": out["rss_before_mb"], "rss_after_mb": after,
            "server_cpu_per_view_s": cpu / len(times) if times else float("nan")}


def report(fig: dict) -> str:
    lines = [f"sessions {fig['sessions']} × {fig['seconds']:g} s: {fig['updates']} views checked, "
             f"{len(fig['errors'])} errors",
             f"time to the updated view: p50 {fig['p50_s']:.2f} s, p95 {fig['p95_s']:.2f} s, "
             f"mean {fig['mean_s']:.2f} s (browser-measured, rendering included); server CPU "
             f"{fig['server_cpu_per_view_s']:.3f} s per view",
             f"server RSS: {fig['rss_before_mb']:.0f} MB before (after warm-up), "
             f"{fig['rss_after_mb']:.0f} MB after"]
    lines += [f"  error: {e}" for e in fig["errors"][:20]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--url", help="an already running server (RSS is then not measured)")
    args = parser.parse_args(argv)
    fig = soak(args.sessions, args.seconds, args.url)
    print(report(fig))
    return 1 if fig["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
