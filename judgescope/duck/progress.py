"""Progress of a first open: the stages of validation and of the derived tables, the row groups
of the stage running, and an estimate of the time left, told to whoever listens (a bar in the
browser, judgescope/web/sidebar.py; tqdm or plain lines on the CLI, cli_reporter below).

The builders (ingest/build.py, sources/derived.py) mark their stages with `stage(...)`; with no
listener that costs nothing. A listener is installed for the current thread with `reporting`.
Within a stage, DuckDB's own progress of the running statement (query_progress, 0–100 %) is
polled from a helper thread, so a long sorted write moves the bar while it runs.

Definitional choices, stated: stages are weighted by their typical share of a first open
(STAGE_WEIGHTS, from the profile in bench/results.md: the sorted write dominates validation,
the verification join the derived tables); stages are learnt as each
builder starts (a dataset's validation declares its stages, then each derived table), so the
estimate covers the stages known so far. Time left = elapsed × (weight left ÷ weight done),
given only after MIN_ESTIMATE_S and once some weight is done. A stage's row groups are its
rows (those validation writes; a derived table's input rows) ÷ the row-group size, times
DuckDB's fraction done.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable

# Profiled at 1M rows (issue #28 item 2): a Parquet file is read where the sorted write reads it,
# so the sorted write carries validation (4.2 s of the audit's 6.4 s); a CSV or JSONL file is still
# parsed in the read.
STAGE_WEIGHTS = {"read": 1.0, "check": 1.0, "sorted write": 4.0, "counts": 0.5, "score summaries": 0.5,
                 "ledger": 0.5, "excluded rows": 0.5, "hash verification": 2.0}
DEFAULT_WEIGHT = 1.0
MIN_ESTIMATE_S = 2.0
POLL_S = 0.25
GROUP_ROWS = 30_720  # = build.ROW_GROUP_ROWS (a test checks they agree; build imports this module)


@dataclass(frozen=True)
class Event:
    stage: str  # what is computed now ("bench_audit: sorted write")
    index: int  # 1-based number of this stage among those known
    stages: int  # stages known so far
    fraction: float  # of the whole (0–1), by weight
    elapsed: float  # seconds since the first stage began
    remaining: float | None  # estimated seconds left, None before there is a basis
    row_groups: tuple[int, int] | None  # (written, of) for a stage that writes rows
    done: bool = False  # the last event: every known stage finished

    def text(self) -> str:
        """One line: 'Stage 3 of 9 · bench_audit: sorted write · row group 12 of 33 · about 40 s left'."""
        if self.done:
            return f"Opened in {_duration(self.elapsed)} ({self.stages} stages)"
        parts = [f"Stage {self.index} of {self.stages}", self.stage]
        if self.row_groups:
            parts.append(f"row group {self.row_groups[0]:,} of {self.row_groups[1]:,}")
        if self.remaining is not None:
            parts.append(f"about {_duration(self.remaining)} left")
        return " · ".join(parts)


def _duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"


class Tracker:
    """Stages declared as builders start, those running (two datasets are validated at once:
    catalog.Catalog.collection_datasets), and DuckDB's progress within each."""

    def __init__(self, listener: Callable[[Event], None], attach: Callable[[threading.Thread], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, poll: float = POLL_S):
        self.listener, self.attach, self.clock, self.poll = listener, attach, clock, poll
        self.names: list[str] = []
        self.weights: list[float] = []
        self.owners: list[int] = []  # the thread that declared each stage
        self.done: set[int] = set()  # stages finished (or skipped by their builder)
        self.running: dict[int, tuple[float, int | None]] = {}  # index → (fraction, rows)
        self.shown: int | None = None  # the stage begun last; when it ends, the latest declared still running
        self.start: float | None = None
        self.lock = threading.Lock()

    def declare(self, names: list[str], prefix: str = "") -> None:
        """Stages a builder is about to run, in order (added after those already known)."""
        with self.lock:
            for name in names:
                self._add(f"{prefix}{name}", name)

    def _add(self, full: str, name: str) -> int:
        self.names.append(full)
        self.weights.append(STAGE_WEIGHTS.get(name, DEFAULT_WEIGHT))
        self.owners.append(threading.get_ident())
        return len(self.names) - 1

    def event(self, done: bool = False) -> Event:
        """`index`: the stages begun so far (finished, skipped or running), so it only grows, and
        each stage begun raises it; `stage` and `row_groups`: those of `shown`."""
        with self.lock:
            now = self.clock()
            elapsed = 0.0 if self.start is None else now - self.start
            total = sum(self.weights) or 1.0
            weight_done = (sum(self.weights[i] for i in self.done)
                           + sum(self.weights[i] * part for i, (part, _) in self.running.items()))
            fraction = 1.0 if done else min(1.0, weight_done / total)
            remaining = (elapsed * (total - weight_done) / weight_done
                         if not done and weight_done > 0 and elapsed >= MIN_ESTIMATE_S else None)
            groups = None
            if self.shown in self.running:
                part, rows = self.running[self.shown]
                if rows:  # rows: the stage's row groups
                    groups = (min(rows, int(part * rows)), rows)
            name = self.names[self.shown] if self.shown is not None else ""
            begun = len(self.done | set(self.running))
            return Event(name, max(1, min(begun, len(self.names))), len(self.names), fraction, elapsed,
                         remaining, groups, done)

    def _tell(self, done: bool = False) -> None:
        self.listener(self.event(done))

    @contextmanager
    def stage(self, name: str, con=None, rows: int | None = None, prefix: str = ""):
        """Run one declared stage (declared now if it was not); `con`: the DuckDB connection whose
        running statement's progress moves the bar; `rows`: rows it writes (row groups shown)."""
        rows = row_groups(rows)
        full = f"{prefix}{name}"
        me = threading.get_ident()
        with self.lock:
            if self.start is None:
                self.start = self.clock()
            open_ = [i for i, n in enumerate(self.names)
                     if n == full and i not in self.done and i not in self.running]
            index = open_[0] if open_ else self._add(full, name)
            # a stage its own builder declared before this one and skipped (nothing to do) counts
            # as finished; another builder's, running meanwhile, does not
            self.done |= {j for j in range(index) if self.owners[j] == me and j not in self.running}
            self.running[index] = (0.0, rows)
            self.shown = index
        self._tell()
        stop = threading.Event()
        poller = None
        if con is not None:
            poller = threading.Thread(target=self._poll, args=(con, stop, index), daemon=True,
                                      name="judgescope-progress")
            if self.attach:
                self.attach(poller)
            poller.start()
        try:
            yield
        finally:
            stop.set()
            if poller is not None:
                poller.join()
            with self.lock:
                self.running.pop(index, None)
                self.done.add(index)
                if self.shown == index and self.running:
                    self.shown = max(self.running)

    def _poll(self, con, stop: threading.Event, index: int) -> None:
        while not stop.wait(self.poll):
            try:
                pct = con.query_progress()
            except Exception:  # the connection closed under us: the stage is ending
                return
            if pct is None or pct < 0:
                continue
            with self.lock:
                if index not in self.running:
                    return
                self.running[index] = (min(1.0, pct / 100.0), self.running[index][1])
            try:
                self._tell()
            except BaseException:  # noqa: BLE001 the listener is gone (a browser session rerun or
                return  # closed): the build goes on without updates from this thread

    def finish(self) -> None:
        with self.lock:
            if self.start is None:  # nothing was built: everything came from the cache
                return
            self.done = set(range(len(self.names)))
            self.running.clear()
        self._tell(done=True)


def row_groups(rows: int | None) -> int | None:
    """Row groups of a stage writing `rows` rows (ingest/build.py's ROW_GROUP_ROWS each)."""
    return max(1, math.ceil(rows / GROUP_ROWS)) if rows else None


_CURRENT: ContextVar[Tracker | None] = ContextVar("judgescope_progress", default=None)


@contextmanager
def reporting(listener: Callable[[Event], None], attach=None, clock=time.monotonic, poll: float = POLL_S):
    """Tell `listener` of every stage built in this thread inside the block (then a last event
    with done=True, if anything was built)."""
    tracker = Tracker(listener, attach, clock, poll)
    token = _CURRENT.set(tracker)
    try:
        yield tracker
        tracker.finish()
    finally:
        _CURRENT.reset(token)


def attacher() -> Callable[[threading.Thread], None] | None:
    """The installed listener's way to let another thread report to it (the web's script
    context), or None: a builder that starts threads of its own attaches them before starting."""
    tracker = _CURRENT.get()
    return tracker.attach if tracker is not None else None


def declare(names: list[str], prefix: str = "") -> None:
    tracker = _CURRENT.get()
    if tracker is not None:
        tracker.declare(names, prefix)


@contextmanager
def stage(name: str, con=None, rows: int | None = None, prefix: str = ""):
    """A stage of a build: reported when a listener is installed, else nothing."""
    tracker = _CURRENT.get()
    if tracker is None:
        yield
        return
    if con is not None:
        try:  # DuckDB reports a statement's progress only with its progress bar on (never printed)
            con.execute("SET enable_progress_bar = true")
            con.execute("SET enable_progress_bar_print = false")
        except Exception:  # a locked configuration: stages only, no progress within
            con = None
    with tracker.stage(name, con, rows, prefix):
        yield


class CliReporter:
    """A first open's progress on stderr: a tqdm bar on a terminal; piped, one plain line per
    stage (and the last), so logs stay readable."""

    def __init__(self, file=None):
        self.file = file or getattr(sys.stderr, "raw", sys.stderr)
        isatty = getattr(self.file, "isatty", None)
        self.bar = None
        self.last_stage = None
        if isatty and isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=1000, desc="first open", file=self.file, leave=True,
                            bar_format="{desc} {percentage:3.0f}%|{bar}| {postfix}")

    def __call__(self, event: Event) -> None:
        if self.bar is not None:
            self.bar.n = int(event.fraction * 1000)
            self.bar.set_postfix_str(event.text(), refresh=True)
            if event.done:
                self.bar.close()
            return
        key = (event.index, event.done)
        if key != self.last_stage:  # a new stage (or the end): one line
            self.last_stage = key
            print(event.text(), file=self.file, flush=True)


def cli_reporter(file=None):
    """`with progress.cli_reporter():` around a command's first open."""
    return reporting(CliReporter(file))
