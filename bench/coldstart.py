"""Cold start: `python -m judgescope.web.serve` (what `make run` and the Dockerfile start) → first page
rendered in headless Chromium (caches built).

The browser is launched before the clock starts (it is not part of the app); the clock runs from
spawning the server to the page's title being drawn with Streamlit's running indicator gone,
the same readiness test as tests/chromium.py (wait_until_drawn). Each start is a new server process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.browser import CHROMIUM, LAUNCH, free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent


def available() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return Path(CHROMIUM).exists()


def _vm_hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _wait_healthy(base: str, proc, timeout: float) -> float:
    """The time (perf_counter) the server answered its health check."""
    if wait_healthy(base, proc, timeout, poll=0.05):
        return time.perf_counter()
    if proc.poll() is not None:
        raise RuntimeError("streamlit exited: " + proc.stdout.read().decode()[-2000:])
    raise RuntimeError("streamlit did not become healthy")


def one_start(browser, env: dict, timeout: float = 600) -> dict:
    """Seconds to healthy and to the first rendered page, and the server's peak RSS."""
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "judgescope.web.serve", "--server.headless",
                             "true", "--server.address", "127.0.0.1", "--server.port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    context = None
    try:
        base = f"http://127.0.0.1:{port}"
        healthy = _wait_healthy(base, proc, timeout) - t0
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.goto(base + "/", wait_until="domcontentloaded")
        ms = int(timeout * 1000)
        page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=ms)
        page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')""",
                               timeout=ms)
        rendered = time.perf_counter() - t0
        return {"healthy_s": healthy, "rendered_s": rendered, "server_peak_rss_mb": _vm_hwm_mb(proc.pid)}
    finally:
        if context:
            context.close()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def measure(manifest: Path | None, cache: Path, repeats: int, warmup: int = 1) -> dict:
    """Median and every run of `repeats` cold starts after `warmup` starts that build the caches."""
    from playwright.sync_api import sync_playwright

    env = dict(os.environ, PYTHONPATH=str(ROOT), JUDGESCOPE_CACHE=str(cache))
    env.pop("JUDGESCOPE_SOURCES", None)
    if manifest:
        env["JUDGESCOPE_SOURCES"] = str(manifest)
    load = os.getloadavg()
    with sync_playwright() as p:
        browser = p.chromium.launch(**LAUNCH)
        try:
            for _ in range(warmup):
                one_start(browser, env)
            runs = [one_start(browser, env) for _ in range(repeats)]
        finally:
            browser.close()
    rendered = sorted(r["rendered_s"] for r in runs)
    return {"runs": runs, "median_s": rendered[len(rendered) // 2], "max_s": rendered[-1], "load": load,
            "server_peak_rss_mb": max((r["server_peak_rss_mb"] or 0) for r in runs)}
