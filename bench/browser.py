"""What the browser benchmarks (soak, coldstart) and the browser tests (tests/chromium.py,
tests/browser_server.py) share: Debian's chromium and the options it is launched with, a free
localhost port, and the wait for a started server's health check."""

from __future__ import annotations

import socket
import time
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# playwright's chromium.launch(**LAUNCH), sync or async: headless, with the flags above.
LAUNCH = {"executable_path": CHROMIUM, "headless": True, "args": CHROME_ARGS}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base: str, proc, seconds: float, poll: float = 0.2) -> bool:
    """True once `base`/_stcore/health answers 200; False if the server process exits first or
    `seconds` pass."""
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(f"{base}/_stcore/health", timeout=1).status == 200:
                return True
        except OSError:
            pass
        time.sleep(poll)
    return False
