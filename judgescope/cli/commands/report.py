"""Write SUMMARY.json, BY_LANGUAGE.csv and BOOTSTRAP.json of a judge audit (the pages' numbers),
and BY_SYSTEM.json when the audit has a `system` column (audit/systems.py).

With --out FOLDER the files are written there (and the folder named); without it the same
content is printed to stdout as one JSON document ({"summary", "by_language", "bootstrap"}, and
"by_system"), so nothing lands in the current folder unasked. Exit 0 when every row was used (or excluded as the
manifest declares), 1 when rows were excluded otherwise (the tables are still written), 2 when
the audit is unusable."""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from judgescope import defaults
from judgescope.cli import (add_source_arguments, load_source, out_problem, print_ledger, resamples_arg,
                            seed_arg)
from judgescope.ingest.manifest import SourceError

INTERVALS_VIEW = "audit_default_intervals"  # audit/interval_tables.VIEW, named here so the parser stays light

if TYPE_CHECKING:
    import pandas as pd

def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p, "audit")
    p.add_argument("--out", help="folder for SUMMARY.json, BY_LANGUAGE.csv and BOOTSTRAP.json "
                   "(default: print them to stdout as one JSON document)")
    p.add_argument("--seed", type=seed_arg, default=defaults.SEED, help="bootstrap seed")
    p.add_argument("--resamples", type=resamples_arg, default=defaults.RESAMPLES,
                   help="bootstrap resamples")


def _clean(value):
    """JSON-ready scalar: numpy → Python, NaN → None; floats keep full precision."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item"):
        value = value.item()
        return None if isinstance(value, float) and math.isnan(value) else value
    return value


def _record(row, keys) -> dict:
    return {k: _clean(row[k]) for k in keys}


def summary(run, counts=None) -> dict:
    """SUMMARY.json content from the same queries and functions the Distributions page uses
    (`counts`: summary.score_counts(run), when the caller read them)."""
    from judgescope.audit import summary as audit
    counts = audit.score_counts(run) if counts is None else counts
    units = audit.unit_summary(counts, shares=False)
    per_unit = units[units.unit != audit.OVERALL]
    overall = units[units.unit == audit.OVERALL].iloc[0]
    origins = run("audit_origin_counts").groupby("score_origin")["n"].sum()
    keys = ["n", "mean", "median", "sd"] + audit.threshold_columns()
    copies = run("audit_exact_copy_counts").groupby("unit")[["hashed", "exact_copies"]].sum()
    return {
        "rows": int(audit.count_rows(counts)["n"].sum()),
        "by_unit": {r["unit"]: _record(r, keys) for _, r in per_unit.iterrows()},
        "overall": _record(overall, ["n", "mean"]),
        "score_origin": {str(k): int(v) for k, v in origins.sort_values(ascending=False).items()},
        # None when the unit's rows carry no hashes: an exact copy cannot be told apart then.
        "exact_copies": {u: (int(copies.exact_copies[u]) if copies.hashed[u] else None)
                         for u in per_unit.unit},
    }


def by_language(run, counts=None) -> pd.DataFrame:
    from judgescope.audit import summary as audit
    return audit.language_summary(audit.score_counts(run) if counts is None else counts)


def _intervals(frame: pd.DataFrame) -> dict:
    """One interval and the method that drew it (exact counts, or score bins with their bound)."""
    return {"mean": _clean(frame["mean"]), "low": _clean(frame["low"]), "high": _clean(frame["high"]),
            "method": frame["method"]}


class Progress:
    """Bootstrap progress on stderr: a tqdm bar on a terminal; piped, plain lines
    ('bootstrap (D distinct scores, R resamples): k/N groups'), at most about ten and the last.
    A group costs at most stats.MAX_CATEGORIES draws per resample (float scores are binned, and
    drawn over at most stats.DRAW_BINS bins), so this matters only with many groups."""

    LINES = 10

    def __init__(self, total: int, distinct: int, resamples: int, file=None):
        self.total, self.done, self.file = total, 0, file or getattr(sys.stderr, "raw", sys.stderr)
        self.head = f"bootstrap ({distinct:,} distinct scores, {resamples:,} resamples)"
        self.lock = threading.Lock()
        self.bar = None
        isatty = getattr(self.file, "isatty", None)
        if isatty and isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=self.head, unit="group", file=self.file, leave=True)
        self.every = max(1, -(-total // self.LINES))

    def _line(self) -> None:
        print(f"{self.head}: {self.done:,}/{self.total:,} groups", file=self.file, flush=True)

    def step(self) -> None:
        with self.lock:
            self.done += 1
            if self.bar is not None:
                self.bar.update(1)
            elif self.done % self.every == 0 or self.done == self.total:
                self._line()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.done % self.every and self.done != self.total:
            self._line()


GROUPINGS = (["unit"], [], ["target_language", "unit"], ["target_language"])


def bootstrap(run, resamples: int, seed: int, stored: bool = False, counts=None) -> dict:
    """BOOTSTRAP.json: the interval of each unit, of the whole audit, of each language × unit
    and of each language. `stored`: the audit's default intervals were stored at its first open
    (audit/interval_tables.py); at the default resamples and seed its unit, overall,
    language × unit and language rows are read from them (the same function of the same counts,
    so the same numbers); what is not stored is drawn, every group once, in one pool.
    `counts`: as summary's."""
    from judgescope.audit import interval_tables, summary as audit

    counts = audit.score_counts(run) if counts is None else counts
    tables, todo = interval_tables.split(run, GROUPINGS, resamples, seed, stored)
    rows = audit.count_rows(counts)
    total = sum(rows.groupby(GROUPINGS[i]).ngroups if GROUPINGS[i] else 1 for i in todo)
    progress = Progress(total, audit.distinct_scores(counts), resamples)
    drawn = audit.bootstrap_tables(counts, [GROUPINGS[i] for i in todo], resamples, seed,
                                   on_group=progress.step, method=True)
    tables.update(zip(todo, drawn))
    progress.close()
    units, overall, langs, whole = (tables[i] for i in range(len(GROUPINGS)))
    out = {"method": "percentile", "detail": audit.interval_rule(counts), "resamples": resamples,
           "seed": seed, "level": audit.LEVEL,
           "by_unit": {r["unit"]: _intervals(r) for _, r in units.iterrows()},
           "overall": _intervals(overall.iloc[0]), "by_language": {}}
    for _, r in langs.iterrows():
        out["by_language"].setdefault(r["target_language"], {})[r["unit"]] = _intervals(r)
    for _, r in whole.iterrows():
        out["by_language"][r["target_language"]][audit.OVERALL] = _intervals(r)
    return out


