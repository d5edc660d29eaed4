"""The app served for the browser tests: `python -m judgescope.web.serve` on a free localhost
port, waited on until healthy, stopped afterwards (one copy for every browser test module)."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_healthy(proc: subprocess.Popen, base: str, log: Path, seconds: float) -> None:
    """Wait for the server's health check; fail with its log's tail if it exits or is late."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if urllib.request.urlopen(f"{base}/_stcore/health", timeout=1).status == 200:
                return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("the server did not start: " + log.read_text()[-2000:])
            time.sleep(0.2)


@contextmanager
def serving(log: Path, drop: tuple[str, ...] = (), **env_vars: str):
    """The base URL of a server whose environment has env_vars set and `drop` removed; its
    output goes to `log` (a test may check it for tracebacks)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_vars)
    for name in drop:
        env.pop(name, None)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "judgescope.web.serve", "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_until_healthy(proc, base, log, 60)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
