"""Timing and memory helpers: warm repeats, median and p95, peak RSS of this process."""

from __future__ import annotations

import resource
import sys
import time

import numpy as np


def timed(fn, repeats: int, warmup: int = 1) -> list[float]:
    """Wall-clock seconds of `repeats` calls after `warmup` untimed calls (warm caches)."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def summary(seconds: list[float]) -> dict:
    """Median, p95 (linear interpolation; with 5 runs p95 is near the slowest) and all runs, in ms."""
    arr = np.asarray(seconds, dtype=float) * 1000
    return {"median_ms": float(np.median(arr)), "p95_ms": float(np.percentile(arr, 95)),
            "runs_ms": [round(float(x), 2) for x in arr]}


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB.

    Linux: VmHWM of this address space. ru_maxrss would do, except that Linux carries it over
    fork + exec, so a phase started from a big parent would report the parent's peak.
    """
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def children_peak_rss_mb() -> float:
    """Peak RSS of the largest waited-for child process, in MB."""
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024