def report_tables(run, resamples: int, seed: int, by_system: bool, stored: bool = False) -> tuple:
    """SUMMARY, BY_LANGUAGE, BOOTSTRAP and BY_SYSTEM (None without a system column: only an
    audit with one gets the per-system breakdown) from a Store's run, the score counts read
    once for the three; bench's report phase times exactly this."""
    from judgescope.audit import summary as audit, systems
    counts = audit.score_counts(run)
    return (summary(run, counts), by_language(run, counts), bootstrap(run, resamples, seed, stored, counts),
            systems.by_system(audit.score_counts(run, "system"), resamples, seed) if by_system else None)


def run(args) -> int:
    from judgescope.wiring import open_store
    from judgescope.duck import progress
    problem = args.out and out_problem(args.out, folder=True)
    if problem:
        raise SourceError(problem)
    with progress.cli_reporter():  # a first open's stages on stderr (nothing when cached)
        loaded = load_source(args.audit, "judge_audit", args.config, args.split, args.form)
        if not loaded.report["rows_used"]:
            raise SourceError(f"no usable rows ({loaded.report['rows_excluded']:,} excluded; "
                              "see `judgescope validate`)", dataset=loaded.spec.name)
        if args.resamples < 1:
            raise SourceError("--resamples must be at least 1")
        store = open_store({"audit": loaded})
    *tables, per_system = report_tables(store.run, args.resamples, args.seed,
                                        "system" not in loaded.report["columns_missing"],
                                        store.has(INTERVALS_VIEW))
    if per_system:
        per_system["reviewers"] = _reviewers_by_system(store.run, loaded.spec.name)
    if args.out is None:  # stdout holds the JSON; the ledger goes to stderr
        print(json.dumps({"summary": tables[0],
                          "by_language": json.loads(tables[1].to_json(orient="records")),
                          "bootstrap": tables[2]} | ({"by_system": per_system} if per_system else {}),
                         indent=1, ensure_ascii=False, allow_nan=False))
        return print_ledger(loaded, file=sys.stderr)
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    _write(out / "SUMMARY.json", tables[0])
    tables[1].to_csv(out / "BY_LANGUAGE.csv", index=False)
    _write(out / "BOOTSTRAP.json", tables[2])
    if per_system:
        _write(out / "BY_SYSTEM.json", per_system)
    print(f"wrote SUMMARY.json, BY_LANGUAGE.csv, BOOTSTRAP.json{', BY_SYSTEM.json' if per_system else ''} "
          f"to {out.resolve()} "
          f"({loaded.report['rows_used']:,} rows of {loaded.spec.name})")
    return print_ledger(loaded)


def _reviewers_by_system(run, dataset: str) -> dict | None:
    """The judge-right share per system from the reviews log beside the app, or None."""
    from judgescope.reviews import database, verdict_log as reviews, verdict_stats as reviews_stats
    from judgescope.audit import systems
    try:
        latest = reviews.latest(dataset=dataset)
    except (database.ReviewStoreUnavailable, database.ReviewStoreBusy):
        return None
    if latest.empty:
        return None
    ids = sorted(latest.judge_record_id.astype(str).unique())
    frame = reviews_stats.judge_share_by_system(latest, run("audit_record_systems", ids=ids))
    return {"method": systems.REVIEWED_METHOD,
            "rows": json.loads(frame.to_json(orient="records"))}


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                    encoding="utf-8")
