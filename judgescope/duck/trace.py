"""Which named queries ran, recorded where they run (Store.run), for "How is this computed?".

As Datasette's tracer does, a context variable holds the current trace: a page run opens one,
every Store.run inside it notes its query, and nothing outside it (the sidebar, another
session's thread) mixes in. A cached computation replays the names it noted when it is served
from the cache (web/context.traced_cache), so a cache hit explains itself like a first run.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_CURRENT: ContextVar[list[str] | None] = ContextVar("judgescope_query_trace", default=None)


@contextmanager
def traced() -> Iterator[list[str]]:
    """Collect, in first-run order and once each, the queries run inside the block."""
    names: list[str] = []
    token = _CURRENT.set(names)
    try:
        yield names
    finally:
        _CURRENT.reset(token)


def note(name: str) -> None:
    """Store.run's hook: add a query to the innermost open trace (no-op outside one)."""
    names = _CURRENT.get()
    if names is not None and name not in names:
        names.append(name)


def replay(names) -> None:
    """Add names recorded by an earlier (cached) computation to the open trace."""
    for name in names:
        note(name)


def current() -> list[str]:
    """The names noted so far in the innermost open trace (empty outside one)."""
    return list(_CURRENT.get() or [])
