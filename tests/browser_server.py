"""The app served for the browser tests: `python -m judgescope.web.serve` on a free localhost
port, waited on until healthy, stopped afterwards (one copy for every browser test module);
`started` does the same for any command that serves the app (`judgescope open`, an installed
wheel's `judgescope demo`)."""

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.browser import free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent


__all__ = ["free_port", "serving", "started", "wait_until_healthy"]


def wait_until_healthy(proc: subprocess.Popen, base: str, log: Path, seconds: float) -> None:
    """Wait for the server's health check; fail with its log's tail if it exits or is late."""
    if not wait_healthy(base, proc, seconds):
        proc.kill()
        pytest.fail("the server did not start: " + log.read_text()[-2000:])


@contextmanager
def started(argv: list[str], port: int, log: Path, cwd: Path, env: dict, seconds: float = 60):
    """The base URL of the server `argv` starts on 127.0.0.1:`port`, once healthy; its output
    goes to `log`; it is stopped afterwards."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(proc, f"http://127.0.0.1:{port}", log, seconds)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def serving(log: Path, drop: tuple[str, ...] = (), **env_vars: str):
    """The base URL of a server whose environment has env_vars set and `drop` removed; its
    output goes to `log` (a test may check it for tracebacks)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_vars)
    for name in drop:
        env.pop(name, None)
    with started([sys.executable, "-m", "judgescope.web.serve", "--server.headless", "true",
                  "--server.address", "127.0.0.1", "--server.port", str(port)], port, log, ROOT, env) as base:
        yield base
